// Decode attention (one query row per head) with grouped-query heads (8
// query heads on 2 K/V heads, tile.repeat) over S = 333 keys, D = 128. On
// sm_90a tile-configure gives attention with fewer than 64 query rows no
// wgmma config (tile-tile's block shrinks to the rows, below wgmma's 64):
// before, such a group was a located error on sm_90a ("does not fit
// tile.config's wgmma schedule"); now the kernel's own dots choose, as on
// sm_80. Checked against the reference of the same math.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT decode_attention status=PASS

func.func @decode_attention(%q: tensor<2x8x1x128xbf16>, %k0: tensor<2x2x333x128xbf16>, %v0: tensor<2x2x333x128xbf16>) -> tensor<2x8x1x128xbf16> {
  %k = tile.repeat %k0 dim = 1 times = 4 : tensor<2x2x333x128xbf16> -> tensor<2x8x333x128xbf16>
  %v = tile.repeat %v0 dim = 1 times = 4 : tensor<2x2x333x128xbf16> -> tensor<2x8x333x128xbf16>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %kt = tile.transpose %k : tensor<2x8x333x128xbf16> -> tensor<2x8x128x333xbf16>
  %s = tile.matmul %q, %kt : (tensor<2x8x1x128xbf16>, tensor<2x8x128x333xbf16>) -> tensor<2x8x1x333xf32>
  %x = tile.map (%s) : (tensor<2x8x1x333xf32>) -> tensor<2x8x1x333xf32> {
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<2x8x1x333xf32>, f32 -> tensor<2x8x1xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<2x8x1xf32> -> tensor<2x8x1x333xf32>
  %e = tile.map (%x, %mb) : (tensor<2x8x1x333xf32>, tensor<2x8x1x333xf32>) -> tensor<2x8x1x333xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<2x8x1x333xf32>, f32 -> tensor<2x8x1xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<2x8x1xf32> -> tensor<2x8x1x333xf32>
  %p = tile.map (%e, %sb) : (tensor<2x8x1x333xf32>, tensor<2x8x1x333xf32>) -> tensor<2x8x1x333xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<2x8x1x333xbf16>, tensor<2x8x333x128xbf16>) -> tensor<2x8x1x128xf32>
  %ob = tile.cast %o : tensor<2x8x1x128xf32> -> tensor<2x8x1x128xbf16>
  return %ob : tensor<2x8x1x128xbf16>
}
