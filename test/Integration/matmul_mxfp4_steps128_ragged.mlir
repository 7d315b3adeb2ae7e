// Weight-only MXFP4 GEMM (as matmul_mxfp4_weight_ragged: e2m1 packed two
// per byte, one e8m0 scale per 32 values of a row) with K steps of 128 from
// a config given by hand: each step reads four groups of 32 as four
// sub-steps (productStepK), every load first (x's tile, the packed bytes,
// the group's own scale column), then four products. The first function:
// K = 1056 is 33 groups in 9 steps; the second of the split's two K
// ranges (5 steps each) runs to 1280, so its fourth step has one group
// inside K and three past it, its fifth none (zeros, their scale columns
// clamped to the last group); M = 5 and N = 264 ragged; a ring of 2. The second: M = 16, a ring of 4, the split's partials added by a
// second kernel. Checked against the reference of the same math.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 --function=mxfp4_steps128 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=mxfp4_steps128 -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=mxfp4_steps128_second -o %t.second.tilebundle
// RUN: tile-run %t.second.tilebundle --repeats 3 | FileCheck %s --check-prefix=SECOND
// TILE-COMPILE-FLAGS: --fuse --function=mxfp4_steps128
// CHECK: RESULT mxfp4_steps128 status=PASS
// SECOND: RESULT mxfp4_steps128_second status=PASS

func.func @mxfp4_steps128(%x: tensor<5x1056xbf16>, %qw: tensor<264x528xi8>, %r: tensor<264x33xi8>) -> tensor<5x264xbf16> {
  %e = tile.map (%r) : (tensor<264x33xi8>) -> tensor<264x33xi8> {
  ^bb0(%ri: i8):
    %c15 = arith.constant 15 : i8
    %c120 = arith.constant 120 : i8
    %low = arith.andi %ri, %c15 : i8
    %ei = arith.addi %low, %c120 : i8
    tile.yield %ei : i8
  }
  %q = tile.unpack %qw : tensor<264x528xi8> -> tensor<264x1056xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<264x33xi8> -> tensor<264x1056xi8>
  %w = tile.map (%q, %er) : (tensor<264x1056xi8>, tensor<264x1056xi8>) -> tensor<264x1056xbf16> {
  ^bb0(%u: i8, %ei: i8):
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c23 = arith.constant 23 : i32
    %c22 = arith.constant 22 : i32
    %c28 = arith.constant 28 : i32
    %two126 = arith.constant 0x7E800000 : f32
    // The code's exponent and mantissa bits placed at f32's bits 24-22
    // and its sign at bit 31 make an f32 equal to the e2m1 value times
    // 2^-126 (the codes 0 and 1, exponent 0, become f32 subnormals); the
    // multiply by 2^126 restores the value exactly.
    %u32 = arith.extui %u : i8 to i32
    %low = arith.andi %u32, %c7 : i32
    %mag = arith.shli %low, %c22 : i32
    %sign = arith.andi %u32, %c8 : i32
    %sbit = arith.shli %sign, %c28 : i32
    %bits = arith.ori %mag, %sbit : i32
    %raw = arith.bitcast %bits : i32 to f32
    %v = arith.mulf %raw, %two126 : f32
    %e32 = arith.extui %ei : i8 to i32
    %sbits = arith.shli %e32, %c23 : i32
    %scale = arith.bitcast %sbits : i32 to f32
    %ws = arith.mulf %v, %scale : f32
    %h = arith.truncf %ws : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<264x1056xbf16> -> tensor<1056x264xbf16>
  %y = tile.matmul %x, %wt {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 2, group_rows = 8, split_k = 2, split_k_in_kernel = true, prefetch = true>} : (tensor<5x1056xbf16>, tensor<1056x264xbf16>) -> tensor<5x264xf32>
  %o = tile.cast %y : tensor<5x264xf32> -> tensor<5x264xbf16>
  return %o : tensor<5x264xbf16>
}

func.func @mxfp4_steps128_second(%x: tensor<16x1024xbf16>, %qw: tensor<200x512xi8>, %r: tensor<200x32xi8>) -> tensor<16x200xbf16> {
  %e = tile.map (%r) : (tensor<200x32xi8>) -> tensor<200x32xi8> {
  ^bb0(%ri: i8):
    %c15 = arith.constant 15 : i8
    %c120 = arith.constant 120 : i8
    %low = arith.andi %ri, %c15 : i8
    %ei = arith.addi %low, %c120 : i8
    tile.yield %ei : i8
  }
  %q = tile.unpack %qw : tensor<200x512xi8> -> tensor<200x1024xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<200x32xi8> -> tensor<200x1024xi8>
  %w = tile.map (%q, %er) : (tensor<200x1024xi8>, tensor<200x1024xi8>) -> tensor<200x1024xbf16> {
  ^bb0(%u: i8, %ei: i8):
    %c7 = arith.constant 7 : i32
    %c8 = arith.constant 8 : i32
    %c23 = arith.constant 23 : i32
    %c22 = arith.constant 22 : i32
    %c28 = arith.constant 28 : i32
    %two126 = arith.constant 0x7E800000 : f32
    // The code's exponent and mantissa bits placed at f32's bits 24-22
    // and its sign at bit 31 make an f32 equal to the e2m1 value times
    // 2^-126 (the codes 0 and 1, exponent 0, become f32 subnormals); the
    // multiply by 2^126 restores the value exactly.
    %u32 = arith.extui %u : i8 to i32
    %low = arith.andi %u32, %c7 : i32
    %mag = arith.shli %low, %c22 : i32
    %sign = arith.andi %u32, %c8 : i32
    %sbit = arith.shli %sign, %c28 : i32
    %bits = arith.ori %mag, %sbit : i32
    %raw = arith.bitcast %bits : i32 to f32
    %v = arith.mulf %raw, %two126 : f32
    %e32 = arith.extui %ei : i8 to i32
    %sbits = arith.shli %e32, %c23 : i32
    %scale = arith.bitcast %sbits : i32 to f32
    %ws = arith.mulf %v, %scale : f32
    %h = arith.truncf %ws : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<200x1024xbf16> -> tensor<1024x200xbf16>
  %y = tile.matmul %x, %wt {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 4, group_rows = 8, split_k = 2, prefetch = true>} : (tensor<16x1024xbf16>, tensor<1024x200xbf16>) -> tensor<16x200xf32>
  %o = tile.cast %y : tensor<16x200xf32> -> tensor<16x200xbf16>
  return %o : tensor<16x200xbf16>
}
