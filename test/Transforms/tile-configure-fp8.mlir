// tile-configure on fp8 matmuls. With B the tile.transpose of an [N, K]
// tensor (K-major, the only fp8 B that wgmma reads), sm_90a: wgmma blocks
// with 128-byte K steps (128 fp8) and m64nNk32 instructions. Without it,
// or on a chip without wgmma, no config (the SIMT kernel) and a remark
// that says why.
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a -verify-diagnostics | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_80 2>&1 | FileCheck %s --check-prefix=A100

// CHECK-LABEL: func @k_major
// CHECK: tile.matmul {{.+}} {tile.config = #tile.config<block = [128, 256, 128], threads = 256, mma = wgmma, instr = [64, 256, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true, tma_store = true>}
// A100: remark: fp8 matmul on SIMT: the tensor cores need sm_90a
// A100-LABEL: func @k_major
// A100-NOT: tile.config
func.func @k_major(%a: tensor<4096x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E5M2>) -> tensor<4096x4096xf32> {
  %wt = tile.transpose %w : tensor<4096x4096xf8E5M2> -> tensor<4096x4096xf8E5M2>
  %c = tile.matmul %a, %wt : (tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E5M2>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// CHECK-LABEL: func @n_major
// CHECK-NOT: tile.config
func.func @n_major(%a: tensor<256x256xf8E4M3FN>, %b: tensor<256x256xf8E4M3FN>) -> tensor<256x256xf32> {
  // expected-remark@+1 {{fp8 matmul on SIMT: the tensor cores need sm_90a and B as the tile.transpose of an [N, K] tensor (K-major, as torch's _scaled_mm takes it)}}
  %c = tile.matmul %a, %b : (tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

// -----

// Block scales (1x128 of A, 128x128 of W): blocks within one 128-column
// scale block, and no 128 x 256 block (its product beside the accumulator
// would take 256 registers a thread), a ring of 4 stages, and overlap (two
// K steps at once, tile-overlap); the tuning key names the scaling.
// CHECK-LABEL: func @block_scales
// CHECK: tile.matmul {{.+}} scales({{.+}}) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, uniform_warp = true, tma_store = true>}
func.func @block_scales(%a: tensor<4096x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN>, %sa: tensor<4096x32xf32>, %sb: tensor<32x32xf32>) -> tensor<4096x4096xf32> {
  %wt = tile.transpose %w : tensor<4096x4096xf8E4M3FN> -> tensor<4096x4096xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] : (tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>, tensor<4096x32xf32>, tensor<32x32xf32>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// bf16 with scales per 64 of K: 64-deep steps (each within one block); on
// sm_80 mma.sync with twice the warps (the product beside the
// accumulator).
// CHECK-LABEL: func @bf16_block_scales
// CHECK: block = [128, 128, 64], threads = 256, mma = wgmma
// A100-LABEL: func @bf16_block_scales
// A100: block = [128, 128, 32], threads = 256, mma = mma_sync, instr = [16, 8, 16], warps = [2, 4]
func.func @bf16_block_scales(%a: tensor<2048x2048xbf16>, %b: tensor<2048x2048xbf16>, %sa: tensor<2048x32xf32>, %sb: tensor<32x2048xf32>) -> tensor<2048x2048xf32> {
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 64, 1] : (tensor<2048x2048xbf16>, tensor<2048x2048xbf16>, tensor<2048x32xf32>, tensor<32x2048xf32>) -> tensor<2048x2048xf32>
  return %c : tensor<2048x2048xf32>
}
