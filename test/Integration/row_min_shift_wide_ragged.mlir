// Each row less its minimum, over wide rows of bf16 (29 rows of 50261,
// edge chunks of a quarter run; staged on sm_90a): the running minimum
// stays bf16 in the chunk loops (min.NaN.bf16x2, tile-narrow-min-max),
// masked to the row at the edge chunks (the filler, +inf, is exact in
// bf16). Against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT row_min_shift_wide_ragged status=PASS

func.func @row_min_shift_wide_ragged(%x: tensor<29x50261xbf16>) -> tensor<29x50261xf32> {
  %inf = arith.constant 0x7F800000 : f32
  %xf = tile.cast %x : tensor<29x50261xbf16> -> tensor<29x50261xf32>
  %min = tile.reduce %xf, %inf dim = 1 : tensor<29x50261xf32>, f32 -> tensor<29xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.minimumf %a, %b : f32
    tile.yield %r : f32
  }
  %minb = tile.broadcast %min [1] : tensor<29xf32> -> tensor<29x50261xf32>
  %y = tile.map (%xf, %minb) : (tensor<29x50261xf32>, tensor<29x50261xf32>) -> tensor<29x50261xf32> {
  ^bb0(%v: f32, %m: f32):
    %d = arith.subf %v, %m : f32
    tile.yield %d : f32
  }
  return %y : tensor<29x50261xf32>
}
