// tile-to-simt's uniform-warp (off by default until timed on a GPU): the
// warp index a tile.wgmma's descriptors are computed from is broadcast
// from lane 0 (gpu.shuffle idx), so that ptxas can prove it the same in
// every lane and keep the descriptors in uniform registers; without the
// option the index is the thread id over 32, and no idx shuffle appears.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt=uniform-warp=1 | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=DEFAULT

// CHECK: %[[WARP:.+]] = arith.divui %{{.+}}, %c32{{.*}} : index
// CHECK: %[[W32:.+]] = arith.index_castui %[[WARP]] : index to i32
// CHECK: %[[B:.+]], %{{.+}} = gpu.shuffle idx %[[W32]], %c0_i32, %c32_i32{{.*}} : i32
// CHECK: arith.index_castui %[[B]] : i32 to index
// CHECK: nvvm.wgmma.mma_async

// DEFAULT-NOT: gpu.shuffle idx
// DEFAULT: nvvm.wgmma.mma_async
// DEFAULT-NOT: gpu.shuffle idx

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
