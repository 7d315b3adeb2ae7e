// tile-overlap's promote-under-next (off by default, for measuring) on a
// block-scaled fp8 matmul's K loop (tile-overlap-one-product.mlir has the
// default's steps in pairs): each step promoted while the next step's
// product runs. Step 0 is issued and waited for before the loop; each body
// issues step 2i + 1, promotes step 2i (waited for already: no wait of its
// own), issues step 2i + 2, promotes step 2i + 1 (its wait leaving 2i + 2
// in flight), then waits for 2i + 2: nothing is in flight across the
// back edge (ptxas serializes every wgmma otherwise). Each step's scale
// loads go with its product and are carried, with the waited product, to
// the body that promotes it; register fences keep each waited product's
// readers after its wait and each promotion before the next wait.
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap=promote-under-next=1 | FileCheck %s

// K = 640: 5 steps, the loop's two bodies take steps 1 .. 4; step 4 is
// promoted after the loop.
// CHECK-LABEL: tile.kernel
// CHECK: %[[ZERO:.+]] = tile.splat %{{.+}} : f32 -> !tile.tile<128x128xf32
// CHECK: %[[SA0:.+]] = tile.load
// CHECK: %[[SB0:.+]] = memref.load
// CHECK: %[[P0:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK: %[[W0:.+]] = tile.wgmma_wait %[[P0]] {pending = 0 : i64}
// CHECK: %[[F0:.+]] = tile.register_fence %[[W0]]
// CHECK: %[[LOOP:.+]]:4 = scf.for %[[I:.+]] = %c0{{.*}} to %c2{{.*}} step %c1{{.*}} iter_args(%[[ACC:.+]] = %[[ZERO]], %[[DONE:.+]] = %[[F0]], %[[SB:.+]] = %[[SB0]], %[[SA:.+]] = %[[SA0]])
// CHECK:   %[[SA1:.+]] = tile.load
// CHECK:   %[[SB1:.+]] = memref.load
// CHECK:   %[[ODD:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK-NOT: tile.wgmma_wait
// CHECK:   tile.arrive
// CHECK:   tile.map(%[[SA]], %{{.+}})
// CHECK:   %[[PART:.+]] = tile.map(%[[ACC]], %[[DONE]], %{{.+}})
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
// CHECK:   %[[FEVEN:.+]] = tile.register_fence %[[WEVEN]]
// CHECK:   scf.yield %[[PINNED2]], %[[FEVEN]], %[[SB2]], %[[SA2]]
// CHECK-NOT: tile.wgmma
// CHECK: tile.arrive
// CHECK: tile.map(%[[LOOP]]#3, %{{.+}})
// CHECK: tile.map(%[[LOOP]]#0, %[[LOOP]]#1, %{{.+}})
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
// CHECK-NOT: tile.wgmma_wait
// CHECK: %[[S4:.+]] = tile.map(%[[LOOP]]#0, %[[LOOP]]#1, %{{.+}})
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

// -----

// K = 384: 3 steps, one body (steps 1, 2), step 2 promoted after it.
// CHECK-LABEL: tile.kernel
// CHECK: %[[LOOP:.+]]:4 = scf.for {{.+}} to %c1{{.*}} step
// CHECK-COUNT-2: tile.wgmma %
// CHECK: scf.yield
// CHECK-NOT: tile.wgmma
// CHECK: tile.map(%[[LOOP]]#0, %[[LOOP]]#1, %{{.+}})
func.func @three_steps(%a: tensor<256x384xf8E4M3FN>, %w: tensor<256x384xf8E4M3FN>, %sa: tensor<256x3xf32>, %sb: tensor<3x2xf32>) -> tensor<256x256xf32> {
  %wt = tile.transpose %w : tensor<256x384xf8E4M3FN> -> tensor<384x256xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, warp_specialize = true, overlap = true>} : (tensor<256x384xf8E4M3FN>, tensor<384x256xf8E4M3FN>, tensor<256x3xf32>, tensor<3x2xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

// -----

// K = 512: 4 steps, one body (steps 1, 2), then step 3 issued, step 2
// promoted under it, step 3 waited for and promoted.
// CHECK-LABEL: tile.kernel
// CHECK: %[[LOOP:.+]]:4 = scf.for {{.+}} to %c1{{.*}} step
// CHECK: scf.yield
// CHECK: %[[LAST:.+]] = tile.wgmma
// CHECK: tile.map(%[[LOOP]]#0, %[[LOOP]]#1, %{{.+}})
// CHECK: tile.wgmma_wait %[[LAST]] {pending = 0 : i64}
// CHECK-NOT: tile.wgmma
func.func @four_steps(%a: tensor<256x512xf8E4M3FN>, %w: tensor<256x512xf8E4M3FN>, %sa: tensor<256x4xf32>, %sb: tensor<4x2xf32>) -> tensor<256x256xf32> {
  %wt = tile.transpose %w : tensor<256x512xf8E4M3FN> -> tensor<512x256xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, warp_specialize = true, overlap = true>} : (tensor<256x512xf8E4M3FN>, tensor<512x256xf8E4M3FN>, tensor<256x4xf32>, tensor<4x2xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

// -----

// A persistent kernel: the K loop inside the loop over output tiles takes
// the schedule, per tile (step 0 waited for before it each tile).
// CHECK-LABEL: tile.kernel
// CHECK: scf.for
// CHECK:   %[[P0:.+]] = tile.wgmma
// CHECK:   tile.wgmma_wait %[[P0]] {pending = 0 : i64}
// CHECK:   %[[LOOP:.+]]:4 = scf.for {{.+}} to %c2{{.*}} step
// CHECK:   scf.yield
// CHECK:   tile.map(%[[LOOP]]#0, %[[LOOP]]#1, %{{.+}})
func.func @persistent(%a: tensor<512x640xf8E4M3FN>, %w: tensor<512x640xf8E4M3FN>, %sa: tensor<512x5xf32>, %sb: tensor<5x4xf32>) -> tensor<512x512xf32> {
  %wt = tile.transpose %w : tensor<512x640xf8E4M3FN> -> tensor<640x512xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, warp_specialize = true, overlap = true>} : (tensor<512x640xf8E4M3FN>, tensor<640x512xf8E4M3FN>, tensor<512x5xf32>, tensor<5x4xf32>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
