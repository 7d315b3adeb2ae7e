// Input nested past 256 brackets and regions is refused before MLIR's
// parser sees it (the parser recurses per region and overflowed its stack
// at about 10,000 nested regions, issue 19): a located error, exit 1, from
// tile-compile and from tile-opt (a file or standard input). A bracket
// inside a string or a comment does not count.
// RUN: python3 -c "print('func.func @f() {\n  %%c = arith.constant 0 : index\n  // ' + '{' * 300 + '\n  ' + '{' * 300 + '}' * 300 + '\n  return\n}')" > %t.mlir
// RUN: not tile-compile %t.mlir --chip=sm_90a -o /dev/null 2>&1 | FileCheck %s
// CHECK: .mlir:4:258: error: nesting deeper than 256 brackets and regions
// RUN: python3 -c "print('func.func @f() {\n  // ' + '{' * 300 + '\n  return\n}')" > %t.ok.mlir
// RUN: not tile-compile %t.ok.mlir --chip=sm_90a -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHALLOW
// SHALLOW-NOT: nesting deeper
// SHALLOW: error:
// RUN: not tile-opt %t.mlir 2>&1 | FileCheck %s
// RUN: cat %t.mlir | not tile-opt 2>&1 | FileCheck %s --check-prefix=STDIN
// STDIN: <stdin>:4:258: error: nesting deeper than 256 brackets and regions
// RUN: tile-opt %t.ok.mlir | FileCheck %s --check-prefix=OPT-OK
// OPT-OK: func.func @f()
// 10,000 nested regions: refused, not a stack overflow.
// RUN: python3 -c "print('func.func @f() {\n' + 'scf.execute_region {\n' * 10000 + '}\n' * 10001)" > %t.deep.mlir
// RUN: not tile-opt %t.deep.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: error: nesting deeper than 256
