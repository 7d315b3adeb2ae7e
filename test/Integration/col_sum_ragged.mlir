// Column sum (reduction along dim 0) of a ragged matrix.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT col_sum_ragged status=PASS

func.func @col_sum_ragged(%x: tensor<777x1031xf32>) -> tensor<1031xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %x, %zero dim = 0 : tensor<777x1031xf32>, f32 -> tensor<1031xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  return %s : tensor<1031xf32>
}
