// tile-assign-layouts' error: a register tile that no layout of the
// kernel's threads can hold (here a 48-element vector beside a wgmma dot:
// blocked over 128 threads, neither count divides the other).
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-configure=chip=sm_90a --tile-assign-layouts

func.func @odd_tile(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %v: memref<256xf32>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %v, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256xf32>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1]>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %w: memref<256xf32>, %c: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
    // expected-error @+1 {{cannot lay out its tile: cannot spread a tile of 48 elements over 128 threads (one must divide the other)}}
    %t = tile.load %w[%n0] : memref<256xf32> -> !tile.tile<48xf32>
    tile.store %t, %w[%m0] : !tile.tile<48xf32>, memref<256xf32>
  }
  return
}
