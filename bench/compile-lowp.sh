#!/usr/bin/env bash
# Compiles the FP8 GEMM benchmark (bench/lowp_shapes.txt: 'M N K') into
# bundles under $1 (default build/bench-lowp), for sm_90a: y = (A W^T) *
# scale_a[:, None] * scale_b[None, :] with e4m3 A [M, K] and W [N, K] (B
# K-major, as torch._scaled_mm takes it), f32 accumulation, bf16 out. For
# each shape, lowp_<shape> (timed, no reference) and check_<shape> (the same
# function at M = 256 with its reference).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
out="${1:-$build/bench-lowp}"
mkdir -p "$out"
emit() { # name m n k
  local name=$1 m=$2 n=$3 k=$4 e=f8E4M3FN
  cat <<MLIR
func.func @$name(%a: tensor<${m}x${k}x$e>, %w: tensor<${n}x${k}x$e>, %sa: tensor<${m}xf32>, %sb: tensor<${n}xf32>) -> tensor<${m}x${n}xbf16> {
  %wt = tile.transpose %w : tensor<${n}x${k}x$e> -> tensor<${k}x${n}x$e>
  %c = tile.matmul %a, %wt : (tensor<${m}x${k}x$e>, tensor<${k}x${n}x$e>) -> tensor<${m}x${n}xf32>
  %ra = tile.broadcast %sa [1] : tensor<${m}xf32> -> tensor<${m}x${n}xf32>
  %cb = tile.broadcast %sb [0] : tensor<${n}xf32> -> tensor<${m}x${n}xf32>
  %y = tile.map (%c, %ra, %cb) : (tensor<${m}x${n}xf32>, tensor<${m}x${n}xf32>, tensor<${m}x${n}xf32>) -> tensor<${m}x${n}xbf16> {
  ^bb0(%acc: f32, %x: f32, %z: f32):
    %s = arith.mulf %x, %z : f32
    %r = arith.mulf %acc, %s : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<${m}x${n}xbf16>
}
MLIR
}
grep -v '^#' "${SHAPES:-$root/bench/lowp_shapes.txt}" | while read -r m n k; do
  [ -n "$m" ] || continue
  shape="${m}x${n}x${k}"
  emit "lowp_$shape" "$m" "$n" "$k" >"$out/lowp_$shape.mlir"
  "$build/bin/tile-compile" "$out/lowp_$shape.mlir" --fuse --no-reference --chip=sm_90a -o "$out/lowp_$shape.tilebundle"
  emit "check_$shape" 256 "$n" "$k" >"$out/check_$shape.mlir"
  "$build/bin/tile-compile" "$out/check_$shape.mlir" --fuse --chip=sm_90a -o "$out/check_$shape.tilebundle"
done
ls "$out"/*.tilebundle | wc -l | xargs echo "bundles in $out:"
