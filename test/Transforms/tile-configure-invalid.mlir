// What tile-configure rejects, each at the kernel or dot it is about.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-configure=chip=sm_90a
// RUN: not tile-opt %s -split-input-file --tile-configure 2>&1 | FileCheck %s --check-prefix=NOTARGET
// RUN: not tile-opt %s -split-input-file --tile-configure=chip=gfx90a 2>&1 | FileCheck %s --check-prefix=BADCHIP

// RUN: not tile-opt %s -split-input-file --tile-configure="chip=sm_90a attention-block=96,64" 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not tile-opt %s -split-input-file --tile-configure="chip=sm_90a attention-block=128" 2>&1 | FileCheck %s --check-prefix=BLOCK

// BLOCK: error: attention-block takes query rows (64, 128 or 256) and keys (64 or 128), two values
// NOTARGET: error: no target: run tile-configure{chip=...} or put a tile.target attribute on the module
// BADCHIP: error: expected a chip like sm_80 or sm_90a but got 'gfx90a'

!t64 = !tile.tile<64x64xbf16>
!acc = !tile.tile<64x64xf32>

func.func @split_f(%A: memref<64x64xbf16>) {
  // expected-error @+1 {{tile.config asks for split_k = 2, which needs a grid whose third dimension has that many programs (one per K range; tile-tile builds it from a tensor-level matmul)}}
  tile.kernel @split grid [1] threads 128 (%A) : memref<64x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], split_k = 2>} {
  ^bb0(%a: memref<64x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<64x64xbf16> -> !t64
    %d = tile.dot %t, %t, %z : !t64, !t64 -> !acc
  }
  return
}
// -----

// Each load of the K loop takes a ring of 8 slots.
func.func @ring_f(%A: memref<256x256xbf16>) {
  // expected-error @+1 {{tile.config's 8 stages take 393216 bytes of shared memory; sm_90a has 232448 per program}}
  tile.kernel @ring grid [1] threads 256 (%A) : memref<256x256xbf16> attributes {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 8>} {
  ^bb0(%a: memref<256x256xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %z = tile.splat %zero : f32 -> !tile.tile<128x256xf32>
    %acc = scf.for %k = %c0 to %c256 step %c64 iter_args(%x = %z) -> (!tile.tile<128x256xf32>) {
      %ta = tile.load %a[%c0, %k] : memref<256x256xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %a[%k, %c0] : memref<256x256xbf16> -> !tile.tile<64x256xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<128x256xf32>
      scf.yield %d : !tile.tile<128x256xf32>
    }
  }
  return
}

// -----

!t = !tile.tile<32x32xbf16>
!acc = !tile.tile<32x32xf32>

func.func @small_f(%A: memref<64x64xbf16>) {
  tile.kernel @small grid [1] threads 128 (%A) : memref<64x64xbf16> attributes {tile.config = #tile.config<block = [32, 32, 32], threads = 128, mma = wgmma, instr = [64, 32, 16], warps = [4, 1]>} {
  ^bb0(%a: memref<64x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<64x64xbf16> -> !t
    // expected-error @+1 {{does not fit tile.config's wgmma schedule (128 threads): a 32x32x32 dot of 'bf16' tiles}}
    %d = tile.dot %t, %t, %z : !t, !t -> !acc
  }
  return
}
// -----

!t64 = !tile.tile<64x64xbf16>
!acc = !tile.tile<64x64xf32>

func.func @threads_f(%A: memref<64x64xbf16>) {
  // expected-error @+1 {{tile.config has threads = 256 but the kernel runs 128}}
  tile.kernel @threads grid [1] threads 128 (%A) : memref<64x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 256, mma = wgmma, instr = [64, 64, 16], warps = [8, 1]>} {
  ^bb0(%a: memref<64x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<64x64xbf16> -> !t64
    %d = tile.dot %t, %t, %z : !t64, !t64 -> !acc
  }
  return
}
// -----

!t64 = !tile.tile<64x64xbf16>
!acc = !tile.tile<64x64xf32>

func.func @unaligned_f(%A: memref<64x100xbf16>) {
  tile.kernel @unaligned grid [1] threads 128 (%A) : memref<64x100xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, warp_specialize = true>} {
  ^bb0(%a: memref<64x100xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %z = tile.splat %zero : f32 -> !acc
    // The producer would copy the loop's loads; these rows are 200 bytes.
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %z) -> (!acc) {
      %t = tile.load %a[%c0, %c0] : memref<64x100xbf16> -> !t64
      // expected-error @+1 {{has an operand the TMA cannot load (loaded from a static row-major kernel argument with rows of a multiple of 16 bytes), as tile.config's warp specialization needs}}
      %d = tile.dot %t, %t, %acc : !t64, !t64 -> !acc
      scf.yield %d : !acc
    }
  }
  return
}

// -----

// A product from zero each step, added to a running sum the loop carries
// (block scales' promotion): both are live, 128 + 128 registers a thread.
func.func @running_sum_f(%A: memref<64x512xbf16>, %B: memref<512x256xbf16>) {
  // expected-error @+1 {{tile.config's accumulators take 256 registers per thread; at most 192 leave room for the rest}}
  tile.kernel @running_sum grid [1] threads 128 (%A, %B) : memref<64x512xbf16>, memref<512x256xbf16> attributes {tile.config = #tile.config<block = [64, 256, 64], threads = 128, mma = wgmma, instr = [64, 256, 16], warps = [4, 1], stages = 2>} {
  ^bb0(%a: memref<64x512xbf16>, %b: memref<512x256xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x256xf32>
    %sum = scf.for %k = %c0 to %c512 step %c64 iter_args(%s = %z) -> (!tile.tile<64x256xf32>) {
      %ta = tile.load %a[%c0, %k] : memref<64x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %c0] : memref<512x256xbf16> -> !tile.tile<64x256xbf16>
      %p = tile.dot %ta, %tb, %z : !tile.tile<64x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<64x256xf32>
      %n = tile.map (%s, %p) : (!tile.tile<64x256xf32>, !tile.tile<64x256xf32>) -> !tile.tile<64x256xf32> {
      ^bb0(%x: f32, %y: f32):
        %r = arith.addf %x, %y : f32
        tile.yield %r : f32
      }
      scf.yield %n : !tile.tile<64x256xf32>
    }
  }
  return
}

// -----

// Two products a step on one accumulator (a step read in sub-steps), the
// second adding into the first's result: one accumulator's 128 registers
// a thread, not 256 (no error).
func.func @chained_products_f(%A: memref<64x512xbf16>, %B: memref<512x256xbf16>) {
  tile.kernel @chained_products grid [1] threads 128 (%A, %B) : memref<64x512xbf16>, memref<512x256xbf16> attributes {tile.config = #tile.config<block = [64, 256, 128], threads = 128, mma = wgmma, instr = [64, 256, 16], warps = [4, 1], stages = 2>} {
  ^bb0(%a: memref<64x512xbf16>, %b: memref<512x256xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x256xf32>
    %sum = scf.for %k = %c0 to %c512 step %c128 iter_args(%s = %z) -> (!tile.tile<64x256xf32>) {
      %k1 = arith.addi %k, %c64 : index
      %ta = tile.load %a[%c0, %k] : memref<64x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %c0] : memref<512x256xbf16> -> !tile.tile<64x256xbf16>
      %ta1 = tile.load %a[%c0, %k1] : memref<64x512xbf16> -> !tile.tile<64x64xbf16>
      %tb1 = tile.load %b[%k1, %c0] : memref<512x256xbf16> -> !tile.tile<64x256xbf16>
      %p = tile.dot %ta, %tb, %s : !tile.tile<64x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<64x256xf32>
      %q = tile.dot %ta1, %tb1, %p : !tile.tile<64x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<64x256xf32>
      scf.yield %q : !tile.tile<64x256xf32>
    }
  }
  return
}

// -----

!t64 = !tile.tile<64x64xbf16>
!acc = !tile.tile<64x64xf32>

// A cluster of two programs along M holds two block-rows of one
// block-column: not with an odd number of block-rows ...
func.func @cluster_odd_rows(%A: memref<192x64xbf16>) {
  // expected-error @+1 {{tile.config asks for a cluster of 2 programs along M, which needs a 2-D grid whose block-rows are a multiple of it (got [3, 1])}}
  tile.kernel @cluster grid [3, 1] threads 128 (%A) : memref<192x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, cluster = [2, 1]>} {
  ^bb0(%a: memref<192x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<192x64xbf16> -> !t64
    %d = tile.dot %t, %t, %z : !t64, !t64 -> !acc
  }
  return
}

// -----

!t64 = !tile.tile<64x64xbf16>
!acc = !tile.tile<64x64xf32>

// ... nor in a grouped order whose groups of block-rows are odd (with
// group_rows = 1, consecutive tiles are of one block-row).
func.func @cluster_odd_groups(%A: memref<256x64xbf16>) {
  // expected-error @+1 {{tile.config asks for a cluster of 2 programs along M, which needs a 2-D grid whose block-rows are a multiple of it (got [4, 2]), and group_rows a multiple of it (got 1)}}
  tile.kernel @cluster grid [4, 2] threads 128 (%A) : memref<256x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, persistent = true, cluster = [2, 1]>} {
  ^bb0(%a: memref<256x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<256x64xbf16> -> !t64
    %d = tile.dot %t, %t, %z : !t64, !t64 -> !acc
  }
  return
}
