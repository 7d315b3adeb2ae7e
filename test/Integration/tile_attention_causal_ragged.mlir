// The FlashAttention step of tile_attention_d64.mlir with a causal mask and
// a ragged sequence (S = 1000 keys and queries, not a multiple of 64):
// tile.iota gives each score its query and key position, a tile.map keeps
// the keys that exist and come at or before the query (-inf elsewhere),
// and each program's key loop stops at its last query (blocks above the
// diagonal are skipped, not masked). Checked against the tensor-level
// statement with the same mask (tensor tile.iota).
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// CHECK: RESULT attn status=PASS

func.func @attn(%Q: memref<1000x64xbf16>, %KT: memref<1000x64xbf16>, %V: memref<1000x64xbf16>, %O: memref<1000x64xbf16>) {
  tile.kernel @attn_0 grid [16, 1] threads 128 (%Q, %KT, %V, %O) : memref<1000x64xbf16>, memref<1000x64xbf16>, memref<1000x64xbf16>, memref<1000x64xbf16> {
  ^bb0(%q: memref<1000x64xbf16>, %kt: memref<1000x64xbf16>, %v: memref<1000x64xbf16>, %o: memref<1000x64xbf16>):
    %c0 = arith.constant 0 : index
    %cBM = arith.constant 64 : index
    %cBN = arith.constant 64 : index
    %cS = arith.constant 1000 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.125 : f32
    %cS32 = arith.constant 1000 : i32
    %pm = tile.program_id 0
    %ph = tile.program_id 1
    %hS = arith.muli %ph, %cS : index
    %mr = arith.muli %pm, %cBM : index
    %m0 = arith.addi %hS, %mr : index
    %tq = tile.load %q[%m0, %c0] : memref<1000x64xbf16> -> !tile.tile<64x64xbf16>
    %zs = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %mi = tile.splat %ninf : f32 -> !tile.tile<64xf32>
    %li = tile.splat %zero : f32 -> !tile.tile<64xf32>
    %hi = arith.addi %mr, %cBM : index
    %end = arith.minui %hi, %cS : index
    %res:3 = scf.for %n = %c0 to %end step %cBN iter_args(%acc = %z, %m = %mi, %l = %li) -> (!tile.tile<64x64xf32>, !tile.tile<64xf32>, !tile.tile<64xf32>) {
      %kr = arith.addi %hS, %n : index
      %tkn = tile.load %kt[%kr, %c0] : memref<1000x64xbf16> -> !tile.tile<64x64xbf16>
      %tk = tile.transpose %tkn : !tile.tile<64x64xbf16> -> !tile.tile<64x64xbf16>
      %s0 = tile.dot %tq, %tk, %zs : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      %ri = tile.iota dim = 0 : !tile.tile<64x64xi32>
      %ci = tile.iota dim = 1 : !tile.tile<64x64xi32>
      %m32 = arith.index_cast %mr : index to i32
      %n32 = arith.index_cast %n : index to i32
      %s = tile.map (%s0, %ri, %ci) : (!tile.tile<64x64xf32>, !tile.tile<64x64xi32>, !tile.tile<64x64xi32>) -> !tile.tile<64x64xf32> {
      ^bb0(%a: f32, %r: i32, %c: i32):
        %qp = arith.addi %r, %m32 : i32
        %kp = arith.addi %c, %n32 : i32
        %inside = arith.cmpi slt, %kp, %cS32 : i32
        %past = arith.cmpi sle, %kp, %qp : i32
        %keep = arith.andi %inside, %past : i1
        %sel = arith.select %keep, %a, %ninf : f32
        tile.yield %sel : f32
      }
      %mx = tile.reduce %s, %ninf dim = 1 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.maximumf %a, %b : f32
        tile.yield %r : f32
      }
      %mn = tile.map (%m, %mx) : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%a: f32, %b: f32):
        %bs = arith.mulf %b, %scale : f32
        %r = arith.maximumf %a, %bs : f32
        tile.yield %r : f32
      }
      %mb = tile.broadcast %mn [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
      %p = tile.map (%s, %mb) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
      ^bb0(%a: f32, %b: f32):
        %as = arith.mulf %a, %scale : f32
        %d = arith.subf %as, %b : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }
      %ls = tile.reduce %p, %zero dim = 1 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        tile.yield %r : f32
      }
      %alpha = tile.map (%m, %mn) : (!tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%a: f32, %b: f32):
        %d = arith.subf %a, %b : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }
      %ln = tile.map (%l, %alpha, %ls) : (!tile.tile<64xf32>, !tile.tile<64xf32>, !tile.tile<64xf32>) -> !tile.tile<64xf32> {
      ^bb0(%a: f32, %b: f32, %c: f32):
        %t = arith.mulf %a, %b : f32
        %r = arith.addf %t, %c : f32
        tile.yield %r : f32
      }
      %ab = tile.broadcast %alpha [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
      %accs = tile.map (%acc, %ab) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.mulf %a, %b : f32
        tile.yield %r : f32
      }
      %pb = tile.cast %p : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
      %tv = tile.load %v[%kr, %c0] : memref<1000x64xbf16> -> !tile.tile<64x64xbf16>
      %acc2 = tile.dot %pb, %tv, %accs : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %acc2, %mn, %ln : !tile.tile<64x64xf32>, !tile.tile<64xf32>, !tile.tile<64xf32>
    }
    %lb = tile.broadcast %res#2 [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %out = tile.map (%res#0, %lb) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      tile.yield %r : f32
    }
    %ob = tile.cast %out : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %ob, %o[%m0, %c0] : !tile.tile<64x64xbf16>, memref<1000x64xbf16>
  }
  return
}

func.func @ref(%q: tensor<1000x64xbf16>, %k: tensor<1000x64xbf16>, %v: tensor<1000x64xbf16>) -> tensor<1000x64xbf16> {
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
