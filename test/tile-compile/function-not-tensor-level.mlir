// --function naming a function without tensor-level tile ops is rejected at
// the function, whatever --emit asks for: neither tile-tile nor
// tile-reference would touch it, so there is nothing to compile.
// RUN: not tile-compile %s --function=helper --emit=tile 2>&1 | FileCheck %s
// RUN: not tile-compile %s --function=helper --emit=reference 2>&1 | FileCheck %s
// RUN: not tile-compile %s --function=helper --emit=nvvm 2>&1 | FileCheck %s
// RUN: not tile-compile %s --function=helper --emit=ptx 2>&1 | FileCheck %s
// RUN: not tile-compile %s --function=helper -o %t 2>&1 | FileCheck %s
// The error stands alone: no note dumps the function, nothing else fails.
// CHECK: function-not-tensor-level.mlir:[[@LINE+8]]:1: error: function 'helper' has no tensor-level tile ops to compile
// CHECK-NOT: see current operation
// CHECK-NOT: redefinition

func.func @f(%a: tensor<16xf32>) -> tensor<16xf16> {
  %y = tile.cast %a : tensor<16xf32> -> tensor<16xf16>
  return %y : tensor<16xf16>
}
func.func @helper() {
  return
}
