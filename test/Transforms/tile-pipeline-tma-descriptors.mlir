// tile-pipeline makes one TMA descriptor per source and box: a K loop that
// reads one source as tiles of two widths (64 x 64 at a swizzle of 128 and
// 64 x 32 at 64) gets two descriptors of A, each load its own (before, the
// descriptors were keyed by source and box rows only, and the 64 x 32
// slot took the 64 x 64 box: twice its bytes, in the wrong swizzle).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s

// CHECK-LABEL: func @two_widths
// CHECK-DAG: tile.tma_descriptor %arg0 box [64, 64] swizzle 128 : memref<256x512xbf16> -> !llvm.ptr
// CHECK-DAG: tile.tma_descriptor %arg0 box [64, 32] swizzle 64 : memref<256x512xbf16> -> !llvm.ptr
// CHECK: ^bb0(%{{.+}}: memref<256x512xbf16>, %{{.+}}: memref<512x256xbf16>, %{{.+}}: memref<256x64xbf16>, %{{.+}}: memref<256x256xf32>, %[[DA:.+]]: !llvm.ptr, %{{.+}}: !llvm.ptr, %[[DA2:.+]]: !llvm.ptr, %{{.+}}: !llvm.ptr):
// CHECK: tile.tma_load %[[DA]][{{.+}}] : !llvm.ptr, !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>
// CHECK: tile.tma_load %[[DA2]][{{.+}}] : !llvm.ptr, !tile.tile<64x32xbf16, layout = #tile.shared<swizzle = 64>
func.func @two_widths(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %B2: memref<256x64xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %B2, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x64xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %b2: memref<256x64xbf16>, %c: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %d1 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      %k2 = arith.addi %k, %c64 : index
      %ta2 = tile.load %a[%m0, %k2] : memref<256x512xbf16> -> !tile.tile<64x32xbf16>
      %tb2 = tile.load %b[%k2, %n0] : memref<512x256xbf16> -> !tile.tile<32x64xbf16>
      %d2 = tile.dot %ta2, %tb2, %d1 : !tile.tile<64x32xbf16>, !tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d2 : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}
