// Stream-K (config stream_k, given by hand): rounds of whole tiles while
// every program has one, then the last tiles' K steps dealt evenly over the
// programs, a tile cut along K into parts whose f32 partials the last part
// to arrive adds in K order. Ragged M, N and K: M = 2000 (the last
// block-row of 80 rows), N = 2100, K = 1040 (the last step partly past K).
// The SM counts (the programs) make every kind of schedule:
// - per_tensor: e4m3 x e4m3, per-tensor scales, 128 x 256 tiles of 9 steps
//   of 128: 144 tiles; sms = 7: 20 rounds, then 4 tiles' 36 steps over 7
//   programs (5 or 6 each, tiles in 2 or 3 parts); sms = 132: 1 round, then
//   12 tiles' 108 steps... fewer than the programs, refused (see
//   test/Transforms/tile-tile-stream-k.mlir), so sms = 100: 1 round, 44
//   tiles' 396 steps over 100 programs (3 or 4 each: up to 4 parts a tile).
// - bias_gelu: bf16 with a bias and GELU epilogue, 128 x 256 tiles of 17
//   steps of 64; sms = 5: 28 rounds, 4 tiles' 68 steps over 5 programs;
//   sms = 150: no whole round (144 tiles), every tile's steps shared.
// - blocks: DeepSeek-V3's 1x128 / 128x128 block scales, 128 x 128 tiles
//   (272; not overlapped: a part's trip count is not a constant); sms =
//   11: 24 rounds, then 8 tiles' 72 steps over 11 programs.
// - blocks_parts: the same block scales in parts of a fixed count of
//   steps (stream_k_part), overlapped (tile-overlap, which takes the K
//   loop's two trip counts); K = 1040 (9 steps) in parts of 3 on 90
//   programs: 3 rounds, then 2 tiles' 18 steps on 6 programs (trip counts
//   9 and 3, bodies of 3, the ring's place carried); K = 1024 (8 steps) in
//   parts of 4 on 132 programs: 2 rounds, then 8 tiles in 16 parts (trip
//   counts 8 and 4, whole rings).
// Against the reference of the same math.
// REQUIRES: cuda-device
// TILE-CHIPS: sm_90a
// RUN: tile-compile %s --fuse --chip=sm_90a --function=per_tensor --configure-options=sms=7 -o %t.tensor7.tilebundle
// RUN: tile-run %t.tensor7.tilebundle --repeats 3 | FileCheck %s --check-prefix=TENSOR
// RUN: tile-compile %s --fuse --chip=sm_90a --function=per_tensor --configure-options=sms=100 -o %t.tensor100.tilebundle
// RUN: tile-run %t.tensor100.tilebundle --repeats 3 | FileCheck %s --check-prefix=TENSOR
// RUN: tile-compile %s --fuse --chip=sm_90a --function=bias_gelu --configure-options=sms=5 -o %t.gelu5.tilebundle
// RUN: tile-run %t.gelu5.tilebundle --repeats 3 | FileCheck %s --check-prefix=GELU
// RUN: tile-compile %s --fuse --chip=sm_90a --function=bias_gelu --configure-options=sms=150 -o %t.gelu150.tilebundle
// RUN: tile-run %t.gelu150.tilebundle --repeats 3 | FileCheck %s --check-prefix=GELU
// RUN: tile-compile %s --fuse --chip=sm_90a --function=blocks --configure-options=sms=11 -o %t.blocks11.tilebundle
// RUN: tile-run %t.blocks11.tilebundle --repeats 3 | FileCheck %s --check-prefix=BLOCKS
// RUN: tile-compile %s --fuse --chip=sm_90a --function=blocks_parts3 --configure-options=sms=90 -o %t.parts3.tilebundle
// RUN: tile-run %t.parts3.tilebundle --repeats 3 | FileCheck %s --check-prefix=PARTS3
// RUN: tile-compile %s --fuse --chip=sm_90a --function=blocks_parts4 --configure-options=sms=132 -o %t.parts4.tilebundle
// RUN: tile-run %t.parts4.tilebundle --repeats 3 | FileCheck %s --check-prefix=PARTS4
// TILE-COMPILE-FLAGS: --fuse --function=per_tensor --configure-options=sms=7
// TENSOR: RESULT per_tensor status=PASS
// GELU: RESULT bias_gelu status=PASS
// BLOCKS: RESULT blocks status=PASS
// PARTS3: RESULT blocks_parts3 status=PASS
// PARTS4: RESULT blocks_parts4 status=PASS

func.func @per_tensor(%a: tensor<2000x1040xf8E4M3FN>, %w: tensor<2100x1040xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<2000x2100xbf16> {
  %wt = tile.transpose %w : tensor<2100x1040xf8E4M3FN> -> tensor<1040x2100xf8E4M3FN>
  %c = tile.matmul %a, %wt {tile.config = #tile.config<block = [128, 256, 128], threads = 256, mma = wgmma, instr = [64, 256, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>} : (tensor<2000x1040xf8E4M3FN>, tensor<1040x2100xf8E4M3FN>) -> tensor<2000x2100xf32>
  %ra = tile.broadcast %sa [0, 1] : tensor<f32> -> tensor<2000x2100xf32>
  %rb = tile.broadcast %sb [0, 1] : tensor<f32> -> tensor<2000x2100xf32>
  %y = tile.map (%c, %ra, %rb) : (tensor<2000x2100xf32>, tensor<2000x2100xf32>, tensor<2000x2100xf32>) -> tensor<2000x2100xbf16> {
  ^bb0(%acc: f32, %x: f32, %z: f32):
    %s = arith.mulf %x, %z : f32
    %r = arith.mulf %acc, %s : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<2000x2100xbf16>
}

func.func @bias_gelu(%a: tensor<2000x1040xbf16>, %b: tensor<1040x2100xbf16>, %bias: tensor<2100xbf16>) -> tensor<2000x2100xbf16> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>} : (tensor<2000x1040xbf16>, tensor<1040x2100xbf16>) -> tensor<2000x2100xf32>
  %bb = tile.broadcast %bias [0] : tensor<2100xbf16> -> tensor<2000x2100xbf16>
  %y = tile.map (%c, %bb) : (tensor<2000x2100xf32>, tensor<2000x2100xbf16>) -> tensor<2000x2100xbf16> {
  ^bb0(%acc: f32, %x: bf16):
    %xf = arith.extf %x : bf16 to f32
    %v = arith.addf %acc, %xf : f32
    %g = math.erf %v : f32
    %h = arith.truncf %g : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<2000x2100xbf16>
}

func.func @blocks(%a: tensor<2000x1040xf8E4M3FN>, %w: tensor<2100x1040xf8E4M3FN>, %sat: tensor<9x2000xf32>, %sw: tensor<17x9xf32>) -> tensor<2000x2100xbf16> {
  %wt = tile.transpose %w : tensor<2100x1040xf8E4M3FN> -> tensor<1040x2100xf8E4M3FN>
  %sa = tile.transpose %sat : tensor<9x2000xf32> -> tensor<2000x9xf32>
  %sb = tile.transpose %sw : tensor<17x9xf32> -> tensor<9x17xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>} : (tensor<2000x1040xf8E4M3FN>, tensor<1040x2100xf8E4M3FN>, tensor<2000x9xf32>, tensor<9x17xf32>) -> tensor<2000x2100xf32>
  %y = tile.cast %c : tensor<2000x2100xf32> -> tensor<2000x2100xbf16>
  return %y : tensor<2000x2100xbf16>
}

func.func @blocks_parts3(%a: tensor<2000x1040xf8E4M3FN>, %w: tensor<2100x1040xf8E4M3FN>, %sat: tensor<9x2000xf32>, %sw: tensor<17x9xf32>) -> tensor<2000x2100xbf16> {
  %wt = tile.transpose %w : tensor<2100x1040xf8E4M3FN> -> tensor<1040x2100xf8E4M3FN>
  %sa = tile.transpose %sat : tensor<9x2000xf32> -> tensor<2000x9xf32>
  %sb = tile.transpose %sw : tensor<17x9xf32> -> tensor<9x17xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, stream_k = true, stream_k_part = 3>} : (tensor<2000x1040xf8E4M3FN>, tensor<1040x2100xf8E4M3FN>, tensor<2000x9xf32>, tensor<9x17xf32>) -> tensor<2000x2100xf32>
  %y = tile.cast %c : tensor<2000x2100xf32> -> tensor<2000x2100xbf16>
  return %y : tensor<2000x2100xbf16>
}

func.func @blocks_parts4(%a: tensor<2000x1024xf8E4M3FN>, %w: tensor<2100x1024xf8E4M3FN>, %sat: tensor<8x2000xf32>, %sw: tensor<17x8xf32>) -> tensor<2000x2100xbf16> {
  %wt = tile.transpose %w : tensor<2100x1024xf8E4M3FN> -> tensor<1024x2100xf8E4M3FN>
  %sa = tile.transpose %sat : tensor<8x2000xf32> -> tensor<2000x8xf32>
  %sb = tile.transpose %sw : tensor<17x8xf32> -> tensor<8x17xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, stream_k = true, stream_k_part = 4>} : (tensor<2000x1024xf8E4M3FN>, tensor<1024x2100xf8E4M3FN>, tensor<2000x8xf32>, tensor<8x17xf32>) -> tensor<2000x2100xf32>
  %y = tile.cast %c : tensor<2000x2100xf32> -> tensor<2000x2100xbf16>
  return %y : tensor<2000x2100xbf16>
}
