// tile-assign-layouts: the dot's accumulator takes the config's wgmma
// layout, and everything elementwise around it follows: the epilogue maps
// compute on the accumulator's registers, the bias is loaded straight into
// the #tile.slice its broadcast needs, the row reduction leaves a slice of
// the accumulator's layout, and the one vector broadcast along both
// dimensions gets a tile.convert_layout where its two slices meet. The dot
// operands are left to tile-promote (blocked here).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_80 --tile-assign-layouts | FileCheck %s --check-prefix=SYNC

// CHECK-LABEL: tile.kernel @k
// CHECK: tile.splat {{.+}} -> !tile.tile<64x64xf32, layout = [[MMA:#tile.mma<wgmma, warps = \[4, 1\], instr = \[64, 64, 16\]>]]>
// CHECK: scf.for {{.+}} -> (!tile.tile<64x64xf32, layout = [[MMA]]>)
// CHECK: tile.load {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.blocked<threads = 128, run = 8>>
// CHECK: tile.dot {{.+}} -> !tile.tile<64x64xf32, layout = [[MMA]]>
// CHECK: [[BIAS:%.+]] = tile.load {{.+}} -> !tile.tile<64xf32, layout = #tile.slice<0, [[MMA]]>>
// CHECK: tile.broadcast [[BIAS]] [0] {{.+}} -> !tile.tile<64x64xf32, layout = [[MMA]]>
// CHECK: tile.map{{.+}} -> !tile.tile<64x64xf32, layout = [[MMA]]>
// CHECK: [[ROWS:%.+]] = tile.convert_layout [[BIAS]] : !tile.tile<64xf32, layout = #tile.slice<0, [[MMA]]>> -> !tile.tile<64xf32, layout = #tile.slice<1, [[MMA]]>>
// CHECK: tile.broadcast [[ROWS]] [1]
// CHECK: tile.reduce {{.+}} -> !tile.tile<64xf32, layout = #tile.slice<1, [[MMA]]>>
// CHECK: tile.cast {{.+}} -> !tile.tile<64x64xbf16, layout = [[MMA]]>
// CHECK: tile.store {{.+}} : !tile.tile<64x64xbf16, layout = [[MMA]]>, memref<256x256xbf16>

// On sm_80: the same, in mma.sync's accumulator layout.
// SYNC: tile.dot {{.+}} -> !tile.tile<64x64xf32, layout = #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>

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
