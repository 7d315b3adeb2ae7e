// Attention over [B, H, S, D] = [2, 3, 1000, 64] tensors (B * H = 6 heads,
// fewer than the SMs), causal, S ragged: the math written out (as
// bench/attention_tensor.py writes it) fuses into one kernel whose grid's
// second dimension walks the heads; each head's Q and output rows are a
// view of [B * H * S, D] (a ragged S must not write the next head's
// rows), K and V are read through TMA over the same rows with the keys past
// S masked; the causal mask ends each program's key loop at its last
// query. Checked against the naive reference of the same function.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT attention status=PASS

func.func @attention(%q: tensor<2x3x1000x64xbf16>, %k: tensor<2x3x1000x64xbf16>, %v: tensor<2x3x1000x64xbf16>) -> tensor<2x3x1000x64xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %kt = tile.transpose %k : tensor<2x3x1000x64xbf16> -> tensor<2x3x64x1000xbf16>
  %s = tile.matmul %q, %kt : (tensor<2x3x1000x64xbf16>, tensor<2x3x64x1000xbf16>) -> tensor<2x3x1000x1000xf32>
  %rows = tile.iota dim = 2 : tensor<2x3x1000x1000xi32>
  %cols = tile.iota dim = 3 : tensor<2x3x1000x1000xi32>
  %x = tile.map (%s, %rows, %cols) : (tensor<2x3x1000x1000xf32>, tensor<2x3x1000x1000xi32>, tensor<2x3x1000x1000xi32>) -> tensor<2x3x1000x1000xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<2x3x1000x1000xf32>, f32 -> tensor<2x3x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<2x3x1000xf32> -> tensor<2x3x1000x1000xf32>
  %e = tile.map (%x, %mb) : (tensor<2x3x1000x1000xf32>, tensor<2x3x1000x1000xf32>) -> tensor<2x3x1000x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<2x3x1000x1000xf32>, f32 -> tensor<2x3x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<2x3x1000xf32> -> tensor<2x3x1000x1000xf32>
  %p = tile.map (%e, %sb) : (tensor<2x3x1000x1000xf32>, tensor<2x3x1000x1000xf32>) -> tensor<2x3x1000x1000xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<2x3x1000x1000xbf16>, tensor<2x3x1000x64xbf16>) -> tensor<2x3x1000x64xf32>
  %ob = tile.cast %o : tensor<2x3x1000x64xf32> -> tensor<2x3x1000x64xbf16>
  return %ob : tensor<2x3x1000x64xbf16>
}
