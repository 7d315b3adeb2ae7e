// tile-warp-specialize: the pipelined, persistent kernel becomes a
// producer warpgroup (40 registers a thread) that runs only the copies,
// the tile loop and the index arithmetic around them, and the config's 128
// threads as consumers (256 registers) without the copies; the rings and
// barriers stay in front of both; the kernel has 256 threads and asks for
// one program per SM.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_80 --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize | FileCheck %s --check-prefix=SYNC

// CHECK-LABEL: tile.kernel @k grid [16] threads 256
// CHECK-SAME: min_programs_per_sm = 1
// CHECK: tile.shared
// CHECK: tile.shared
// CHECK: tile.barrier_group
// CHECK: tile.barrier_group
// CHECK: tile.warp_specialize threads [128, 128] registers [40, 256] {
// CHECK: scf.for
// CHECK-NOT: tile.wgmma
// CHECK-NOT: tile.store
// CHECK: tile.tma_load
// CHECK: scf.for
// CHECK-NOT: tile.wgmma
// CHECK: tile.tma_load
// CHECK: } {tile.producer}
// CHECK: }, {
// CHECK-NOT: tile.tma_load
// CHECK: tile.wgmma
// CHECK-NOT: tile.tma_load
// CHECK: tile.store
// CHECK-NOT: tile.tma_load

// sm_80's config asks for no warp specialization: the kernel is as it was.
// SYNC-LABEL: tile.kernel @k grid [16] threads 128
// SYNC-NOT: tile.warp_specialize
func.func @gemm_bias(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %bias: memref<256xf32>, %C: memref<256x256xbf16>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %bias, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256xf32>, memref<256x256xbf16> {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %v: memref<256xf32>, %c: memref<256x256xbf16>):
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
    %tv = tile.load %v[%n0] : memref<256xf32> -> !tile.tile<64xf32>
    %bv = tile.broadcast %tv [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %sum = tile.map (%acc, %bv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    // The same vector along the other dimension: a second layout.
    %rv = tile.broadcast %tv [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %y = tile.map (%sum, %rv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.mulf %p, %q : f32
      tile.yield %s : f32
    }
    %m = tile.reduce %y, %zero dim = 1 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    %o = tile.cast %y : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<256x256xbf16>
    tile.store %m, %v[%m0] : !tile.tile<64xf32>, memref<256xf32>
  }
  return
}
