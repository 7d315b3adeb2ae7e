// Fused softmax from f32 rows to bf16 rows, 19 x 40001: wide rows shifted to 16-byte runs of the narrowest type (8 elements), so the f32 input moves in aligned 32-byte runs and the bf16 output in 16-byte runs, through one-row views. Checked against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_f32_in_wide_ragged status=PASS

func.func @softmax_f32_in_wide_ragged(%x: tensor<19x40001xf32>) -> tensor<19x40001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.map (%x) : (tensor<19x40001xf32>) -> tensor<19x40001xf32> {
  ^bb0(%v: f32):
    tile.yield %v : f32
  }
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<19x40001xf32>, f32 -> tensor<19xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<19xf32> -> tensor<19x40001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<19x40001xf32>, tensor<19x40001xf32>) -> tensor<19x40001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<19x40001xf32>, f32 -> tensor<19xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<19xf32> -> tensor<19x40001xf32>
  %y = tile.map (%e, %sumb) : (tensor<19x40001xf32>, tensor<19x40001xf32>) -> tensor<19x40001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<19x40001xbf16>
}
