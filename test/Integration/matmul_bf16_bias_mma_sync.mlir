// A fused matmul + bias + scale + cast on the sm_80 path: the epilogue runs
// on the mma.sync accumulator fragments (2 columns per thread and row), with
// M ragged and N not a multiple of the 128-wide block.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_bf16_bias_mma_sync status=PASS

func.func @matmul_bf16_bias_mma_sync(%a: tensor<257x296xbf16>, %b: tensor<296x136xbf16>, %bias: tensor<136xf32>) -> tensor<257x136xbf16> {
  %c = tile.matmul %a, %b : (tensor<257x296xbf16>, tensor<296x136xbf16>) -> tensor<257x136xf32>
  %bb = tile.broadcast %bias [0] : tensor<136xf32> -> tensor<257x136xf32>
  %half = arith.constant 0.5 : f32
  %y = tile.map (%c, %bb) : (tensor<257x136xf32>, tensor<257x136xf32>) -> tensor<257x136xf32> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.mulf %s, %half : f32
    tile.yield %t : f32
  }
  %o = tile.cast %y : tensor<257x136xf32> -> tensor<257x136xbf16>
  return %o : tensor<257x136xbf16>
}
