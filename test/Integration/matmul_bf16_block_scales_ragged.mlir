// A block-scaled bf16 matmul, unfused (each op its own kernel): A's scales
// per 128x128 block ([M/128, K/128]: one scalar per program and K block),
// B's per column and 128 of K ([K/128, N]). bf16 K steps are 64 deep, so
// two steps share a scale block. f32 out, ragged M, N and K (the last
// scale block holds 72 of K). wgmma on sm_90a, mma.sync on sm_80, against
// the f64 reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_bf16_block_scales_ragged status=PASS

func.func @matmul_bf16_block_scales_ragged(%a: tensor<300x456xbf16>, %b: tensor<456x520xbf16>, %sa: tensor<3x4xf32>, %sb: tensor<4x520xf32>) -> tensor<300x520xf32> {
  %c = tile.matmul %a, %b scales(%sa, %sb) block [128, 128, 1] : (tensor<300x456xbf16>, tensor<456x520xbf16>, tensor<3x4xf32>, tensor<4x520xf32>) -> tensor<300x520xf32>
  return %c : tensor<300x520xf32>
}
