// tile-persistent with mirror_rows: a [4, 3] grid is 6 pairs of
// block-rows (0 and 3, 1 and 2 of each column); with 4 SMs, 4 programs,
// program p running 2 * ceil((6 - p) / 4) steps, step j the tile of pair
// p + (j / 2) * 4 in column pair / 2, block-row pair % 2 (even j) or
// 3 - pair % 2 (odd j).
// RUN: tile-opt %s --tile-persistent | FileCheck %s

module attributes {tile.target = #tile.target<"sm_90a", sms = 4>} {
  func.func @mirror(%A: memref<256x192xf32>) {
    tile.kernel @k grid [4, 3] threads 128 (%A) : memref<256x192xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, persistent = true, mirror_rows = true>} {
    ^bb0(%a: memref<256x192xf32>):
      %c64 = arith.constant 64 : index
      %pm = tile.program_id 0
      %pn = tile.program_id 1
      %m0 = arith.muli %pm, %c64 : index
      %n0 = arith.muli %pn, %c64 : index
      %t = tile.load %a[%m0, %n0] : memref<256x192xf32> -> !tile.tile<64x64xf32>
      tile.store %t, %a[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x192xf32>
    }
    return
  }
}

// CHECK-LABEL: tile.kernel @k grid [4]
// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[LEFT:.+]] = arith.subi %c6, %[[PID]]
// CHECK: %[[ROUNDED:.+]] = arith.addi %[[LEFT]], %c3
// CHECK: %[[TURNS:.+]] = arith.divui %[[ROUNDED]], %c4
// CHECK: %[[STEPS:.+]] = arith.muli %[[TURNS]], %c2
// CHECK: scf.for %[[J:.+]] = %c0 to %[[STEPS]] step %c1 {
// CHECK: %[[TURN:.+]] = arith.divui %[[J]], %c2
// CHECK: %[[OFFSET:.+]] = arith.muli %[[TURN]], %c4
// CHECK: %[[PAIR:.+]] = arith.addi %[[PID]], %[[OFFSET]]
// CHECK: %[[COL:.+]] = arith.divui %[[PAIR]], %c2
// CHECK: %[[LOWER:.+]] = arith.remui %[[PAIR]], %c2
// CHECK: %[[UPPER:.+]] = arith.subi %c3{{.*}}, %[[LOWER]]
// CHECK: %[[PARITY:.+]] = arith.remui %[[J]], %c2
// CHECK: %[[ODD:.+]] = arith.cmpi ne, %[[PARITY]], %c0
// CHECK: %[[ROW:.+]] = arith.select %[[ODD]], %[[UPPER]], %[[LOWER]]
// CHECK: %[[M0:.+]] = arith.muli %[[ROW]], %c64
// CHECK: %[[N0:.+]] = arith.muli %[[COL]], %c64
// CHECK: tile.load %{{.+}}[%[[M0]], %[[N0]]]
// CHECK-NOT: tile.program_id 1
