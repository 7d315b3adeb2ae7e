// A tensor-level transpose on ragged shapes (tiles through shared memory),
// and a GEMM C = A^T B whose A is that transpose, checked against the
// naive reference kernels.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT transpose_ragged status=PASS

func.func @transpose_ragged(%a: tensor<1000x333xbf16>, %b: tensor<1000x200xbf16>) -> (tensor<333x1000xbf16>, tensor<333x200xf32>) {
  %t = tile.transpose %a : tensor<1000x333xbf16> -> tensor<333x1000xbf16>
  %c = tile.matmul %t, %b : (tensor<333x1000xbf16>, tensor<1000x200xbf16>) -> tensor<333x200xf32>
  return %t, %c : tensor<333x1000xbf16>, tensor<333x200xf32>
}
