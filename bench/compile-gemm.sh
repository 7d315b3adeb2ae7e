#!/usr/bin/env bash
# Compiles the GEMM benchmark ($SHAPES, default bench/gemm_shapes.txt; one
# 'M N K' per line) into bundles under $1
# (default build/bench-gemm), for $CHIP (default sm_90a): C = A * B with bf16 A, B
# and the output type $OUT_TYPE (bf16 by default: matmul + cast, fused).
# $FLAGS are more tile-compile flags (split at spaces), $CONFIGURE_OPTIONS
# tile-configure options passed as one --configure-options (spaces kept:
# CONFIGURE_OPTIONS="least-split-k=1024 most-rows-split-k-in-kernel=128");
# $TAG (default: none) goes after the chip
# in the bundle names, so that variants compiled into one folder are told
# apart in bench/gemm.sh's table (TAG=simt FLAGS=--mma=simt).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
out="${1:-$build/bench-gemm}"
out_type="${OUT_TYPE:-bf16}"
mkdir -p "$out"
shapes="${SHAPES:-$root/bench/gemm_shapes.txt}"
grep -v '^#' "$shapes" | while read -r m n k; do
  [ -n "$m" ] || continue
  name="gemm_${m}x${n}x${k}_${out_type}"
  src="$out/$name.mlir"
  {
    echo "func.func @$name(%a: tensor<${m}x${k}xbf16>, %b: tensor<${k}x${n}xbf16>) -> tensor<${m}x${n}x${out_type}> {"
    echo "  %c = tile.matmul %a, %b : (tensor<${m}x${k}xbf16>, tensor<${k}x${n}xbf16>) -> tensor<${m}x${n}xf32>"
    if [ "$out_type" = f32 ]; then
      echo "  return %c : tensor<${m}x${n}xf32>"
    else
      echo "  %o = tile.cast %c : tensor<${m}x${n}xf32> -> tensor<${m}x${n}x${out_type}>"
      echo "  return %o : tensor<${m}x${n}x${out_type}>"
    fi
    echo "}"
  } >"$src"
  # shellcheck disable=SC2086
  "$build/bin/tile-compile" "$src" --chip="${CHIP:-sm_90a}" ${FLAGS:-} \
    ${CONFIGURE_OPTIONS:+"--configure-options=$CONFIGURE_OPTIONS"} \
    -o "$out/$name.${CHIP:-sm_90a}${TAG:+-$TAG}.tilebundle"
done
ls "$out"/*.tilebundle | wc -l | xargs echo "gemm bundles in $out:"
