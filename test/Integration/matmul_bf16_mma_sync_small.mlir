// A small bf16 matmul with an f32 output on the sm_80 path: one block-row,
// three block-columns (the last 8 columns wide), K of 2.25 steps.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_bf16_mma_sync_small status=PASS

func.func @matmul_bf16_mma_sync_small(%a: tensor<127x72xbf16>, %b: tensor<72x264xbf16>) -> tensor<127x264xf32> {
  %c = tile.matmul %a, %b : (tensor<127x72xbf16>, tensor<72x264xbf16>) -> tensor<127x264xf32>
  return %c : tensor<127x264xf32>
}
