#!/usr/bin/env bash
# The GEMM benchmark, run on the GPU machine in one go: our bundles (compiled
# elsewhere by bench/compile-gemm.sh) through tile-run, cuBLAS and Triton
# through bench/gemm_peers.py, then one table of TFLOP/s and ratios.
#   [SHAPES=bench/llama_shapes.txt] bench/gemm.sh BUNDLE_DIR [bf16|f32]
# Every kernel starts from a cold L2 (tile-run --flush-l2; do_bench clears it
# for the peers), so that decode shapes are not timed from a warm cache.
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
  line=$("$runner" "$b" --warmup 20 --repeats 100 --flush-l2 2>>"$log" | tee -a "$log" | grep '^RESULT')
  echo "$line" | python3 -c '
import json, sys
f = dict(kv.split("=", 1) for kv in sys.stdin.read().split()[2:])
name = sys.argv[1]
shape = name.split("_")[1]
chip = name.rsplit(".", 1)[1] if "." in name else "sm_90a"
print(json.dumps({"peer": "tile." + chip, "shape": shape, "status": f.get("status"),
                  "rel_err": f.get("rel_err"), "time_us": f.get("time_us"),
                  "tflops": f.get("tflops")}))' "$(basename "$b" .tilebundle)" >>"$results"
done
PYTHONUNBUFFERED=1 python3 "$root/bench/gemm_peers.py" "$shapes" "$out_type" >>"$results" 2>>"$log" || tail -20 "$log"
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["shape"], {})[r["peer"]] = r
print(f"{'shape':<18}{'path':>8}{'tile TF/s':>11}{'status':>8}{'rel_err':>11}{'cuBLAS':>9}{'Triton':>9}{'tile/cuBLAS':>13}{'tile/Triton':>13}")
for shape, p in by.items():
    c = p.get("cublas", {}); tr = p.get("triton", {})
    cf = c.get("tflops", float("nan")); trf = tr.get("tflops", float("nan"))
    for peer in sorted(k for k in p if k.startswith("tile")):
        t = p[peer]
        tf = float(t["tflops"]) if t.get("tflops") not in (None, "na") else float("nan")
        print(f"{shape:<18}{peer[5:]:>8}{tf:>11.1f}{str(t.get('status')):>8}{str(t.get('rel_err')):>11}{cf:>9.1f}{trf:>9.1f}{tf/cf:>13.3f}{tf/trf:>13.3f}")
# Per path: geometric mean and the lowest of tile/cuBLAS over the shapes.
import math
ratios = {}
for shape, p in by.items():
    cf = p.get("cublas", {}).get("tflops")
    for peer in (k for k in p if k.startswith("tile")):
        tf = p[peer].get("tflops")
        if cf and tf not in (None, "na") and p[peer].get("status") == "PASS":
            ratios.setdefault(peer[5:], []).append((float(tf) / cf, shape))
for path, rs in sorted(ratios.items()):
    gm = math.exp(sum(math.log(r) for r, _ in rs) / len(rs))
    low = min(rs)
    print(f"{path}: tile/cuBLAS geomean {gm:.3f} over {len(rs)} shapes, lowest {low[0]:.3f} ({low[1]})")
print("peer errors:", {f"{r['peer']}:{r['shape']}": round(r["rel_err"], 5) for r in rows if not r["peer"].startswith("tile")})
PY
