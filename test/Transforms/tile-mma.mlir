// tile-mma rewrites each tensor-core tile.dot in place: with a wgmma
// accumulator, tile.wgmma (uniform_warp, as tile-configure gives a kernel
// of one product) and a wait for it; with an mma.sync accumulator,
// ldmatrix conversions of its operands to #tile.dot_operand layouts, the
// dot lowering to mma.sync. The loop and the epilogue stay as they are.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_80 --tile-assign-layouts --tile-promote --tile-mma | FileCheck %s --check-prefix=SYNC
// RUN: not tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-mma 2>&1 | FileCheck %s --check-prefix=UNPROMOTED

// CHECK-LABEL: tile.kernel @k
// CHECK: scf.for
// CHECK: [[A:%.+]] = tile.load
// CHECK: [[B:%.+]] = tile.load
// CHECK: [[T:%.+]] = tile.wgmma [[A]], [[B]], %{{[^ ]+}} uniform_warp : {{.+}} -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
// CHECK: [[D:%.+]] = tile.wgmma_wait [[T]] {pending = 0 : i64}
// CHECK: scf.yield [[D]]
// CHECK-NOT: tile.dot

// SYNC: [[A:%.+]] = tile.load {{.+}}#tile.shared<padding = 8>
// SYNC: [[B:%.+]] = tile.load {{.+}}#tile.shared<padding = 8>
// SYNC: [[FA:%.+]] = tile.convert_layout [[A]] : {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>
// SYNC: [[FB:%.+]] = tile.convert_layout [[B]] : {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>
// SYNC: tile.dot [[FA]], [[FB]]

// UNPROMOTED: error: 'tile.dot' op needs its operands in shared memory (A also in registers) for wgmma (run tile-promote first)
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
