// tile-tile pads a reduction's partial tiles with the init's folded
// attribute, so it must be a typed constant: a constant-like init that folds
// to an untyped attribute (ub.poison here; llvm.mlir.undef and
// llvm.mlir.poison likewise) is rejected at the tile.reduce.
// RUN: not tile-opt %s --tile-tile 2>&1 | FileCheck %s
// CHECK: untyped-reduce-init.mlir:[[@LINE+5]]:8: error: 'tile.reduce' op expected a typed constant init (the identity that pads partial tiles) but got #ub.poison
// CHECK-NOT: 'tile.load' op

func.func @poison_init(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  %p = ub.poison : f32
  %s = tile.reduce %a, %p dim = 1 : tensor<4x4xf32>, f32 -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  return %s : tensor<4xf32>
}
