// Weight-only int8 GEMM with zero points: W = (Q - Z) * S, Q [N, K] i8,
// one f32 scale and zero point per 64 values of a row, the scales given
// [N, K/64] (each K step reads one column), the zero points [K/64, N]
// (GPTQ's orientation, transposed in the function: a row per step).
// K = 4160 is split into 8 ranges of 576 (decode-like M, few output
// tiles): the last range runs past K, where the steps must not read past
// the scales (they read the last group's). Ragged M and N. Checked
// against the f64 reference of the same math (docs/quantization.md).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT linear_int8_zeros status=PASS

func.func @linear_int8_zeros(%x: tensor<33x4160xbf16>, %q: tensor<520x4160xi8>, %s: tensor<520x65xf32>, %zt: tensor<65x520xf32>) -> tensor<33x520xf32> {
  %sr = tile.repeat %s dim = 1 times = 64 : tensor<520x65xf32> -> tensor<520x4160xf32>
  %z = tile.transpose %zt : tensor<65x520xf32> -> tensor<520x65xf32>
  %zr = tile.repeat %z dim = 1 times = 64 : tensor<520x65xf32> -> tensor<520x4160xf32>
  %w = tile.map (%q, %zr, %sr) : (tensor<520x4160xi8>, tensor<520x4160xf32>, tensor<520x4160xf32>) -> tensor<520x4160xbf16> {
  ^bb0(%qi: i8, %zi: f32, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %c = arith.subf %f, %zi : f32
    %v = arith.mulf %c, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<520x4160xbf16> -> tensor<4160x520xbf16>
  %y = tile.matmul %x, %wt : (tensor<33x4160xbf16>, tensor<4160x520xbf16>) -> tensor<33x520xf32>
  return %y : tensor<33x520xf32>
}
