// A replicated tile.warp_specialize partition (replicas [1, 3]: threads
// 128-511 run three copies of one code), lowered: a copy is the thread's
// warp index in the partition, broadcast from lane 0 (uniform), over 4;
// layouts count each copy's threads from 0 (the offset mod 128); a
// tile.barrier synchronizes a copy's 128 threads alone, on named barrier 2
// + copy (the producer has 1); tile.replica is the copy. In a partition of
// one copy tile.replica is 0.
// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

// CHECK-LABEL: func.func @replicas
// CHECK: %[[INSIDE:.+]] = arith.cmpi ult, %[[TID:.+]], %c128{{.*}} : index
// CHECK: scf.if %[[INSIDE]] {
// CHECK: } else {
// CHECK: %[[OFFSET:.+]] = arith.subi %[[TID]], %c128{{.*}} : index
// CHECK: %[[WARP:.+]] = arith.divui %[[OFFSET]], %c32{{.*}} : index
// CHECK: %[[WARP32:.+]] = arith.index_castui %[[WARP]] : index to i32
// CHECK: %[[UNIFORM:.+]], %{{.+}} = gpu.shuffle  idx %[[WARP32]], %c0_i32, %c32_i32 : i32
// CHECK: %[[UNIFORMIDX:.+]] = arith.index_castui %[[UNIFORM]] : i32 to index
// CHECK: %[[COPY:.+]] = arith.divui %[[UNIFORMIDX]], %c4{{.*}} : index
// CHECK: %[[LOCAL:.+]] = arith.remui %[[OFFSET]], %c128{{.*}} : index
// CHECK: %[[BASE:.+]] = arith.constant 2 : i32
// CHECK: %[[COPY32:.+]] = arith.index_castui %[[COPY]] : index to i32
// CHECK: %[[ID:.+]] = arith.addi %[[BASE]], %[[COPY32]] : i32
// CHECK: %[[COUNT:.+]] = arith.constant 128 : i32
// CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[COUNT]]
// CHECK: %[[VALUE:.+]] = arith.index_cast %[[COPY]] : index to i32
// CHECK: %[[SPLAT:.+]] = vector.broadcast %[[VALUE]] : i32 to vector<1xi32>
// CHECK: %[[AT:.+]] = arith.muli %[[LOCAL]], %{{.+}} : index
// CHECK: vector.broadcast %[[AT]] : index to vector<1xindex>
// CHECK: vector.scatter %{{.+}}, %[[SPLAT]] : memref<128xi32>
func.func @replicas(%out: memref<128xi32>) {
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c512, %v = %c1, %w = %c1) {
    tile.warp_specialize threads [128, 128] registers [0, 0] attributes {replicas = array<i64: 1, 3>} {
      tile.return
    }, {
      %r = tile.replica
      tile.barrier
      %r32 = arith.index_cast %r : index to i32
      %t = tile.splat %r32 : i32 -> !tile.tile<128xi32, layout = #tile.blocked<threads = 128, run = 1>>
      %c0 = arith.constant 0 : index
      tile.store %t, %out[%c0] : !tile.tile<128xi32, layout = #tile.blocked<threads = 128, run = 1>>, memref<128xi32>
      tile.return
    }
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @one_copy
// CHECK-NOT: gpu.shuffle
// CHECK: } else {
// CHECK-NOT: gpu.shuffle
// CHECK: %[[ZERO:.+]] = arith.constant 0 : index
// CHECK: %[[ZERO32:.+]] = arith.index_cast %[[ZERO]] : index to i32
// CHECK: vector.broadcast %[[ZERO32]] : i32 to vector<1xi32>
func.func @one_copy(%out: memref<128xi32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    tile.warp_specialize threads [128, 128] registers [0, 0] {
      tile.return
    }, {
      %r = tile.replica
      %r32 = arith.index_cast %r : index to i32
      %t = tile.splat %r32 : i32 -> !tile.tile<128xi32, layout = #tile.blocked<threads = 128, run = 1>>
      %c0 = arith.constant 0 : index
      tile.store %t, %out[%c0] : !tile.tile<128xi32, layout = #tile.blocked<threads = 128, run = 1>>, memref<128xi32>
      tile.return
    }
    gpu.terminator
  }
  return
}

// What copy 0 alone runs (scf.if tile.replica == 0) may use the scratch
// region: a reduction there lowers.
// CHECK-LABEL: func.func @first_copy_scratch
// CHECK: scf.if
// CHECK: gpu.dynamic_shared_memory
func.func @first_copy_scratch(%c: f32, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c384 = arith.constant 384 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c384, %v = %c1, %w = %c1) {
    tile.warp_specialize threads [128, 128] registers [0, 0] attributes {replicas = array<i64: 1, 2>} {
      tile.return
    }, {
      %r0 = tile.replica
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %r0, %c0 : index
      scf.if %first {
        %t = tile.splat %c : f32 -> !tile.tile<8x64xf32, layout = #tile.blocked<threads = 128, run = 1>>
        %r = tile.reduce %t, %c dim = 1 : !tile.tile<8x64xf32, layout = #tile.blocked<threads = 128, run = 1>>, f32 -> !tile.tile<8xf32, layout = #tile.blocked<threads = 128, run = 1>> {
        ^bb0(%a: f32, %b: f32):
          %s = arith.addf %a, %b : f32
          tile.yield %s : f32
        }
        tile.store %r, %out[%c0] : !tile.tile<8xf32, layout = #tile.blocked<threads = 128, run = 1>>, memref<8xf32>
      }
      tile.return
    }
    gpu.terminator
  }
  return
}
