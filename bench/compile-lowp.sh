#!/usr/bin/env bash
# Compiles the FP8 GEMM benchmark (bench/lowp_shapes.txt: 'M N K') into
# bundles under $1 (default build/bench-lowp), for sm_90a: y = (A W^T) *
# scale_a * scale_b with e4m3 A [M, K] and W [N, K] (B K-major, as
# torch._scaled_mm takes it), f32 accumulation, bf16 out; the scales per
# tensor (0-d tensors), in the _rowwise variant per row of A and per column
# of B, in the _blocks variant DeepSeek-V3's 1x128 blocks of A and 128x128
# of W (M-major scale_a and scale_b = sw^T, as _scaled_mm's blockwise
# recipes take them). For each shape and variant,
# lowp_<shape>[_rowwise|_blocks] (timed, no reference) and
# check_<shape>[...] (the same function at M = 256 with its reference).
# $FLAGS go to every tile-compile (a variant for bench/ab.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
out="${1:-$build/bench-lowp}"
mkdir -p "$out"
emit_blocks() { # name m n k: DeepSeek-V3's block scales in torch's layouts
  local name=$1 m=$2 n=$3 k=$4 e=f8E4M3FN
  local kb=$(( (k + 127) / 128 )) nb=$(( (n + 127) / 128 ))
  cat <<MLIR
func.func @$name(%a: tensor<${m}x${k}x$e>, %w: tensor<${n}x${k}x$e>, %sat: tensor<${kb}x${m}xf32>, %sw: tensor<${nb}x${kb}xf32>) -> tensor<${m}x${n}xbf16> {
  %wt = tile.transpose %w : tensor<${n}x${k}x$e> -> tensor<${k}x${n}x$e>
  %sa = tile.transpose %sat : tensor<${kb}x${m}xf32> -> tensor<${m}x${kb}xf32>
  %sb = tile.transpose %sw : tensor<${nb}x${kb}xf32> -> tensor<${kb}x${nb}xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] : (tensor<${m}x${k}x$e>, tensor<${k}x${n}x$e>, tensor<${m}x${kb}xf32>, tensor<${kb}x${nb}xf32>) -> tensor<${m}x${n}xf32>
  %y = tile.cast %c : tensor<${m}x${n}xf32> -> tensor<${m}x${n}xbf16>
  return %y : tensor<${m}x${n}xbf16>
}
MLIR
}
emit() { # name m n k tensor|rowwise|blocks
  [ "$5" = blocks ] && { emit_blocks "$1" "$2" "$3" "$4"; return; }
  local name=$1 m=$2 n=$3 k=$4 e=f8E4M3FN
  local ta="tensor<f32>" tb="tensor<f32>" da="[0, 1]" db="[0, 1]"
  if [ "$5" = rowwise ]; then
    ta="tensor<${m}xf32>" tb="tensor<${n}xf32>" da="[1]" db="[0]"
  fi
  cat <<MLIR
func.func @$name(%a: tensor<${m}x${k}x$e>, %w: tensor<${n}x${k}x$e>, %sa: $ta, %sb: $tb) -> tensor<${m}x${n}xbf16> {
  %wt = tile.transpose %w : tensor<${n}x${k}x$e> -> tensor<${k}x${n}x$e>
  %c = tile.matmul %a, %wt : (tensor<${m}x${k}x$e>, tensor<${k}x${n}x$e>) -> tensor<${m}x${n}xf32>
  %ra = tile.broadcast %sa $da : $ta -> tensor<${m}x${n}xf32>
  %cb = tile.broadcast %sb $db : $tb -> tensor<${m}x${n}xf32>
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
  for scales in tensor rowwise blocks; do
    shape="${m}x${n}x${k}"
    [ "$scales" = tensor ] || shape="${shape}_$scales"
    emit "lowp_$shape" "$m" "$n" "$k" "$scales" >"$out/lowp_$shape.mlir"
    "$build/bin/tile-compile" "$out/lowp_$shape.mlir" --fuse --no-reference --chip=sm_90a ${FLAGS:-} -o "$out/lowp_$shape.tilebundle"
    emit "check_$shape" 256 "$n" "$k" "$scales" >"$out/check_$shape.mlir"
    "$build/bin/tile-compile" "$out/check_$shape.mlir" --fuse --chip=sm_90a ${FLAGS:-} -o "$out/check_$shape.tilebundle"
  done
done
ls "$out"/*.tilebundle | wc -l | xargs echo "bundles in $out:"
