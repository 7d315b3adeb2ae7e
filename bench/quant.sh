#!/usr/bin/env bash
# The weight-only GEMM benchmark, run on the GPU machine in one go: our
# bundles (compiled elsewhere by bench/compile-quant.sh), checked against
# their references by tile-run, then timed with cuBLAS's bf16 GEMM of the
# same shape in one process by bench/quant_peers.py (ours launched from the
# bundles through tile.runtime), launch by launch in turn so that every
# kernel meets the same clocks (bench/interleave.py), L2 cleared before
# each; then one table: time, and our time over cuBLAS's (issue 17's bar:
# at most 0.4 at M = 16); torch's int4 kernel (tinygemm) beside them as a
# peer. TILE_BENCH_FLUSH=read clears the L2 by reading instead of writing
# (clean lines: bench/interleave.py).
#   bench/quant.sh BUNDLE_DIR
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$1"
shapes="${SHAPES:-$root/bench/quant_shapes.txt}"
log="${OUT:-/tmp}/quant-bench.log"
: >"$log"
source "$root/bench/runner-common.sh"
results="${OUT:-/tmp}/quant-results.jsonl"
: >"$results"
for b in "$dir"/quant_*.tilebundle; do
  name="$(basename "$b" .tilebundle)"; name="${name#quant_}"
  check_row "${name##*_}" "${name%_*}" "$b" >>"$results"
done
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 \
  python3 "$root/bench/quant_peers.py" "$shapes" "$dir" >>"$results" 2>>"$log" || tail -20 "$log"
launch_path_note
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:  # tile-run's check and the timing of the same kernel merge
    by.setdefault(r["shape"], {}).setdefault(r["peer"], {}).update(r)
print(f"{'M x N x K':<18}{'format':<16}{'us':>9}{'check':>7}{'rel_err':>11}{'cuBLAS bf16 us':>16}{'ratio':>8}")
for shape, p in by.items():
    peer = p.get("cublas_bf16", {}).get("time_us")
    # torch_int4: torch's own int4 weight-only GEMM (tinygemm), a peer;
    # its rel_err is against the float32 product, its status None.
    for fmt in ("int4", "int4-bf16", "int4-bf16-runs", "int8", "int8-bf16", "mxfp4", "mxfp4-bits", "mxfp4-bits-runs", "torch_int4"):
        r = p.get(fmt)
        if not r:
            continue
        if "error" in r:
            print(f"{shape:<18}{fmt:<16} error: {r['error'][:80]}")
            continue
        t = float(r["time_us"]) if r.get("time_us") not in (None, "na") else float("nan")
        ratio = t / peer if peer else float("nan")
        err = r.get("rel_err")
        err = f"{err:.3e}" if isinstance(err, float) else str(err)
        status = r.get("status", "-")
        print(f"{shape:<18}{fmt:<16}{t:>9.1f}{status:>7}{err:>11}{peer or float('nan'):>16.1f}{ratio:>8.3f}")
PY
