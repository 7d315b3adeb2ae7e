// Row sum of a 4096x4096 matrix.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT row_sum status=PASS

func.func @row_sum(%x: tensor<4096x4096xf32>) -> tensor<4096xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %x, %zero dim = 1 : tensor<4096x4096xf32>, f32 -> tensor<4096xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  return %s : tensor<4096xf32>
}
