// FP8 GEMM as torch._scaled_mm takes it: A [M, K] e4m3 row-major, B the
// transpose of W [N, K] e4m3 (K-major, the only way wgmma reads fp8),
// f32 accumulation, per-row scales of A and per-column scales of B applied
// in the epilogue, bf16 out. Ragged M and N, K = 544 (a last K step of
// 32 of 128). wgmma m64nNk32 on sm_90a (fp8 conversions and tensor cores
// need sm_89 and later), against the f64 reference on the same fp8 values.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// TILE-CHIPS: sm_90a
// CHECK: RESULT matmul_fp8_rowcol_scales status=PASS

func.func @matmul_fp8_rowcol_scales(%a: tensor<1000x544xf8E4M3FN>, %w: tensor<1040x544xf8E4M3FN>, %sa: tensor<1000xf32>, %sb: tensor<1040xf32>) -> tensor<1000x1040xbf16> {
  %wt = tile.transpose %w : tensor<1040x544xf8E4M3FN> -> tensor<544x1040xf8E4M3FN>
  %c = tile.matmul %a, %wt : (tensor<1000x544xf8E4M3FN>, tensor<544x1040xf8E4M3FN>) -> tensor<1000x1040xf32>
  %ra = tile.broadcast %sa [1] : tensor<1000xf32> -> tensor<1000x1040xf32>
  %cb = tile.broadcast %sb [0] : tensor<1040xf32> -> tensor<1000x1040xf32>
  %y = tile.map (%c, %ra, %cb) : (tensor<1000x1040xf32>, tensor<1000x1040xf32>, tensor<1000x1040xf32>) -> tensor<1000x1040xbf16> {
  ^bb0(%acc: f32, %x: f32, %z: f32):
    %s = arith.mulf %x, %z : f32
    %r = arith.mulf %acc, %s : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<1000x1040xbf16>
}
