// Causal attention at D = 128 on the pipelined wgmma schedule of
// tile_attention_d128_pipelined.mlir (128 query rows, 64 keys per step, a
// two-slot TMA ring, 2 programs per SM), S = 4097: the last query block
// has one row, the key loop's trip count depends on the program, the last
// key block is ragged. With --fast-math (ex2.approx, as attention kernels
// use). sm_90a only.
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --fast-math --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref --fast-math
// TILE-CHIPS: sm_90a
// CHECK: RESULT attn status=PASS

func.func @attn(%Q: memref<4097x128xbf16>, %KT: memref<4097x128xbf16>, %V: memref<4097x128xbf16>, %O: memref<4097x128xbf16>) {
  tile.kernel @attn_0 grid [33, 1] threads 256 (%Q, %KT, %V, %O) : memref<4097x128xbf16>, memref<4097x128xbf16>, memref<4097x128xbf16>, memref<4097x128xbf16> attributes {min_programs_per_sm = 2, tile.config = #tile.config<block = [128, 64, 128], threads = 256, mma = wgmma, instr = [64, 64, 16], warps = [8, 1], stages = 2>} {
  ^bb0(%q: memref<4097x128xbf16>, %kt: memref<4097x128xbf16>, %v: memref<4097x128xbf16>, %o: memref<4097x128xbf16>):
    %c0 = arith.constant 0 : index
    %cBM = arith.constant 128 : index
    %cBN = arith.constant 64 : index
    %cS = arith.constant 4097 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.08838834764831843 : f32
    %cS32 = arith.constant 4097 : i32
    %pm = tile.program_id 0
    %ph = tile.program_id 1
    %hS = arith.muli %ph, %cS : index
    %mr = arith.muli %pm, %cBM : index
    %m0 = arith.addi %hS, %mr : index
    %tq = tile.load %q[%m0, %c0] : memref<4097x128xbf16> -> !tile.tile<128x128xbf16>
    %zs = tile.splat %zero : f32 -> !tile.tile<128x64xf32>
    %z = tile.splat %zero : f32 -> !tile.tile<128x128xf32>
    %mi = tile.splat %ninf : f32 -> !tile.tile<128xf32>
    %li = tile.splat %zero : f32 -> !tile.tile<128xf32>
    %hi = arith.addi %mr, %cBM : index
    %end = arith.minui %hi, %cS : index
    %res:3 = scf.for %n = %c0 to %end step %cBN iter_args(%acc = %z, %m = %mi, %l = %li) -> (!tile.tile<128x128xf32>, !tile.tile<128xf32>, !tile.tile<128xf32>) {
      %kr = arith.addi %hS, %n : index
      %tkn = tile.load %kt[%kr, %c0] : memref<4097x128xbf16> -> !tile.tile<64x128xbf16>
      %tk = tile.transpose %tkn : !tile.tile<64x128xbf16> -> !tile.tile<128x64xbf16>
      %s0 = tile.dot %tq, %tk, %zs : !tile.tile<128x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<128x64xf32>
      %ri = tile.iota dim = 0 : !tile.tile<128x64xi32>
      %ci = tile.iota dim = 1 : !tile.tile<128x64xi32>
      %m32 = arith.index_cast %mr : index to i32
      %n32 = arith.index_cast %n : index to i32
      %s = tile.map (%s0, %ri, %ci) : (!tile.tile<128x64xf32>, !tile.tile<128x64xi32>, !tile.tile<128x64xi32>) -> !tile.tile<128x64xf32> {
      ^bb0(%a: f32, %r: i32, %c: i32):
        %qp = arith.addi %r, %m32 : i32
        %kp = arith.addi %c, %n32 : i32
        %inside = arith.cmpi slt, %kp, %cS32 : i32
        %past = arith.cmpi sle, %kp, %qp : i32
        %keep = arith.andi %inside, %past : i1
        %sel = arith.select %keep, %a, %ninf : f32
        tile.yield %sel : f32
      }
      %mx = tile.reduce %s, %ninf dim = 1 : !tile.tile<128x64xf32>, f32 -> !tile.tile<128xf32> {
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
      %mb = tile.broadcast %mn [1] : !tile.tile<128xf32> -> !tile.tile<128x64xf32>
      %p = tile.map (%s, %mb) : (!tile.tile<128x64xf32>, !tile.tile<128x64xf32>) -> !tile.tile<128x64xf32> {
      ^bb0(%a: f32, %b: f32):
        %as = arith.mulf %a, %scale : f32
        %d = arith.subf %as, %b : f32
        %e = math.exp %d : f32
        tile.yield %e : f32
      }
      %ls = tile.reduce %p, %zero dim = 1 : !tile.tile<128x64xf32>, f32 -> !tile.tile<128xf32> {
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
      %pb = tile.cast %p : !tile.tile<128x64xf32> -> !tile.tile<128x64xbf16>
      %tv = tile.load %v[%kr, %c0] : memref<4097x128xbf16> -> !tile.tile<64x128xbf16>
      %acc2 = tile.dot %pb, %tv, %accs : !tile.tile<128x64xbf16>, !tile.tile<64x128xbf16> -> !tile.tile<128x128xf32>
      scf.yield %acc2, %mn, %ln : !tile.tile<128x128xf32>, !tile.tile<128xf32>, !tile.tile<128xf32>
    }
    %lb = tile.broadcast %res#2 [1] : !tile.tile<128xf32> -> !tile.tile<128x128xf32>
    %out = tile.map (%res#0, %lb) : (!tile.tile<128x128xf32>, !tile.tile<128x128xf32>) -> !tile.tile<128x128xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      tile.yield %r : f32
    }
    %ob = tile.cast %out : !tile.tile<128x128xf32> -> !tile.tile<128x128xbf16>
    tile.store %ob, %o[%m0, %c0] : !tile.tile<128x128xbf16>, memref<4097x128xbf16>
  }
  return
}

func.func @ref(%q: tensor<4097x128xbf16>, %k: tensor<4097x128xbf16>, %v: tensor<4097x128xbf16>) -> tensor<4097x128xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %kt = tile.transpose %k : tensor<4097x128xbf16> -> tensor<128x4097xbf16>
  %s = tile.matmul %q, %kt : (tensor<4097x128xbf16>, tensor<128x4097xbf16>) -> tensor<4097x4097xf32>
  %rows = tile.iota dim = 0 : tensor<4097x4097xi32>
  %cols = tile.iota dim = 1 : tensor<4097x4097xi32>
  %ss = tile.map (%s, %rows, %cols) : (tensor<4097x4097xf32>, tensor<4097x4097xi32>, tensor<4097x4097xi32>) -> tensor<4097x4097xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %ss, %ninf dim = 1 : tensor<4097x4097xf32>, f32 -> tensor<4097xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<4097xf32> -> tensor<4097x4097xf32>
  %e = tile.map (%ss, %mb) : (tensor<4097x4097xf32>, tensor<4097x4097xf32>) -> tensor<4097x4097xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<4097x4097xf32>, f32 -> tensor<4097xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [1] : tensor<4097xf32> -> tensor<4097x4097xf32>
  %p = tile.map (%e, %sb) : (tensor<4097x4097xf32>, tensor<4097x4097xf32>) -> tensor<4097x4097xbf16> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }
  %o = tile.matmul %p, %v : (tensor<4097x4097xbf16>, tensor<4097x128xbf16>) -> tensor<4097x128xf32>
  %ob = tile.cast %o : tensor<4097x128xf32> -> tensor<4097x128xbf16>
  return %ob : tensor<4097x128xbf16>
}
