// FP8 GEMM with per-tensor scales, as torch._scaled_mm's scale_a and
// scale_b (0-d tensors on the device): y = (A W^T) * scale_a * scale_b,
// e4m3 A [M, K] and W [N, K], bf16 out. The scalars are loaded once per
// program and splat (a rank-0 tile.broadcast). Ragged M, N and K (K = 200:
// W's and A's rows padded to 208 by copies, N = 1030: the output through a
// padded buffer). wgmma on sm_90a.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// TILE-CHIPS: sm_90a
// CHECK: RESULT matmul_fp8_tensor_scales_ragged status=PASS

func.func @matmul_fp8_tensor_scales_ragged(%a: tensor<300x200xf8E4M3FN>, %w: tensor<1030x200xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<300x1030xbf16> {
  %wt = tile.transpose %w : tensor<1030x200xf8E4M3FN> -> tensor<200x1030xf8E4M3FN>
  %c = tile.matmul %a, %wt : (tensor<300x200xf8E4M3FN>, tensor<200x1030xf8E4M3FN>) -> tensor<300x1030xf32>
  %ba = tile.broadcast %sa [0, 1] : tensor<f32> -> tensor<300x1030xf32>
  %bb = tile.broadcast %sb [0, 1] : tensor<f32> -> tensor<300x1030xf32>
  %y = tile.map (%c, %ba, %bb) : (tensor<300x1030xf32>, tensor<300x1030xf32>, tensor<300x1030xf32>) -> tensor<300x1030xbf16> {
  ^bb0(%acc: f32, %x: f32, %z: f32):
    %s = arith.mulf %x, %z : f32
    %r = arith.mulf %acc, %s : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<300x1030xbf16>
}
