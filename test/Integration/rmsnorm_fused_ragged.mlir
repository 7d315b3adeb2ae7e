// Fused rmsnorm (one kernel) on 333 rows of 2056 bf16 against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT rmsnorm_fused_ragged status=PASS

func.func @rmsnorm_fused_ragged(%x: tensor<333x2056xbf16>, %g: tensor<2056xbf16>) -> tensor<333x2056xbf16> {
  %zero = arith.constant 0.0 : f32
  %inv_n = arith.constant 4.8638132296e-04 : f32
  %eps = arith.constant 1.0e-05 : f32
  %xf = tile.cast %x : tensor<333x2056xbf16> -> tensor<333x2056xf32>
  %sq = tile.map (%xf) : (tensor<333x2056xf32>) -> tensor<333x2056xf32> {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    tile.yield %r : f32
  }
  %ss = tile.reduce %sq, %zero dim = 1 : tensor<333x2056xf32>, f32 -> tensor<333xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %rstd = tile.map (%ss) : (tensor<333xf32>) -> tensor<333xf32> {
  ^bb0(%s: f32):
    %v = arith.mulf %s, %inv_n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %r : f32
  }
  %rb = tile.broadcast %rstd [1] : tensor<333xf32> -> tensor<333x2056xf32>
  %gb = tile.broadcast %g [0] : tensor<2056xbf16> -> tensor<333x2056xbf16>
  %y = tile.map (%xf, %rb, %gb) : (tensor<333x2056xf32>, tensor<333x2056xf32>, tensor<333x2056xbf16>) -> tensor<333x2056xbf16> {
  ^bb0(%v: f32, %r: f32, %gv: bf16):
    %gf = arith.extf %gv : bf16 to f32
    %n1 = arith.mulf %v, %r : f32
    %n2 = arith.mulf %n1, %gf : f32
    %h = arith.truncf %n2 : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<333x2056xbf16>
}
