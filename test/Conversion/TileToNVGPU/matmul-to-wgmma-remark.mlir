// Without tile-tile's padding copies, the fallback says why, at the op,
// without dumping the kernel.
// RUN: tile-opt %s --tile-tile=pad-matmul-rows=0 --convert-tile-matmul-to-wgmma 2>&1 >/dev/null | FileCheck %s
// CHECK: remark: matmul stays on the SIMT path: A ('memref<64x1023xbf16>') cannot use TMA: its rows are 2046 bytes, not a multiple of 16
// CHECK-NOT: see current operation
func.func @unaligned(%a: tensor<64x1023xbf16>, %b: tensor<1023x64xbf16>) -> tensor<64x64xf32> {
  %c = tile.matmul %a, %b : (tensor<64x1023xbf16>, tensor<1023x64xbf16>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
