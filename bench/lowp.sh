#!/usr/bin/env bash
# The FP8 GEMM benchmark, run on the GPU machine in one go: our bundles
# (compiled elsewhere by bench/compile-lowp.sh) and torch._scaled_mm, all
# timed in one process by bench/lowp_peers.py (ours launched from the
# bundles through tile.runtime), launch by launch in turn so that every
# kernel meets the same clocks (bench/interleave.py), L2 cleared before
# each; ours checked by tile-run on the check_ bundles; then one table of
# TFLOP/s and ratios.   bench/lowp.sh BUNDLE_DIR
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$1"
shapes="${SHAPES:-$root/bench/lowp_shapes.txt}"
log="${OUT:-/tmp}/lowp-bench.log"
: >"$log"
source "$root/bench/runner-common.sh"
results="${OUT:-/tmp}/lowp-results.jsonl"
: >"$results"
for b in "$dir"/check_*.tilebundle; do
  shape="$(basename "$b" .tilebundle)"; shape="${shape#check_}"
  variant=""; [[ "$shape" == *_* ]] && variant="_${shape#*_}"
  check_row "tile$variant" "${shape%%_*}" "$b" >>"$results"
done
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 \
  python3 "$root/bench/lowp_peers.py" "$shapes" "$dir" >>"$results" 2>>"$log" || tail -20 "$log"
launch_path_note
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:  # tile-run's check and the timing of the same kernel merge
    by.setdefault(r["shape"], {}).setdefault(r["peer"], {}).update(r)
def tf(shape, r, key="time_us"):
    m, n, k = map(int, shape.split("x"))
    t = r.get(key) if r else None
    return 2.0 * m * n * k / float(t) / 1e6 if t not in (None, "na") else float("nan")
# TFLOP/s per scaling: ours (per-tensor, row-wise) against _scaled_mm's.
# "fast": _scaled_mm(use_fast_accum=True), accumulating as ours does.
print(f"{'M x N x K':<18}{'scales':<9}{'tile TF/s':>10}{'check':>7}{'rel_err':>11}{'_scaled_mm':>12}{'ratio':>8}{'fast':>9}{'ratio':>8}{'p10 ratio':>10}")
for shape, p in by.items():
    for scales, ours_key, peer_key in (("tensor", "tile", "scaled_mm_tensor"),
                                       ("rowwise", "tile_rowwise", "scaled_mm_rowwise"),
                                       ("blocks", "tile_blocks", "scaled_mm_blocks")):
        t = p.get(ours_key, {}); ours = tf(shape, t); peer = tf(shape, p.get(peer_key))
        fast = tf(shape, p.get(peer_key + "_fast"))
        p10 = tf(shape, t, "p10_us") / tf(shape, p.get(peer_key), "p10_us")
        print(f"{shape:<18}{scales:<9}{ours:>10.1f}{str(t.get('status')):>7}{str(t.get('rel_err')):>11}{peer:>12.1f}{ours / peer:>8.3f}{fast:>9.1f}{ours / fast:>8.3f}{p10:>10.3f}")
print("peer errors:", {f"{r['peer']}:{r['shape']}": round(r["rel_err"], 5) if "rel_err" in r else r.get("error") for r in rows if not r["peer"].startswith("tile")})
PY
