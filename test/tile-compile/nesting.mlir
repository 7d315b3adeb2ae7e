// Input nested past 256 brackets and regions is refused before MLIR's
// parser sees it (the parser recurses per region and overflowed its stack
// at about 10,000 nested regions, issue 19): a located error, exit 1. A
// bracket inside a string or a comment does not count.
// RUN: python3 -c "print('func.func @f() {\n  %%c = arith.constant 0 : index\n  // ' + '{' * 300 + '\n  ' + '{' * 300 + '}' * 300 + '\n  return\n}')" > %t.mlir
// RUN: not tile-compile %t.mlir --chip=sm_90a -o /dev/null 2>&1 | FileCheck %s
// CHECK: .mlir:4:258: error: nesting deeper than 256 brackets and regions
// RUN: python3 -c "print('func.func @f() {\n  // ' + '{' * 300 + '\n  return\n}')" > %t.ok.mlir
// RUN: not tile-compile %t.ok.mlir --chip=sm_90a -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHALLOW
// SHALLOW-NOT: nesting deeper
// SHALLOW: error:
