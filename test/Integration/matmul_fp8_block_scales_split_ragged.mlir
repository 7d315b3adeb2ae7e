// FP8 GEMM with block scales stored as they are used: A's scales [M, K/128]
// row-major (1x128, read a column per K step), and one scale per column of
// B and 128 of K ([K/128, N], 1x128 blocks of W). e4m3 x e5m2, a bias and
// a ReLU in the epilogue, bf16 out. M = 37 and N = 272 against K = 4200:
// few output tiles, so tile-configure splits K (two kernels), and each
// split promotes its own steps with their scales. K's rows are padded to
// 4208 by copies, and the last scale block holds 104 of K. wgmma on
// sm_90a, against the f64 reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// TILE-CHIPS: sm_90a
// CHECK: RESULT matmul_fp8_block_scales_split_ragged status=PASS

func.func @matmul_fp8_block_scales_split_ragged(%a: tensor<37x4200xf8E4M3FN>, %w: tensor<272x4200xf8E5M2>, %sa: tensor<37x33xf32>, %sb: tensor<33x272xf32>, %bias: tensor<272xf32>) -> tensor<37x272xbf16> {
  %wt = tile.transpose %w : tensor<272x4200xf8E5M2> -> tensor<4200x272xf8E5M2>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 1] : (tensor<37x4200xf8E4M3FN>, tensor<4200x272xf8E5M2>, tensor<37x33xf32>, tensor<33x272xf32>) -> tensor<37x272xf32>
  %bb = tile.broadcast %bias [0] : tensor<272xf32> -> tensor<37x272xf32>
  %y = tile.map (%c, %bb) : (tensor<37x272xf32>, tensor<37x272xf32>) -> tensor<37x272xbf16> {
  ^bb0(%x: f32, %b: f32):
    %s = arith.addf %x, %b : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<37x272xbf16>
}
