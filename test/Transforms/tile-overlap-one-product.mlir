// tile-overlap on a loop of one product started afresh each step: a
// block-scaled fp8 matmul (1x128 / 128x128 scales) whose config asks for
// overlap, K = 640 (5 steps of 128). With steps=2 the steps go in pairs:
// both products issued, the first waited for with the second in flight
// (pending = 1) and promoted into the sum, then the second (pending = 0);
// the fifth step after the loop. Nothing the loop carries is in flight.
// Both steps' scale loads come before the products, and register fences
// keep each promotion after its wait and the first before the second wait
// (ptxas otherwise sinks it past the second wait).
//
// By default (steps=4) the body holds four steps: the first two products
// issued, then each step waited for with the next in flight and promoted,
// and the product two steps on issued after that promotion (into the
// registers it frees), the last waited for with none in flight; the fifth
// step after the loop. With steps=3, one body of three steps and two
// after it, which go the same way (pending 1, then 0). tile-compile's
// overlap-steps reaches the pass.
// RUN: tile-opt %s --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap=steps=2 | FileCheck %s
// RUN: tile-opt %s --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap | FileCheck %s --check-prefix=STEPS4
// RUN: tile-opt %s --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap=steps=3 | FileCheck %s --check-prefix=STEPS3
// RUN: not tile-opt %s --tile-overlap=steps=1 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not tile-compile %s --fuse --chip=sm_90a --pipeline-options=overlap-steps=1 -o %t.tilebundle 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: error: tile-overlap: steps must be at least 2, not 1

func.func @blocks(%a: tensor<256x640xf8E4M3FN>, %w: tensor<256x640xf8E4M3FN>, %sa: tensor<256x5xf32>, %sb: tensor<5x2xf32>) -> tensor<256x256xf32> {
  %wt = tile.transpose %w : tensor<256x640xf8E4M3FN> -> tensor<640x256xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, warp_specialize = true, overlap = true>} : (tensor<256x640xf8E4M3FN>, tensor<640x256xf8E4M3FN>, tensor<256x5xf32>, tensor<5x2xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

// CHECK-LABEL: tile.kernel
// CHECK: %[[ZERO:.+]] = tile.splat %{{.+}} : f32 -> !tile.tile<128x128xf32
// CHECK: %[[SUM:.+]] = scf.for %[[I:.+]] = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%[[ACC:.+]] = %[[ZERO]])
// CHECK: %[[EVEN:.+]] = arith.muli %[[I]], %c2
// CHECK: %[[SA1:.+]] = tile.load
// CHECK: %[[SB1:.+]] = memref.load
// CHECK: %[[SA2:.+]] = tile.load
// CHECK: %[[SB2:.+]] = memref.load
// CHECK: %[[FIRST:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK: %[[SECOND:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK: %[[WAIT1:.+]] = tile.wgmma_wait %[[FIRST]] {pending = 1 : i64}
// CHECK: %[[DONE1:.+]] = tile.register_fence %[[WAIT1]]
// CHECK: tile.arrive
// CHECK: tile.map(%[[SA1]], %{{.+}})
// CHECK: %[[PART:.+]] = tile.map(%[[ACC]], %[[DONE1]], %{{.+}})
// CHECK: %[[PINNED:.+]] = tile.register_fence %[[PART]]
// CHECK: %[[WAIT2:.+]] = tile.wgmma_wait %[[SECOND]] {pending = 0 : i64}
// CHECK: %[[DONE2:.+]] = tile.register_fence %[[WAIT2]]
// CHECK: tile.arrive
// CHECK: tile.map(%[[SA2]], %{{.+}})
// CHECK: %[[NEXT:.+]] = tile.map(%[[PINNED]], %[[DONE2]], %{{.+}})
// CHECK: scf.yield %[[NEXT]]
// CHECK: tile.load
// CHECK: memref.load
// CHECK: %[[LAST:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK: %[[WAIT3:.+]] = tile.wgmma_wait %[[LAST]] {pending = 0 : i64}
// CHECK: %[[DONE3:.+]] = tile.register_fence %[[WAIT3]]
// CHECK: tile.map(%[[SUM]], %[[DONE3]], %{{.+}})
// CHECK-NOT: tile.wgmma_wait

// STEPS4-LABEL: tile.kernel
// STEPS4: %[[ZERO:.+]] = tile.splat %{{.+}} : f32 -> !tile.tile<128x128xf32
// STEPS4: %[[SUM:.+]] = scf.for %[[I:.+]] = %c0{{.*}} to %c1{{.*}} step %c1{{.*}} iter_args(%[[ACC:.+]] = %[[ZERO]])
// STEPS4: arith.muli %[[I]], %c4
// STEPS4-COUNT-4: memref.load
// STEPS4: %[[P0:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS4: %[[P1:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS4: tile.wgmma_wait %[[P0]] {pending = 1 : i64}
// STEPS4: %[[S0:.+]] = tile.map(%[[ACC]],
// STEPS4: %[[F0:.+]] = tile.register_fence %[[S0]]
// STEPS4: %[[P2:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS4: tile.wgmma_wait %[[P1]] {pending = 1 : i64}
// STEPS4: %[[S1:.+]] = tile.map(%[[F0]],
// STEPS4: %[[F1:.+]] = tile.register_fence %[[S1]]
// STEPS4: %[[P3:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS4: tile.wgmma_wait %[[P2]] {pending = 1 : i64}
// STEPS4: %[[S2:.+]] = tile.map(%[[F1]],
// STEPS4: %[[F2:.+]] = tile.register_fence %[[S2]]
// STEPS4-NOT: tile.wgmma %
// STEPS4: tile.wgmma_wait %[[P3]] {pending = 0 : i64}
// STEPS4: %[[S3:.+]] = tile.map(%[[F2]],
// STEPS4: scf.yield %[[S3]]
// STEPS4: %[[LAST:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS4: tile.wgmma_wait %[[LAST]] {pending = 0 : i64}
// STEPS4: tile.map(%[[SUM]],
// STEPS4-NOT: tile.wgmma_wait

// STEPS3-LABEL: tile.kernel
// STEPS3: %[[ZERO:.+]] = tile.splat %{{.+}} : f32 -> !tile.tile<128x128xf32
// STEPS3: %[[SUM:.+]] = scf.for %[[I:.+]] = %c0{{.*}} to %c1{{.*}} step %c1{{.*}} iter_args(%[[ACC:.+]] = %[[ZERO]])
// STEPS3: arith.muli %[[I]], %c3
// STEPS3: %[[P0:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS3: %[[P1:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS3: tile.wgmma_wait %[[P0]] {pending = 1 : i64}
// STEPS3: %[[P2:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS3: tile.wgmma_wait %[[P1]] {pending = 1 : i64}
// STEPS3-NOT: tile.wgmma %
// STEPS3: tile.wgmma_wait %[[P2]] {pending = 0 : i64}
// STEPS3: scf.yield
// STEPS3: %[[R0:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS3: %[[R1:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// STEPS3: tile.wgmma_wait %[[R0]] {pending = 1 : i64}
// STEPS3: %[[S0:.+]] = tile.map(%[[SUM]],
// STEPS3: tile.wgmma_wait %[[R1]] {pending = 0 : i64}
// STEPS3-NOT: tile.wgmma_wait
