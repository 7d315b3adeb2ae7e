#!/usr/bin/env bash
# The GEMM benchmark, run on the GPU machine in one go: our bundles (compiled
# elsewhere by bench/compile-gemm.sh), cuBLAS and Triton, all timed in one
# process by bench/gemm_peers.py (ours launched from the bundles through
# tile.runtime), launch by launch in turn so that every kernel meets the
# same clocks (the GPU lowers its clock at its power cap under sustained
# load: bench/interleave.py), each launch's time the span of its kernels on
# the GPU as CUPTI records them (no host launch time: bench/interleave.py's
# TILE_BENCH_TIMER), then one table of TFLOP/s and ratios.
#   [SHAPES=bench/llama_shapes.txt] bench/gemm.sh BUNDLE_DIR [bf16|f32]
# Every launch starts from a cold L2, so that decode shapes are not timed
# from a warm cache. tile-run checks each bundle against its reference
# (status, rel_err); the table's ratios are of the median launches, and
# p10/cuBLAS of the 10th percentiles (nearest the uncapped clock).
# The checks run over every bundle in BUNDLE_DIR: the Llama sweep's 112
# (default and tuned) took over 500 s on the H200, past one device command
# (bench/RESULTS.md, session 30), so compile it into two folders of half
# the shapes each (SHAPES= a file of each half) and run them one at a time.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$1"
out_type="${2:-bf16}"
shapes="${SHAPES:-$root/bench/gemm_shapes.txt}"
log="${OUT:-/tmp}/gemm-bench.log"
: >"$log"
source "$root/bench/runner-common.sh"
results="${OUT:-/tmp}/gemm-results.jsonl"
: >"$results"
for b in "$dir"/*.tilebundle; do
  name="$(basename "$b" .tilebundle)"  # gemm_<shape>_<out>.<path>
  shape="${name#gemm_}"; shape="${shape%%_*}"
  check_row "tile.${name#*.}" "$shape" "$b" >>"$results"
done
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 \
  python3 "$root/bench/gemm_peers.py" "$shapes" "$out_type" "$dir" >>"$results" 2>>"$log" || tail -20 "$log"
launch_path_note
python3 - "$results" <<'PY'
import json, math, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:  # tile-run's check and the timing of the same path merge
    by.setdefault(r["shape"], {}).setdefault(r["peer"], {}).update(r)
print(f"{'shape':<18}{'path':>8}{'tile TF/s':>11}{'status':>8}{'rel_err':>11}{'cuBLAS':>9}{'Triton':>9}{'tile/cuBLAS':>13}{'tile/Triton':>13}{'p10/cuBLAS':>12}")
nan = float("nan")
for shape, p in by.items():
    c = p.get("cublas", {}); tr = p.get("triton", {})
    cf = c.get("tflops", nan); trf = tr.get("tflops", nan)
    for peer in sorted(k for k in p if k.startswith("tile")):
        t = p[peer]
        tf = t.get("tflops", nan)
        p10 = c["p10_us"] / t["p10_us"] if "p10_us" in t and "p10_us" in c else nan
        print(f"{shape:<18}{peer[5:]:>8}{tf:>11.1f}{str(t.get('status')):>8}{str(t.get('rel_err')):>11}{cf:>9.1f}{trf:>9.1f}{tf/cf:>13.3f}{tf/trf:>13.3f}{p10:>12.3f}")
# Per path: geometric mean and the lowest of tile/cuBLAS over the shapes.
ratios = {}
for shape, p in by.items():
    cf = p.get("cublas", {}).get("tflops")
    for peer in (k for k in p if k.startswith("tile")):
        tf = p[peer].get("tflops")
        if cf and tf and p[peer].get("status") == "PASS":
            ratios.setdefault(peer[5:], []).append((tf / cf, shape))
for path, rs in sorted(ratios.items()):
    gm = math.exp(sum(math.log(r) for r, _ in rs) / len(rs))
    low = min(rs)
    print(f"{path}: tile/cuBLAS geomean {gm:.3f} over {len(rs)} shapes, lowest {low[0]:.3f} ({low[1]})")
print("peer errors:", {f"{r['peer']}:{r['shape']}": round(r["rel_err"], 5) if "rel_err" in r else r.get("error")
                       for r in rows if r["peer"] in ("cublas", "triton")})
PY
