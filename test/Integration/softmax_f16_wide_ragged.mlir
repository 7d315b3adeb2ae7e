// Fused softmax over wide rows of f16 (37 rows of 42487: walked in chunks,
// staged in shared memory on sm_90a, edge chunks of a quarter run): the
// running max stays f16 in the chunk loops (max.NaN.f16x2,
// tile-narrow-min-max). Against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_f16_wide_ragged status=PASS

func.func @softmax_f16_wide_ragged(%x: tensor<37x42487xf16>) -> tensor<37x42487xf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<37x42487xf16> -> tensor<37x42487xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<37x42487xf32>, f32 -> tensor<37xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<37xf32> -> tensor<37x42487xf32>
  %e = tile.map (%xf, %maxb) : (tensor<37x42487xf32>, tensor<37x42487xf32>) -> tensor<37x42487xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<37x42487xf32>, f32 -> tensor<37xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<37xf32> -> tensor<37x42487xf32>
  %y = tile.map (%e, %sumb) : (tensor<37x42487xf32>, tensor<37x42487xf32>) -> tensor<37x42487xf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to f16
    tile.yield %h : f16
  }
  return %y : tensor<37x42487xf16>
}
