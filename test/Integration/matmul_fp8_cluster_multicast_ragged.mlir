// FP8 GEMMs in thread-block clusters of two programs along M (config
// cluster = [2, 1], given by hand): the two programs of a cluster hold the
// tiles of two block-rows of one block-column, and each copies half of the
// B tile's rows into both (TMA multicast); each slot is given back to both
// producers. Ragged M, N and K: M = 2000 (16 block-rows of 128, the last
// of 80 rows), N = 2100 (the last block-column partly and, in the
// multicast half of rank 1, wholly past N: zeros), K = 1040 (the last step
// of 16). Tile counts over 132 so that programs run two or three rounds
// (144 tiles on 72 programs, 272 on 92: the fewest that take as many
// rounds, whole clusters);
// with sms=6 three clusters run every tile (24 or 46 rounds, the ring's
// place carried across them), and with sms=7 the grid keeps whole clusters
// (6 programs).
// - per_tensor: e4m3 x e4m3 with per-tensor scales, 128 x 256 tiles (a
//   slot of B is 256 rows of K-major e4m3, one 128-byte swizzle block).
// - blocks: DeepSeek-V3's 1x128 / 128x128 block scales, 128 x 128 tiles
//   with per-load barriers (overlap): only B's empty barriers count both
//   programs' warps.
// Against the reference of the same math.
// REQUIRES: cuda-device
// TILE-CHIPS: sm_90a
// RUN: tile-compile %s --fuse --chip=sm_90a --function=per_tensor -o %t.tensor.tilebundle
// RUN: tile-run %t.tensor.tilebundle --repeats 3 | FileCheck %s --check-prefix=TENSOR
// RUN: tile-compile %s --fuse --chip=sm_90a --function=per_tensor --pipeline-options=sms=6 -o %t.tensor6.tilebundle
// RUN: tile-run %t.tensor6.tilebundle --repeats 3 | FileCheck %s --check-prefix=TENSOR
// RUN: tile-compile %s --fuse --chip=sm_90a --function=blocks -o %t.blocks.tilebundle
// RUN: tile-run %t.blocks.tilebundle --repeats 3 | FileCheck %s --check-prefix=BLOCKS
// RUN: tile-compile %s --fuse --chip=sm_90a --function=blocks --pipeline-options=sms=7 -o %t.blocks7.tilebundle
// RUN: tile-run %t.blocks7.tilebundle --repeats 3 | FileCheck %s --check-prefix=BLOCKS
// TILE-COMPILE-FLAGS: --fuse --function=per_tensor
// TENSOR: RESULT per_tensor status=PASS
// BLOCKS: RESULT blocks status=PASS

func.func @per_tensor(%a: tensor<2000x1040xf8E4M3FN>, %w: tensor<2100x1040xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<2000x2100xbf16> {
  %wt = tile.transpose %w : tensor<2100x1040xf8E4M3FN> -> tensor<1040x2100xf8E4M3FN>
  %c = tile.matmul %a, %wt {tile.config = #tile.config<block = [128, 256, 128], threads = 256, mma = wgmma, instr = [64, 256, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, cluster = [2, 1]>} : (tensor<2000x1040xf8E4M3FN>, tensor<1040x2100xf8E4M3FN>) -> tensor<2000x2100xf32>
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

func.func @blocks(%a: tensor<2000x1040xf8E4M3FN>, %w: tensor<2100x1040xf8E4M3FN>, %sat: tensor<9x2000xf32>, %sw: tensor<17x9xf32>) -> tensor<2000x2100xbf16> {
  %wt = tile.transpose %w : tensor<2100x1040xf8E4M3FN> -> tensor<1040x2100xf8E4M3FN>
  %sa = tile.transpose %sat : tensor<9x2000xf32> -> tensor<2000x9xf32>
  %sb = tile.transpose %sw : tensor<17x9xf32> -> tensor<9x17xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, cluster = [2, 1]>} : (tensor<2000x1040xf8E4M3FN>, tensor<1040x2100xf8E4M3FN>, tensor<2000x9xf32>, tensor<9x17xf32>) -> tensor<2000x2100xf32>
  %y = tile.cast %c : tensor<2000x2100xf32> -> tensor<2000x2100xbf16>
  return %y : tensor<2000x2100xbf16>
}
