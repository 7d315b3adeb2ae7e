// KNOWN BUG (kept out of the suite: lit skips Inputs/). Documents the
// current behaviour; run by hand with
//   lit build/test/Transforms/Inputs/known-bugs/untyped-reduce-init.mlir
//
// tile-tile takes the reduce init's folded attribute as the load padding
// with an unchecked `cast<TypedAttr>(identity)` (TileTensorOps.cpp,
// tileReduce). A constant-like init that folds to an attribute without a
// type (ub.poison, llvm.mlir.undef, llvm.mlir.poison) passes the
// "expected a constant init" check, so the cast is undefined behaviour (an
// assertion in a build with assertions); in this build the pass emits a
// tile.load whose padding is #ub.poison and the verifier rejects it after
// the pass. Expected: a located tile-tile error on the tile.reduce (e.g.
// "expected a typed constant init"), or padding = the init's type's zero.
// RUN: not tile-opt %s --tile-tile 2>&1 | FileCheck %s
// CHECK: error: 'tile.load' op attribute 'padding' failed to satisfy constraint: TypedAttr instance

func.func @poison_init(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  %p = ub.poison : f32
  %s = tile.reduce %a, %p dim = 1 : tensor<4x4xf32>, f32 -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  return %s : tensor<4xf32>
}
