// Matmul + bias + tanh-GELU on rows that are not whole 16-byte runs (K = 999, N = 1001): A, B and the bias are copied into zero-padded scratch buffers, the tensor-core kernel (wgmma on sm_90a, mma.sync on sm_80) runs on those with the epilogue fused, and the result is copied back. Against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT gemm_bias_gelu_padded status=PASS

func.func @gemm_bias_gelu_padded(%a: tensor<777x999xbf16>, %b: tensor<999x1001xbf16>, %bias: tensor<1001xbf16>) -> tensor<777x1001xbf16> {
  %c = tile.matmul %a, %b : (tensor<777x999xbf16>, tensor<999x1001xbf16>) -> tensor<777x1001xf32>
  %c0 = arith.constant 0.7978845608 : f32
  %c1 = arith.constant 0.044715 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %bb = tile.broadcast %bias [0] : tensor<1001xbf16> -> tensor<777x1001xbf16>
  %y = tile.map (%c, %bb) : (tensor<777x1001xf32>, tensor<777x1001xbf16>) -> tensor<777x1001xbf16> {
  ^bb0(%acc: f32, %bv: bf16):
    %bf = arith.extf %bv : bf16 to f32
    %x = arith.addf %acc, %bf : f32
    %x2 = arith.mulf %x, %x : f32
    %x3 = arith.mulf %x2, %x : f32
    %t0 = arith.mulf %x3, %c1 : f32
    %t1 = arith.addf %x, %t0 : f32
    %t2 = arith.mulf %t1, %c0 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %t4, %half : f32
    %r = arith.mulf %x, %t5 : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<777x1001xbf16>
}
