// tile.turn_*: warpgroup w (its thread in the scope / 128) waits on named
// barrier 8 + w over 256 threads (its own 128 and the previous
// warpgroup's arrivals) and ends its turn arriving on 8 + (w + 1) mod the
// warpgroups; tile.turn_start has the last warpgroup arrive on barrier 8.
// In the consumers of a warp-specialized kernel, w counts from the
// partition's first thread. Fewer than two whole warpgroups, or a turn
// that holds a barrier or does not end in its block, is an error.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-to-simt)' -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @turns
// CHECK: nvvm.setmaxregister  increase 152
// CHECK: %[[LOCAL:.+]] = arith.subi %{{.+}}, %c128
// CHECK: %[[W0:.+]] = arith.divui %[[LOCAL]], %c128
// CHECK: %[[LAST:.+]] = arith.cmpi eq, %[[W0]], %c2
// CHECK: scf.if %[[LAST]] {
// CHECK-NEXT: %[[FIRSTID:.+]] = arith.constant 8 : i32
// CHECK-NEXT: %[[N0:.+]] = arith.constant 256 : i32
// CHECK-NEXT: nvvm.barrier.arrive id = %[[FIRSTID]] number_of_threads = %[[N0]]
// CHECK: %[[W1:.+]] = arith.divui %[[LOCAL]], %c128
// CHECK: %[[OWN:.+]] = arith.addi %[[W1]], %c8
// CHECK: %[[OWNID:.+]] = arith.index_castui %[[OWN]] : index to i32
// CHECK: %[[N1:.+]] = arith.constant 256 : i32
// CHECK: nvvm.barrier id = %[[OWNID]] number_of_threads = %[[N1]]
// CHECK: %[[W2:.+]] = arith.divui %[[LOCAL]], %c128
// CHECK: %[[PLUS:.+]] = arith.addi %[[W2]], %c1
// CHECK: %[[NEXT:.+]] = arith.remui %[[PLUS]], %c3
// CHECK: %[[NEXTB:.+]] = arith.addi %[[NEXT]], %c8
// CHECK: %[[NEXTID:.+]] = arith.index_castui %[[NEXTB]] : index to i32
// CHECK: %[[N2:.+]] = arith.constant 256 : i32
// CHECK: nvvm.barrier.arrive id = %[[NEXTID]] number_of_threads = %[[N2]]
func.func @turns() {
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c512, %v = %c1, %w = %c1) {
    tile.warp_specialize threads [128, 384] registers [40, 152] {
      tile.return
    }, {
      tile.turn_start
      tile.turn_begin
      tile.turn_end
      tile.return
    }
    gpu.terminator
  }
  return
}

// -----

func.func @one_warpgroup() {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.turn_begin' op needs two or more whole warpgroups but runs on 128 threads}}
    tile.turn_begin
    gpu.terminator
  }
  return
}

// -----

// In the launch itself (no partitions): the warpgroup is the thread id
// / 128 of the launch's 256 threads; the last (1) gives the first turn.
// CHECK-LABEL: func @launch_scope
// CHECK: %[[W:.+]] = arith.divui %{{.+}}, %c128
// CHECK: %[[LAST:.+]] = arith.cmpi eq, %[[W]], %c1
// CHECK: scf.if %[[LAST]] {
// CHECK: nvvm.barrier.arrive id = %{{.+}} number_of_threads = %{{.+}}
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK: arith.remui %{{.+}}, %c2
// CHECK: nvvm.barrier.arrive id = %{{.+}} number_of_threads = %{{.+}}
func.func @launch_scope() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    tile.turn_start
    tile.turn_begin
    tile.turn_end
    gpu.terminator
  }
  return
}

// -----

func.func @partial_warpgroup() {
  %c1 = arith.constant 1 : index
  %c320 = arith.constant 320 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c320, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.turn_start' op needs two or more whole warpgroups but runs on 320 threads}}
    tile.turn_start
    gpu.terminator
  }
  return
}

// -----

// A barrier inside a turn would wait for the warpgroup that waits for
// the turn: refused, as is a turn that never ends in its block.
func.func @barrier_in_turn() {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.turn_begin' op needs a tile.turn_end later in its block with no barrier, turn or nested region before it}}
    tile.turn_begin
    tile.barrier
    tile.turn_end
    gpu.terminator
  }
  return
}

// -----

func.func @unended_turn(%p: i1) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.turn_begin' op needs a tile.turn_end later in its block with no barrier, turn or nested region before it}}
    tile.turn_begin
    scf.if %p {
      tile.turn_end
    }
    gpu.terminator
  }
  return
}
