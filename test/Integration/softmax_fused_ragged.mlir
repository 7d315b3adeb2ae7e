// Fused softmax (one kernel) on ragged bf16 rows of 1001 (no 16-byte runs) checked against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_fused_ragged status=PASS

func.func @softmax_fused_ragged(%x: tensor<777x1001xbf16>) -> tensor<777x1001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<777x1001xbf16> -> tensor<777x1001xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<777x1001xf32>, f32 -> tensor<777xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<777xf32> -> tensor<777x1001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<777x1001xf32>, tensor<777x1001xf32>) -> tensor<777x1001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<777x1001xf32>, f32 -> tensor<777xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<777xf32> -> tensor<777x1001xf32>
  %y = tile.map (%e, %sumb) : (tensor<777x1001xf32>, tensor<777x1001xf32>) -> tensor<777x1001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<777x1001xbf16>
}
