// KNOWN BUG (kept out of the suite: lit skips Inputs/). Documents the
// current behaviour; run by hand with
//   lit build/test/Transforms/Inputs/known-bugs/dynamic-intermediate.mlir
//
// The matmul verifier admits dynamic result dimensions over static
// operands, so an intermediate can have a dynamic shape while every
// argument and result is static. KernelPerOp.cpp reports "expected static
// shapes" for it but then dereferences the failed FailureOr
// (`auto type = *bufferTypeOf(...)` in convertToKernelPerOp) and crashes:
// SIGFPE in tile-tile, SIGSEGV in tile-reference. Expected: the error, then
// a clean failure (exit 1, no crash).
// RUN: not --crash tile-opt %s --tile-tile 2>&1 | FileCheck %s
// RUN: not --crash tile-opt %s --tile-reference 2>&1 | FileCheck %s
// CHECK: error: expected static shapes (kernels are specialized to their shapes) but got 'tensor<?x4xf32>'
// CHECK: Stack dump

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
