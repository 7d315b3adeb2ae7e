// tile-pipeline fails where a config's cluster along M cannot share B: each
// program copies a part of a B slot's rows into all, which needs the
// slot's rows one after the other (one swizzled column block): a 64 x 256
// bf16 B has rows of four.
// RUN: tile-opt %s -verify-diagnostics --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline

func.func @f(%arg0: memref<512x256xbf16>, %arg1: memref<256x512xbf16>, %arg2: memref<512x512xf32>) {
  tile.kernel @f_0 grid [4, 2] threads 256(%arg0, %arg1, %arg2) : memref<512x256xbf16>, memref<256x512xbf16>, memref<512x512xf32> attributes {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 2, warp_specialize = true, cluster = [2, 1]>} {
  ^bb0(%a: memref<512x256xbf16>, %b: memref<256x512xbf16>, %c: memref<512x512xf32>):
    %pm = tile.program_id 0
    %c128 = arith.constant 128 : index
    %m0 = arith.muli %pm, %c128 : index
    %pn = tile.program_id 1
    %c256 = arith.constant 256 : index
    %n0 = arith.muli %pn, %c256 : index
    %zero = arith.constant 0.000000e+00 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<128x256xf32>
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %acc = scf.for %k = %c0 to %c256 step %c64 iter_args(%x = %z) -> (!tile.tile<128x256xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<512x256xbf16> -> !tile.tile<128x64xbf16>
      // expected-error @+1 {{cannot share this tile of wgmma's B across a cluster of 2 programs: each copies a part of its rows, whole 8-row atoms of one swizzled column block (rows of the swizzle's bytes), but got '!tile.tile<64x256xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>'}}
      %tb = tile.load %b[%k, %n0] : memref<256x512xbf16> -> !tile.tile<64x256xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<128x256xf32>
      scf.yield %d : !tile.tile<128x256xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<128x256xf32>, memref<512x512xf32>
  }
  return
}
