// FP8 GEMM with DeepSeek-V3's block scales (as matmul_fp8_block_scales_ragged)
// at K = 896: 7 steps of 128, so tile-overlap's K loop of four steps a body
// runs once and the last three steps after it (the first two products
// issued, then each promoted while the next runs). Ragged M and N, bf16
// out; wgmma on sm_90a, against the f64 reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// TILE-CHIPS: sm_90a
// CHECK: RESULT matmul_fp8_block_scales_steps_ragged status=PASS

func.func @matmul_fp8_block_scales_steps_ragged(%a: tensor<1000x896xf8E4M3FN>, %w: tensor<1040x896xf8E4M3FN>, %sat: tensor<7x1000xf32>, %sw: tensor<9x7xf32>) -> tensor<1000x1040xbf16> {
  %wt = tile.transpose %w : tensor<1040x896xf8E4M3FN> -> tensor<896x1040xf8E4M3FN>
  %sa = tile.transpose %sat : tensor<7x1000xf32> -> tensor<1000x7xf32>
  %sb = tile.transpose %sw : tensor<9x7xf32> -> tensor<7x9xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] : (tensor<1000x896xf8E4M3FN>, tensor<896x1040xf8E4M3FN>, tensor<1000x7xf32>, tensor<7x9xf32>) -> tensor<1000x1040xf32>
  %y = tile.cast %c : tensor<1000x1040xf32> -> tensor<1000x1040xbf16>
  return %y : tensor<1000x1040xbf16>
}
