// MXFP4 packed in runs of 8 (matmul_mxfp4_runs8_ragged.mlir's math) on
// the transposed product (y^T = W x^T, the dequantized weight as wgmma's
// register A, lhs_k_runs = 8; sm_90a's first candidate up to 64 rows) in
// steps of 256 (8 products of one group each), consumer warpgroups taking
// turns at the steps, the codes decoded in bf16 pairs and the e8m0
// scales once a scale (tile-hoist-broadcast-math). M = 40 with ragged N
// (four steps, two warpgroups), and M = 5 (eight steps, four). The codes
// bit by bit in each word (tile.unpack bits, MXFP4's layout="mma": a pair
// placed by a rotation and an and). Checked against the reference, which
// reads the bits and the K order by their definitions.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a --function=linear_mxfp4 -o %t.linear.tilebundle
// RUN: tile-run %t.linear.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=decode_mxfp4 -o %t.decode.tilebundle
// RUN: tile-run %t.decode.tilebundle --repeats 3 | FileCheck %s --check-prefix=DECODE
// TILE-COMPILE-FLAGS: --fuse --function=linear_mxfp4
// TILE-CHIPS: sm_90a
// CHECK: RESULT linear_mxfp4 status=PASS
// DECODE: RESULT decode_mxfp4 status=PASS

func.func @linear_mxfp4(%x: tensor<40x1024xbf16>, %qw: tensor<264x512xi8>, %r: tensor<264x32xi8>) -> tensor<40x264xbf16> {
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
  %y = tile.matmul %x, %wt k_runs = 8 : (tensor<40x1024xbf16>, tensor<1024x264xbf16>) -> tensor<40x264xf32>
  %o = tile.cast %y : tensor<40x264xf32> -> tensor<40x264xbf16>
  return %o : tensor<40x264xbf16>
}

func.func @decode_mxfp4(%x: tensor<5x2048xbf16>, %qw: tensor<520x1024xi8>, %r: tensor<520x64xi8>) -> tensor<5x520xbf16> {
  %e = tile.map (%r) : (tensor<520x64xi8>) -> tensor<520x64xi8> {
  ^bb0(%ri: i8):
    %c15 = arith.constant 15 : i8
    %c120 = arith.constant 120 : i8
    %low = arith.andi %ri, %c15 : i8
    %ei = arith.addi %low, %c120 : i8
    tile.yield %ei : i8
  }
  %q = tile.unpack %qw bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<520x1024xi8> -> tensor<520x2048xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<520x64xi8> -> tensor<520x2048xi8>
  %w = tile.map (%q, %er) : (tensor<520x2048xi8>, tensor<520x2048xi8>) -> tensor<520x2048xbf16> {
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
  %wt = tile.transpose %w : tensor<520x2048xbf16> -> tensor<2048x520xbf16>
  %y = tile.matmul %x, %wt k_runs = 8 : (tensor<5x2048xbf16>, tensor<2048x520xbf16>) -> tensor<5x520xf32>
  %o = tile.cast %y : tensor<5x520xf32> -> tensor<5x520xbf16>
  return %o : tensor<5x520xbf16>
}
