// Each row less its maximum, over wide rows of f32 (23 rows of 40001),
// the maximum taken of the input itself (no op in front of the reduction;
// tile-tile crashed on it). Against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT row_max_shift_wide_ragged status=PASS

func.func @row_max_shift_wide_ragged(%x: tensor<23x40001xf32>) -> tensor<23x40001xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<23x40001xf32>, f32 -> tensor<23xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %m [1] : tensor<23xf32> -> tensor<23x40001xf32>
  %y = tile.map (%x, %mb) : (tensor<23x40001xf32>, tensor<23x40001xf32>) -> tensor<23x40001xf32> {
  ^bb0(%v: f32, %t: f32):
    %d = arith.subf %v, %t : f32
    tile.yield %d : f32
  }
  return %y : tensor<23x40001xf32>
}
