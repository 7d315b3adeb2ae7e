// RUN: tile-opt %s --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s

// A bf16 row of 4096 over 256 threads: runs of 8 (16 bytes) per thread,
// loaded and stored as single vector accesses where in bounds; the row sum
// folds in registers, then across lanes with butterfly shuffles, then
// across warps in shared memory; the 1-element result broadcasts without
// shared memory.
// CHECK-LABEL: func @row
// CHECK: scf.if
// CHECK:   vector.load %{{.*}} : memref<64x4096xbf16>, vector<8xbf16>
// CHECK: vector.shuffle
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: vector.broadcast
// CHECK: vector.store %{{.*}} : memref<64x4096xbf16>, vector<8xbf16>
func.func @row(%X: memref<64x4096xbf16>, %Y: memref<64x4096xbf16>) {
  tile.kernel @row_0 grid [64] threads 256 (%X, %Y) : memref<64x4096xbf16>, memref<64x4096xbf16> {
  ^bb0(%x: memref<64x4096xbf16>, %y: memref<64x4096xbf16>):
    %r = tile.program_id 0
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %t = tile.load %x[%r, %c0] : memref<64x4096xbf16> -> !tile.tile<1x4096xbf16>
    %f = tile.cast %t : !tile.tile<1x4096xbf16> -> !tile.tile<1x4096xf32>
    %s = tile.reduce %f, %zero dim = 1 : !tile.tile<1x4096xf32>, f32 -> !tile.tile<1xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.addf %a, %b : f32
      tile.yield %q : f32
    }
    %sb = tile.broadcast %s [1] : !tile.tile<1xf32> -> !tile.tile<1x4096xf32>
    %d = tile.map (%f, %sb) : (!tile.tile<1x4096xf32>, !tile.tile<1x4096xf32>) -> !tile.tile<1x4096xf32> {
    ^bb0(%v: f32, %w: f32):
      %q = arith.divf %v, %w : f32
      tile.yield %q : f32
    }
    %o = tile.cast %d : !tile.tile<1x4096xf32> -> !tile.tile<1x4096xbf16>
    tile.store %o, %y[%r, %c0] : !tile.tile<1x4096xbf16>, memref<64x4096xbf16>
  }
  return
}
