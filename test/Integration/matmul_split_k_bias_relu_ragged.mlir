// Split-K with a fused epilogue, ragged M, N and K: M = 37 of a 5000 x 1000
// weight fills no half of the SMs, so tile-configure cuts K into 4 ranges
// of whole 64-steps (the last one reads past K) over 64 x 64 wgmma blocks
// (rows past M are not loaded); at 37 rows (above the in-kernel sums' 16,
// up to 64) a tile's 4 programs are one cluster on sm_90a, and rank 0 adds
// the partials (tile.cluster_sum), the bias and the relu. On sm_80 a second
// kernel adds them.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// TILE: tile.kernel @split_k_bias_relu_0_split_k grid [1, 16, 4] threads 128
// TILE-SAME: split_k = 4, cluster = [1, 1, 4]
// CHECK: RESULT split_k_bias_relu status=PASS

func.func @split_k_bias_relu(%a: tensor<37x5000xbf16>, %b: tensor<5000x1000xbf16>, %bias: tensor<1000xbf16>) -> tensor<37x1000xbf16> {
  %c = tile.matmul %a, %b : (tensor<37x5000xbf16>, tensor<5000x1000xbf16>) -> tensor<37x1000xf32>
  %zero = arith.constant 0.0 : f32
  %bb = tile.broadcast %bias [0] : tensor<1000xbf16> -> tensor<37x1000xbf16>
  %y = tile.map (%c, %bb) : (tensor<37x1000xf32>, tensor<37x1000xbf16>) -> tensor<37x1000xbf16> {
  ^bb0(%acc: f32, %bv: bf16):
    %bf = arith.extf %bv : bf16 to f32
    %x = arith.addf %acc, %bf : f32
    %r = arith.maximumf %x, %zero : f32
    %o = arith.truncf %r : f32 to bf16
    tile.yield %o : bf16
  }
  return %y : tensor<37x1000xbf16>
}
