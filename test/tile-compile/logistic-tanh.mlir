// Without --fast-math, a GELU's 1 + tanh(z) goes through
// tile-logistic-tanh in the real kernel (ex2.approx.ftz, rcp.approx.ftz,
// none of tanhf's branch: no copysign), while the reference kernel keeps
// libdevice's tanhf (copysign.f32 on its large-argument branch), so that
// the integration tests check the rewrite against tanhf.
// RUN: tile-compile %s --chip=sm_90a --emit=ptx | FileCheck %s
// CHECK-LABEL: // module gelu_0
// CHECK-NOT: copysign.f32
// CHECK-DAG: ex2.approx.ftz.f32
// CHECK-DAG: rcp.approx.ftz.f32
// CHECK-NOT: copysign.f32
// CHECK-LABEL: // module gelu_ref_0
// CHECK: copysign.f32
func.func @gelu(%x: tensor<64x64xf32>) -> tensor<64x64xbf16> {
  %c0 = arith.constant 0.7978845608 : f32
  %c1 = arith.constant 0.044715 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %y = tile.map (%x) : (tensor<64x64xf32>) -> tensor<64x64xbf16> {
  ^bb0(%v: f32):
    %v2 = arith.mulf %v, %v : f32
    %v3 = arith.mulf %v2, %v : f32
    %t0 = arith.mulf %v3, %c1 : f32
    %t1 = arith.addf %v, %t0 : f32
    %t2 = arith.mulf %t1, %c0 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %t4, %half : f32
    %r = arith.mulf %v, %t5 : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<64x64xbf16>
}
