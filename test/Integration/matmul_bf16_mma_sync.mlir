// bf16 matmul on the sm_80 path (cp.async ring, ldmatrix, mma.sync): 8 x 8
// blocks of 128 x 128, 32 K steps.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_bf16_mma_sync status=PASS

func.func @matmul_bf16_mma_sync(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
  %c = tile.matmul %a, %b : (tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) -> tensor<1024x1024xf32>
  %o = tile.cast %c : tensor<1024x1024xf32> -> tensor<1024x1024xbf16>
  return %o : tensor<1024x1024xbf16>
}
