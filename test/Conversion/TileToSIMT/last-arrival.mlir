// tile.last_arrival: the program's barrier, then thread 0 fences
// (fence.acq_rel.gpu, cumulative over the stores the barrier ordered
// before it) and adds one to the counter, and the program that brings it
// to `count` (here the 4th) puts it back to 0; thread 0 fences again
// (acquiring the others' stores) and leaves the answer in the scratch region,
// which every thread reads between two barriers. Inside a partition the
// barriers are the partition's named barrier and thread 0 is its own. A
// weighted arrival (stream-K's part of a tile) adds its weight, and is the
// last where the counter reaches `count` with it.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

// CHECK-LABEL: func @last_arrival
// CHECK: %[[FLAG:.+]] = memref.view %{{.+}} to memref<1xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: nvvm.memory.barrier
// CHECK: gpu.barrier
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %{{.+}}, %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: llvm.inline_asm has_side_effects "fence.acq_rel.gpu;", "~{memory}"
// CHECK: %[[OLD:.+]] = memref.atomic_rmw addi %c1{{.*}}, %[[COUNTERS:.+]][%[[INDEX:.+]]] : (i32, memref<8xi32>) -> i32
// CHECK: %[[LAST:.+]] = arith.cmpi eq, %[[OLD]], %c3
// CHECK: scf.if %[[LAST]] {
// CHECK: memref.store %c0{{.*}}, %[[COUNTERS]][%[[INDEX]]] : memref<8xi32>
// CHECK: llvm.inline_asm has_side_effects "fence.acq_rel.gpu;", "~{memory}"
// CHECK: %[[BIT:.+]] = arith.extui %[[LAST]] : i1 to i32
// CHECK: memref.store %[[BIT]], %[[FLAG]][%c0{{.*}}]
// CHECK: gpu.barrier
// CHECK-NEXT: %[[ANSWER:.+]] = memref.load %[[FLAG]][%c0{{.*}}]
// CHECK-NEXT: gpu.barrier
// CHECK: %[[YES:.+]] = arith.cmpi ne, %[[ANSWER]], %c0
// CHECK: scf.if %[[YES]]
// CHECK: memref.store %{{.+}} : memref<8xf32>
func.func @last_arrival(%counters: memref<8xi32>, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %last = tile.last_arrival %counters[%bx] of 4 : memref<8xi32>
    scf.if %last {
      %one = arith.constant 1.0 : f32
      memref.store %one, %out[%bx] : memref<8xf32>
    }
    gpu.terminator
  }
  return
}

// -----

// In the consumers of a warp-specialized kernel: named barrier 2 over
// their 128 threads, and their first thread (the launch's 128th) adds.
// A partition with an arrival runs on all of its threads, even without
// register tiles (they all take part in its barriers).
// CHECK-LABEL: func @in_partition
// CHECK: nvvm.setmaxregister  decrease 232
// CHECK-NOT: scf.if
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK: fence.acq_rel.gpu
// CHECK: memref.atomic_rmw addi
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK-NEXT: memref.load
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
func.func @in_partition(%counters: memref<8xi32>) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    tile.warp_specialize threads [128, 128] registers [40, 232] {
      tile.return
    }, {
      %last = tile.last_arrival %counters[%bx] of 2 : memref<8xi32>
      tile.return
    }
    gpu.terminator
  }
  return
}

// -----

// CHECK-LABEL: func @weighted
// CHECK: %[[WEIGHT:.+]] = arith.index_cast %{{.+}} : index to i32
// CHECK: %[[OLD:.+]] = memref.atomic_rmw addi %[[WEIGHT]], %[[COUNTERS:.+]][%[[INDEX:.+]]] : (i32, memref<8xi32>) -> i32
// CHECK: %[[NEW:.+]] = arith.addi %[[OLD]], %[[WEIGHT]] : i32
// CHECK: %[[LAST:.+]] = arith.cmpi eq, %[[NEW]], %c64
// CHECK: scf.if %[[LAST]] {
// CHECK: memref.store %c0{{.*}}, %[[COUNTERS]][%[[INDEX]]] : memref<8xi32>
func.func @weighted(%counters: memref<8xi32>, %steps: index) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %last = tile.last_arrival %counters[%bx] of 64 adding %steps : memref<8xi32>
    gpu.terminator
  }
  return
}
