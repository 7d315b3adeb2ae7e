// bf16 matmul, then a broadcast bias add and a cast back to bf16: three
// kernels (one per op until tile-fuse lands), intermediates in scratch.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_bf16_bias status=PASS

func.func @matmul_bf16_bias(%a: tensor<257x300xbf16>, %b: tensor<300x129xbf16>, %bias: tensor<129xf32>) -> tensor<257x129xbf16> {
  %c = tile.matmul %a, %b : (tensor<257x300xbf16>, tensor<300x129xbf16>) -> tensor<257x129xf32>
  %bb = tile.broadcast %bias [0] : tensor<129xf32> -> tensor<257x129xf32>
  %y = tile.map (%c, %bb) : (tensor<257x129xf32>, tensor<257x129xf32>) -> tensor<257x129xf32> {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    tile.yield %s : f32
  }
  %o = tile.cast %y : tensor<257x129xf32> -> tensor<257x129xbf16>
  return %o : tensor<257x129xbf16>
}
