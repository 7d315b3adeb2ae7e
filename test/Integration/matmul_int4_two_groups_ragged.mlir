// Weight-only int4 GEMM whose scales come per 32 values of a row and whose
// zero points per 48: each product must lie within one group of both, so
// the K steps are their greatest common divisor, 16 (tile-configure; with
// the smaller factor, 32, a product would take one zero point across a
// boundary of 48). K = 480 is 15 groups of 32 and 10 of 48; M = 5 and
// N = 70 are ragged. Checked against the reference of the same math.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT int4_two_groups status=PASS

func.func @int4_two_groups(%x: tensor<5x480xbf16>, %qw: tensor<70x240xi8>, %s: tensor<70x15xbf16>, %z: tensor<70x10xbf16>) -> tensor<5x70xbf16> {
  %q = tile.unpack %qw signed : tensor<70x240xi8> -> tensor<70x480xi8>
  %sr = tile.repeat %s dim = 1 times = 32 : tensor<70x15xbf16> -> tensor<70x480xbf16>
  %zr = tile.repeat %z dim = 1 times = 48 : tensor<70x10xbf16> -> tensor<70x480xbf16>
  %w = tile.map (%q, %sr, %zr) : (tensor<70x480xi8>, tensor<70x480xbf16>, tensor<70x480xbf16>) -> tensor<70x480xbf16> {
  ^bb0(%qi: i8, %si: bf16, %zi: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %zf = arith.extf %zi : bf16 to f32
    %d = arith.subf %f, %zf : f32
    %v = arith.mulf %d, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<70x480xbf16> -> tensor<480x70xbf16>
  %y = tile.matmul %x, %wt : (tensor<5x480xbf16>, tensor<480x70xbf16>) -> tensor<5x70xf32>
  %o = tile.cast %y : tensor<5x70xf32> -> tensor<5x70xbf16>
  return %o : tensor<5x70xbf16>
}
