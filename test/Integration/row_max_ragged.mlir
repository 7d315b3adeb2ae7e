// Row max of a ragged matrix: partial chunks must be padded with -inf.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm80.tilebundle
// RUN: tile-run %t.sm80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm90a.tilebundle
// RUN: tile-run %t.sm90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT row_max_ragged status=PASS

func.func @row_max_ragged(%x: tensor<1001x4097xf32>) -> tensor<1001xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<1001x4097xf32>, f32 -> tensor<1001xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  return %m : tensor<1001xf32>
}
