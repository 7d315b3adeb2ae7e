// Matmul with a fused per-row scale, per-column bias and residual add in the
// tensor-core kernel's epilogue (wgmma on sm_90a, mma.sync on sm_80), ragged
// M and N, against the unfused reference. On sm_90a the row and column
// vectors are loaded before the last wgmma group completes and the residual
// one slab ahead, all clamped inside their buffers: the ragged edges check
// that clamped values never reach the output.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_row_scale_residual_ragged status=PASS

func.func @matmul_row_scale_residual_ragged(%a: tensor<1000x520xbf16>, %b: tensor<520x1032xbf16>, %scale: tensor<1000xf32>, %bias: tensor<1032xbf16>, %res: tensor<1000x1032xbf16>) -> tensor<1000x1032xbf16> {
  %c = tile.matmul %a, %b : (tensor<1000x520xbf16>, tensor<520x1032xbf16>) -> tensor<1000x1032xf32>
  %sb = tile.broadcast %scale [1] : tensor<1000xf32> -> tensor<1000x1032xf32>
  %bb = tile.broadcast %bias [0] : tensor<1032xbf16> -> tensor<1000x1032xbf16>
  %y = tile.map (%c, %sb, %bb, %res) : (tensor<1000x1032xf32>, tensor<1000x1032xf32>, tensor<1000x1032xbf16>, tensor<1000x1032xbf16>) -> tensor<1000x1032xbf16> {
  ^bb0(%acc: f32, %s: f32, %bv: bf16, %rv: bf16):
    %bf = arith.extf %bv : bf16 to f32
    %rf = arith.extf %rv : bf16 to f32
    %x = arith.mulf %acc, %s : f32
    %xb = arith.addf %x, %bf : f32
    %r = arith.addf %xb, %rf : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<1000x1032xbf16>
}
