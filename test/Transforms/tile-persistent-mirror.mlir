// tile-persistent with mirror_rows. A [4, 3] grid is 6 pairs of
// block-rows (0 and 3, 1 and 2 of each column). With 4 SMs: 4 programs,
// one round of pairs (4 pairs: columns 0 and 1, a column boundary), then
// column 2's four tiles dealt one each, block-row 0 first: every program
// runs 3 steps; step j < 2 is the tile of pair p in column p / 2,
// block-row p % 2 (even j) or 3 - p % 2 (odd j); step 2 is block-row p of
// column 2. (Where block-row i is 4 - i blocks of work, as tile-tile's
// causal attention numbers them, pairs alone would give programs 0 and 1
// two pairs, 10 blocks, and 2 and 3 one; now 9, 8, 7, 6.)
// RUN: tile-opt %s --split-input-file --tile-persistent | FileCheck %s

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
// CHECK: scf.for %[[J:.+]] = %c0 to %c3 step %c1 {
// CHECK: %[[TURN:.+]] = arith.divui %[[J]], %c2
// CHECK: %[[OFFSET:.+]] = arith.muli %[[TURN]], %c4
// CHECK: %[[PAIR:.+]] = arith.addi %[[PID]], %[[OFFSET]]
// CHECK: %[[COL:.+]] = arith.divui %[[PAIR]], %c2
// CHECK: %[[LOWER:.+]] = arith.remui %[[PAIR]], %c2
// CHECK: %[[UPPER:.+]] = arith.subi %c3{{.*}}, %[[LOWER]]
// CHECK: %[[PARITY:.+]] = arith.remui %[[J]], %c2
// CHECK: %[[ODD:.+]] = arith.cmpi ne, %[[PARITY]], %c0
// CHECK: %[[ROW:.+]] = arith.select %[[ODD]], %[[UPPER]], %[[LOWER]]
// The rest: round r = j - 2, place p (even r) or 3 - p (odd r), tile
// t = 4 r + place, block-row t / 1 of column 2 + t % 1.
// CHECK: %[[R:.+]] = arith.subi %[[J]], %c2
// CHECK: %[[BACK:.+]] = arith.subi %c3{{.*}}, %[[PID]]
// CHECK: %[[RPAR:.+]] = arith.remui %[[R]], %c2
// CHECK: %[[REV:.+]] = arith.cmpi ne, %[[RPAR]], %c0
// CHECK: %[[PLACE:.+]] = arith.select %[[REV]], %[[BACK]], %[[PID]]
// CHECK: %[[FIRST:.+]] = arith.muli %[[R]], %c4
// CHECK: %[[T:.+]] = arith.addi %[[FIRST]], %[[PLACE]]
// CHECK: %[[RROW:.+]] = arith.divui %[[T]], %c1
// CHECK: %[[WITHIN:.+]] = arith.remui %[[T]], %c1
// CHECK: %[[RCOL:.+]] = arith.addi %c2{{.*}}, %[[WITHIN]]
// CHECK: %[[INREST:.+]] = arith.cmpi uge, %[[J]], %c2
// CHECK: %[[ROW2:.+]] = arith.select %[[INREST]], %[[RROW]], %[[ROW]]
// CHECK: %[[COL2:.+]] = arith.select %[[INREST]], %[[RCOL]], %[[COL]]
// CHECK: %[[M0:.+]] = arith.muli %[[ROW2]], %c64
// CHECK: %[[N0:.+]] = arith.muli %[[COL2]], %c64
// CHECK: tile.load %{{.+}}[%[[M0]], %[[N0]]]
// CHECK-NOT: tile.program_id 1

// -----

// A [4, 5] grid (10 pairs) on 3 SMs: rounds of 3 pairs end on a column
// boundary only after 2 of them (6 pairs, columns 0-2), so columns 3 and 4
// (8 tiles) are dealt: rounds of 3 to programs 0, 1, 2, then 2, 1, 0, and
// the last 2 to programs 0 and 1 (an even round). Programs 0 and 1 run
// 4 + 2 + 1 steps, program 2 runs 4 + 2.
module attributes {tile.target = #tile.target<"sm_90a", sms = 3>} {
  func.func @mirror_dealt(%A: memref<256x320xf32>) {
    tile.kernel @k grid [4, 5] threads 128 (%A) : memref<256x320xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, persistent = true, mirror_rows = true>} {
    ^bb0(%a: memref<256x320xf32>):
      %c64 = arith.constant 64 : index
      %pm = tile.program_id 0
      %pn = tile.program_id 1
      %m0 = arith.muli %pm, %c64 : index
      %n0 = arith.muli %pn, %c64 : index
      %t = tile.load %a[%m0, %n0] : memref<256x320xf32> -> !tile.tile<64x64xf32>
      tile.store %t, %a[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x320xf32>
    }
    return
  }
}

// CHECK-LABEL: tile.kernel @k grid [3]
// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[IN:.+]] = arith.cmpi ult, %[[PID]], %c2
// CHECK: %[[EXTRA:.+]] = arith.index_castui %[[IN]] : i1 to index
// CHECK: %[[STEPS:.+]] = arith.addi %c6, %[[EXTRA]]
// CHECK: scf.for %[[J:.+]] = %c0 to %[[STEPS]] step %c1 {
// CHECK: %[[R:.+]] = arith.subi %[[J]], %c4
// CHECK: %[[FIRST:.+]] = arith.muli %[[R]], %c3
// CHECK: %[[T:.+]] = arith.addi %[[FIRST]], %{{.+}}
// CHECK: %[[RROW:.+]] = arith.divui %[[T]], %c2
// CHECK: %[[WITHIN:.+]] = arith.remui %[[T]], %c2
// CHECK: %[[RCOL:.+]] = arith.addi %c3{{.*}}, %[[WITHIN]]
// CHECK: arith.cmpi uge, %[[J]], %c4
