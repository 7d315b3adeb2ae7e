// The tensor-core rewrites replace a kernel by a whole C = A * B, so they
// must leave alone kernels that only look like one. Here the K loop starts
// at 32 and the accumulator starts from 1.0: both stay as written.
// RUN: tile-opt %s -split-input-file --convert-tile-matmul-to-wgmma --convert-tile-matmul-to-mma-sync | FileCheck %s

// CHECK-LABEL: func @partial_k
// CHECK-NOT: tma_descriptor
// CHECK: tile.kernel @partial_k_0 grid [4, 4] threads 256
// CHECK: tile.dot
func.func @partial_k(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @partial_k_0 grid [4, 4] threads 256 (%A, %B, %C) : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xf32> {
  ^bb0(%a: memref<256x256xbf16>, %b: memref<256x256xbf16>, %c: memref<256x256xf32>):
    %p = tile.program_id 0
    %q = tile.program_id 1
    %c64 = arith.constant 64 : index
    %m0 = arith.muli %p, %c64 : index
    %n0 = arith.muli %q, %c64 : index
    %zero = arith.constant 0.0 : f32
    %acc0 = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %acc = scf.for %k = %c32 to %c256 step %c32 iter_args(%acc1 = %acc0) -> (!tile.tile<64x64xf32>) {
      %x = tile.load %a[%m0, %k] : memref<256x256xbf16> -> !tile.tile<64x32xbf16>
      %y = tile.load %b[%k, %n0] : memref<256x256xbf16> -> !tile.tile<32x64xbf16>
      %d = tile.dot %x, %y, %acc1 : !tile.tile<64x32xbf16>, !tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}

// -----

// CHECK-LABEL: func @nonzero_init
// CHECK-NOT: tma_descriptor
// CHECK: tile.dot
func.func @nonzero_init(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @nonzero_init_0 grid [4, 4] threads 256 (%A, %B, %C) : memref<256x256xbf16>, memref<256x256xbf16>, memref<256x256xf32> {
  ^bb0(%a: memref<256x256xbf16>, %b: memref<256x256xbf16>, %c: memref<256x256xf32>):
    %p = tile.program_id 0
    %q = tile.program_id 1
    %c64 = arith.constant 64 : index
    %m0 = arith.muli %p, %c64 : index
    %n0 = arith.muli %q, %c64 : index
    %one = arith.constant 1.0 : f32
    %acc0 = tile.splat %one : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c256 = arith.constant 256 : index
    %acc = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc1 = %acc0) -> (!tile.tile<64x64xf32>) {
      %x = tile.load %a[%m0, %k] : memref<256x256xbf16> -> !tile.tile<64x32xbf16>
      %y = tile.load %b[%k, %n0] : memref<256x256xbf16> -> !tile.tile<32x64xbf16>
      %d = tile.dot %x, %y, %acc1 : !tile.tile<64x32xbf16>, !tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}
