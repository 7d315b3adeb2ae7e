// Weight-only int4 GEMM packed for the tensor cores (k_runs = 32, AWQ's
// nibble order; as matmul_int4_runs_ragged) with K steps of 256 from a
// config given by hand: each step reads two blocks of 128 (buildMatmulLoop's
// sub-steps), each with its own group's scales, so the step asks for both
// halves of every weight row's 128 bytes at once. K = 1152 is 9 blocks:
// the last step's second block lies past K (zeros) in one of the two K
// ranges the split makes; N = 520 and M = 5 are ragged. The second
// function: M = 16, no ragged K, the split's partials added by a second
// kernel. Checked against the f64 reference of the same math.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 --function=decode_int4_steps256 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=decode_int4_steps256 -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=decode_int4_steps256_second -o %t.second.tilebundle
// RUN: tile-run %t.second.tilebundle --repeats 3 | FileCheck %s --check-prefix=SECOND
// TILE-COMPILE-FLAGS: --fuse --function=decode_int4_steps256
// CHECK: RESULT decode_int4_steps256 status=PASS
// SECOND: RESULT decode_int4_steps256_second status=PASS

func.func @decode_int4_steps256(%x: tensor<5x1152xbf16>, %qw: tensor<520x576xi8>, %s: tensor<9x520xbf16>) -> tensor<5x520xbf16> {
  %q = tile.unpack %qw signed interleaved : tensor<520x576xi8> -> tensor<520x1152xi8>
  %st = tile.transpose %s : tensor<9x520xbf16> -> tensor<520x9xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<520x9xbf16> -> tensor<520x1152xbf16>
  %w = tile.map (%q, %sr) : (tensor<520x1152xi8>, tensor<520x1152xbf16>) -> tensor<520x1152xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<520x1152xbf16> -> tensor<1152x520xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 {tile.config = #tile.config<block = [16, 64, 256], threads = 256, mma = mma_sync, instr = [16, 8, 16], warps = [1, 8], stages = 4, group_rows = 8, split_k = 2, split_k_in_kernel = true, prefetch = true>} : (tensor<5x1152xbf16>, tensor<1152x520xbf16>) -> tensor<5x520xf32>
  %o = tile.cast %y : tensor<5x520xf32> -> tensor<5x520xbf16>
  return %o : tensor<5x520xbf16>
}

func.func @decode_int4_steps256_second(%x: tensor<16x1024xbf16>, %qw: tensor<200x512xi8>, %s: tensor<8x200xbf16>) -> tensor<16x200xbf16> {
  %q = tile.unpack %qw signed interleaved : tensor<200x512xi8> -> tensor<200x1024xi8>
  %st = tile.transpose %s : tensor<8x200xbf16> -> tensor<200x8xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<200x8xbf16> -> tensor<200x1024xbf16>
  %w = tile.map (%q, %sr) : (tensor<200x1024xi8>, tensor<200x1024xbf16>) -> tensor<200x1024xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<200x1024xbf16> -> tensor<1024x200xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 {tile.config = #tile.config<block = [16, 64, 256], threads = 256, mma = mma_sync, instr = [16, 8, 16], warps = [1, 8], stages = 3, group_rows = 8, split_k = 2>} : (tensor<16x1024xbf16>, tensor<1024x200xbf16>) -> tensor<16x200xf32>
  %o = tile.cast %y : tensor<16x200xf32> -> tensor<16x200xbf16>
  return %o : tensor<16x200xbf16>
}
