// x W^T with K = 517 (W's rows are not 16-byte runs): W is copied into a
// buffer of rows padded to 520 (zeros), which the matmul reads as stored;
// f32 output, M and N ragged.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT linear_k_ragged status=PASS

func.func @linear_k_ragged(%x: tensor<257x517xbf16>, %w: tensor<300x517xbf16>) -> tensor<257x300xf32> {
  %wt = tile.transpose %w : tensor<300x517xbf16> -> tensor<517x300xbf16>
  %c = tile.matmul %x, %wt : (tensor<257x517xbf16>, tensor<517x300xbf16>) -> tensor<257x300xf32>
  return %c : tensor<257x300xf32>
}
