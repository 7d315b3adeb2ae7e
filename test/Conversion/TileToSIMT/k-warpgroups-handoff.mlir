// k_warpgroups' hand-off, lowered (tile-warp-specialize makes it): the
// consumer partition runs as two copies of one code on threads 128-383
// (one setmaxregister increase): a thread's copy is its warp index,
// broadcast from lane 0, over 4, and its thread id in the copy its offset
// mod 128. After the K loop copy 0 waits on the hand-off mbarrier's phase
// 0, reads the other's sum back in its own fragments' layout and adds it
// to its own; copy 1 stores its partial sum straight into the shared
// buffer (no trip through the scratch region, which copy 0's epilogue
// owns) and each thread arrives after its own stores (no warp barrier, no
// lane test).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s

// CHECK: %[[HANDOFF:.+]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK: nvvm.setmaxregister  decrease 40
// CHECK: } else {
// CHECK-NEXT: nvvm.setmaxregister  increase 232
// CHECK: %[[OFFSET:.+]] = arith.subi %{{.+}}, %c128{{.*}} : index
// CHECK: %[[WARP:.+]] = arith.divui %[[OFFSET]], %c32 : index
// CHECK: %[[WARP32:.+]] = arith.index_castui %[[WARP]] : index to i32
// CHECK: %[[UNIFORM:.+]], %{{.+}} = gpu.shuffle  idx %[[WARP32]], %c0_i32, %c32_i32 : i32
// CHECK: %[[UNIFORMIDX:.+]] = arith.index_castui %[[UNIFORM]] : i32 to index
// CHECK: %[[COPY:.+]] = arith.divui %[[UNIFORMIDX]], %c4{{.*}} : index
// CHECK: arith.remui %[[OFFSET]], %c128{{.*}} : index
// CHECK-NOT: nvvm.setmaxregister
// CHECK: nvvm.wgmma.mma_async
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[COPY]], %{{.+}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvgpu.mbarrier.try_wait.parity %[[HANDOFF]][%{{.+}}], %false
// CHECK: vector.load %{{.+}} : memref<64x64xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<32xf32>
// CHECK: } else {
// CHECK: vector.scatter %{{.+}} : memref<4096xf32, #gpu.address_space<workgroup>>, vector<32xindex>, vector<32xi1>, vector<32xf32>
// CHECK-NOT: nvvm.bar.warp.sync
// CHECK-NOT: scf.if
// CHECK: nvgpu.mbarrier.arrive %[[HANDOFF]]
// CHECK-NOT: nvvm.setmaxregister
func.func @gemm(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, warp_specialize = true, k_warpgroups = 2>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>):
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
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}
