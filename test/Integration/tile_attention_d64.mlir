// A FlashAttention forward step written by hand at the tile level: one
// program per 64 query rows walks the keys 64 at a time, S = Q K^T on the
// tensor cores, the online softmax (running row max and sum) on S's
// accumulator registers, O = O * alpha + P V with P the rescaled scores
// cast to bf16. Checked against the three-kernel tensor-level statement
// (softmax of the scaled scores, then P V). On sm_90a both dots are
// wgmma and P stays in registers as the second's A operand; on sm_80 both
// are mma.sync. K is read as stored ([S, D]) and tile.transpose views the
// tile as K^T (a K-major B operand, no copy). S = 384 keys, D = 64.
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// CHECK: RESULT attn status=PASS

func.func @attn(%Q: memref<384x64xbf16>, %KT: memref<384x64xbf16>, %V: memref<384x64xbf16>, %O: memref<384x64xbf16>) {
  tile.kernel @attn_0 grid [6, 1] threads 128 (%Q, %KT, %V, %O) : memref<384x64xbf16>, memref<384x64xbf16>, memref<384x64xbf16>, memref<384x64xbf16> {
  ^bb0(%q: memref<384x64xbf16>, %kt: memref<384x64xbf16>, %v: memref<384x64xbf16>, %o: memref<384x64xbf16>):
    %c0 = arith.constant 0 : index
    %cBM = arith.constant 64 : index
    %cBN = arith.constant 64 : index
    %cS = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %scale = arith.constant 0.125 : f32
    %pm = tile.program_id 0
    %ph = tile.program_id 1
    %hS = arith.muli %ph, %cS : index
    %mr = arith.muli %pm, %cBM : index
    %m0 = arith.addi %hS, %mr : index
    %tq = tile.load %q[%m0, %c0] : memref<384x64xbf16> -> !tile.tile<64x64xbf16>
    %zs = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %mi = tile.splat %ninf : f32 -> !tile.tile<64xf32>
    %li = tile.splat %zero : f32 -> !tile.tile<64xf32>
    %res:3 = scf.for %n = %c0 to %cS step %cBN iter_args(%acc = %z, %m = %mi, %l = %li) -> (!tile.tile<64x64xf32>, !tile.tile<64xf32>, !tile.tile<64xf32>) {
      %kr = arith.addi %hS, %n : index
      %tkn = tile.load %kt[%kr, %c0] : memref<384x64xbf16> -> !tile.tile<64x64xbf16>
      %tk = tile.transpose %tkn : !tile.tile<64x64xbf16> -> !tile.tile<64x64xbf16>
      %s = tile.dot %tq, %tk, %zs : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
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
      %tv = tile.load %v[%kr, %c0] : memref<384x64xbf16> -> !tile.tile<64x64xbf16>
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
    tile.store %ob, %o[%m0, %c0] : !tile.tile<64x64xbf16>, memref<384x64xbf16>
  }
  return
}

func.func @ref(%q: tensor<384x64xbf16>, %k: tensor<384x64xbf16>, %v: tensor<384x64xbf16>) -> tensor<384x64xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %kt = tile.transpose %k : tensor<384x64xbf16> -> tensor<64x384xbf16>
  %s = tile.matmul %q, %kt : (tensor<384x64xbf16>, tensor<64x384xbf16>) -> tensor<384x384xf32>
  %ss = tile.map (%s) : (tensor<384x384xf32>) -> tensor<384x384xf32> {
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %ss, %ninf dim = 1 : tensor<384x384xf32>, f32 -> tensor<384xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<384xf32> -> tensor<384x384xf32>
  %e = tile.map (%ss, %mb) : (tensor<384x384xf32>, tensor<384x384xf32>) -> tensor<384x384xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<384x384xf32>, f32 -> tensor<384xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [1] : tensor<384xf32> -> tensor<384x384xf32>
  %p = tile.map (%e, %sb) : (tensor<384x384xf32>, tensor<384x384xf32>) -> tensor<384x384xbf16> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }
  %o = tile.matmul %p, %v : (tensor<384x384xbf16>, tensor<384x64xbf16>) -> tensor<384x64xf32>
  %ob = tile.cast %o : tensor<384x64xf32> -> tensor<384x64xbf16>
  return %ob : tensor<384x64xbf16>
}
