// Weight-only int4 GEMM with the weight packed for the tensor cores
// (docs/quantization.md): AWQ's nibble order in each 32-bit word (tile.unpack
// interleaved) and, in each 128 along K, B's rows in mma.sync's fragment
// runs of 32 (tile.matmul k_runs = 32): each thread's 16 bytes are its B
// fragments, x is read by ldmatrix. bf16 scales per 128 of K, GPTQ's
// [K/128, N]. Ragged M and N, M = 40 (two warps along M: the weight goes
// through shared memory and back as runs); the second function is M = 5.
// Checked against the f64 reference of the same math, which reads the
// nibbles and the K order by their definitions (TileReference.cpp).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 --function=linear_int4_runs -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=linear_int4_runs -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=decode_int4_runs -o %t.decode.tilebundle
// RUN: tile-run %t.decode.tilebundle --repeats 3 | FileCheck %s --check-prefix=DECODE
// TILE-COMPILE-FLAGS: --fuse --function=linear_int4_runs
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
