// An e4m3 x e5m2 matmul with B given K-major (the transpose of W [N, K])
// compiles for sm_90a to wgmma with 32-element K steps on fp8 descriptors,
// TMA loads of the fp8 tiles and a bf16 epilogue.
// RUN: tile-compile %s --fuse --chip=sm_90a --emit=ptx | FileCheck %s
// CHECK: cp.async.bulk.tensor.2d
// CHECK: wgmma.mma_async.sync.aligned.m64n64k32.f32.e4m3.e5m2
// CHECK-NOT: k16.f32
func.func @fp8(%a: tensor<512x512xf8E4M3FN>, %w: tensor<512x512xf8E5M2>) -> tensor<512x512xbf16> {
  %wt = tile.transpose %w : tensor<512x512xf8E5M2> -> tensor<512x512xf8E5M2>
  %c = tile.matmul %a, %wt : (tensor<512x512xf8E4M3FN>, tensor<512x512xf8E5M2>) -> tensor<512x512xf32>
  %y = tile.cast %c : tensor<512x512xf32> -> tensor<512x512xbf16>
  return %y : tensor<512x512xbf16>
}
