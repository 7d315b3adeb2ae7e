// Causal attention at D = 128 over [2, 50, 512, 128], whole blocks, more
// pairs of query blocks than SMs: on sm_90a a TMA producer warpgroup, two
// consumer warpgroups taking turns at the tensor cores (pingpong), and one
// program per SM walking mirrored pairs of query blocks (blocks i and
// 3 - i of a head: every pair runs 5 key blocks). 68 of the 132 programs
// run two pairs, so the K/V ring, whose key loops change length from tile
// to tile, carries its position over.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --fast-math --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --fast-math --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse --fast-math
// CHECK: RESULT attention status=PASS

func.func @attention(%q: tensor<2x50x512x128xbf16>, %k: tensor<2x50x512x128xbf16>, %v: tensor<2x50x512x128xbf16>) -> tensor<2x50x512x128xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %kt = tile.transpose %k : tensor<2x50x512x128xbf16> -> tensor<2x50x128x512xbf16>
  %s = tile.matmul %q, %kt : (tensor<2x50x512x128xbf16>, tensor<2x50x128x512xbf16>) -> tensor<2x50x512x512xf32>
  %rows = tile.iota dim = 2 : tensor<2x50x512x512xi32>
  %cols = tile.iota dim = 3 : tensor<2x50x512x512xi32>
  %x = tile.map (%s, %rows, %cols) : (tensor<2x50x512x512xf32>, tensor<2x50x512x512xi32>, tensor<2x50x512x512xi32>) -> tensor<2x50x512x512xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<2x50x512x512xf32>, f32 -> tensor<2x50x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<2x50x512xf32> -> tensor<2x50x512x512xf32>
  %e = tile.map (%x, %mb) : (tensor<2x50x512x512xf32>, tensor<2x50x512x512xf32>) -> tensor<2x50x512x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<2x50x512x512xf32>, f32 -> tensor<2x50x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<2x50x512xf32> -> tensor<2x50x512x512xf32>
  %p = tile.map (%e, %sb) : (tensor<2x50x512x512xf32>, tensor<2x50x512x512xf32>) -> tensor<2x50x512x512xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<2x50x512x512xbf16>, tensor<2x50x512x128xbf16>) -> tensor<2x50x512x128xf32>
  %ob = tile.cast %o : tensor<2x50x512x128xf32> -> tensor<2x50x512x128xbf16>
  return %ob : tensor<2x50x512x128xbf16>
}
