// GCN's normalization D^-1/2 A D^-1/2 with d = the row sums of A: the row
// vector is broadcast along the rows and down the columns, so tile-fuse
// forms no row group (a row's program holds its own row's value only); the
// reduction runs as a kernel of its own and the rest fuses elementwise.
// Before, tile-tile rejected the row group it was given. A is the square
// of random 200 x 200 values (positive row sums). Checked against the
// reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT gcn_norm status=PASS

func.func @gcn_norm(%in: tensor<200x200xf32>) -> tensor<200x200xf32> {
  %zero = arith.constant 0.0 : f32
  %a = tile.map (%in) : (tensor<200x200xf32>) -> tensor<200x200xf32> {
  ^bb0(%v: f32):
    %sq = arith.mulf %v, %v : f32
    tile.yield %sq : f32
  }
  %d = tile.reduce %a, %zero dim = 1 : tensor<200x200xf32>, f32 -> tensor<200xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  %rs = tile.map (%d) : (tensor<200xf32>) -> tensor<200xf32> {
  ^bb0(%s: f32):
    %r = math.rsqrt %s : f32
    tile.yield %r : f32
  }
  %ri = tile.broadcast %rs [1] : tensor<200xf32> -> tensor<200x200xf32>
  %rj = tile.broadcast %rs [0] : tensor<200xf32> -> tensor<200x200xf32>
  %y = tile.map (%a, %ri, %rj) : (tensor<200x200xf32>, tensor<200x200xf32>, tensor<200x200xf32>) -> tensor<200x200xf32> {
  ^bb0(%v: f32, %p: f32, %q: f32):
    %t = arith.mulf %v, %p : f32
    %u = arith.mulf %t, %q : f32
    tile.yield %u : f32
  }
  return %y : tensor<200x200xf32>
}
