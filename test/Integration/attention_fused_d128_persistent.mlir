// Attention at D = 128 over [2, 10, 1024, 128], with no mask, whole
// blocks and more query blocks than SMs: on sm_90a a TMA producer
// warpgroup, two consumer warpgroups of 64 query rows taking turns at the
// tensor cores (pingpong), and persistent programs walking the 160 query
// blocks, each head's adjacent: 80 programs (the fewest for the two
// rounds 132 SMs would take) run two tiles each, so the K/V ring and Q's
// ring carry over from one tile to the next.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --fast-math --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --fast-math --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse --fast-math
// CHECK: RESULT attention status=PASS

func.func @attention(%q: tensor<2x10x1024x128xbf16>, %k: tensor<2x10x1024x128xbf16>, %v: tensor<2x10x1024x128xbf16>) -> tensor<2x10x1024x128xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %kt = tile.transpose %k : tensor<2x10x1024x128xbf16> -> tensor<2x10x128x1024xbf16>
  %s = tile.matmul %q, %kt : (tensor<2x10x1024x128xbf16>, tensor<2x10x128x1024xbf16>) -> tensor<2x10x1024x1024xf32>
  %x = tile.map (%s) : (tensor<2x10x1024x1024xf32>) -> tensor<2x10x1024x1024xf32> {
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<2x10x1024x1024xf32>, f32 -> tensor<2x10x1024xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<2x10x1024xf32> -> tensor<2x10x1024x1024xf32>
  %e = tile.map (%x, %mb) : (tensor<2x10x1024x1024xf32>, tensor<2x10x1024x1024xf32>) -> tensor<2x10x1024x1024xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<2x10x1024x1024xf32>, f32 -> tensor<2x10x1024xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<2x10x1024xf32> -> tensor<2x10x1024x1024xf32>
  %p = tile.map (%e, %sb) : (tensor<2x10x1024x1024xf32>, tensor<2x10x1024x1024xf32>) -> tensor<2x10x1024x1024xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<2x10x1024x1024xbf16>, tensor<2x10x1024x128xbf16>) -> tensor<2x10x1024x128xf32>
  %ob = tile.cast %o : tensor<2x10x1024x128xf32> -> tensor<2x10x1024x128xbf16>
  return %ob : tensor<2x10x1024x128xbf16>
}
