// Causal attention with a sliding window of 128 keys (Mistral's): a second
// score map by position hides every key of a row's first blocks (rows from
// 255 on see nothing in keys 0-127), where the running max is still -inf.
// The fused kernel subtracts 0 instead of -inf there (FlashAttention-2's
// safe max): before, exp(-inf + inf) made every such row NaN. S = 1000 is
// ragged against the 128-key blocks. Checked against the reference of the
// same math (the unfused softmax).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT sliding_window status=PASS

func.func @sliding_window(%q: tensor<1000x64xbf16>, %k: tensor<1000x64xbf16>, %v: tensor<1000x64xbf16>) -> tensor<1000x64xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %w = arith.constant 128 : i32
  %kt = tile.transpose %k : tensor<1000x64xbf16> -> tensor<64x1000xbf16>
  %s = tile.matmul %q, %kt : (tensor<1000x64xbf16>, tensor<64x1000xbf16>) -> tensor<1000x1000xf32>
  %rows = tile.iota dim = 0 : tensor<1000x1000xi32>
  %cols = tile.iota dim = 1 : tensor<1000x1000xi32>
  %rows2 = tile.iota dim = 0 : tensor<1000x1000xi32>
  %cols2 = tile.iota dim = 1 : tensor<1000x1000xi32>
  %ss = tile.map (%s, %rows, %cols) : (tensor<1000x1000xf32>, tensor<1000x1000xi32>, tensor<1000x1000xi32>) -> tensor<1000x1000xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %a, %ninf : f32
    tile.yield %m : f32
  }
  %sw = tile.map (%ss, %rows2, %cols2) : (tensor<1000x1000xf32>, tensor<1000x1000xi32>, tensor<1000x1000xi32>) -> tensor<1000x1000xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %d = arith.subi %i, %j : i32
    %keep = arith.cmpi slt, %d, %w : i32
    %r = arith.mulf %a, %scale : f32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %sw, %ninf dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %e = tile.map (%sw, %mb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
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
