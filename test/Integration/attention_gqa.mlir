// Grouped-query attention: 8 query heads sharing 2 K/V heads (a
// tile.repeat of K's and V's head dimension by 4, as torch's
// enable_gqa=True), [B, H, S, D] = [2, 8, 1000, 64], causal, S ragged.
// tile-fuse takes the repeats into the attention block, and its kernel
// reads query head h's keys and values at K/V head h / 4: the repeated
// tensors are never made. Checked against the naive reference, which does
// make them.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT attention_gqa status=PASS

func.func @attention_gqa(%q: tensor<2x8x1000x64xbf16>, %k2: tensor<2x2x1000x64xbf16>, %v2: tensor<2x2x1000x64xbf16>) -> tensor<2x8x1000x64xbf16> {
  %k = tile.repeat %k2 dim = 1 times = 4 : tensor<2x2x1000x64xbf16> -> tensor<2x8x1000x64xbf16>
  %v = tile.repeat %v2 dim = 1 times = 4 : tensor<2x2x1000x64xbf16> -> tensor<2x8x1000x64xbf16>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %kt = tile.transpose %k : tensor<2x8x1000x64xbf16> -> tensor<2x8x64x1000xbf16>
  %s = tile.matmul %q, %kt : (tensor<2x8x1000x64xbf16>, tensor<2x8x64x1000xbf16>) -> tensor<2x8x1000x1000xf32>
  %rows = tile.iota dim = 2 : tensor<2x8x1000x1000xi32>
  %cols = tile.iota dim = 3 : tensor<2x8x1000x1000xi32>
  %x = tile.map (%s, %rows, %cols) : (tensor<2x8x1000x1000xf32>, tensor<2x8x1000x1000xi32>, tensor<2x8x1000x1000xi32>) -> tensor<2x8x1000x1000xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<2x8x1000x1000xf32>, f32 -> tensor<2x8x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<2x8x1000xf32> -> tensor<2x8x1000x1000xf32>
  %e = tile.map (%x, %mb) : (tensor<2x8x1000x1000xf32>, tensor<2x8x1000x1000xf32>) -> tensor<2x8x1000x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<2x8x1000x1000xf32>, f32 -> tensor<2x8x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<2x8x1000xf32> -> tensor<2x8x1000x1000xf32>
  %p = tile.map (%e, %sb) : (tensor<2x8x1000x1000xf32>, tensor<2x8x1000x1000xf32>) -> tensor<2x8x1000x1000xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<2x8x1000x1000xbf16>, tensor<2x8x1000x64xbf16>) -> tensor<2x8x1000x64xf32>
  %ob = tile.cast %o : tensor<2x8x1000x64xf32> -> tensor<2x8x1000x64xbf16>
  return %ob : tensor<2x8x1000x64xbf16>
}
