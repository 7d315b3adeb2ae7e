// matmul_mxfp4_weight_ragged.mlir's MXFP4 GEMM with the weight packed in
// runs of 8 (tile.matmul k_runs = 8: each block of 32 along K, one scale
// group, in mma.sync's fragment runs; each word's codes bit by bit,
// tile.unpack bits = MXFP4's layout="mma" order), so that each thread's 4
// bytes of a block are its B fragments and the groups of 32 keep their
// scales. Ragged M (13) and N. Checked against the reference, which reads
// the bits and the K order by their definitions (TileReference.cpp).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT linear_mxfp4 status=PASS

func.func @linear_mxfp4(%x: tensor<13x1024xbf16>, %qw: tensor<264x512xi8>, %r: tensor<264x32xi8>) -> tensor<13x264xbf16> {
  %e = tile.map (%r) : (tensor<264x32xi8>) -> tensor<264x32xi8> {
  ^bb0(%ri: i8):
    %c15 = arith.constant 15 : i8
    %c120 = arith.constant 120 : i8
    %low = arith.andi %ri, %c15 : i8
    %ei = arith.addi %low, %c120 : i8
    tile.yield %ei : i8
  }
  %q = tile.unpack %qw bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<264x512xi8> -> tensor<264x1024xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<264x32xi8> -> tensor<264x1024xi8>
  %w = tile.map (%q, %er) : (tensor<264x1024xi8>, tensor<264x1024xi8>) -> tensor<264x1024xbf16> {
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
  %wt = tile.transpose %w : tensor<264x1024xbf16> -> tensor<1024x264xbf16>
  %y = tile.matmul %x, %wt k_runs = 8 : (tensor<13x1024xbf16>, tensor<1024x264xbf16>) -> tensor<13x264xf32>
  %o = tile.cast %y : tensor<13x264xf32> -> tensor<13x264xbf16>
  return %o : tensor<13x264xbf16>
}
