// Tiles 192 columns wide (128 x 192, as cuBLAS's and DeepGEMM's wave-
// filling tiles): wgmma's m64n192 fragment is the 64-column fragment's map
// repeated three times 64 columns apart (the linear layout's outer
// repetition), one instruction per warp. The accumulator, the bias's
// slice and the store take that layout; each warpgroup issues one m64n192
// a K step (bf16: k16, FP8 with a K-major B: k32). Ragged M and N (300 x
// 400: the last block-column 16 wide).
// RUN: tile-compile %s --fuse --chip=sm_90a --function=bias --emit=tile | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: tile-compile %s --fuse --chip=sm_90a --function=bias --emit=ptx | FileCheck %s --check-prefix=BF16
// RUN: tile-compile %s --fuse --chip=sm_90a --function=fp8 --emit=ptx | FileCheck %s --check-prefix=FP8

// LAYOUT: tile.splat {{.+}} -> !tile.tile<128x192xf32, layout = [[MMA:#tile.mma<wgmma, warps = \[8, 1\], instr = \[64, 192, 16\]>]]>
// LAYOUT: tile.dot {{.+}} -> !tile.tile<128x192xf32, layout = [[MMA]]>
// LAYOUT: tile.load {{.+}} : memref<400xf32> -> !tile.tile<192xf32, layout = #tile.slice<0, [[MMA]]>>
// LAYOUT: tile.broadcast {{.+}} -> !tile.tile<128x192xf32, layout = [[MMA]]>
// LAYOUT: tile.store {{.+}} : !tile.tile<128x192xbf16, layout = [[MMA]]>, memref<300x400xbf16>

// BF16-COUNT-4: wgmma.mma_async.sync.aligned.m64n192k16.f32.bf16.bf16
// BF16-NOT: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16
// FP8-COUNT-4: wgmma.mma_async.sync.aligned.m64n192k32.f32.e4m3.e4m3
// FP8-NOT: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32

func.func @bias(%a: tensor<300x256xbf16>, %b: tensor<256x400xbf16>, %v: tensor<400xf32>) -> tensor<300x400xbf16> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 192, 64], threads = 256, mma = wgmma, instr = [64, 192, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true>} : (tensor<300x256xbf16>, tensor<256x400xbf16>) -> tensor<300x400xf32>
  %vb = tile.broadcast %v [0] : tensor<400xf32> -> tensor<300x400xf32>
  %s = tile.map (%c, %vb) : (tensor<300x400xf32>, tensor<300x400xf32>) -> tensor<300x400xbf16> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %s : tensor<300x400xbf16>
}

func.func @fp8(%a: tensor<300x256xf8E4M3FN>, %w: tensor<400x256xf8E4M3FN>) -> tensor<300x400xbf16> {
  %wt = tile.transpose %w : tensor<400x256xf8E4M3FN> -> tensor<256x400xf8E4M3FN>
  %c = tile.matmul %a, %wt {tile.config = #tile.config<block = [128, 192, 128], threads = 256, mma = wgmma, instr = [64, 192, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true>} : (tensor<300x256xf8E4M3FN>, tensor<256x400xf8E4M3FN>) -> tensor<300x400xf32>
  %d = tile.cast %c : tensor<300x400xf32> -> tensor<300x400xbf16>
  return %d : tensor<300x400xbf16>
}
