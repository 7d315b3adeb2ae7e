// tile-persistent on split-K's 3-D grid (tile-tile's first kernel of a
// split matmul).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-persistent | FileCheck %s
// RUN: tile-opt %s --tile-configure="chip=sm_90a sms=3" --tile-persistent | FileCheck %s --check-prefix=THREE
// Five SMs would take the 12 items in three rounds; so do four programs.
// RUN: tile-opt %s --tile-configure="chip=sm_90a sms=5" --tile-persistent | FileCheck %s --check-prefix=FIVE

// Split-K's grid of 2 x 2 tiles x 3 K ranges: 12 tiles, the K range
// outermost (tile / 4), the output tile's coordinates from the rest.
// CHECK-LABEL: tile.kernel @split grid [12]
// CHECK: [[PID:%.+]] = tile.program_id 0
// CHECK: scf.for [[T:%.+]] = [[PID]] to %c12{{.*}} step %c12
// CHECK: [[S:%.+]] = arith.divui [[T]], %c4
// CHECK: [[REST:%.+]] = arith.remui [[T]], %c4
// CHECK: arith.divui [[REST]]
// CHECK: arith.muli [[S]], %c128
// CHECK-NOT: tile.program_id
// THREE-LABEL: tile.kernel @split grid [3]
// FIVE-LABEL: tile.kernel @split grid [4]
// FIVE: scf.for {{.+}} = %{{.+}} to %c12{{.*}} step %c4
func.func @split(%A: memref<128x384xbf16>, %B: memref<384x128xbf16>, %W: memref<384x128xf32>) {
  tile.kernel @split grid [2, 2, 3] threads 128 (%A, %B, %W) : memref<128x384xbf16>, memref<384x128xbf16>, memref<384x128xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], persistent = true, group_rows = 8, split_k = 3>} {
  ^bb0(%a: memref<128x384xbf16>, %b: memref<384x128xbf16>, %w: memref<384x128xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %ps = tile.program_id 2
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %k0 = arith.muli %ps, %c128 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %kk = arith.addi %k0, %k : index
      %ta = tile.load %a[%m0, %kk] : memref<128x384xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%kk, %n0] : memref<384x128xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %r = arith.addi %k0, %m0 : index
    tile.store %acc, %w[%r, %n0] : !tile.tile<64x64xf32>, memref<384x128xf32>
  }
  return
}
