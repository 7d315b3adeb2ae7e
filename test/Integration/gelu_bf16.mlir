// A tanh-approximated GELU on bf16, computed in f32 inside the map body.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm80.tilebundle
// RUN: tile-run %t.sm80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm90a.tilebundle
// RUN: tile-run %t.sm90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT gelu_bf16 status=PASS

func.func @gelu_bf16(%x: tensor<4096x1023xbf16>) -> tensor<4096x1023xbf16> {
  %c = arith.constant 0.7978845608 : f32
  %k = arith.constant 0.044715 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %y = tile.map (%x) : (tensor<4096x1023xbf16>) -> tensor<4096x1023xbf16> {
  ^bb0(%v16: bf16):
    %v = arith.extf %v16 : bf16 to f32
    %v3 = arith.mulf %v, %v : f32
    %v3b = arith.mulf %v3, %v : f32
    %t0 = arith.mulf %v3b, %k : f32
    %t1 = arith.addf %v, %t0 : f32
    %t2 = arith.mulf %t1, %c : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %t3, %one : f32
    %t5 = arith.mulf %t4, %half : f32
    %r = arith.mulf %v, %t5 : f32
    %r16 = arith.truncf %r : f32 to bf16
    tile.yield %r16 : bf16
  }
  return %y : tensor<4096x1023xbf16>
}
