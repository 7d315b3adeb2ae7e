// Broadcasts feeding an elementwise op are read inside its kernel, never
// materialized (tile-fuse): x + bias ([M, N] + [N]) and s * x ([M, 1] *
// [M, N], as a row vector), each one kernel, on ragged shapes, checked
// against the naive reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT broadcast_fused_ragged status=PASS

func.func @broadcast_fused_ragged(%x: tensor<1000x3001xf32>, %b: tensor<3001xf32>, %s: tensor<1000xf32>) -> (tensor<1000x3001xf32>, tensor<1000x3001xf32>) {
  %bb = tile.broadcast %b [0] : tensor<3001xf32> -> tensor<1000x3001xf32>
  %y = tile.map (%x, %bb) : (tensor<1000x3001xf32>, tensor<1000x3001xf32>) -> tensor<1000x3001xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<1000xf32> -> tensor<1000x3001xf32>
  %z = tile.map (%sb, %x) : (tensor<1000x3001xf32>, tensor<1000x3001xf32>) -> tensor<1000x3001xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.mulf %p, %q : f32
    tile.yield %r : f32
  }
  return %y, %z : tensor<1000x3001xf32>, tensor<1000x3001xf32>
}
