// bf16 matmul + bias + residual with an f32 output of 1020 columns, ragged
// M, against the unfused reference. tile-tile pads B, the bias and the
// residual to 1024 columns (bf16 rows of 16-byte runs) but not the output
// (f32 rows of 4080 bytes already are): the tensor-core epilogues must mask
// at the output's 1020 columns. They masked at B's 1024 and wrote columns
// 1020..1023 over the next row's first four (found in review).
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_f32_out_1020_ragged status=PASS

func.func @matmul_f32_out_1020_ragged(%a: tensor<1000x520xbf16>, %b: tensor<520x1020xbf16>, %bias: tensor<1020xf32>, %res: tensor<1000x1020xf32>) -> tensor<1000x1020xf32> {
  %c = tile.matmul %a, %b : (tensor<1000x520xbf16>, tensor<520x1020xbf16>) -> tensor<1000x1020xf32>
  %bb = tile.broadcast %bias [0] : tensor<1020xf32> -> tensor<1000x1020xf32>
  %y = tile.map (%c, %bb, %res) : (tensor<1000x1020xf32>, tensor<1000x1020xf32>, tensor<1000x1020xf32>) -> tensor<1000x1020xf32> {
  ^bb0(%acc: f32, %bv: f32, %rv: f32):
    %x = arith.addf %acc, %bv : f32
    %r = arith.addf %x, %rv : f32
    tile.yield %r : f32
  }
  return %y : tensor<1000x1020xf32>
}
