// tile-configure's stream-k: a wgmma matmul whose persistent kernel would
// end on a partial round of tiles (8192^3 FP8: 2048 tiles of 128 x 256 on
// 132 SMs, 15.52 rounds) gets stream_k. Block scales (an overlapped K
// loop) get it in parts of a fixed count of steps: 8192^3 (4096 tiles of
// 128 x 128, 31 rounds and 4 tiles of 64 steps) in parts of 8, the
// fewest of at least 8 that leave no more parts (32) than SMs; at 4096^3
// (7 rounds and 100 tiles of 32 steps) only whole tiles would, so no
// stream_k. Not: tiles a multiple of the SMs (the same on 128 SMs: 16
// whole rounds), a split K.
// Without the option no stream_k. A tile-level kernel that asks for it
// (tile-tile builds it from a tensor-level matmul) is a located error.
// RUN: tile-opt %s -split-input-file -verify-diagnostics "--tile-configure=chip=sm_90a stream-k" | FileCheck %s
// RUN: tile-opt %s -split-input-file -verify-diagnostics "--tile-configure=chip=sm_90a sms=128 stream-k" | FileCheck %s --check-prefix=WHOLE
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-configure=chip=sm_90a | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func @partial_round
// CHECK: tile.config = #tile.config<block = [128, 256, 128], {{.+}}, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true, uniform_warp = true>
// WHOLE-LABEL: func @partial_round
// WHOLE-NOT: stream_k
// OFF-LABEL: func @partial_round
// OFF-NOT: stream_k
func.func @partial_round(%a: tensor<8192x8192xf8E4M3FN>, %w: tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf32> {
  %wt = tile.transpose %w : tensor<8192x8192xf8E4M3FN> -> tensor<8192x8192xf8E4M3FN>
  %c = tile.matmul %a, %wt : (tensor<8192x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf32>
  return %c : tensor<8192x8192xf32>
}

// -----

// CHECK-LABEL: func @block_scales
// CHECK: overlap = true, stream_k = true, stream_k_part = 8, uniform_warp = true>
// WHOLE-LABEL: func @block_scales
// WHOLE-NOT: stream_k
func.func @block_scales(%a: tensor<8192x8192xf8E4M3FN>, %w: tensor<8192x8192xf8E4M3FN>, %sa: tensor<8192x64xf32>, %sb: tensor<64x64xf32>) -> tensor<8192x8192xf32> {
  %wt = tile.transpose %w : tensor<8192x8192xf8E4M3FN> -> tensor<8192x8192xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] : (tensor<8192x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>, tensor<64x64xf32>) -> tensor<8192x8192xf32>
  return %c : tensor<8192x8192xf32>
}

// -----

// CHECK-LABEL: func @block_scales_4096
// CHECK: overlap = true
// CHECK-NOT: stream_k
func.func @block_scales_4096(%a: tensor<4096x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN>, %sa: tensor<4096x32xf32>, %sb: tensor<32x32xf32>) -> tensor<4096x4096xf32> {
  %wt = tile.transpose %w : tensor<4096x4096xf8E4M3FN> -> tensor<4096x4096xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] : (tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>, tensor<4096x32xf32>, tensor<32x32xf32>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// A decode shape: split K, no stream_k.
// CHECK-LABEL: func @split
// CHECK: split_k
// CHECK-NOT: stream_k
func.func @split(%a: tensor<16x8192xbf16>, %b: tensor<8192x4096xbf16>) -> tensor<16x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<16x8192xbf16>, tensor<8192x4096xbf16>) -> tensor<16x4096xf32>
  return %c : tensor<16x4096xf32>
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @tile_level(%A: memref<256x256xbf16>, %C: memref<256x256xf32>) {
    // expected-error @+1 {{tile.config asks for stream_k, which tile-tile builds from a tensor-level matmul (a 1-D grid of one program per SM)}}
    tile.kernel @k grid [2, 1] threads 256 (%A, %C) : memref<256x256xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>} {
    ^bb0(%a: memref<256x256xbf16>, %c: memref<256x256xf32>):
      %c0 = arith.constant 0 : index
      %c128 = arith.constant 128 : index
      %pm = tile.program_id 0
      %m0 = arith.muli %pm, %c128 : index
      %x = tile.load %a[%m0, %c0] : memref<256x256xbf16> -> !tile.tile<128x64xbf16>
      %y = tile.load %a[%c0, %c0] : memref<256x256xbf16> -> !tile.tile<64x256xbf16>
      %z = arith.constant 0.0 : f32
      %acc = tile.splat %z : f32 -> !tile.tile<128x256xf32>
      %d = tile.dot %x, %y, %acc : !tile.tile<128x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<128x256xf32>
      tile.store %d, %c[%m0, %c0] : !tile.tile<128x256xf32>, memref<256x256xf32>
    }
    return
  }
}
