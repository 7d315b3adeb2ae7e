#!/usr/bin/env bash
# The FP8 GEMM benchmark, run on the GPU machine in one go: our bundles
# (compiled elsewhere by bench/compile-lowp.sh) through tile-run --flush-l2,
# torch._scaled_mm through bench/lowp_peers.py, then one table of TFLOP/s
# and ratios.   bench/lowp.sh BUNDLE_DIR
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$1"
shapes="${SHAPES:-$root/bench/lowp_shapes.txt}"
log="${OUT:-/tmp}/lowp-bench.log"
: >"$log"
source "$root/bench/runner-common.sh"
results="${OUT:-/tmp}/lowp-results.jsonl"
: >"$results"
for b in "$dir"/lowp_*.tilebundle; do
  shape="$(basename "$b" .tilebundle)"; shape="${shape#lowp_}"
  timed=$(timeout 120 "$runner" "$b" --warmup 10 --repeats 50 --flush-l2 2>>"$log" | tee -a "$log" | grep '^RESULT')
  checked=$(timeout 120 "$runner" "$dir/check_$shape.tilebundle" --no-time 2>>"$log" | tee -a "$log" | grep '^RESULT')
  python3 - "$shape" "$timed" "$checked" >>"$results" <<'PY'
import json, sys
shape, timed, checked = sys.argv[1:4]
field = lambda line, key: dict(kv.split("=", 1) for kv in line.split()[2:]).get(key) if line else None
variant = shape.rsplit("_", 1)[1] if "_" in shape else ""
peer = f"tile_{variant}" if variant else "tile"
shape = shape.split("_", 1)[0]
print(json.dumps({"peer": peer, "shape": shape, "status": field(checked, "status"),
                  "rel_err": field(checked, "rel_err"), "time_us": field(timed, "time_us")}))
PY
done
PYTHONUNBUFFERED=1 python3 "$root/bench/lowp_peers.py" "$shapes" >>"$results" 2>>"$log" || tail -20 "$log"
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["shape"], {})[r["peer"]] = r
def tf(shape, r):
    m, n, k = map(int, shape.split("x"))
    t = r.get("time_us") if r else None
    return 2.0 * m * n * k / float(t) / 1e6 if t not in (None, "na") else float("nan")
# TFLOP/s per scaling: ours (per-tensor, row-wise) against _scaled_mm's.
# "fast": _scaled_mm(use_fast_accum=True), accumulating as ours does.
print(f"{'M x N x K':<18}{'scales':<9}{'tile TF/s':>10}{'check':>7}{'rel_err':>11}{'_scaled_mm':>12}{'ratio':>8}{'fast':>9}{'ratio':>8}")
for shape, p in by.items():
    for scales, ours_key, peer_key in (("tensor", "tile", "scaled_mm_tensor"),
                                       ("rowwise", "tile_rowwise", "scaled_mm_rowwise"),
                                       ("blocks", "tile_blocks", "scaled_mm_blocks")):
        t = p.get(ours_key, {}); ours = tf(shape, t); peer = tf(shape, p.get(peer_key))
        fast = tf(shape, p.get(peer_key + "_fast"))
        print(f"{shape:<18}{scales:<9}{ours:>10.1f}{str(t.get('status')):>7}{str(t.get('rel_err')):>11}{peer:>12.1f}{ours / peer:>8.3f}{fast:>9.1f}{ours / fast:>8.3f}")
print("peer errors:", {f"{r['peer']}:{r['shape']}": round(r["rel_err"], 5) if "rel_err" in r else r.get("error") for r in rows if not r["peer"].startswith("tile")})
PY
