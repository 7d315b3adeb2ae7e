#!/usr/bin/env bash
# Compiles the attention benchmark (bench/attention_shapes.txt: 'B H S D
# [causal]') into bundles under $1 (default build/bench-attention), for
# sm_90a, with --fast-math (ex2.approx, as attention kernels use): for each
# shape attn_<shape>.tilebundle, the kernel over all B * H heads, and
# check_<shape>.tilebundle, the same schedule on one head with a reference.
# The kernels are bench/prototypes/attention_tile.py's hand-written tile
# program until tile-fuse forms attention groups (issue 15); the schedule
# (block rows and keys, ring stages, programs per SM) is chosen here.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
out="${1:-$build/bench-attention}"
mkdir -p "$out"
grep -v '^#' "${SHAPES:-$root/bench/attention_shapes.txt}" | while read -r b h s d causal; do
  [ -n "$b" ] || continue
  name="${b}x${h}x${s}x${d}${causal:+_causal}"
  # D = 128: 128 query rows, 64 keys per step; D = 64: 128 keys. Two
  # programs per SM (measured: session 9, bench/RESULTS.md).
  if [ "$d" -ge 128 ]; then block="128 64"; else block="128 128"; fi
  for what in attn check; do
    heads=$((b * h)); extra=""
    if [ "$what" = check ]; then heads=1; extra="ref"; fi
    # shellcheck disable=SC2086
    python3 "$root/bench/prototypes/attention_tile.py" "$heads" "$s" "$d" $block 2 0 \
      $extra ${causal:+causal} programs=2 >"$out/${what}_$name.mlir"
    # shellcheck disable=SC2046
    "$build/bin/tile-compile" "$out/${what}_$name.mlir" --level=tile --fast-math --chip=sm_90a \
      $([ "$what" = check ] && echo --reference=ref) -o "$out/${what}_$name.tilebundle"
  done
done
ls "$out"/*.tilebundle | wc -l | xargs echo "bundles in $out:"
