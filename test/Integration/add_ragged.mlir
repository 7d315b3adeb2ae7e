// Elementwise add over a shape that fills no tile evenly.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm80.tilebundle
// RUN: tile-run %t.sm80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm90a.tilebundle
// RUN: tile-run %t.sm90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT add_ragged status=PASS

func.func @add_ragged(%a: tensor<1000x3001xf32>, %b: tensor<1000x3001xf32>) -> tensor<1000x3001xf32> {
  %y = tile.map (%a, %b) : (tensor<1000x3001xf32>, tensor<1000x3001xf32>) -> tensor<1000x3001xf32> {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    tile.yield %s : f32
  }
  return %y : tensor<1000x3001xf32>
}
