// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile | FileCheck %s

// A row group is one kernel per row: the row is loaded once as a tile
// spanning it (rounded up to a power of two), masked to the reduction's
// identity before each reduction, and stored once.
// CHECK-LABEL: func @softmax
// CHECK: tile.kernel @softmax_0 grid [32] threads 128
// CHECK: %[[X:.+]] = tile.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x100xf32> -> !tile.tile<1x128xf32>
// CHECK: %[[M:.+]] = tile.mask %[[X]], %{{.*}} bounds
// CHECK: tile.reduce %[[M]], %{{.*}} dim = 1 : !tile.tile<1x128xf32>, f32 -> !tile.tile<1xf32>
// CHECK: tile.broadcast %{{.*}} [1] : !tile.tile<1xf32> -> !tile.tile<1x128xf32>
// CHECK: tile.mask
// CHECK: tile.reduce
// CHECK: tile.store %{{.*}} : !tile.tile<1x128xf32>, memref<32x100xf32>
// CHECK-NOT: tile.kernel
func.func @softmax(%x: tensor<32x100xf32>) -> tensor<32x100xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<32x100xf32>, f32 -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %m [1] : tensor<32xf32> -> tensor<32x100xf32>
  %e = tile.map (%x, %mb) : (tensor<32x100xf32>, tensor<32x100xf32>) -> tensor<32x100xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %s = tile.reduce %e, %zero dim = 1 : tensor<32x100xf32>, f32 -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<32xf32> -> tensor<32x100xf32>
  %y = tile.map (%e, %sb) : (tensor<32x100xf32>, tensor<32x100xf32>) -> tensor<32x100xf32> {
  ^bb0(%v: f32, %t: f32):
    %q = arith.divf %v, %t : f32
    tile.yield %q : f32
  }
  return %y : tensor<32x100xf32>
}

// -----

// A matmul group: the K loop, then the epilogue on the accumulator tile
// (the bias loaded as a column vector and broadcast), one store.
// CHECK-LABEL: func @matmul_bias
// CHECK: tile.kernel @matmul_bias_0
// CHECK: %[[ACC:.+]] = scf.for
// CHECK:   tile.dot
// CHECK: %[[B:.+]] = tile.load %{{.*}}[%{{.*}}] : memref<16xf32> -> !tile.tile<16xf32>
// CHECK: %[[BB:.+]] = tile.broadcast %[[B]] [0]
// CHECK: %[[S:.+]] = tile.map(%[[ACC]], %[[BB]])
// CHECK: %[[C:.+]] = tile.cast %[[S]] : !tile.tile<64x16xf32> -> !tile.tile<64x16xbf16>
// CHECK: tile.store %[[C]]
func.func @matmul_bias(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>, %v: tensor<16xf32>) -> tensor<64x16xbf16> {
  %c = tile.matmul %a, %b : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xf32>
  %vb = tile.broadcast %v [0] : tensor<16xf32> -> tensor<64x16xf32>
  %s = tile.map (%c, %vb) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  %o = tile.cast %s : tensor<64x16xf32> -> tensor<64x16xbf16>
  return %o : tensor<64x16xbf16>
}
