// A transposed product's weight, computed in registers with its columns in
// fragment-run order (tile.dot's lhs_k_runs = 32), as wgmma's register A:
// tile-assign-layouts gives the map #tile.dot_operand<0, wgmma, k_width =
// 32> and the per-row scale a slice of it; tile-promote keeps the map in
// registers, sends the weight's load through an unswizzled, unpadded tile
// in shared memory (where a ring, TMA included, would fill it) read back
// as each thread's two 64-byte runs (16-byte loads), and puts x (B,
// transposed) in shared memory, K-major. The lowering takes each k16
// step's a0 .. a3 from the stored columns that hold K 2c, 2c + 1 (rows g,
// g + 8) and 2c + 8, 2c + 9: slots 4 t .. 4 t + 3 of each row's run, which
// in K order would sit 16 slots apart. The GPU test:
// test/Integration/tile_dot_lhs_k_runs_ragged.mlir.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s
// Runs of 16 (blocks of 64 along K): a thread's 16 stored columns of row g
// are slots 0 .. 15, row g + 8's 16 .. 31, so each k16 step's registers
// are slots 4 t .. 4 t + 3 of each.
// RUN: sed 's/lhs_k_runs = 32/lhs_k_runs = 16/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=RUNS16

// LAYOUT: tile.load {{.+}} -> !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>>
// LAYOUT: tile.load {{.+}} -> !tile.tile<64x128xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
// LAYOUT: tile.convert_layout {{.+}} -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
// LAYOUT: tile.map{{.+}}) -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>> {
// LAYOUT: tile.load {{.+}} -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// LAYOUT: tile.transpose {{.+}} -> !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
// LAYOUT-NOT: tile.convert_layout
// LAYOUT: tile.dot {{.+}} lhs_k_runs = 32

// CHECK-COUNT-8: vector.load %{{.+}} {alignment = 16 : i64} : memref<8192xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: vector.shuffle %[[A:.+]], %[[A]] [0, 1]
// CHECK: vector.shuffle %[[A]], %[[A]] [32, 33]
// CHECK: vector.shuffle %[[A]], %[[A]] [2, 3]
// CHECK: vector.shuffle %[[A]], %[[A]] [34, 35]
// CHECK: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {{.+}}, p, 1, 1, 0;
// CHECK: vector.shuffle %[[A]], %[[A]] [4, 5]
// CHECK: vector.shuffle %[[A]], %[[A]] [36, 37]
// CHECK: vector.shuffle %[[A]], %[[A]] [6, 7]
// CHECK: vector.shuffle %[[A]], %[[A]] [38, 39]
// RUNS16: nvvm.wgmma.fence.aligned
// RUNS16: vector.shuffle %[[A:.+]], %[[A]] [0, 1]
// RUNS16: vector.shuffle %[[A]], %[[A]] [16, 17]
// RUNS16: vector.shuffle %[[A]], %[[A]] [2, 3]
// RUNS16: vector.shuffle %[[A]], %[[A]] [18, 19]
// RUNS16: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// RUNS16: vector.shuffle %[[A]], %[[A]] [4, 5]
// RUNS16: vector.shuffle %[[A]], %[[A]] [20, 21]
// RUNS16: vector.shuffle %[[A]], %[[A]] [6, 7]
// RUNS16: vector.shuffle %[[A]], %[[A]] [22, 23]
// CHECK-COUNT-7: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// CHECK: nvvm.wgmma.commit.group.sync.aligned

func.func @transposed(%W: memref<64x128xbf16>, %S: memref<64xbf16>, %X: memref<16x128xbf16>, %Y: memref<64x16xf32>) {
  tile.kernel @k grid [1] threads 128 (%W, %S, %X, %Y) : memref<64x128xbf16>, memref<64xbf16>, memref<16x128xbf16>, memref<64x16xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1]>} {
  ^bb0(%w: memref<64x128xbf16>, %s: memref<64xbf16>, %x: memref<16x128xbf16>, %y: memref<64x16xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %ts = tile.load %s[%c0] : memref<64xbf16> -> !tile.tile<64xbf16>
    %tw = tile.load %w[%c0, %c0] : memref<64x128xbf16> -> !tile.tile<64x128xbf16>
    %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
    %wd = tile.map (%tw, %bs) : (!tile.tile<64x128xbf16>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
    ^bb0(%p: bf16, %q: bf16):
      %r = arith.mulf %p, %q : bf16
      tile.yield %r : bf16
    }
    %tx = tile.load %x[%c0, %c0] : memref<16x128xbf16> -> !tile.tile<16x128xbf16>
    %xt = tile.transpose %tx : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
    %acc = tile.dot %wd, %xt, %z lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
    tile.store %acc, %y[%c0, %c0] : !tile.tile<64x16xf32>, memref<64x16xf32>
  }
  return
}
