// Bad input to tile-opt gives a located diagnostic and a non-zero exit.
// RUN: split-file %s %t
// RUN: not tile-opt %t/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tile-opt %t/wrong-type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tile-opt %t/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not tile-opt %t/bad-tile-type.mlir 2>&1 | FileCheck %s --check-prefix=TILETYPE
// RUN: not tile-opt %t/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tile-opt %t/unknown-pass.mlir --tile-no-such-pass 2>&1 | FileCheck %s --check-prefix=PASS

// UNKNOWN: unknown-op.mlir:2:8: error: custom op 'tile.frobnicate' is unknown
// TYPE: wrong-type.mlir:2:8: error: 'tile.matmul' op expected f8E4M3FN, f8E5M2, f16, bf16 or f32 operands but got 'i32'
// MALFORMED: malformed.mlir:3:2: error: expected ')'
// TILETYPE: bad-tile-type.mlir:1:31: error: expected non-function type
// MISSING: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
// PASS: Unknown command line argument '--tile-no-such-pass'

//--- unknown-op.mlir
func.func @f(%a: tensor<4xf32>) {
  %b = tile.frobnicate %a : tensor<4xf32>
  return
}
//--- wrong-type.mlir
func.func @f(%a: tensor<4x4xi32>) {
  %b = tile.matmul %a, %a : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xf32>
  return
}
//--- malformed.mlir
func.func @f(%a: tensor<4xf32> {
  return
}
//--- bad-tile-type.mlir
func.func @f(%a: !tile.tile<4x>) {
  return
}
//--- unknown-pass.mlir
func.func @f() {
  return
}
