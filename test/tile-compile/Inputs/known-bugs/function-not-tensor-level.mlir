// KNOWN BUG (kept out of the suite: lit skips Inputs/). Documents the
// current behaviour; run by hand with
//   lit build/test/tile-compile/Inputs/known-bugs/function-not-tensor-level.mlir
//
// --function accepts a function that has no tensor-level ops. Neither
// tile-tile nor tile-reference{suffix=_ref} touches it, so the merged
// module holds it twice and the pipeline fails with a confusing
// "redefinition of symbol"; with --emit=tile it "succeeds" and prints the
// function unchanged. Expected: "function 'helper' has no tensor-level ops"
// (located at the function) and a non-zero exit in both cases.
// RUN: not tile-compile %s --function=helper --emit=nvvm 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: tile-compile %s --function=helper --emit=tile | FileCheck %s --check-prefix=TILE
// NVVM: error: redefinition of symbol named 'helper'
// TILE: func.func @helper() {
// TILE-NEXT: return

func.func @f(%a: tensor<16xf32>) -> tensor<16xf16> {
  %y = tile.cast %a : tensor<16xf32> -> tensor<16xf16>
  return %y : tensor<16xf16>
}
func.func @helper() {
  return
}
