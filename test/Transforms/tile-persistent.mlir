// tile-persistent: a 4 x 4 grid of output tiles becomes min(16, SMs)
// persistent programs walking the tiles in groups of 8 block-rows (the
// program ids become the tile's coordinates); with 3 SMs, 3 programs; with
// 10 SMs, the 16 tiles take two rounds, which 8 programs take as well
// (each two tiles; the 2 SMs left over idle), or 10 with every_sm;
// without persistence (sm_80's config), one program per tile in the grouped
// order over a 1-D grid.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-persistent | FileCheck %s
// RUN: tile-opt %s --tile-configure="chip=sm_90a sms=3" --tile-persistent | FileCheck %s --check-prefix=THREE
// RUN: tile-opt %s --tile-configure="chip=sm_90a sms=10" --tile-persistent | FileCheck %s --check-prefix=TEN
// RUN: sed 's/^  tile.kernel @k grid \[4, 4\] threads 128 (\(.*\)) : \(.*\) {$/  tile.kernel @k grid [4, 4] threads 128 (\1) : \2 attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, every_sm = true>} {/' %s | tile-opt --tile-configure="chip=sm_90a sms=10" --tile-persistent | FileCheck %s --check-prefix=EVERY
// RUN: tile-opt %s --tile-configure=chip=sm_80 --tile-persistent | FileCheck %s --check-prefix=GROUPED

// CHECK-LABEL: tile.kernel @k grid [16]
// CHECK: [[PID:%.+]] = tile.program_id 0
// CHECK-DAG: [[TILES:%.+]] = arith.constant 16 : index
// CHECK-DAG: [[STEP:%.+]] = arith.constant 16 : index
// CHECK: scf.for [[T:%.+]] = [[PID]] to [[TILES]] step [[STEP]] {
// CHECK: [[GROUP:%.+]] = arith.divui [[T]], %{{.+}} : index
// CHECK: [[ROW:%.+]] = arith.addi
// CHECK: [[COL:%.+]] = arith.divui
// CHECK: [[M0:%.+]] = arith.muli [[ROW]], %{{.+}} : index
// CHECK: [[N0:%.+]] = arith.muli [[COL]], %{{.+}} : index
// CHECK: scf.for
// CHECK: tile.load %{{.+}}[[[M0]], %{{.+}}]
// CHECK: tile.load %{{.+}}[%{{.+}}, [[N0]]]
// CHECK-NOT: tile.program_id 1

// THREE-LABEL: tile.kernel @k grid [3]
// THREE: scf.for {{.+}} = %{{.+}} to %c16{{.*}} step %c3

// TEN-LABEL: tile.kernel @k grid [8]
// TEN: scf.for {{.+}} = %{{.+}} to %c16{{.*}} step %c8

// EVERY-LABEL: tile.kernel @k grid [10]
// EVERY-SAME: every_sm = true
// EVERY: scf.for {{.+}} = %{{.+}} to %c16{{.*}} step %c10

// GROUPED-LABEL: tile.kernel @k grid [16]
// GROUPED: [[PID:%.+]] = tile.program_id 0
// GROUPED-NOT: scf.for {{.+}} = [[PID]]
// GROUPED: arith.divui [[PID]]
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
