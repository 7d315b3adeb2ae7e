// Fused layernorm, 3 rows per program: the next row is copied to shared memory (cp.async) while the current one is computed; 1000 rows leave the last program one row. Against the unfused reference.
// REQUIRES: cuda-device
// TILE-COMPILE-FLAGS: --tile-options=rows-per-program=3
// RUN: tile-compile %s --chip=sm_80 --tile-options=rows-per-program=3 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a --tile-options=rows-per-program=3 -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT layernorm_rows_async_ragged status=PASS

func.func @layernorm_rows_async_ragged(%x: tensor<1000x1000xbf16>, %g: tensor<1000xbf16>, %beta: tensor<1000xbf16>) -> tensor<1000x1000xbf16> {
  %zero = arith.constant 0.0 : f32
  %inv_n = arith.constant 1.0000000000e-03 : f32
  %eps = arith.constant 1.0e-05 : f32
  %xf = tile.cast %x : tensor<1000x1000xbf16> -> tensor<1000x1000xf32>
  %sum = tile.reduce %xf, %zero dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %mean = tile.map (%sum) : (tensor<1000xf32>) -> tensor<1000xf32> {
  ^bb0(%s: f32):
    %r = arith.mulf %s, %inv_n : f32
    tile.yield %r : f32
  }
  %meanb = tile.broadcast %mean [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %xc = tile.map (%xf, %meanb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  ^bb0(%v: f32, %mu: f32):
    %r = arith.subf %v, %mu : f32
    tile.yield %r : f32
  }
  %sq = tile.map (%xc) : (tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  ^bb0(%v: f32):
    %r = arith.mulf %v, %v : f32
    tile.yield %r : f32
  }
  %ss = tile.reduce %sq, %zero dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %rstd = tile.map (%ss) : (tensor<1000xf32>) -> tensor<1000xf32> {
  ^bb0(%s: f32):
    %v = arith.mulf %s, %inv_n : f32
    %ve = arith.addf %v, %eps : f32
    %r = math.rsqrt %ve : f32
    tile.yield %r : f32
  }
  %rb = tile.broadcast %rstd [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %gb = tile.broadcast %g [0] : tensor<1000xbf16> -> tensor<1000x1000xbf16>
  %bb = tile.broadcast %beta [0] : tensor<1000xbf16> -> tensor<1000x1000xbf16>
  %y = tile.map (%xc, %rb, %gb, %bb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>, tensor<1000x1000xbf16>, tensor<1000x1000xbf16>) -> tensor<1000x1000xbf16> {
  ^bb0(%v: f32, %r: f32, %gv: bf16, %bv: bf16):
    %gf = arith.extf %gv : bf16 to f32
    %bf = arith.extf %bv : bf16 to f32
    %n1 = arith.mulf %v, %r : f32
    %n2 = arith.mulf %n1, %gf : f32
    %n3 = arith.addf %n2, %bf : f32
    %h = arith.truncf %n3 : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<1000x1000xbf16>
}
