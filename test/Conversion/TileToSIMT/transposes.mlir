// convert-tile-to-simt on transposes. S = Q K^T with K loaded as stored
// (tile-promote: a `transposed` shared view): on sm_90a wgmma reads B
// K-major (layout col, no .trans bit), on sm_80 every ldmatrix is without
// .trans (Q's and K^T's alike: K^T is stored [n, k]); the product from a
// zero accumulator starts with scale-d 0. A register tile's
// transpose goes through shared memory: owners scatter, a barrier, each
// slot gathers its element.
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_80 --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=SYNC

// CHECK-LABEL: gpu.launch
// CHECK: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 128, k = 16>, D[<f32>, <zero>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// SYNC-LABEL: gpu.launch
// SYNC-NOT: mma_layout<col>
// SYNC-COUNT-24: nvvm.ldmatrix {{.+}} layout = #nvvm.mma_layout<row>
// SYNC-NOT: nvvm.ldmatrix
func.func @k_transposed(%Q: memref<64x64xbf16>, %K: memref<128x64xbf16>, %S: memref<64x128xf32>) {
  tile.kernel @k_transposed grid [1] threads 128 (%Q, %K, %S) : memref<64x64xbf16>, memref<128x64xbf16>, memref<64x128xf32> {
  ^bb0(%q: memref<64x64xbf16>, %k: memref<128x64xbf16>, %s: memref<64x128xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x128xf32>
    %tq = tile.load %q[%c0, %c0] : memref<64x64xbf16> -> !tile.tile<64x64xbf16>
    %tk = tile.load %k[%c0, %c0] : memref<128x64xbf16> -> !tile.tile<128x64xbf16>
    %kt = tile.transpose %tk : !tile.tile<128x64xbf16> -> !tile.tile<64x128xbf16>
    %d = tile.dot %tq, %kt, %z : !tile.tile<64x64xbf16>, !tile.tile<64x128xbf16> -> !tile.tile<64x128xf32>
    tile.store %d, %s[%c0, %c0] : !tile.tile<64x128xf32>, memref<64x128xf32>
  }
  return
}

// -----

// CHECK-LABEL: gpu.launch
// CHECK: vector.scatter
// CHECK-NEXT: gpu.barrier
// CHECK: vector.gather
// CHECK-NEXT: gpu.barrier
// SYNC-LABEL: gpu.launch
// SYNC: vector.scatter
func.func @register_transpose(%X: memref<8x16xf32>, %Y: memref<16x8xf32>) {
  tile.kernel @register_transpose grid [1] threads 32 (%X, %Y) : memref<8x16xf32>, memref<16x8xf32> {
  ^bb0(%x: memref<8x16xf32>, %y: memref<16x8xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %x[%c0, %c0] : memref<8x16xf32> -> !tile.tile<8x16xf32>
    %u = tile.transpose %t : !tile.tile<8x16xf32> -> !tile.tile<16x8xf32>
    tile.store %u, %y[%c0, %c0] : !tile.tile<16x8xf32>, memref<16x8xf32>
  }
  return
}

// -----

// tile.iota on a wgmma accumulator's layout (a causal mask over scores):
// each slot's row, as i32, from the thread's place and the slot's offset;
// no shared memory.
// CHECK-LABEL: gpu.launch
// CHECK-NOT: vector.scatter
// CHECK: arith.index_cast %{{.+}} : vector<32xindex> to vector<32xi32>
// CHECK: arith.cmpi sle
// CHECK: arith.select
func.func @causal_mask(%Q: memref<64x64xbf16>, %K: memref<64x64xbf16>, %S: memref<64x64xf32>) {
  tile.kernel @causal_mask grid [1] threads 128 (%Q, %K, %S) : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32> {
  ^bb0(%q: memref<64x64xbf16>, %k: memref<64x64xbf16>, %s: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %tq = tile.load %q[%c0, %c0] : memref<64x64xbf16> -> !tile.tile<64x64xbf16>
    %tk = tile.load %k[%c0, %c0] : memref<64x64xbf16> -> !tile.tile<64x64xbf16>
    %d = tile.dot %tq, %tk, %z : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
    %rows = tile.iota dim = 0 : !tile.tile<64x64xi32>
    %cols = tile.iota dim = 1 : !tile.tile<64x64xi32>
    %m = tile.map (%d, %rows, %cols) : (!tile.tile<64x64xf32>, !tile.tile<64x64xi32>, !tile.tile<64x64xi32>) -> !tile.tile<64x64xf32> {
    ^bb0(%x: f32, %i: i32, %j: i32):
      %keep = arith.cmpi sle, %j, %i : i32
      %r = arith.select %keep, %x, %ninf : f32
      tile.yield %r : f32
    }
    tile.store %m, %s[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  }
  return
}
