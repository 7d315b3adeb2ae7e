// Multi-query attention at D = 128: 4 query heads sharing one K/V head,
// [H, S, D] = [4, 512, 128] (B = 1 and the single K/V head are unit
// dimensions, not in the IR, so K and V reach the heads by a tile.broadcast
// of the head dimension), causal. The attention kernel (a TMA producer
// warpgroup at D = 128 on sm_90a) reads every head's keys from the one K/V
// head. Checked against the naive reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT attention_mqa status=PASS

func.func @attention_mqa(%q: tensor<4x512x128xbf16>, %k1: tensor<512x128xbf16>, %v1: tensor<512x128xbf16>) -> tensor<4x512x128xbf16> {
  %k = tile.broadcast %k1 [0] : tensor<512x128xbf16> -> tensor<4x512x128xbf16>
  %v = tile.broadcast %v1 [0] : tensor<512x128xbf16> -> tensor<4x512x128xbf16>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831845 : f32
  %kt = tile.transpose %k : tensor<4x512x128xbf16> -> tensor<4x128x512xbf16>
  %s = tile.matmul %q, %kt : (tensor<4x512x128xbf16>, tensor<4x128x512xbf16>) -> tensor<4x512x512xf32>
  %rows = tile.iota dim = 1 : tensor<4x512x512xi32>
  %cols = tile.iota dim = 2 : tensor<4x512x512xi32>
  %x = tile.map (%s, %rows, %cols) : (tensor<4x512x512xf32>, tensor<4x512x512xi32>, tensor<4x512x512xi32>) -> tensor<4x512x512xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %x, %ninf dim = 2 : tensor<4x512x512xf32>, f32 -> tensor<4x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [2] : tensor<4x512xf32> -> tensor<4x512x512xf32>
  %e = tile.map (%x, %mb) : (tensor<4x512x512xf32>, tensor<4x512x512xf32>) -> tensor<4x512x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 2 : tensor<4x512x512xf32>, f32 -> tensor<4x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [2] : tensor<4x512xf32> -> tensor<4x512x512xf32>
  %p = tile.map (%e, %sb) : (tensor<4x512x512xf32>, tensor<4x512x512xf32>) -> tensor<4x512x512xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<4x512x512xbf16>, tensor<4x512x128xbf16>) -> tensor<4x512x128xf32>
  %ob = tile.cast %o : tensor<4x512x128xf32> -> tensor<4x512x128xbf16>
  return %ob : tensor<4x512x128xbf16>
}
