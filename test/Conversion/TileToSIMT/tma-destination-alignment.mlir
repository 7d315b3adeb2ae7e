// RUN: tile-opt %s --convert-tile-to-simt | FileCheck %s

// A ring that tile.tma_load fills starts on 128 bytes (TMA faults on a
// destination that is not), counted from the launch's base aligned at run
// time: after a 48-byte buffer at offset 0, the ring at 128, not 48.
// CHECK-LABEL: func @tma_ring_aligned
// CHECK: %[[OFF:.+]] = arith.subi %c1024{{.*}}, %{{.+}} : index
// CHECK: %[[BASE:.+]] = arith.remui %[[OFF]], %c1024{{.*}} : index
// CHECK: %[[AT0:.+]] = arith.addi %[[BASE]], %c0{{.*}} : index
// CHECK: memref.view %{{.+}}[%[[AT0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x16xi8
// CHECK: %[[AT:.+]] = arith.addi %[[BASE]], %c128{{.*}} : index
// CHECK: memref.view %{{.+}}[%[[AT]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1x64xbf16
func.func @tma_ring_aligned(%desc: !llvm.ptr) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %full = tile.barrier_group arrivals 1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    %odd = tile.shared : memref<3x16xi8, #gpu.address_space<workgroup>>
    %ring = tile.shared : memref<2x1x64xbf16, #gpu.address_space<workgroup>>
    %d = tile.view %ring[%c0] : memref<2x1x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x64xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
    tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : !llvm.ptr, !tile.tile<1x64xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    gpu.terminator
  }
  return
}
