// tile-warp-specialize under k_warpgroups with the config's prefetch (the
// transposed product at 40 rows: one consumer partition in two copies).
// RUN: tile-opt %s --tile-configure="chip=sm_90a" --tile-fuse --tile-tile --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline=ring-register-loads=1 --tile-warp-specialize | FileCheck %s
//
// Scales stored [K / 128, N] (@transposed: each group's scales a row, a
// line TMA copies; with ring-register-loads, not the default):
// tile-pipeline puts them in the producer's ring, and
// each copy reads its step's from the slot after that step's wait;
// nothing is loaded ahead or carried (the next step's slot is not filled
// yet).
// CHECK-LABEL: tile.kernel @transposed_0
// CHECK: tile.warp_specialize threads [128, 128] registers [40, 232] attributes {replicas = array<i64: 1, 2>}
// CHECK: }, {
// CHECK-NOT: tile.load
// CHECK: %[[COPY:.+]] = tile.replica
// CHECK-NOT: tile.load
// CHECK: scf.for %{{.+}} = %{{.+}} to %c1024 step %c512{{.*}} iter_args(%{{[^,]+}}) ->
// CHECK:   nvgpu.mbarrier.try_wait.parity %[[FULL:.+]][%[[SLOT:.+]]],
// CHECK:   memref.subview %{{.+}}[%[[SLOT]], 0, 0] [1, 1, 64]
// CHECK:   tile.load %{{.+}}[%c0{{.*}}] {in_bounds} : memref<64xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK:   memref.subview %{{.+}}[%[[SLOT]], 0, 0] [1, 1, 64]
// CHECK:   tile.load %{{.+}}[%c0{{.*}}] {in_bounds} : memref<64xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK:   scf.yield

// Scales stored [N, K / 128] (@columns: a step reads a column of them, not
// a line TMA copies): each copy loads its scales an iteration of its own
// ahead (copy r runs steps r, r + 2, ...: it starts at 256 r, 512 apart).
// The first step's scales are loaded before the loop, at min(start, 768:
// the whole loop's last step, in bounds where a copy's share is empty),
// each iteration loads the next one's at min(k + 512, 768) and the loop
// carries them. Every load it moves takes the config's l2_fetch (128:
// tile-configure's for the transposed product).
// CHECK-LABEL: tile.kernel @columns_0
// CHECK: tile.warp_specialize threads [128, 128] registers [40, 232] attributes {replicas = array<i64: 1, 2>}
// CHECK: }, {
// CHECK: %[[COPY1:.+]] = tile.replica
// CHECK: %[[SKIP:.+]] = arith.muli %{{.+}}, %[[COPY1]] : index
// CHECK: %[[START:.+]] = arith.addi %{{.+}}, %[[SKIP]] : index
// CHECK: %[[STEP:.+]] = arith.constant 512 : index
// CHECK: %[[FIRST:.+]] = arith.minui %[[START]], %c768 : index
// CHECK: %[[S0:.+]] = tile.load %{{.+}} {l2_fetch = 128 : i64} : {{.+}} -> !tile.tile<64xbf16
// CHECK: %[[S1:.+]] = tile.load %{{.+}} {l2_fetch = 128 : i64} : {{.+}} -> !tile.tile<64xbf16
// CHECK: scf.for %[[K:.+]] = %[[START]] to %c1024 step %[[STEP]] iter_args(%{{.+}} = %{{.+}}, %{{.+}} = %[[S0]], %{{.+}} = %[[S1]])
// CHECK:   %[[NEXT:.+]] = arith.addi %[[K]], %[[STEP]]
// CHECK:   arith.minui %[[NEXT]], %c768{{.*}} : index
// CHECK:   tile.load {{.+}} {l2_fetch = 128 : i64}
// CHECK:   %[[NEXT2:.+]] = arith.addi %[[K]], %[[STEP]]
// CHECK:   arith.minui %[[NEXT2]], %c768{{.*}} : index
// CHECK:   tile.load {{.+}} {l2_fetch = 128 : i64}
// CHECK:   scf.yield
// CHECK: scf.if
func.func @transposed(%x: tensor<40x1024xbf16>, %qw: tensor<256x512xi8>, %s: tensor<8x256xbf16>) -> tensor<40x256xf32> {
  %q = tile.unpack %qw signed interleaved : tensor<256x512xi8> -> tensor<256x1024xi8>
  %st = tile.transpose %s : tensor<8x256xbf16> -> tensor<256x8xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<256x8xbf16> -> tensor<256x1024xbf16>
  %w = tile.map (%q, %sr) : (tensor<256x1024xi8>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x1024xbf16> -> tensor<1024x256xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<40x1024xbf16>, tensor<1024x256xbf16>) -> tensor<40x256xf32>
  return %y : tensor<40x256xf32>
}

func.func @columns(%x: tensor<40x1024xbf16>, %qw: tensor<256x512xi8>, %s: tensor<256x8xbf16>) -> tensor<40x256xf32> {
  %q = tile.unpack %qw signed interleaved : tensor<256x512xi8> -> tensor<256x1024xi8>
  %sr = tile.repeat %s dim = 1 times = 128 : tensor<256x8xbf16> -> tensor<256x1024xbf16>
  %w = tile.map (%q, %sr) : (tensor<256x1024xi8>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x1024xbf16> -> tensor<1024x256xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<40x1024xbf16>, tensor<1024x256xbf16>) -> tensor<40x256xf32>
  return %y : tensor<40x256xf32>
}
