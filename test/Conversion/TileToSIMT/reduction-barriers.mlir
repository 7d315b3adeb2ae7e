// Row reductions in registers publish their warps' partials in a shared
// memory region of their own, so a barrier separates publishing from
// reading, and no barrier is needed after the reads, except for a
// reduction that runs again (in a loop) before any other reduction does.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

// Two reductions in a row: two regions, one barrier each.
// CHECK-LABEL: func @two_reductions
// CHECK: memref.view %{{.+}}[%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.view %{{.+}}[%c16{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @two_reductions(%m: memref<1x512xf32>, %o: memref<1xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %t = tile.load %m[%c0, %c0] : memref<1x512xf32> -> !tile.tile<1x512xf32>
    %s = tile.reduce %t, %zero dim = 1 : !tile.tile<1x512xf32>, f32 -> !tile.tile<1xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      tile.yield %r : f32
    }
    %q = tile.reduce %t, %zero dim = 1 : !tile.tile<1x512xf32>, f32 -> !tile.tile<1xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.maximumf %a, %b : f32
      tile.yield %r : f32
    }
    tile.store %q, %o[%c0] : !tile.tile<1xf32>, memref<1xf32>
    gpu.terminator
  }
  return
}

// -----

// Alone in a loop: the next iteration's publish must wait for this one's
// reads.
// CHECK-LABEL: func @alone_in_loop
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.terminator
func.func @alone_in_loop(%m: memref<4x512xf32>, %o: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c4 step %c1 {
      %t = tile.load %m[%i, %c0] : memref<4x512xf32> -> !tile.tile<1x512xf32>
      %s = tile.reduce %t, %zero dim = 1 : !tile.tile<1x512xf32>, f32 -> !tile.tile<1xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        tile.yield %r : f32
      }
      tile.store %s, %o[%i] : !tile.tile<1xf32>, memref<4xf32>
    }
    gpu.terminator
  }
  return
}
