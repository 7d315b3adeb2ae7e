// Decode: one row against a 4096 x 4096 weight, f32 out (no epilogue).
// tile-configure gives it 64 x 64 wgmma blocks (the one row of A in a
// 64-row block) and K in 2 ranges; with one row, the last program of each
// tile adds the two partials in the same kernel (split_k_in_kernel).
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// TILE: tile.kernel @decode_m1_0_split_k grid [1, 64, 2] threads 128
// TILE-SAME: split_k = 2, split_k_in_kernel = true
// TILE: tile.last_arrival
// TILE-NOT: tile.kernel
// CHECK: RESULT decode_m1 status=PASS

func.func @decode_m1(%x: tensor<1x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<1x4096xf32> {
  %y = tile.matmul %x, %w : (tensor<1x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<1x4096xf32>
  return %y : tensor<1x4096xf32>
}
