// tile-overlap's promote-under-next (off by default, for measuring) on a
// block-scaled fp8 matmul's K loop (tile-overlap-one-product.mlir has the
// default's steps in pairs): each step promoted while the next step's
// product runs. Step 0 is issued and waited for before the loop; each body
// issues step 2i + 1, promotes step 2i (done already: its wait leaves the
// new product in flight), issues step 2i + 2, promotes step 2i + 1 (with
// 2i + 2 in flight), then waits for 2i + 2: nothing is in flight across
// the back edge (ptxas serializes every wgmma otherwise). Each step's
// scale loads go with its product and are carried, with the waited
// product, to the body that promotes it; register fences keep each
// promotion before the next wait.
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap=promote-under-next=1 | FileCheck %s

// K = 640: 5 steps, the loop's two bodies take steps 1 .. 4; step 4 is
// promoted after the loop.
// CHECK-LABEL: tile.kernel
// CHECK: %[[ZERO:.+]] = tile.splat %{{.+}} : f32 -> !tile.tile<128x128xf32
// CHECK: %[[SA0:.+]] = tile.load
// CHECK: %[[SB0:.+]] = memref.load
// CHECK: %[[P0:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK: %[[W0:.+]] = tile.wgmma_wait %[[P0]] {pending = 0 : i64}
// CHECK: %[[LOOP:.+]]:4 = scf.for %[[I:.+]] = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%[[ACC:.+]] = %[[ZERO]], %[[DONE:.+]] = %[[W0]], %[[SB:.+]] = %[[SB0]], %[[SA:.+]] = %[[SA0]])
// CHECK:   %[[SA1:.+]] = tile.load
// CHECK:   %[[SB1:.+]] = memref.load
// CHECK:   %[[ODD:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK:   %[[WPREV:.+]] = tile.wgmma_wait %[[DONE]] {pending = 1 : i64}
// CHECK:   %[[FPREV:.+]] = tile.register_fence %[[WPREV]]
// CHECK:   tile.arrive
// CHECK:   tile.map(%[[SA]], %{{.+}})
// CHECK:   %[[PART:.+]] = tile.map(%[[ACC]], %[[FPREV]], %{{.+}})
// CHECK:   %[[PINNED:.+]] = tile.register_fence %[[PART]]
// CHECK:   %[[SA2:.+]] = tile.load
// CHECK:   %[[SB2:.+]] = memref.load
// CHECK:   %[[EVEN:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK:   %[[WODD:.+]] = tile.wgmma_wait %[[ODD]] {pending = 1 : i64}
// CHECK:   %[[FODD:.+]] = tile.register_fence %[[WODD]]
// CHECK:   tile.arrive
// CHECK:   tile.map(%[[SA1]], %{{.+}})
// CHECK:   %[[NEXT:.+]] = tile.map(%[[PINNED]], %[[FODD]], %{{.+}})
// CHECK:   %[[PINNED2:.+]] = tile.register_fence %[[NEXT]]
// CHECK:   %[[WEVEN:.+]] = tile.wgmma_wait %[[EVEN]] {pending = 0 : i64}
// CHECK:   scf.yield %[[PINNED2]], %[[WEVEN]], %[[SB2]], %[[SA2]]
// CHECK: %[[WLAST:.+]] = tile.wgmma_wait %[[LOOP]]#1 {pending = 0 : i64}
// CHECK: %[[FLAST:.+]] = tile.register_fence %[[WLAST]]
// CHECK: tile.arrive
// CHECK: tile.map(%[[LOOP]]#3, %{{.+}})
// CHECK: tile.map(%[[LOOP]]#0, %[[FLAST]], %{{.+}})
// CHECK-NOT: tile.wgmma
func.func @five_steps(%a: tensor<256x640xf8E4M3FN>, %w: tensor<256x640xf8E4M3FN>, %sa: tensor<256x5xf32>, %sb: tensor<5x2xf32>) -> tensor<256x256xf32> {
  %wt = tile.transpose %w : tensor<256x640xf8E4M3FN> -> tensor<640x256xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, warp_specialize = true, overlap = true>} : (tensor<256x640xf8E4M3FN>, tensor<640x256xf8E4M3FN>, tensor<256x5xf32>, tensor<5x2xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

// -----

// K = 768: 6 steps; after the loop's two bodies (steps 1 .. 4), step 5 is
// issued, step 4 promoted under it, then step 5.
// CHECK-LABEL: tile.kernel
// CHECK: %[[LOOP:.+]]:4 = scf.for {{.+}} to %c2{{.*}} step
// CHECK: scf.yield
// CHECK: %[[LAST:.+]] = tile.wgmma
// CHECK: %[[W4:.+]] = tile.wgmma_wait %[[LOOP]]#1 {pending = 1 : i64}
// CHECK: %[[F4:.+]] = tile.register_fence %[[W4]]
// CHECK: %[[S4:.+]] = tile.map(%[[LOOP]]#0, %[[F4]], %{{.+}})
// CHECK: %[[P4:.+]] = tile.register_fence %[[S4]]
// CHECK: %[[W5:.+]] = tile.wgmma_wait %[[LAST]] {pending = 0 : i64}
// CHECK: %[[F5:.+]] = tile.register_fence %[[W5]]
// CHECK: tile.map(%[[P4]], %[[F5]], %{{.+}})
// CHECK-NOT: tile.wgmma
func.func @six_steps(%a: tensor<256x768xf8E4M3FN>, %w: tensor<256x768xf8E4M3FN>, %sa: tensor<256x6xf32>, %sb: tensor<6x2xf32>) -> tensor<256x256xf32> {
  %wt = tile.transpose %w : tensor<256x768xf8E4M3FN> -> tensor<768x256xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, warp_specialize = true, overlap = true>} : (tensor<256x768xf8E4M3FN>, tensor<768x256xf8E4M3FN>, tensor<256x6xf32>, tensor<6x2xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

// -----

// K = 256: 2 steps, fewer than the schedule needs: the pair as by default.
// CHECK-LABEL: tile.kernel
// CHECK: scf.for {{.+}} to %c1{{.*}} step
// CHECK: %[[FIRST:.+]] = tile.wgmma
// CHECK: %[[SECOND:.+]] = tile.wgmma
// CHECK: tile.wgmma_wait %[[FIRST]] {pending = 1 : i64}
// CHECK: tile.wgmma_wait %[[SECOND]] {pending = 0 : i64}
func.func @two_steps(%a: tensor<256x256xf8E4M3FN>, %w: tensor<256x256xf8E4M3FN>, %sa: tensor<256x2xf32>, %sb: tensor<2x2xf32>) -> tensor<256x256xf32> {
  %wt = tile.transpose %w : tensor<256x256xf8E4M3FN> -> tensor<256x256xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, warp_specialize = true, overlap = true>} : (tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<256x2xf32>, tensor<2x2xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
