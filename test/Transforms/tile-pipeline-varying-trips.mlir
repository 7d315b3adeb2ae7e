// A K loop whose trip count changes from one run of the enclosing tile
// loop to the next (a causal key loop in a persistent tile loop): its ring
// position cannot be the tile's index times a trip count, so the tile loop
// carries the count of the iterations run so far, from 0, adding each
// run's trip count at its end (0 for a run whose upper bound is below its
// lower). With a producer warpgroup, both partitions
// carry it: the producer's positions must stay those the consumers wait on.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline --tile-warp-specialize | FileCheck %s --check-prefix=WS

func.func @varying(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, warp_specialize = true>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    scf.for %t = %c0 to %c4 step %c1 {
      %m0 = arith.muli %t, %c64 : index
      %t1 = arith.addi %t, %c1 : index
      %end = arith.muli %t1, %c128 : index
      %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
      %acc = scf.for %k = %c0 to %end step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
        %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
        %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
        %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
        scf.yield %d : !tile.tile<64x64xf32>
      }
      tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @varying
// CHECK: %[[ZERO:c0_[0-9]+]] = arith.constant 0 : index
// CHECK-NEXT: scf.for %[[T:.+]] = %c0 to %c4 step %c1 iter_args(%[[BASE:.+]] = %[[ZERO]]) -> (index) {
// CHECK: %[[END:.+]] = arith.muli %{{.+}}, %c128
// A run of no iterations counts 0: the upper bound is clamped first.
// CHECK: %[[UPPER:.+]] = arith.maxui %[[END]], %c0
// CHECK: %[[SPAN:.+]] = arith.subi %[[UPPER]], %c0
// CHECK: %[[TRIPS:.+]] = arith.divui %{{.+}}, %c64
// The first slot's position is the base.
// CHECK: %[[FIRST:.+]] = arith.addi %[[BASE]], %c0
// CHECK: tile.tma_load
// CHECK: scf.for %[[K:.+]] = %c0 to %[[END]] step %c64
// CHECK: %[[I:.+]] = arith.divui
// CHECK: %[[POS:.+]] = arith.addi %[[BASE]], %[[I]]
// CHECK: arith.remui %[[POS]], %c2
// CHECK: tile.wgmma
// CHECK: tile.store
// CHECK: %[[NEXT:.+]] = arith.addi %[[BASE]], %[[TRIPS]]
// CHECK: scf.yield %[[NEXT]] : index

// WS: tile.warp_specialize
// The producer's tile loop carries the base too, and issues its copies at it.
// WS: scf.for %{{.+}} = %c0{{.*}} to %c4 step %c1{{.*}} iter_args(%[[PBASE:.+]] = %{{.+}}) -> (index) {
// WS: arith.remui %[[PBASE]], %c2
// WS: tile.tma_load
// WS: scf.for
// WS: arith.addi %[[PBASE]],
// WS: tile.tma_load
// WS: %[[PNEXT:.+]] = arith.addi %[[PBASE]], %{{.+}}
// WS: scf.yield %[[PNEXT]] : index
// The consumers' waits at the same positions.
// WS: scf.for %{{.+}} = %c0{{.*}} to %c4 step %c1{{.*}} iter_args(%[[CBASE:.+]] = %{{.+}}) -> (index) {
// WS: scf.for
// WS: arith.addi %[[CBASE]],
// WS: nvgpu.mbarrier.try_wait.parity
// WS: tile.wgmma
// WS: tile.store
// WS: %[[CNEXT:.+]] = arith.addi %[[CBASE]], %{{.+}}
// WS: scf.yield %[[CNEXT]] : index
