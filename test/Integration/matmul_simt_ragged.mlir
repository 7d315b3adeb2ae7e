// SIMT matmul with M, N and K all ragged against the 64x64x16 block.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm80.tilebundle
// RUN: tile-run %t.sm80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm90a.tilebundle
// RUN: tile-run %t.sm90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_simt_ragged status=PASS

func.func @matmul_simt_ragged(%a: tensor<1023x517xf32>, %b: tensor<517x1025xf32>) -> tensor<1023x1025xf32> {
  %c = tile.matmul %a, %b : (tensor<1023x517xf32>, tensor<517x1025xf32>) -> tensor<1023x1025xf32>
  return %c : tensor<1023x1025xf32>
}
