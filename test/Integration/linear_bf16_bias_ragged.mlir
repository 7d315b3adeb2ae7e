// y = x W^T + b with W stored [N, K] as torch's Linear weight: tile-fuse
// takes the tile.transpose into the matmul's kernel, which reads W as
// stored (a K-major B: wgmma's transposed operand on sm_90a, ldmatrix
// without .trans on sm_80), so W^T is never written. Ragged M and N (N not
// a multiple of 8: the output comes back through a padded buffer), against
// the unfused reference (a transpose kernel, then the matmul).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT linear_bf16_bias_ragged status=PASS

func.func @linear_bf16_bias_ragged(%x: tensor<1000x520xbf16>, %w: tensor<1030x520xbf16>, %bias: tensor<1030xbf16>) -> tensor<1000x1030xbf16> {
  %wt = tile.transpose %w : tensor<1030x520xbf16> -> tensor<520x1030xbf16>
  %c = tile.matmul %x, %wt : (tensor<1000x520xbf16>, tensor<520x1030xbf16>) -> tensor<1000x1030xf32>
  %bb = tile.broadcast %bias [0] : tensor<1030xbf16> -> tensor<1000x1030xbf16>
  %y = tile.map (%c, %bb) : (tensor<1000x1030xf32>, tensor<1000x1030xbf16>) -> tensor<1000x1030xbf16> {
  ^bb0(%acc: f32, %bv: bf16):
    %bf = arith.extf %bv : bf16 to f32
    %r = arith.addf %acc, %bf : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<1000x1030xbf16>
}
