// An f16 matmul on the sm_80 path, where mma.sync is nvgpu.mma.sync
// (upstream lowers it for f16), with a row-vector bias indexed by M.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_f16_mma_sync status=PASS

func.func @matmul_f16_mma_sync(%a: tensor<300x520xf16>, %b: tensor<520x200xf16>, %bias: tensor<300xf32>) -> tensor<300x200xf16> {
  %c = tile.matmul %a, %b : (tensor<300x520xf16>, tensor<520x200xf16>) -> tensor<300x200xf32>
  %bb = tile.broadcast %bias [1] : tensor<300xf32> -> tensor<300x200xf32>
  %y = tile.map (%c, %bb) : (tensor<300x200xf32>, tensor<300x200xf32>) -> tensor<300x200xf32> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    tile.yield %s : f32
  }
  %o = tile.cast %y : tensor<300x200xf32> -> tensor<300x200xf16>
  return %o : tensor<300x200xf16>
}
