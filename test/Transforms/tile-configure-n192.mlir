// tile-configure on a hand-written tile-level kernel without a config whose
// dot is 128 x 192: it is not given wgmma's 192-wide instruction (a config
// or a tuning database may ask for one, test/tile-compile/wgmma-n192.mlir);
// the dot stays SIMT, as before such tiles existed. Given by hand, the same
// kernel takes it.
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a | FileCheck %s

// CHECK-LABEL: func.func @no_config
// CHECK-NOT: tile.config
// CHECK: tile.dot
// CHECK-LABEL: func.func @given
// CHECK: tile.config = #tile.config<block = [128, 192, 64], threads = 256, mma = wgmma, instr = [64, 192, 16], warps = [8, 1]>
func.func @no_config(%A: memref<128x256xbf16>, %B: memref<256x192xbf16>, %C: memref<128x192xf32>) {
  tile.kernel @no_config_k grid [1, 1] threads 256 (%A, %B, %C) : memref<128x256xbf16>, memref<256x192xbf16>, memref<128x192xf32> {
  ^bb0(%a: memref<128x256xbf16>, %b: memref<256x192xbf16>, %c: memref<128x192xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<128x192xf32>
    %acc = scf.for %k = %c0 to %c256 step %c64 iter_args(%x = %z) -> (!tile.tile<128x192xf32>) {
      %ta = tile.load %a[%c0, %k] : memref<128x256xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %b[%k, %c0] : memref<256x192xbf16> -> !tile.tile<64x192xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x192xbf16> -> !tile.tile<128x192xf32>
      scf.yield %d : !tile.tile<128x192xf32>
    }
    tile.store %acc, %c[%c0, %c0] : !tile.tile<128x192xf32>, memref<128x192xf32>
  }
  return
}

// -----

func.func @given(%A: memref<128x256xbf16>, %B: memref<256x192xbf16>, %C: memref<128x192xf32>) {
  tile.kernel @given_k grid [1, 1] threads 256 (%A, %B, %C) : memref<128x256xbf16>, memref<256x192xbf16>, memref<128x192xf32> attributes {tile.config = #tile.config<block = [128, 192, 64], threads = 256, mma = wgmma, instr = [64, 192, 16], warps = [8, 1]>} {
  ^bb0(%a: memref<128x256xbf16>, %b: memref<256x192xbf16>, %c: memref<128x192xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<128x192xf32>
    %acc = scf.for %k = %c0 to %c256 step %c64 iter_args(%x = %z) -> (!tile.tile<128x192xf32>) {
      %ta = tile.load %a[%c0, %k] : memref<128x256xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %b[%k, %c0] : memref<256x192xbf16> -> !tile.tile<64x192xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x192xbf16> -> !tile.tile<128x192xf32>
      scf.yield %d : !tile.tile<128x192xf32>
    }
    tile.store %acc, %c[%c0, %c0] : !tile.tile<128x192xf32>, memref<128x192xf32>
  }
  return
}
