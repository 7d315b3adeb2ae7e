// tile-compile --no-reference: a tensor-level function without its naive
// reference (for benchmarks whose reference would not fit): no reference
// launches, buffers or checks in the bundle. And an attention block over
// [B, H, S, D]: one fused kernel whose K and V tensor maps take 2-D boxes
// over the 4-D buffers (rows [B * H * S, D], docs/bundle-format.md).
// REQUIRES: ptxas
// RUN: python3 %S/../../bench/attention_tensor.py 2 4 256 64 > %t.mlir
// RUN: tile-compile %t.mlir --fuse --no-reference --chip=sm_90a -o %t.tilebundle
// RUN: sed -n '1,/^end fnv1a /p' %t.tilebundle | FileCheck %s
// CHECK: buffer in1 in bf16 2x4x256x64 65536x16384x64x1
// CHECK-NOT: ref
// CHECK: tensormap tmp.tma0 in1 box 128x64 swizzle 128
// CHECK: tensormap tmp.tma1 in2 box 128x64 swizzle 128
// CHECK: launch main attention_0 attention_0 grid 2 8 1 block 256 1 1
// CHECK-NOT: launch
// CHECK-NOT: check
// CHECK: end fnv1a
