// The FlashAttention step of tile_attention_d64.mlir at D = 128 with its
// own wgmma schedule: 128 query rows per program on two consumer
// warpgroups, 128 keys per step, a two-slot TMA ring for the K^T and V
// tiles (tile-pipeline), P in registers as the second wgmma's A. The
// scores' row statistics (instr N 128) rescale the 128-column output.
// S = 640 keys. sm_90a only (the schedule is wgmma's).
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// TILE-CHIPS: sm_90a
// CHECK: RESULT attn status=PASS

func.func @attn(%Q: memref<640x128xbf16>, %KT: memref<640x128xbf16>, %V: memref<640x128xbf16>, %O: memref<640x128xbf16>) {
  tile.kernel @attn_0 grid [5, 1] threads 256 (%Q, %KT, %V, %O) : memref<640x128xbf16>, memref<640x128xbf16>, memref<640x128xbf16>, memref<640x128xbf16> attributes {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2>} {
  ^bb0(%q: memref<640x128xbf16>, %kt: memref<640x128xbf16>, %v: memref<640x128xbf16>, %o: memref<640x128xbf16>):
    %c0 = arith.constant 0 : index
    %cBM = arith.constant 128 : index
    %cBN = arith.constant 128 : index
    %cS = arith.constant 640 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.08838834764831843 : f32
    %pm = tile.program_id 0
    %ph = tile.program_id 1
    %hS = arith.muli %ph, %cS : index
    %mr = arith.muli %pm, %cBM : index
    %m0 = arith.addi %hS, %mr : index
    %tq = tile.load %q[%m0, %c0] : memref<640x128xbf16> -> !tile.tile<128x128xbf16>
    %zs = tile.splat %zero : f32 -> !tile.tile<128x128xf32>
    %z = tile.splat %zero : f32 -> !tile.tile<128x128xf32>
    %mi = tile.splat %ninf : f32 -> !tile.tile<128xf32>
    %li = tile.splat %zero : f32 -> !tile.tile<128xf32>
    %res:3 = scf.for %n = %c0 to %cS step %cBN iter_args(%acc = %z, %m = %mi, %l = %li) -> (!tile.tile<128x128xf32>, !tile.tile<128xf32>, !tile.tile<128xf32>) {
      %kr = arith.addi %hS, %n : index
      %tkn = tile.load %kt[%kr, %c0] : memref<640x128xbf16> -> !tile.tile<128x128xbf16>
      %tk = tile.transpose %tkn : !tile.tile<128x128xbf16> -> !tile.tile<128x128xbf16>
      %s = tile.dot %tq, %tk, %zs : !tile.tile<128x128xbf16>, !tile.tile<128x128xbf16> -> !tile.tile<128x128xf32>
      %mx = tile.reduce %s, %ninf dim = 1 : !tile.tile<128x128xf32>, f32 -> !tile.tile<128xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.maximumf %a, %b : f32
        tile.yield %r : f32
      }
      %mn = tile.map (%m, %mx) : (!tile.tile<128xf32>, !tile.tile<128xf32>) -> !tile.tile<128xf32> {
      ^bb0(%a: f32, %b: f32):
        %bs = arith.mulf %b, %scale : f32
        %r = arith.maximumf %a, %bs : f32
        tile.yield %r : f32
      }
      %mb = tile.broadcast %mn [1] : !tile.tile<128xf32> -> !tile.tile<128x128xf32>
      %p = tile.map (%s, %mb) : (!tile.tile<128x128xf32>, !tile.tile<128x128xf32>) -> !tile.tile<128x128xf32> {
      ^bb0(%a: f32, %b: f32):
        %as = arith.mulf %a, %scale : f32
        %d = arith.subf %as, %b : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }
      %ls = tile.reduce %p, %zero dim = 1 : !tile.tile<128x128xf32>, f32 -> !tile.tile<128xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        tile.yield %r : f32
      }
      %alpha = tile.map (%m, %mn) : (!tile.tile<128xf32>, !tile.tile<128xf32>) -> !tile.tile<128xf32> {
      ^bb0(%a: f32, %b: f32):
        %d = arith.subf %a, %b : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }
      %ln = tile.map (%l, %alpha, %ls) : (!tile.tile<128xf32>, !tile.tile<128xf32>, !tile.tile<128xf32>) -> !tile.tile<128xf32> {
      ^bb0(%a: f32, %b: f32, %c: f32):
        %t = arith.mulf %a, %b : f32
        %r = arith.addf %t, %c : f32
        tile.yield %r : f32
      }
      %ab = tile.broadcast %alpha [1] : !tile.tile<128xf32> -> !tile.tile<128x128xf32>
      %accs = tile.map (%acc, %ab) : (!tile.tile<128x128xf32>, !tile.tile<128x128xf32>) -> !tile.tile<128x128xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.mulf %a, %b : f32
        tile.yield %r : f32
      }
      %pb = tile.cast %p : !tile.tile<128x128xf32> -> !tile.tile<128x128xbf16>
      %tv = tile.load %v[%kr, %c0] : memref<640x128xbf16> -> !tile.tile<128x128xbf16>
      %acc2 = tile.dot %pb, %tv, %accs : !tile.tile<128x128xbf16>, !tile.tile<128x128xbf16> -> !tile.tile<128x128xf32>
      scf.yield %acc2, %mn, %ln : !tile.tile<128x128xf32>, !tile.tile<128xf32>, !tile.tile<128xf32>
    }
    %lb = tile.broadcast %res#2 [1] : !tile.tile<128xf32> -> !tile.tile<128x128xf32>
    %out = tile.map (%res#0, %lb) : (!tile.tile<128x128xf32>, !tile.tile<128x128xf32>) -> !tile.tile<128x128xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      tile.yield %r : f32
    }
    %ob = tile.cast %out : !tile.tile<128x128xf32> -> !tile.tile<128x128xbf16>
    tile.store %ob, %o[%m0, %c0] : !tile.tile<128x128xbf16>, memref<640x128xbf16>
  }
  return
}

func.func @ref(%q: tensor<640x128xbf16>, %k: tensor<640x128xbf16>, %v: tensor<640x128xbf16>) -> tensor<640x128xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %kt = tile.transpose %k : tensor<640x128xbf16> -> tensor<128x640xbf16>
  %s = tile.matmul %q, %kt : (tensor<640x128xbf16>, tensor<128x640xbf16>) -> tensor<640x640xf32>
  %ss = tile.map (%s) : (tensor<640x640xf32>) -> tensor<640x640xf32> {
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
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
