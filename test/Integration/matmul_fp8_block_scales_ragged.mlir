// FP8 GEMM with DeepSeek-V3's block scales, laid out as torch._scaled_mm
// takes them: A [M, K] e4m3 with one scale per row and 128 of K (1x128),
// stored M-major (the transpose of a [K / 128, M] tensor); B the transpose
// of W [N, K] e4m3 with one scale per 128x128 block of W (scale_b is the
// transpose of a [N / 128, K / 128] tensor). Each 128-deep step's product
// is promoted into the f32 accumulator with its scales; the transposes are
// read as stored (tile-fuse). Ragged M and N (the last B-scale block has
// 16 columns), K = 544 (the last scale block holds 32 of K, padded by the
// loads), bf16 out; wgmma on sm_90a, against the f64 reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// TILE-CHIPS: sm_90a
// CHECK: RESULT matmul_fp8_block_scales_ragged status=PASS

func.func @matmul_fp8_block_scales_ragged(%a: tensor<1000x544xf8E4M3FN>, %w: tensor<1040x544xf8E4M3FN>, %sat: tensor<5x1000xf32>, %sw: tensor<9x5xf32>) -> tensor<1000x1040xbf16> {
  %wt = tile.transpose %w : tensor<1040x544xf8E4M3FN> -> tensor<544x1040xf8E4M3FN>
  %sa = tile.transpose %sat : tensor<5x1000xf32> -> tensor<1000x5xf32>
  %sb = tile.transpose %sw : tensor<9x5xf32> -> tensor<5x9xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] : (tensor<1000x544xf8E4M3FN>, tensor<544x1040xf8E4M3FN>, tensor<1000x5xf32>, tensor<5x9xf32>) -> tensor<1000x1040xf32>
  %y = tile.cast %c : tensor<1000x1040xf32> -> tensor<1000x1040xbf16>
  return %y : tensor<1000x1040xbf16>
}
