// TMA multicast and cluster-wide arrivals, the pieces of a ring that two
// programs of a cluster fill together (each copying a part of a tile that
// both read):
// - tile.tma_load's multicast: one thread announces the bytes that land in
//   its own program (its part and the other program's: 2 x 64 x 64 bf16 =
//   16384) and copies its part to both programs (multicast_mask = 3);
// - tile.arrive's ranks: lane 0 of each warp arrives on the barrier's
//   counterpart in each program of the mask, by its address there (mapa
//   of the barrier's shared address), releasing at CTA scope (the default:
//   no scope attribute; at cluster scope ptxas fences the GPU each time).
// - tile.view's rows: a part of a slot's rows starts r rows of the slot's
//   bytes in (rows of 128 bytes: r x 128);
// - tile.cluster_barrier: the barriers' initialization fenced for the
//   cluster, then the cluster's barrier (arrive, wait).
// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s
// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt,convert-nvgpu-to-nvvm)' | FileCheck %s --check-prefix=NVVM

// CHECK-LABEL: func @multicast
// CHECK: %[[FULL:.+]] = nvgpu.mbarrier.create
// CHECK: %[[EMPTY:.+]] = nvgpu.mbarrier.create
// CHECK: scf.if
// CHECK:   nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.+}}], %c16384 :
// CHECK:   %[[MASK:.+]] = arith.constant 3 : i16
// CHECK:   nvgpu.tma.async.load %{{.+}}[%{{.+}}, %{{.+}}], %[[FULL]][%{{.+}}] to %{{.+}} multicast_mask = %[[MASK]]
// CHECK: nvvm.bar.warp.sync
// CHECK: scf.if
// CHECK:   %[[ADDR:.+]] = nvgpu.mbarrier.get %[[EMPTY]][%{{.+}}] : {{.+}} -> i64
// CHECK:   %[[LOCAL:.+]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr<3>
// CHECK:   %[[R0:.+]] = nvvm.mapa %[[LOCAL]], %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:   nvvm.mbarrier.arrive %[[R0]] : !llvm.ptr<7>
// CHECK:   %[[R1:.+]] = nvvm.mapa %[[LOCAL]], %c1_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK:   nvvm.mbarrier.arrive %[[R1]] : !llvm.ptr<7>
// CHECK-NOT: nvgpu.mbarrier.arrive %[[EMPTY]]

// NVVM-LABEL: func @multicast
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.+}}, %{{.+}}, %{{.+}}, box[%{{.+}}, %{{.+}}] multicast_mask = %{{.+}}
// NVVM: nvvm.mapa %{{.+}}, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
func.func @multicast(%desc: !llvm.ptr) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c1, %sy = %c1, %sz = %c2) blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c2) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %full = tile.barrier_group arrivals 1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    %empty = tile.barrier_group arrivals 8 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    %ring = tile.shared : memref<2x64x64xbf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bz, %c64 : index
    %part = tile.view %ring[%bz] : memref<2x64x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
    tile.tma_load %desc[%row, %c0], %part, %full[%c0] {multicast = 3} : !llvm.ptr, !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    tile.arrive %empty[%c0] {ranks = 3} : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func @rows_and_barrier
// CHECK: nvgpu.mbarrier.init
// CHECK: gpu.barrier
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[SLOT:.+]] = arith.muli %{{.+}}, %c32768 : index
// CHECK: %[[START:.+]] = arith.addi %c{{[0-9_]+}}, %[[SLOT]] : index
// CHECK: %[[ROWS:.+]] = arith.muli %[[R:.+]], %c128{{.*}} : index
// CHECK: %[[PART:.+]] = arith.addi %[[START]], %[[ROWS]] : index
// CHECK: %[[AT:.+]] = arith.addi %{{.+}}, %[[PART]] : index
// CHECK: memref.view %{{.+}}[%[[AT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf8E4M3FN
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.+}}[%{{.+}}], %c32768
// CHECK: nvgpu.tma.async.load {{.+}} multicast_mask
func.func @rows_and_barrier(%desc: !llvm.ptr) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c2, %sy = %c1, %sz = %c1) blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %full = tile.barrier_group arrivals 1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    tile.cluster_barrier
    %ring = tile.shared : memref<2x256x128xf8E4M3FN, #gpu.address_space<workgroup>>
    %r = arith.muli %bx, %c128 : index
    %part = tile.view %ring[%c1] rows %r : memref<2x256x128xf8E4M3FN, #gpu.address_space<workgroup>> -> !tile.tile<128x128xf8E4M3FN, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
    tile.tma_load %desc[%r, %c0], %part, %full[%c1] {multicast = 3} : !llvm.ptr, !tile.tile<128x128xf8E4M3FN, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    gpu.terminator
  }
  return
}
