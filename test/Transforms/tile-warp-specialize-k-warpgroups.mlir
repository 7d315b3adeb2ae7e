// tile-warp-specialize with k_warpgroups = 2: a producer and one consumer
// partition of the config's 128 threads (232 registers), replicated twice
// (replicas [1, 2]): both warpgroups run one copy of the code. Copy r
// (tile.replica) runs the K loop's steps r, r + 2, ... (the loop starts
// r * 64 on, its step doubled, folded to a constant) from a zero
// accumulator; both find their slots by the original step (the
// iteration's index divides by 64, not 128). After the loop copy 0 waits
// on the hand-off barrier, adds the other's sum to its own and runs the
// epilogue alone; copy 1 stores its sum in a shared buffer (rows (r - 1)
// * 64 on) and arrives (each of its 128 threads). The ring gives each
// slot back at the end of its step (no product kept in flight across
// steps).
// A K loop of one step has nothing to split (SINGLESTEP): one consumer partition.
// Three warpgroups on a ring of 6, no power of two (ODD): each takes every
// third step, and finds its slot and round by a remainder and a quotient
// by 6 (a carried place would step by 3).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize | FileCheck %s
// RUN: sed 's/%c0 to %c512 step %c64/%c0 to %c64 step %c64/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize | FileCheck %s --check-prefix=SINGLESTEP

// RUN: sed 's/stages = 4, warp_specialize = true, k_warpgroups = 2/stages = 6, warp_specialize = true, k_warpgroups = 3/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize | FileCheck %s --check-prefix=ODD

// ODD-LABEL: tile.kernel @k grid [4, 4] threads 512
// ODD: %[[SIX:.+]] = arith.constant 6 : index
// ODD: %[[FULL:.+]] = tile.barrier_group arrivals 2 : !nvgpu.mbarrier.group<{{.+}}, num_barriers = 6>
// ODD: tile.warp_specialize threads [128, 128] registers [32, 160] attributes {replicas = array<i64: 1, 3>} {
// ODD: }, {
// ODD: %[[THRICE:.+]] = arith.constant 192 : index
// ODD: scf.for %[[K:.+]] = %{{.+}} to %c512 step %[[THRICE]] iter_args(
// ODD-NEXT: %[[STEP:.+]] = arith.divui %[[K]], %{{.+}} : index
// ODD-NEXT: %[[SLOT:.+]] = arith.remui %[[STEP]], %[[SIX]] : index
// ODD-NEXT: %[[ROUND:.+]] = arith.divui %[[STEP]], %[[SIX]] : index
// ODD: nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[SLOT]]]

// SINGLESTEP-LABEL: tile.kernel @k grid [4, 4] threads 256
// SINGLESTEP: tile.warp_specialize threads [128, 128] registers [40, 256] {
// SINGLESTEP-NOT: replicas
// SINGLESTEP-NOT: tile.barrier_group arrivals 128 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
// SINGLESTEP-NOT: tile.replica

// CHECK-LABEL: tile.kernel @k grid [4, 4] threads 384
// CHECK: %[[PARTIALS:.+]] = tile.shared : memref<64x64xf32, #gpu.address_space<workgroup>>
// CHECK: %[[HANDOFF:.+]] = tile.barrier_group arrivals 128 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
// CHECK: %[[FULL:.+]] = tile.barrier_group arrivals 2
// CHECK: %[[EMPTY:.+]] = tile.barrier_group arrivals 4
// CHECK: tile.warp_specialize threads [128, 128] registers [40, 232] attributes {replicas = array<i64: 1, 2>} {
// CHECK: tile.tma_load
// CHECK: }, {
// CHECK-NOT: tile.replica
// CHECK: %[[ZERO:.+]] = tile.splat
// CHECK: %[[COPY:.+]] = tile.replica
// CHECK: %[[SKIP:.+]] = arith.muli %[[STEP:c64.*]], %[[COPY]] : index
// CHECK: %[[START:.+]] = arith.addi %{{.+}}, %[[SKIP]] : index
// CHECK: %[[TWICE:.+]] = arith.constant 128 : index
// CHECK: %[[SUM:.+]] = scf.for %[[K:.+]] = %[[START]] to %c512 step %[[TWICE]] iter_args(%{{.+}} = %[[ZERO]])
// CHECK:   %[[I0:.+]] = arith.divui %[[K]], %[[STEP]] : index
// CHECK:   nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK-NOT: tile.wgmma_wait {{.+}}pending = 1
// CHECK:   tile.wgmma
// CHECK:   tile.wgmma_wait {{.+}} {pending = 0
// CHECK:   tile.arrive %[[EMPTY]]
// CHECK: }
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[COPY]], %{{.+}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvgpu.mbarrier.try_wait.parity %[[HANDOFF]][%{{.+}}], %false
// CHECK: %[[THEIRS:.+]] = tile.load %[[PARTIALS]][%{{.+}}, %{{.+}}] {in_bounds}
// CHECK: %[[TOTAL:.+]] = tile.map(%[[SUM]], %[[THEIRS]])
// CHECK:   arith.addf
// CHECK: tile.store %[[TOTAL]], %{{.+}} : {{.+}}, memref<256x256xf32>
// CHECK: } else {
// CHECK: %[[SLOT:.+]] = arith.subi %[[COPY]], %{{.+}} : index
// CHECK: %[[ROW:.+]] = arith.muli %[[SLOT]], %{{.+}} : index
// CHECK-NOT: memref<256x256xf32>
// CHECK: tile.store %[[SUM]], %[[PARTIALS]][%[[ROW]], %{{.+}}] {in_bounds}
// CHECK: tile.arrive %[[HANDOFF]][%{{.+}}] {every_thread}
// CHECK-NOT: memref<256x256xf32>
// CHECK: }
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
