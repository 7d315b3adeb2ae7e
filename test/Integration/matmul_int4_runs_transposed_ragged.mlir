// The weight-only int4 GEMM of matmul_int4_runs_ragged.mlir (the weight
// packed for the tensor cores: k_runs = 32, AWQ's nibble order) on the
// transposed product (y^T = W x^T, the dequantized weight as wgmma's
// register A; tile-configure's first candidate up to 64 rows on sm_90a):
// at M = 40 with ragged N (three steps of 256) two consumer warpgroups
// taking turns at the K steps (k_warpgroups = 2: the first takes two), at
// M = 5 (four steps) four. Checked against the f64 reference of the same
// math (TileReference.cpp). The M = 40 kernel with four consumer
// warpgroups (the tuner's candidate 5) gives its fourth no step: it hands
// over zeros.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a --function=linear_int4_runs -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=decode_int4_runs -o %t.decode.tilebundle
// RUN: tile-run %t.decode.tilebundle --repeats 3 | FileCheck %s --check-prefix=DECODE
// RUN: tile-compile %s --fuse --chip=sm_90a --configure-options=candidate=5 --function=linear_int4_runs -o %t.kwg4.tilebundle
// RUN: tile-run %t.kwg4.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse --function=linear_int4_runs
// TILE-CHIPS: sm_90a
// CHECK: RESULT linear_int4_runs status=PASS
// DECODE: RESULT decode_int4_runs status=PASS

func.func @linear_int4_runs(%x: tensor<40x768xbf16>, %qw: tensor<1000x384xi8>, %s: tensor<6x1000xbf16>) -> tensor<40x1000xbf16> {
  %q = tile.unpack %qw signed interleaved : tensor<1000x384xi8> -> tensor<1000x768xi8>
  %st = tile.transpose %s : tensor<6x1000xbf16> -> tensor<1000x6xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<1000x6xbf16> -> tensor<1000x768xbf16>
  %w = tile.map (%q, %sr) : (tensor<1000x768xi8>, tensor<1000x768xbf16>) -> tensor<1000x768xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<1000x768xbf16> -> tensor<768x1000xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<40x768xbf16>, tensor<768x1000xbf16>) -> tensor<40x1000xf32>
  %o = tile.cast %y : tensor<40x1000xf32> -> tensor<40x1000xbf16>
  return %o : tensor<40x1000xbf16>
}

func.func @decode_int4_runs(%x: tensor<5x1024xbf16>, %qw: tensor<520x512xi8>, %s: tensor<8x520xbf16>) -> tensor<5x520xbf16> {
  %q = tile.unpack %qw signed interleaved : tensor<520x512xi8> -> tensor<520x1024xi8>
  %st = tile.transpose %s : tensor<8x520xbf16> -> tensor<520x8xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<520x8xbf16> -> tensor<520x1024xbf16>
  %w = tile.map (%q, %sr) : (tensor<520x1024xi8>, tensor<520x1024xbf16>) -> tensor<520x1024xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<520x1024xbf16> -> tensor<1024x520xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<5x1024xbf16>, tensor<1024x520xbf16>) -> tensor<5x520xf32>
  %o = tile.cast %y : tensor<5x520xf32> -> tensor<5x520xbf16>
  return %o : tensor<5x520xbf16>
}
