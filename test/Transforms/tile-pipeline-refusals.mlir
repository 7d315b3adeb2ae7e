// tile-pipeline leaves a K loop it cannot ring as it is, with a remark
// saying why. Here a load's row is carried from one iteration to the next
// (not index arithmetic of the induction variable), so a later iteration's
// tile cannot be addressed ahead of time. With warp_specialize and no other
// ring there is no producer, and the kernel runs its loops as they are (a
// remark); beside a ring that a producer fills (here the tile loop's own
// load of A), it is an error: the consumers would copy to shared memory
// themselves, outside the ring's barriers (such a kernel hung on the H200).
// A trip count that changes from one run of the tile loop to the next is
// ringed (tile-pipeline-varying-trips.mlir).
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline
// Without a target (no tile-configure), the rings cannot be chosen:
// RUN: not tile-opt %s -split-input-file --tile-pipeline 2>&1 | FileCheck %s --check-prefix=NOTARGET
// NOTARGET: tile-pipeline-refusals.mlir:[[# @LINE + 3]]:3: error: tile-pipeline needs the module's tile.target (run tile-configure)

func.func @remark(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    scf.for %t = %c0 to %c4 step %c1 {
      %m0 = arith.muli %t, %c64 : index
      %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
      // expected-remark @+2 {{not pipelined: its indices depend on more than the loop's induction variable and values from outside the loop}}
      %acc, %last = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z, %row = %m0) -> (!tile.tile<64x64xf32>, index) {
        %ta = tile.load %a[%row, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
        %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
        %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
        scf.yield %d, %row : !tile.tile<64x64xf32>, index
      }
      tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
    }
  }
  return
}

// -----

func.func @alone(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, warp_specialize = true>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    scf.for %t = %c0 to %c4 step %c1 {
      %m0 = arith.muli %t, %c64 : index
      %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
      // expected-remark @+2 {{not pipelined: its indices depend on more than the loop's induction variable and values from outside the loop}}
      %acc, %last = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z, %row = %m0) -> (!tile.tile<64x64xf32>, index) {
        %ta = tile.load %a[%row, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
        %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
        %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
        scf.yield %d, %row : !tile.tile<64x64xf32>, index
      }
      tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
    }
  }
  return
}

// -----

func.func @error(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, warp_specialize = true>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    scf.for %t = %c0 to %c4 step %c1 {
      %m0 = arith.muli %t, %c64 : index
      %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
      %ta = tile.load %a[%m0, %c0] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      // expected-error @+2 {{cannot pipeline this loop beside the producer warpgroup's ring (warp_specialize): its indices depend on more than the loop's induction variable and values from outside the loop}}
      %acc, %last = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z, %col = %n0) -> (!tile.tile<64x64xf32>, index) {
        %tb = tile.load %b[%k, %col] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
        %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
        scf.yield %d, %col : !tile.tile<64x64xf32>, index
      }
      tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
    }
  }
  return
}

// -----

// A K loop two loops deep (a hand-written kernel): the ring position counts
// the runs of one loop around it only, so a loop further out would start
// the ring again from the same slots with the barriers' phases out of step
// (wrong tiles read); left as it is, with a remark.
func.func @nested_two_deep(%A: memref<384x128xbf16>, %B: memref<128x256xbf16>, %C: memref<384x256xf32>) {
  tile.kernel @k2 grid [4] threads 128 (%A, %B, %C) : memref<384x128xbf16>, memref<128x256xbf16>, memref<384x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, warp_specialize = true>} {
  ^bb0(%a: memref<384x128xbf16>, %b: memref<128x256xbf16>, %c: memref<384x256xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    scf.for %u = %c0 to %c2 step %c1 {
      scf.for %t = %c0 to %c3 step %c1 {
        %tt = arith.muli %u, %c3 : index
        %t2 = arith.addi %tt, %t : index
        %m0 = arith.muli %t2, %c64 : index
        %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
        // expected-remark @+1 {{not pipelined: the loop is not directly in the kernel or in a loop directly in the kernel (the ring position cannot be counted)}}
        %acc = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
          %ta = tile.load %a[%m0, %k] : memref<384x128xbf16> -> !tile.tile<64x64xbf16>
          %tb = tile.load %b[%k, %n0] : memref<128x256xbf16> -> !tile.tile<64x64xbf16>
          %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
          scf.yield %d : !tile.tile<64x64xf32>
        }
        tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<384x256xf32>
      }
    }
  }
  return
}

// -----

// A recurrence: each step stores the rows the next one loads (H[t + 64..]
// = H[t..] W). A ring would read them ahead of the store: the loop is left
// as it is (its load then waits at a barrier behind the store).
func.func @recurrence(%W: memref<64x64xbf16>, %H: memref<320x64xbf16>) {
  tile.kernel @recurrence_0 grid [1] threads 128 (%W, %H) : memref<64x64xbf16>, memref<320x64xbf16> {
  ^bb0(%w: memref<64x64xbf16>, %h: memref<320x64xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    // H[t+64 .. t+128) = H[t .. t+64) * W, t = 0, 64, 128, 192
    scf.for %t = %c0 to %c256 step %c64 {
      // expected-remark @+1 {{not pipelined: the kernel also writes the buffer it loads (a ring would read it ahead of the writes)}}
      %th = tile.load %h[%t, %c0] : memref<320x64xbf16> -> !tile.tile<64x64xbf16>
      %tw = tile.load %w[%c0, %c0] : memref<64x64xbf16> -> !tile.tile<64x64xbf16>
      %x = tile.dot %th, %tw, %z : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      %xb = tile.cast %x : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
      %t1 = arith.addi %t, %c64 : index
      tile.store %xb, %h[%t1, %c0] : !tile.tile<64x64xbf16>, memref<320x64xbf16>
    }
  }
  return
}

// -----

// A second loop that reads what the first stored (C = A B, then D = C E,
// a program's rows of C): beside the producer warpgroup that rings the
// first loop, the second cannot be ringed (the producer would read C
// before the consumers store it, with no fence between them): an error.
func.func @store_then_ring(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %E: memref<128x64xbf16>,
                 %C: memref<128x128xbf16>, %D: memref<128x64xf32>) {
  tile.kernel @store_then_ring_0 grid [2] threads 128 (%A, %B, %E, %C, %D) : memref<128x128xbf16>, memref<128x128xbf16>, memref<128x64xbf16>, memref<128x128xbf16>, memref<128x64xf32> {
  ^bb0(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>, %e: memref<128x64xbf16>, %c: memref<128x128xbf16>, %d: memref<128x64xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %m0 = arith.muli %pm, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    // C[m0, n] = A[m0,:] * B[:, n] for n = 0, 64 (first: K loop in an n loop)
    scf.for %n = %c0 to %c128 step %c64 {
      %acc = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
        %ta = tile.load %a[%m0, %k] : memref<128x128xbf16> -> !tile.tile<64x64xbf16>
        %tb = tile.load %b[%k, %n] : memref<128x128xbf16> -> !tile.tile<64x64xbf16>
        %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
        scf.yield %x2 : !tile.tile<64x64xf32>
      }
      %cb = tile.cast %acc : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
      tile.store %cb, %c[%m0, %n] : !tile.tile<64x64xbf16>, memref<128x128xbf16>
    }
    // D[m0, :] = C[m0, :] * E
    %acc2 = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      // expected-error @+1 {{cannot pipeline this loop beside the producer warpgroup's ring (warp_specialize): the kernel also writes the buffer it loads (a ring would read it ahead of the writes)}}
      %tc = tile.load %c[%m0, %k] : memref<128x128xbf16> -> !tile.tile<64x64xbf16>
      %te = tile.load %e[%k, %c0] : memref<128x64xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %tc, %te, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    tile.store %acc2, %d[%m0, %c0] : !tile.tile<64x64xf32>, memref<128x64xf32>
  }
  return
}
