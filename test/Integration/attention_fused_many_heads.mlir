// Attention over [4, 40, 256, 128]: 160 heads, more than the SMs, with
// --fast-math, from the math written out (one fused kernel).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --fast-math --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --fast-math --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse --fast-math
// CHECK: RESULT attention status=PASS

func.func @attention(%q: tensor<4x40x256x128xbf16>, %k: tensor<4x40x256x128xbf16>, %v: tensor<4x40x256x128xbf16>) -> tensor<4x40x256x128xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %kt = tile.transpose %k : tensor<4x40x256x128xbf16> -> tensor<4x40x128x256xbf16>
  %s = tile.matmul %q, %kt : (tensor<4x40x256x128xbf16>, tensor<4x40x128x256xbf16>) -> tensor<4x40x256x256xf32>
  %x = tile.map (%s) : (tensor<4x40x256x256xf32>) -> tensor<4x40x256x256xf32> {
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<4x40x256x256xf32>, f32 -> tensor<4x40x256xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<4x40x256xf32> -> tensor<4x40x256x256xf32>
  %e = tile.map (%x, %mb) : (tensor<4x40x256x256xf32>, tensor<4x40x256x256xf32>) -> tensor<4x40x256x256xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<4x40x256x256xf32>, f32 -> tensor<4x40x256xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<4x40x256xf32> -> tensor<4x40x256x256xf32>
  %p = tile.map (%e, %sb) : (tensor<4x40x256x256xf32>, tensor<4x40x256x256xf32>) -> tensor<4x40x256x256xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<4x40x256x256xbf16>, tensor<4x40x256x128xbf16>) -> tensor<4x40x256x128xf32>
  %ob = tile.cast %o : tensor<4x40x256x128xf32> -> tensor<4x40x256x128xbf16>
  return %ob : tensor<4x40x256x128xbf16>
}
