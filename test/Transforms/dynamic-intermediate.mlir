// An intermediate with a dynamic shape (the matmul verifier admits dynamic
// result dimensions over static operands) while every argument and result
// is static: the host-side bufferization tile-tile and tile-reference share
// checks every result up front, so both fail at the op, cleanly, with the
// function left as it was.
// RUN: not tile-opt %s --tile-tile 2>&1 | FileCheck %s
// RUN: not tile-opt %s --tile-reference 2>&1 | FileCheck %s
// CHECK: dynamic-intermediate.mlir:[[@LINE+5]]:8: error: expected static shapes (kernels are specialized to their shapes) but got 'tensor<?x4xf32>'
// CHECK-NOT: Stack dump
// CHECK-NOT: error:

func.func @dynamic_intermediate(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4xf32> {
  %c = tile.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %c, %zero dim = 0 : tensor<?x4xf32>, f32 -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  return %s : tensor<4xf32>
}
