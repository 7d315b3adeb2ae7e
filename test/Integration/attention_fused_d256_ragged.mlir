// Attention at head dimension 256 (issue 15: "256 if it fits"), with
// --fast-math: one kernel, on sm_90a two consumer warpgroups of 64 query
// rows and a producer warpgroup, 64 keys a step (128 would not fit two
// stages of K and V in shared memory: tile-configure), both products on
// wgmma; on sm_80 mma.sync (it spills: correct, not fast). Causal with a
// ragged S (1000: a last block of 104 rows, keys past S masked) over 3
// heads, and without a mask over B = 2, H = 2, S = 512.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --fast-math --chip=sm_80 --function=attention_d256_causal -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --fast-math --chip=sm_90a --function=attention_d256_causal -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --fast-math --chip=sm_90a --function=attention_d256 -o %t.whole.tilebundle
// RUN: tile-run %t.whole.tilebundle --repeats 3 | FileCheck %s --check-prefix=WHOLE
// TILE-COMPILE-FLAGS: --fuse --fast-math --function=attention_d256_causal
// CHECK: RESULT attention_d256_causal status=PASS
// WHOLE: RESULT attention_d256 status=PASS

func.func @attention_d256_causal(%q: tensor<1x3x1000x256xbf16>, %k: tensor<1x3x1000x256xbf16>, %v: tensor<1x3x1000x256xbf16>) -> tensor<1x3x1000x256xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.0625 : f32
  %kt = tile.transpose %k : tensor<1x3x1000x256xbf16> -> tensor<1x3x256x1000xbf16>
  %s = tile.matmul %q, %kt : (tensor<1x3x1000x256xbf16>, tensor<1x3x256x1000xbf16>) -> tensor<1x3x1000x1000xf32>
  %rows = tile.iota dim = 2 : tensor<1x3x1000x1000xi32>
  %cols = tile.iota dim = 3 : tensor<1x3x1000x1000xi32>
  %x = tile.map (%s, %rows, %cols) : (tensor<1x3x1000x1000xf32>, tensor<1x3x1000x1000xi32>, tensor<1x3x1000x1000xi32>) -> tensor<1x3x1000x1000xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<1x3x1000x1000xf32>, f32 -> tensor<1x3x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<1x3x1000xf32> -> tensor<1x3x1000x1000xf32>
  %e = tile.map (%x, %mb) : (tensor<1x3x1000x1000xf32>, tensor<1x3x1000x1000xf32>) -> tensor<1x3x1000x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<1x3x1000x1000xf32>, f32 -> tensor<1x3x1000xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<1x3x1000xf32> -> tensor<1x3x1000x1000xf32>
  %p = tile.map (%e, %sb) : (tensor<1x3x1000x1000xf32>, tensor<1x3x1000x1000xf32>) -> tensor<1x3x1000x1000xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<1x3x1000x1000xbf16>, tensor<1x3x1000x256xbf16>) -> tensor<1x3x1000x256xf32>
  %ob = tile.cast %o : tensor<1x3x1000x256xf32> -> tensor<1x3x1000x256xbf16>
  return %ob : tensor<1x3x1000x256xbf16>
}

func.func @attention_d256(%q: tensor<2x2x512x256xbf16>, %k: tensor<2x2x512x256xbf16>, %v: tensor<2x2x512x256xbf16>) -> tensor<2x2x512x256xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.0625 : f32
  %kt = tile.transpose %k : tensor<2x2x512x256xbf16> -> tensor<2x2x256x512xbf16>
  %s = tile.matmul %q, %kt : (tensor<2x2x512x256xbf16>, tensor<2x2x256x512xbf16>) -> tensor<2x2x512x512xf32>
  %x = tile.map (%s) : (tensor<2x2x512x512xf32>) -> tensor<2x2x512x512xf32> {
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<2x2x512x512xf32>, f32 -> tensor<2x2x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<2x2x512xf32> -> tensor<2x2x512x512xf32>
  %e = tile.map (%x, %mb) : (tensor<2x2x512x512xf32>, tensor<2x2x512x512xf32>) -> tensor<2x2x512x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<2x2x512x512xf32>, f32 -> tensor<2x2x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<2x2x512xf32> -> tensor<2x2x512x512xf32>
  %p = tile.map (%e, %sb) : (tensor<2x2x512x512xf32>, tensor<2x2x512x512xf32>) -> tensor<2x2x512x512xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<2x2x512x512xbf16>, tensor<2x2x512x256xbf16>) -> tensor<2x2x512x256xf32>
  %ob = tile.cast %o : tensor<2x2x512x256xf32> -> tensor<2x2x512x256xbf16>
  return %ob : tensor<2x2x512x256xbf16>
}
