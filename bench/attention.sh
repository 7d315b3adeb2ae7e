#!/usr/bin/env bash
# The attention benchmark, run on the GPU machine in one go: our bundles
# (compiled elsewhere by bench/compile-attention.sh: the fused kernel from
# the math), torch SDPA (cuDNN, flash) and a Triton kernel, all timed in
# one process by bench/attention_peers.py (ours launched from its bundle
# through tile.runtime), launch by launch in turn so that every kernel
# meets the same clocks (the GPU lowers its clock at its power cap under
# sustained load); then one table of TFLOP/s and ratios.
#   bench/attention.sh BUNDLE_DIR
# Every launch starts from a cold L2. Each kernel is checked on the first
# head of its full-size output against a float32 reference (rel_err), and
# ours also by tile-run at B = 1, H = 2 of each shape (check_*: the same
# function against its naive reference on every head; the `check` column).
# The table gives the median launch's TFLOP/s and ratios, and the ratio to
# cuDNN of the 10th-percentile launches (`p10/cuDNN`, nearest the uncapped
# clock).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$1"
shapes="${SHAPES:-$root/bench/attention_shapes.txt}"
log="${OUT:-/tmp}/attention-bench.log"
: >"$log"
source "$root/bench/runner-common.sh"
results="${OUT:-/tmp}/attention-results.jsonl"
: >"$results"
for b in "$dir"/check_*.tilebundle; do
  name="$(basename "$b" .tilebundle)"; shape="${name#check_}"
  check_row tile-check "$shape" "$b" >>"$results"
done
PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 \
  python3 "$root/bench/attention_peers.py" "$shapes" "$dir" >>"$results" 2>>"$log" || tail -20 "$log"
launch_path_note
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def flops(shape):
    b, h, s, d = map(int, shape.split("_")[0].split("x"))
    return 4.0 * b * h * s * s * d / (2 if shape.endswith("causal") else 1)
by = {}
for r in rows:
    by.setdefault(r["shape"], {})[r["peer"]] = r
def tf(r, key="time_us"):
    return flops(r["shape"]) / float(r[key]) / 1e6 if r and r.get(key) is not None else float("nan")
print(f"{'shape (BxHxSxD)':<26}{'tile TF/s':>10}{'check':>7}{'rel_err':>10}{'cuDNN':>8}{'flash':>8}{'Triton':>8}"
      f"{'/cuDNN':>8}{'/flash':>8}{'/Triton':>8}{'p10/cuDNN':>10}")
for shape, p in by.items():
    t = p.get("tile", {}); ours = tf(t)
    peer = {k: tf(p.get(k)) for k in ("cudnn", "flash", "triton")}
    err = t.get("rel_err"); err = f"{err:.2e}" if err is not None else "-"
    print(f"{shape:<26}{ours:>10.1f}{str(p.get('tile-check', {}).get('status')):>7}{err:>10}"
          f"{peer['cudnn']:>8.1f}{peer['flash']:>8.1f}{peer['triton']:>8.1f}"
          f"{ours / peer['cudnn']:>8.3f}{ours / peer['flash']:>8.3f}{ours / peer['triton']:>8.3f}"
          f"{tf(t, 'p10_us') / tf(p.get('cudnn'), 'p10_us'):>10.3f}")
print("errors:", {f"{r['peer']}:{r['shape']}": round(r["rel_err"], 5) if "rel_err" in r else r.get("error")
                  for r in rows if r["peer"] != "tile-check"})
PY
