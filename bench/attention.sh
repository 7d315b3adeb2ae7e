#!/usr/bin/env bash
# The attention benchmark, run on the GPU machine in one go: our bundles
# (compiled elsewhere by bench/compile-attention.sh: the fused kernel from
# the math) through tile-run, torch
# SDPA (cuDNN, flash) and a Triton kernel through bench/attention_peers.py,
# then one table of TFLOP/s and ratios.
#   bench/attention.sh BUNDLE_DIR
# Each kernel is timed from a cold L2 (tile-run --flush-l2; do_bench clears
# it for the peers). Ours is checked at B = 1, H = 2 of each shape (check_*:
# the same function against its naive reference), the peers on the first
# head of their output.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$1"
shapes="${SHAPES:-$root/bench/attention_shapes.txt}"
log="${OUT:-/tmp}/attention-bench.log"
: >"$log"
source "$root/bench/runner-common.sh"
results="${OUT:-/tmp}/attention-results.jsonl"
: >"$results"
for b in "$dir"/attn_*.tilebundle; do
  name="$(basename "$b" .tilebundle)"; shape="${name#attn_}"
  timed=$("$runner" "$b" --warmup 10 --repeats 50 --flush-l2 2>>"$log" | tee -a "$log" | grep '^RESULT')
  checked=$("$runner" "$dir/check_$shape.tilebundle" --no-time 2>>"$log" | tee -a "$log" | grep '^RESULT')
  python3 - "$shape" "$timed" "$checked" >>"$results" <<'PY'
import json, sys
shape, timed, checked = sys.argv[1:4]
field = lambda line, key: dict(kv.split("=", 1) for kv in line.split()[2:]).get(key)
print(json.dumps({"peer": "tile", "shape": shape,
                  "status": field(checked, "status"), "rel_err": field(checked, "rel_err"),
                  "time_us": field(timed, "time_us")}))
PY
done
PYTHONUNBUFFERED=1 python3 "$root/bench/attention_peers.py" "$shapes" >>"$results" 2>>"$log" || tail -20 "$log"
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def flops(shape):
    b, h, s, d = map(int, shape.split("_")[0].split("x"))
    return 4.0 * b * h * s * s * d / (2 if shape.endswith("causal") else 1)
by = {}
for r in rows:
    by.setdefault(r["shape"], {})[r["peer"]] = r
tf = lambda r: flops(r["shape"]) / float(r["time_us"]) / 1e6 if r and r.get("time_us") not in (None, "na") else float("nan")
print(f"{'shape (BxHxSxD)':<24}{'tile TF/s':>10}{'check':>7}{'rel_err':>11}{'cuDNN':>8}{'flash':>8}{'Triton':>8}{'/cuDNN':>8}{'/flash':>8}{'/Triton':>8}")
for shape, p in by.items():
    t = p.get("tile", {}); ours = tf(t)
    peer = {k: tf(p.get(k)) for k in ("cudnn", "flash", "triton")}
    print(f"{shape:<24}{ours:>10.1f}{str(t.get('status')):>7}{str(t.get('rel_err')):>11}"
          f"{peer['cudnn']:>8.1f}{peer['flash']:>8.1f}{peer['triton']:>8.1f}"
          f"{ours / peer['cudnn']:>8.3f}{ours / peer['flash']:>8.3f}{ours / peer['triton']:>8.3f}")
print("peer errors:", {f"{r['peer']}:{r['shape']}": round(r["rel_err"], 5) if "rel_err" in r else r.get("error") for r in rows if not r["peer"].startswith("tile")})
PY
