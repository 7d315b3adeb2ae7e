// A GEMM whose wgmma instructions are narrower than B's swizzle block:
// instr N = 32 under a 64-column block of 128-byte rows (bf16, swizzle
// 128), two instructions a K step, the second starting inside the block.
// Its descriptor dropped the column inside the block until session 41 and
// read the block's first 32 columns twice (a tensor-level GEMM given this
// config through a tuning database: rel_err 0.986, FAIL on the H100;
// fixed: PASS, 1.9e-7). The second kernel is the same behind a producer
// warpgroup's TMA ring. Ragged: 100 x 120 x 192, checked against
// tile.matmul.
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// TILE-CHIPS: sm_90a
// CHECK: RESULT kernels status=PASS

func.func @kernels(%A: memref<100x192xbf16>, %B: memref<192x120xbf16>, %C: memref<100x120xf32>, %D: memref<100x120xf32>) {
  tile.kernel @narrow_n grid [2, 2] threads 128 (%A, %B, %C) : memref<100x192xbf16>, memref<192x120xbf16>, memref<100x120xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 32, 16], warps = [4, 1]>} {
  ^bb0(%a: memref<100x192xbf16>, %b: memref<192x120xbf16>, %c: memref<100x120xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c192 = arith.constant 192 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c192 step %c64 iter_args(%s = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<100x192xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<192x120xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %s : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<100x120xf32>
  }
  tile.kernel @narrow_n_producer grid [2, 2] threads 128 (%A, %B, %D) : memref<100x192xbf16>, memref<192x120xbf16>, memref<100x120xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 32, 16], warps = [4, 1], stages = 2, warp_specialize = true>} {
  ^bb0(%a: memref<100x192xbf16>, %b: memref<192x120xbf16>, %c: memref<100x120xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c192 = arith.constant 192 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c192 step %c64 iter_args(%s = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<100x192xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<192x120xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %s : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<100x120xf32>
  }
  return
}

func.func @ref(%a: tensor<100x192xbf16>, %b: tensor<192x120xbf16>) -> (tensor<100x120xf32>, tensor<100x120xf32>) {
  %c = tile.matmul %a, %b : (tensor<100x192xbf16>, tensor<192x120xbf16>) -> tensor<100x120xf32>
  %d = tile.matmul %a, %b : (tensor<100x192xbf16>, tensor<192x120xbf16>) -> tensor<100x120xf32>
  return %c, %d : tensor<100x120xf32>, tensor<100x120xf32>
}
