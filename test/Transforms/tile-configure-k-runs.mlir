// tile-configure on matmuls and dots whose B is stored in fragment runs
// (k_runs): the tensor cores read such a B only as a weight dequantized in
// registers (docs/quantization.md). Any other B: no config (the SIMT
// kernel, whose dot reads A's column perm(p) for B's row p) and, at the
// tensor level, a remark that says why; at the tile level a kernel with
// such a dot gets no config either.
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func @plain_b
// CHECK-NOT: tile.config
func.func @plain_b(%x: tensor<16x256xbf16>, %w: tensor<256x64xbf16>) -> tensor<16x64xf32> {
  // expected-remark@+1 {{k_runs on a B that is not a weight dequantized in the K loop: the SIMT kernel}}
  %e = tile.matmul %x, %w k_runs = 32 : (tensor<16x256xbf16>, tensor<256x64xbf16>) -> tensor<16x64xf32>
  return %e : tensor<16x64xf32>
}

// -----

// CHECK-LABEL: func @tile_level
// CHECK: tile.kernel @k
// CHECK-NOT: tile.config
func.func @tile_level(%A: memref<16x128xbf16>, %B: memref<128x64xbf16>, %C: memref<16x64xf32>) {
  tile.kernel @k grid [1] threads 128 (%A, %B, %C) : memref<16x128xbf16>, memref<128x64xbf16>, memref<16x64xf32> {
  ^bb0(%a: memref<16x128xbf16>, %b: memref<128x64xbf16>, %c: memref<16x64xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<16x64xf32>
    %ta = tile.load %a[%c0, %c0] : memref<16x128xbf16> -> !tile.tile<16x128xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<128x64xbf16> -> !tile.tile<128x64xbf16>
    %d = tile.dot %ta, %tb, %z k_runs = 32 : !tile.tile<16x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<16x64xf32>
    tile.store %d, %c[%c0, %c0] : !tile.tile<16x64xf32>, memref<16x64xf32>
  }
  return
}
