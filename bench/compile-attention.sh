#!/usr/bin/env bash
# Compiles the attention benchmark (bench/attention_shapes.txt: 'B H S D
# [causal] [kv=HKV]') into bundles under $1 (default build/bench-attention), for
# sm_90a, with --fast-math (ex2.approx, as attention kernels use). For each
# shape:
#   attn_<shape>   the math written out (bench/attention_tensor.py), which
#                  tile-fuse makes one attention kernel; no reference (the
#                  naive one would not fit), so
#   check_<shape>  is the same function at B = 1, H = 2 with its reference.
# $FLAGS are more tile-compile flags for every bundle.
# (Session 9 measured the fused kernel as fast as the hand-written tile-level
# kernel it replaced, or faster: bench/RESULTS.md.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
out="${1:-$build/bench-attention}"
mkdir -p "$out"
# shellcheck disable=SC2086
compile() { "$build/bin/tile-compile" "$@" --fast-math --chip=sm_90a ${FLAGS:-}; }
grep -v '^#' "${SHAPES:-$root/bench/attention_shapes.txt}" | while read -r b h s d rest; do
  [ -n "$b" ] || continue
  causal=$(echo "$rest" | grep -ow causal || true)
  kv=$(echo "$rest" | grep -oE 'kv=[0-9]+' || true)
  name="${b}x${h}x${s}x${d}${kv:+_kv${kv#kv=}}${causal:+_causal}"
  python3 "$root/bench/attention_tensor.py" "$b" "$h" "$s" "$d" $causal $kv >"$out/attn_$name.mlir"
  compile "$out/attn_$name.mlir" --fuse --no-reference -o "$out/attn_$name.tilebundle"
  # The check keeps the head ratio: 2 query heads over 1 K/V head.
  python3 "$root/bench/attention_tensor.py" 1 2 "$s" "$d" $causal ${kv:+kv=1} >"$out/check_$name.mlir"
  compile "$out/check_$name.mlir" --fuse -o "$out/check_$name.tilebundle"
done
ls "$out"/*.tilebundle | wc -l | xargs echo "bundles in $out:"
