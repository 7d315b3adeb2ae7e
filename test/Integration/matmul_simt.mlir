// SIMT f32 matmul (no tensor cores), 1024^3.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm80.tilebundle
// RUN: tile-run %t.sm80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm90a.tilebundle
// RUN: tile-run %t.sm90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_simt status=PASS

func.func @matmul_simt(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %c = tile.matmul %a, %b : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}
