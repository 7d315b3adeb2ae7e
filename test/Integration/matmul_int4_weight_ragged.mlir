// Weight-only int4 GEMM, x W^T with W dequantized in the K loop: W's
// values packed two per byte ([N, K/2] i8, low nibble first, signed), one
// f32 scale per 128 values of a row given as GPTQ's [K/128, N]
// (transposed in the function). tile-fuse puts the unpack, the repeat of
// the scales and the dequantizing map into the matmul's group; each K
// step reads packed bytes and one row of scales (docs/quantization.md).
// Ragged M and N; checked against the f64 reference of the same math.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT linear_int4 status=PASS

func.func @linear_int4(%x: tensor<7x768xbf16>, %qw: tensor<1000x384xi8>, %s: tensor<6x1000xf32>) -> tensor<7x1000xbf16> {
  %q = tile.unpack %qw signed : tensor<1000x384xi8> -> tensor<1000x768xi8>
  %st = tile.transpose %s : tensor<6x1000xf32> -> tensor<1000x6xf32>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<1000x6xf32> -> tensor<1000x768xf32>
  %w = tile.map (%q, %sr) : (tensor<1000x768xi8>, tensor<1000x768xf32>) -> tensor<1000x768xbf16> {
  ^bb0(%qi: i8, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<1000x768xbf16> -> tensor<768x1000xbf16>
  %y = tile.matmul %x, %wt : (tensor<7x768xbf16>, tensor<768x1000xbf16>) -> tensor<7x1000xf32>
  %o = tile.cast %y : tensor<7x1000xf32> -> tensor<7x1000xbf16>
  return %o : tensor<7x1000xbf16>
}
