// Softmax of the values within 0.25 of their row's maximum, the others
// masked to -inf first (as attention masks do): exp gives exact zeros,
// whole vectors of them (divided as x * r, tile-divide-by-reciprocal),
// vectors that mix zeros and values (the IEEE division) and vectors of
// values (the reciprocal and its correction). 99 rows of 3001, fused into
// one kernel. Against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_near_max_ragged status=PASS

func.func @softmax_near_max_ragged(%x: tensor<99x3001xbf16>) -> tensor<99x3001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<99x3001xbf16> -> tensor<99x3001xf32>
  %top = tile.reduce %xf, %ninf dim = 1 : tensor<99x3001xf32>, f32 -> tensor<99xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %topb = tile.broadcast %top [1] : tensor<99xf32> -> tensor<99x3001xf32>
  %kept = tile.map (%xf, %topb) : (tensor<99x3001xf32>, tensor<99x3001xf32>) -> tensor<99x3001xf32> {
  ^bb0(%v: f32, %t: f32):
    %quarter = arith.constant 0.25 : f32
    %ninf2 = arith.constant 0xFF800000 : f32
    %floor = arith.subf %t, %quarter : f32
    %far = arith.cmpf olt, %v, %floor : f32
    %k = arith.select %far, %ninf2, %v : f32
    tile.yield %k : f32
  }
  %max = tile.reduce %kept, %ninf dim = 1 : tensor<99x3001xf32>, f32 -> tensor<99xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<99xf32> -> tensor<99x3001xf32>
  %e = tile.map (%kept, %maxb) : (tensor<99x3001xf32>, tensor<99x3001xf32>) -> tensor<99x3001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<99x3001xf32>, f32 -> tensor<99xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<99xf32> -> tensor<99x3001xf32>
  %y = tile.map (%e, %sumb) : (tensor<99x3001xf32>, tensor<99x3001xf32>) -> tensor<99x3001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<99x3001xbf16>
}
