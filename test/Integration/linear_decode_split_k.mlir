// A decode-shaped x W^T (M = 16, W stored [N, K]): tile-configure splits K
// (few output tiles), and both split-K kernels read W as stored.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT linear_decode_split_k status=PASS

func.func @linear_decode_split_k(%x: tensor<16x4096xbf16>, %w: tensor<1024x4096xbf16>) -> tensor<16x1024xbf16> {
  %wt = tile.transpose %w : tensor<1024x4096xbf16> -> tensor<4096x1024xbf16>
  %c = tile.matmul %x, %wt : (tensor<16x4096xbf16>, tensor<4096x1024xbf16>) -> tensor<16x1024xf32>
  %y = tile.cast %c : tensor<16x1024xf32> -> tensor<16x1024xbf16>
  return %y : tensor<16x1024xbf16>
}
