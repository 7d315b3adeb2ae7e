#!/usr/bin/env bash
# Compiles the weight-only GEMM benchmark (bench/quant_shapes.txt: 'M N K')
# into bundles under $1 (default build/bench-quant), for sm_90a:
# y = x W^T, x bf16 [M, K], W dequantized in the K loop
# (docs/quantization.md): int4 (packed [N, K/2], signed, f32 scales
# [K/128, N]), int8 ([N, K], f32 scales [K/128, N]) and mxfp4 (e2m1 packed
# [N, K/2], e8m0 scale bytes [N, K/32]; the decode clamps the scale's
# exponent to 120 + (e mod 16) so that random bytes give finite scales: two
# integer ops more than a plain decode). int4-bf16 and int8-bf16 are int4
# and int8 with bf16 scales, as GPTQ / AWQ checkpoints of bf16 models store
# them (the dequantized product is then exact in f32, so it is computed in
# bf16 pairs: tile-packed-dequant). mxfp4-bits is mxfp4 with a cheaper
# decode, beside it until bench/quant.sh has timed both (bench/RESULTS.md,
# session 20): the e2m1 code's bits put in place as an f32 (sign to bit
# 31, exponent and mantissa to bits 24-22) is the value times 2^-126,
# normal or subnormal alike, so one multiply by 2^126 restores it: five
# integer ops and a multiply where the plain decode takes about fourteen.
# int4-bf16-runs is int4-bf16 with the weight packed for the tensor cores
# (docs/quantization.md): AWQ's nibble order in each word (tile.unpack
# interleaved) and the rows of each 128 along K in mma.sync's fragment
# runs (tile.matmul k_runs = 32), so that each thread's 16 bytes are its
# B fragments and x is read by ldmatrix. mxfp4-bits-runs is mxfp4-bits so
# packed in runs of 8 (k_runs = 8: each block of 32 along K, one scale
# group, in fragment-run order, so the groups of 32 keep their scales),
# each word's codes bit by bit in MXFP4's layout="mma" order (tile.unpack
# bits; before session 52 AWQ's nibble order).
# Each bundle has its reference.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
out="${1:-$build/bench-quant}"
mkdir -p "$out"
mxfp4_bits="0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31"
emit() { # name m n k int4|int8|mxfp4 [f32|bf16: the scales of int4 / int8] [bits: mxfp4's decode] [runs: k_runs]
  local name=$1 m=$2 n=$3 k=$4 format=$5 stype=${6:-f32} form=${7:-} runs=${8:-}
  local half=$(( k / 2 )) g=128
  [ "$format" = mxfp4 ] && g=32
  local kg=$(( (k + g - 1) / g ))
  local q="tensor<${n}x${half}xi8>" unpack="tile.unpack %qw signed${runs:+ interleaved} : tensor<${n}x${half}xi8> -> tensor<${n}x${k}xi8>"
  local scales="tensor<${kg}x${n}x$stype>" st="tile.transpose %s : tensor<${kg}x${n}x$stype> -> tensor<${n}x${kg}x$stype>"
  local decode="%f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32"
  [ "$stype" = bf16 ] && decode="%f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32"
  if [ "$format" = int8 ]; then
    q="tensor<${n}x${k}xi8>"; unpack=""
  elif [ "$format" = mxfp4 ]; then
    # MXFP4 for the tensor cores in the frontend's layout="mma" bit order
    # (tile.unpack's bits, python/tile/quant.py's MXFP4_MMA_BITS).
    unpack="tile.unpack %qw${runs:+ bits = [$mxfp4_bits]} : tensor<${n}x${half}xi8> -> tensor<${n}x${k}xi8>"
    scales="tensor<${n}x${kg}xi8>"; st=""; stype=i8
    # Both decodes end the same: %w times the clamped e8m0 scale.
    local scale_decode="    %e32 = arith.extui %si : i8 to i32
    %el = arith.andi %e32, %c15 : i32
    %e = arith.addi %el, %c120 : i32
    %sbits = arith.shli %e, %c23 : i32
    %scale = arith.bitcast %sbits : i32 to f32
    %v = arith.mulf %w, %scale : f32"
    decode="%c1 = arith.constant 1 : i32
    %c3 = arith.constant 3 : i32
    %c15 = arith.constant 15 : i32
    %c22 = arith.constant 22 : i32
    %c23 = arith.constant 23 : i32
    %c31 = arith.constant 31 : i32
    %c120 = arith.constant 120 : i32
    %c126 = arith.constant 126 : i32
    %c0 = arith.constant 0 : i32
    %half = arith.constant 1056964608 : i32
    %u32 = arith.extui %qi : i8 to i32
    %sign = arith.shrui %u32, %c3 : i32
    %e1 = arith.shrui %u32, %c1 : i32
    %exp = arith.andi %e1, %c3 : i32
    %man = arith.andi %u32, %c1 : i32
    %eb = arith.addi %exp, %c126 : i32
    %ebits = arith.shli %eb, %c23 : i32
    %mbits = arith.shli %man, %c22 : i32
    %normal = arith.ori %ebits, %mbits : i32
    %subnormal = arith.muli %man, %half : i32
    %isSub = arith.cmpi eq, %exp, %c0 : i32
    %mag = arith.select %isSub, %subnormal, %normal : i32
    %sbit = arith.shli %sign, %c31 : i32
    %bits = arith.ori %mag, %sbit : i32
    %w = arith.bitcast %bits : i32 to f32
$scale_decode"
    [ "$form" = bits ] && decode="%c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c15 = arith.constant 15 : i32
    %c22 = arith.constant 22 : i32
    %c23 = arith.constant 23 : i32
    %c28 = arith.constant 28 : i32
    %c120 = arith.constant 120 : i32
    %two126 = arith.constant 0x7E800000 : f32
    %u32 = arith.extui %qi : i8 to i32
    %low = arith.andi %u32, %c7 : i32
    %mag = arith.shli %low, %c22 : i32
    %sign = arith.andi %u32, %c8 : i32
    %sbit = arith.shli %sign, %c28 : i32
    %bits = arith.ori %mag, %sbit : i32
    %raw = arith.bitcast %bits : i32 to f32
    %w = arith.mulf %raw, %two126 : f32
$scale_decode"
  fi
  local qv="%q" sv="%sn"
  [ -n "$unpack" ] || qv="%qw"
  [ -n "$st" ] || sv="%s"
  cat <<MLIR
func.func @${name//-/_}(%x: tensor<${m}x${k}xbf16>, %qw: $q, %s: $scales) -> tensor<${m}x${n}xbf16> {
  ${unpack:+%q = $unpack}
  ${st:+%sn = $st}
  %sr = tile.repeat $sv dim = 1 times = $g : tensor<${n}x${kg}x$stype> -> tensor<${n}x${k}x$stype>
  %w = tile.map ($qv, %sr) : (tensor<${n}x${k}xi8>, tensor<${n}x${k}x$stype>) -> tensor<${n}x${k}xbf16> {
  ^bb0(%qi: i8, %si: $stype):
    $decode
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<${n}x${k}xbf16> -> tensor<${k}x${n}xbf16>
  %c = tile.matmul %x, %wt${runs:+ k_runs = $runs} : (tensor<${m}x${k}xbf16>, tensor<${k}x${n}xbf16>) -> tensor<${m}x${n}xf32>
  %y = tile.cast %c : tensor<${m}x${n}xf32> -> tensor<${m}x${n}xbf16>
  return %y : tensor<${m}x${n}xbf16>
}
MLIR
}
grep -v '^#' "${SHAPES:-$root/bench/quant_shapes.txt}" | while read -r m n k; do
  [ -n "$m" ] || continue
  for variant in int4 int4-bf16 int4-bf16-runs int8 int8-bf16 mxfp4 mxfp4-bits mxfp4-bits-runs; do
    name="quant_${m}x${n}x${k}_$variant"
    format=${variant%-runs} runs=
    [ "$format" = "$variant" ] || runs=32
    format=${format%-bf16} stype=f32 form=
    [ "$format" = "${variant%-runs}" ] || stype=bf16
    [ "${variant%-runs}" = mxfp4-bits ] && format=mxfp4 form=bits
    # MXFP4 in runs of 8 (k_runs = 8): each block of 32 along K, one scale
    # group, in mma.sync's fragment runs; the codes bit by bit (bits).
    [ "$variant" = mxfp4-bits-runs ] && runs=8
    emit "$name" "$m" "$n" "$k" "$format" "$stype" "$form" "$runs" >"$out/$name.mlir"
    "$build/bin/tile-compile" "$out/$name.mlir" --fuse --chip=sm_90a ${FLAGS:-} -o "$out/$name.tilebundle"
  done
done
ls "$out"/*.tilebundle | wc -l | xargs echo "bundles in $out:"
