// softmax(Q K^T / sqrt(D) + causal mask) V written out at the tensor level,
// with a ragged sequence (S = 1000): tile-fuse groups it into one
// attention block and tile-tile into one FlashAttention kernel (online
// softmax; the [S, S] scores never reach memory), checked against the
// naive reference of the same function (scores, softmax and products in
// memory). The mask is the causal one, from tile.iota positions.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT attention status=PASS

func.func @attention(%q: tensor<1000x64xbf16>, %k: tensor<1000x64xbf16>, %v: tensor<1000x64xbf16>) -> tensor<1000x64xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %kt = tile.transpose %k : tensor<1000x64xbf16> -> tensor<64x1000xbf16>
  %s = tile.matmul %q, %kt : (tensor<1000x64xbf16>, tensor<64x1000xbf16>) -> tensor<1000x1000xf32>
  %rows = tile.iota dim = 0 : tensor<1000x1000xi32>
  %cols = tile.iota dim = 1 : tensor<1000x1000xi32>
  %ss = tile.map (%s, %rows, %cols) : (tensor<1000x1000xf32>, tensor<1000x1000xi32>, tensor<1000x1000xi32>) -> tensor<1000x1000xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %ss, %ninf dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %e = tile.map (%ss, %mb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %p = tile.map (%e, %sb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xbf16> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }
  %o = tile.matmul %p, %v : (tensor<1000x1000xbf16>, tensor<1000x64xbf16>) -> tensor<1000x64xf32>
  %ob = tile.cast %o : tensor<1000x64xf32> -> tensor<1000x64xbf16>
  return %ob : tensor<1000x64xbf16>
}
