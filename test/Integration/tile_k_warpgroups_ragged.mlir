// Consumer warpgroups taking turns at the K loop's steps (#tile.config's
// k_warpgroups, tile-warp-specialize), on hand-written wgmma GEMMs with a
// producer's ring, ragged M, N and K (K = 1000: 16 steps of 64, the last
// one partial, zero-filled by the TMA):
// - @turns2: D = C + A * B with two warpgroups, the accumulator starting
//   from C: the first warpgroup starts from C, the second from zero, and
//   hands its sum over;
// - @turns4: Y = A * B with four warpgroups on a ring of 4 (each takes
//   every fourth step: 4 each), three sums handed over, then a bf16 cast;
// - @turns3: E = A * B with three warpgroups on a ring of 6, no power of
//   two (slots by a remainder by 6): the first takes 6 steps, the others 5.
// Checked against a tensor-level statement of the same math.
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// TILE-CHIPS: sm_90a
// CHECK: RESULT kernels status=PASS

func.func @kernels(%A: memref<130x1000xbf16>, %B: memref<1000x136xbf16>, %C: memref<130x136xf32>,
                   %D: memref<130x136xf32>, %Y: memref<130x136xbf16>, %E: memref<130x136xf32>) {
  tile.kernel @turns2 grid [3, 3] threads 128 (%A, %B, %C, %D) : memref<130x1000xbf16>, memref<1000x136xbf16>, memref<130x136xf32>, memref<130x136xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, warp_specialize = true, k_warpgroups = 2>} {
  ^bb0(%a: memref<130x1000xbf16>, %b: memref<1000x136xbf16>, %c: memref<130x136xf32>, %d: memref<130x136xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c1000 = arith.constant 1000 : index
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %start = tile.load %c[%m0, %n0] : memref<130x136xf32> -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c1000 step %c64 iter_args(%x = %start) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<130x1000xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<1000x136xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    tile.store %acc, %d[%m0, %n0] : !tile.tile<64x64xf32>, memref<130x136xf32>
  }
  tile.kernel @turns4 grid [3, 3] threads 128 (%A, %B, %Y) : memref<130x1000xbf16>, memref<1000x136xbf16>, memref<130x136xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, warp_specialize = true, k_warpgroups = 4>} {
  ^bb0(%a: memref<130x1000xbf16>, %b: memref<1000x136xbf16>, %y: memref<130x136xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c1000 = arith.constant 1000 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c1000 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<130x1000xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<1000x136xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    %o = tile.cast %acc : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %y[%m0, %n0] : !tile.tile<64x64xbf16>, memref<130x136xbf16>
  }
  tile.kernel @turns3 grid [3, 3] threads 128 (%A, %B, %E) : memref<130x1000xbf16>, memref<1000x136xbf16>, memref<130x136xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 6, warp_specialize = true, k_warpgroups = 3>} {
  ^bb0(%a: memref<130x1000xbf16>, %b: memref<1000x136xbf16>, %e: memref<130x136xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c1000 = arith.constant 1000 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c1000 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<130x1000xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<1000x136xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    tile.store %acc, %e[%m0, %n0] : !tile.tile<64x64xf32>, memref<130x136xf32>
  }
  return
}

func.func @ref(%a: tensor<130x1000xbf16>, %b: tensor<1000x136xbf16>, %c: tensor<130x136xf32>)
    -> (tensor<130x136xf32>, tensor<130x136xbf16>, tensor<130x136xf32>) {
  %p = tile.matmul %a, %b : (tensor<130x1000xbf16>, tensor<1000x136xbf16>) -> tensor<130x136xf32>
  %d = tile.map (%p, %c) : (tensor<130x136xf32>, tensor<130x136xf32>) -> tensor<130x136xf32> {
  ^bb0(%u: f32, %v: f32):
    %s = arith.addf %u, %v : f32
    tile.yield %s : f32
  }
  %y = tile.cast %p : tensor<130x136xf32> -> tensor<130x136xbf16>
  return %d, %y, %p : tensor<130x136xf32>, tensor<130x136xbf16>, tensor<130x136xf32>
}
