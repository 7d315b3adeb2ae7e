// tile-overlap on a block-scaled K loop whose trip count is one of two
// constants (a stream-K kernel's whole tiles and parts: stream_k_part).
// 256 x 256 x 1024 (4 tiles of 128 x 128, 8 steps of 128) on 3 SMs: one
// round, then the last tile in 2 parts of 4 steps, so the K loop runs 8
// or 4 steps (its upper bound a select of 1024 and 512). The loop takes
// four steps a body, 2 or 1 bodies (a select of the same condition), and
// no steps after it. tile-pipeline: every run takes whole rings of 4, so
// the tile loop carries the count of rings (trip count / 4) and the ring
// base is that times 4. A part's steps stay within the K steps, so a
// step's scale block is the part's first plus the step (no clamp).
// With parts of 6 steps of a 12-step tile (K = 1536), the trip counts 12
// and 6 are not both multiples of the body's four steps: the loop stays,
// with a remark.
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-configure --tile-tile --tile-configure --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap -verify-diagnostics | FileCheck %s

// CHECK-LABEL: tile.kernel @parts_0
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %{{.+}} step %c1{{.*}} iter_args(%[[RINGS:.+]] = %c0{{.*}}) -> (index)
// CHECK: %[[IN_ROUNDS:.+]] = arith.cmpi ult
// CHECK: %[[EXTENT:.+]] = arith.select %[[IN_ROUNDS]], %c1024, %c512 : index
// CHECK: arith.maxui %[[EXTENT]]
// CHECK: %[[TRIPS:.+]] = arith.divui %{{.+}}, %c128{{.*}} : index
// CHECK: %[[BASE:.+]] = arith.muli %[[RINGS]], %c4{{.*}} : index
// CHECK: %[[BODIES:.+]] = arith.select %[[IN_ROUNDS]], %c2{{.*}}, %c1{{.*}} : index
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %[[BODIES]] step %c1{{.*}} iter_args
// CHECK-NOT: arith.minui
// CHECK-COUNT-4: tile.wgmma %
// CHECK: scf.yield
// CHECK-NOT: tile.wgmma %
// CHECK: %[[WHOLE:.+]] = arith.divui %[[TRIPS]], %c4{{.*}} : index
// CHECK: %[[NEXT:.+]] = arith.addi %[[RINGS]], %[[WHOLE]] : index
// CHECK: scf.yield %[[NEXT]] : index
module attributes {tile.target = #tile.target<"sm_90a", sms = 3>} {
  func.func @parts(%a: tensor<256x1024xf8E4M3FN>, %w: tensor<256x1024xf8E4M3FN>, %sa: tensor<256x8xf32>, %sb: tensor<8x2xf32>) -> tensor<256x256xf32> {
    %wt = tile.transpose %w : tensor<256x1024xf8E4M3FN> -> tensor<1024x256xf8E4M3FN>
    %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, stream_k = true, stream_k_part = 4>} : (tensor<256x1024xf8E4M3FN>, tensor<1024x256xf8E4M3FN>, tensor<256x8xf32>, tensor<8x2xf32>) -> tensor<256x256xf32>
    return %c : tensor<256x256xf32>
  }
}

// -----

// CHECK-LABEL: tile.kernel @uneven_0
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %{{.+}} step %c128
module attributes {tile.target = #tile.target<"sm_90a", sms = 3>} {
  func.func @uneven(%a: tensor<256x1536xf8E4M3FN>, %w: tensor<256x1536xf8E4M3FN>, %sa: tensor<256x12xf32>, %sb: tensor<12x2xf32>) -> tensor<256x256xf32> {
    %wt = tile.transpose %w : tensor<256x1536xf8E4M3FN> -> tensor<1536x256xf8E4M3FN>
    // expected-remark @+1 {{not overlapped: the loop's trip counts 12 and 6 are not both multiples of 4 steps a body}}
    %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, stream_k = true, stream_k_part = 6>} : (tensor<256x1536xf8E4M3FN>, tensor<1536x256xf8E4M3FN>, tensor<256x12xf32>, tensor<12x2xf32>) -> tensor<256x256xf32>
    return %c : tensor<256x256xf32>
  }
}
