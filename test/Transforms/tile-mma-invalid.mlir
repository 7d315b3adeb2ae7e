// tile-mma's errors: an operand that cannot take mma.sync's operand layout
// (tile-configure admits an mma.sync dot whose K is a multiple of 16; the
// operand layouts also need K a power of two, and K = 48 is not), and a
// k_runs dot on wgmma.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma

func.func @k_not_power_of_two(%A: memref<256x48xbf16>, %B: memref<48x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %C) : memref<256x48xbf16>, memref<48x256xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 48], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2]>} {
  ^bb0(%a: memref<256x48xbf16>, %b: memref<48x256xbf16>, %c: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %ta = tile.load %a[%m0, %c0] : memref<256x48xbf16> -> !tile.tile<64x48xbf16>
    %tb = tile.load %b[%c0, %n0] : memref<48x256xbf16> -> !tile.tile<48x64xbf16>
    // expected-error @+1 {{cannot take its operand #0 as mma.sync's: an A operand of 64x48 does not split into 32x16 blocks in powers of two}}
    %d = tile.dot %ta, %tb, %z : !tile.tile<64x48xbf16>, !tile.tile<48x64xbf16> -> !tile.tile<64x64xf32>
    tile.store %d, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}

// -----

// A dot whose B is stored in fragment runs (k_runs) on wgmma: wgmma reads
// B from shared memory in its own K order.
func.func @k_runs_on_wgmma(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %C: memref<128x128xf32>) {
  tile.kernel @k grid [1, 1] threads 128 (%A, %B, %C) : memref<128x128xbf16>, memref<128x128xbf16>, memref<128x128xf32> attributes {tile.config = #tile.config<block = [64, 128, 128], threads = 128, mma = wgmma, instr = [64, 128, 16], warps = [4, 1]>} {
  ^bb0(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>, %c: memref<128x128xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x128xf32>
    %ta = tile.load %a[%c0, %c0] : memref<128x128xbf16> -> !tile.tile<64x128xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<128x128xbf16> -> !tile.tile<128x128xbf16>
    // expected-error @+1 {{takes k_runs on mma.sync only (wgmma reads B in its own K order)}}
    %d = tile.dot %ta, %tb, %z k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x128xbf16> -> !tile.tile<64x128xf32>
    tile.store %d, %c[%c0, %c0] : !tile.tile<64x128xf32>, memref<128x128xf32>
  }
  return
}

// -----

// An A stored in fragment runs (lhs_k_runs) under an mma.sync config:
// only wgmma takes such an A (from registers).
func.func @lhs_k_runs_on_mma_sync(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %C: memref<128x128xf32>) {
  tile.kernel @k grid [1, 1] threads 128 (%A, %B, %C) : memref<128x128xbf16>, memref<128x128xbf16>, memref<128x128xf32> attributes {tile.config = #tile.config<block = [64, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2]>} {
  ^bb0(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>, %c: memref<128x128xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %ta = tile.load %a[%c0, %c0] : memref<128x128xbf16> -> !tile.tile<64x128xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<128x128xbf16> -> !tile.tile<128x64xbf16>
    // expected-error @+1 {{takes lhs_k_runs (A's columns in fragment runs) on wgmma only, but tile.config asks for mma_sync}}
    %d = tile.dot %ta, %tb, %z lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<64x64xf32>
    tile.store %d, %c[%c0, %c0] : !tile.tile<64x64xf32>, memref<128x128xf32>
  }
  return
}
