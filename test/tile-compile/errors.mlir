// tile-compile rejects bad input with a located error and a non-zero exit.
// RUN: split-file %s %t
// RUN: not tile-compile %t/two.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not tile-compile %t/two.mlir --function=nope -o %t/out 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tile-compile %t/none.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not tile-compile %t/syntax.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not tile-compile %t/dynamic.mlir --emit=tile 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not tile-compile %t/two.mlir --tile-options="threads=100" --function=first --emit=tile 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not tile-compile %t/two.mlir --pipeline-options="bogus=1" --function=first -o %t/out 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not tile-compile %t/two.mlir --pipeline-options="sms=-2" --function=first -o %t/out 2>&1 | FileCheck %s --check-prefix=PROGRAMS
// RUN: not tile-compile %t/gemm.mlir --chip=sm_90a -o %t/out 2>&1 | FileCheck %s --check-prefix=RING
// RUN: not tile-compile %t/name.mlir -o %t/out 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not tile-compile %t/kernel-name.mlir --level=tile -o %t/out 2>&1 | FileCheck %s --check-prefix=KERNEL-NAME
// With --function, either of the two compiles.
// RUN: tile-compile %t/two.mlir --function=second --emit=tile | FileCheck %s --check-prefix=PICK

// Two tensor-level functions: the error points at the second one.
// TWO: two.mlir:5:1: error: more than one tensor-level function; choose one with --function
// TWO-NOT: see current operation

// No such function, no tensor-level function: nothing in the file to point
// at, so the error names the file, and the module is not dumped.
// UNKNOWN: tile-compile: error: no function named 'nope' in {{.+}}two.mlir{{$}}
// UNKNOWN-NOT: see current operation
// NONE: tile-compile: error: no tensor-level function to compile in {{.+}}none.mlir{{$}}
// NONE-NOT: see current operation

// The argument list runs into the body (read as an attribute dictionary).
// SYNTAX: syntax.mlir:3:2: error: expected ')'

// Errors of the passes come through, located.
// PASS: dynamic.mlir:1:14: error: expected static shapes (kernels are specialized to their shapes) but got 'tensor<?xf32>'
// A pipeline pass's error is located at the op, without an IR dump.
// RING: gemm.mlir:2:8: error: tile.config's 6 stages take 294912 bytes of shared memory; sm_90a has 232448 per program
// RING-NOT: see current operation
// OPTION: two.mlir:2:8: error: 'tile.cast' op expected threads to be a power of two in [32, 1024] but got 100

// Options of tile-to-nvvm are checked by its parser and its passes.
// PIPELINE: tile-compile: error: bad pass pipeline 'tile-to-nvvm{chip=sm_90a features=+ptx80 bogus=1}'
// PROGRAMS: error: sms must be positive (or absent) but is -2

// PICK: func @second(%{{.+}}: memref<16xf16>, %{{.+}}: memref<16xf32>)
// PICK-NOT: @first

// Names become PTX entry names: a space (LLVM's NVPTX printer would abort
// the process), a dot or a leading digit (ptxas would reject them) is an
// error at the function or the kernel.
// NAME: name.mlir:1:1: error: 'my scale' cannot name a GPU function: names take a letter, '_' or '$' first, then letters, digits, '_' or '$'
// KERNEL-NAME: kernel-name.mlir:3:3: error: '9k' cannot name a GPU function

//--- name.mlir
func.func @"my scale"(%a: tensor<256xf32>) -> tensor<256xbf16> {
  %b = tile.cast %a : tensor<256xf32> -> tensor<256xbf16>
  return %b : tensor<256xbf16>
}

//--- kernel-name.mlir
func.func @host(%a: memref<256xf32>) {
  // A kernel whose name starts with a digit.
  tile.kernel @"9k" grid [1] threads 128 (%a) : memref<256xf32> {
  ^bb0(%x: memref<256xf32>):
  }
  return
}

//--- two.mlir
func.func @first(%a: tensor<16xf32>) -> tensor<16xf16> {
  %y = tile.cast %a : tensor<16xf32> -> tensor<16xf16>
  return %y : tensor<16xf16>
}
func.func @second(%a: tensor<16xf16>) -> tensor<16xf32> {
  %y = tile.cast %a : tensor<16xf16> -> tensor<16xf32>
  return %y : tensor<16xf32>
}
//--- none.mlir
func.func @helper(%a: f32) -> f32 {
  return %a : f32
}
//--- syntax.mlir
func.func @f(%a: tensor<4xf32> {
  return
}
//--- dynamic.mlir
func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
  %y = tile.cast %a : tensor<?xf32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}
//--- gemm.mlir
func.func @gemm(%a: tensor<256x64xbf16>, %b: tensor<64x256xbf16>) -> tensor<256x256xf32> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 6>} : (tensor<256x64xbf16>, tensor<64x256xbf16>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
