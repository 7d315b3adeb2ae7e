// MXFP4 weights whose products fall below bf16's normal range: e8m0
// scales of 2^-126 and 2^-125 (e = 1, 2), so that the codes +-0.5 at the
// smaller scale are bf16 subnormals (2^-127); the outputs, sums of 1024
// products, are normal. Those subnormals carry about 0.07% of W's energy:
// a kernel that flushed them would be off by about 3% (the check's bf16
// tolerance is 1%). Each kernel must keep them as the reference does (it
// decodes in f32 and rounds once): mma.sync at M = 16, sm_80 and sm_90a,
// with tile-packed-dequant's bf16 pairs (packed multiplies whose products
// are subnormal) and the scale decoded once a line
// (tile-hoist-broadcast-math). Ragged N.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT mxfp4_tiny_scales status=PASS

func.func @mxfp4_tiny_scales(%x: tensor<16x1024xbf16>, %qw: tensor<264x512xi8>, %r: tensor<264x32xi8>) -> tensor<16x264xbf16> {
  %e = tile.map (%r) : (tensor<264x32xi8>) -> tensor<264x32xi8> {
  ^bb0(%ri: i8):
    %c1 = arith.constant 1 : i8
    %low = arith.andi %ri, %c1 : i8
    %ei = arith.addi %low, %c1 : i8
    tile.yield %ei : i8
  }
  %q = tile.unpack %qw : tensor<264x512xi8> -> tensor<264x1024xi8>
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
  %y = tile.matmul %x, %wt : (tensor<16x1024xbf16>, tensor<1024x264xbf16>) -> tensor<16x264xf32>
  %o = tile.cast %y : tensor<16x264xf32> -> tensor<16x264xbf16>
  return %o : tensor<16x264xbf16>
}
