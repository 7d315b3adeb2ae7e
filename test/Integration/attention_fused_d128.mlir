// The attention block of attention_fused_causal_ragged.mlir without a mask
// at D = 128, S = 640, with --fast-math (ex2.approx): one kernel, on
// sm_90a two consumer warpgroups of 64 query rows, 128 keys per step
// through a TMA ring that a producer warpgroup fills, both products on
// wgmma (P from registers).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --fast-math --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --fast-math --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse --fast-math
// CHECK: RESULT attention status=PASS

func.func @attention(%q: tensor<640x128xbf16>, %k: tensor<640x128xbf16>, %v: tensor<640x128xbf16>) -> tensor<640x128xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %kt = tile.transpose %k : tensor<640x128xbf16> -> tensor<128x640xbf16>
  %s = tile.matmul %q, %kt : (tensor<640x128xbf16>, tensor<128x640xbf16>) -> tensor<640x640xf32>
  %rows = tile.iota dim = 0 : tensor<640x640xi32>
  %cols = tile.iota dim = 1 : tensor<640x640xi32>
  %ss = tile.map (%s, %rows, %cols) : (tensor<640x640xf32>, tensor<640x640xi32>, tensor<640x640xi32>) -> tensor<640x640xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %ss, %ninf dim = 1 : tensor<640x640xf32>, f32 -> tensor<640xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<640xf32> -> tensor<640x640xf32>
  %e = tile.map (%ss, %mb) : (tensor<640x640xf32>, tensor<640x640xf32>) -> tensor<640x640xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<640x640xf32>, f32 -> tensor<640xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [1] : tensor<640xf32> -> tensor<640x640xf32>
  %p = tile.map (%e, %sb) : (tensor<640x640xf32>, tensor<640x640xf32>) -> tensor<640x640xbf16> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }
  %o = tile.matmul %p, %v : (tensor<640x640xbf16>, tensor<640x128xbf16>) -> tensor<640x128xf32>
  %ob = tile.cast %o : tensor<640x128xf32> -> tensor<640x128xbf16>
  return %ob : tensor<640x128xbf16>
}
