// RUN: tile-opt %s --tile-logistic-tanh | FileCheck %s

// 1 + tanh(z) on a vector (a GELU epilogue's): p = z * -2 log2(e), then
// per lane ex2.approx, h = fma(e, 0.5, 0.5), then per lane rcp.approx.
// The tanh is left to DCE where nothing else uses it.
// CHECK-LABEL: func @one_plus_tanh
// CHECK-SAME: (%[[Z:.+]]: vector<2xf32>)
// CHECK-DAG: %[[K:.+]] = arith.constant dense<-2.885390e+00> : vector<2xf32>
// CHECK-DAG: %[[HALF:.+]] = arith.constant dense<5.000000e-01> : vector<2xf32>
// CHECK: %[[P:.+]] = arith.mulf %[[Z]], %[[K]] : vector<2xf32>
// CHECK: %[[P0:.+]] = vector.extract %[[P]][0]
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[P0]]
// CHECK: %[[P1:.+]] = vector.extract %[[P]][1]
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[P1]]
// CHECK: %[[H:.+]] = math.fma %{{.+}}, %[[HALF]], %[[HALF]] : vector<2xf32>
// CHECK: %[[H0:.+]] = vector.extract %[[H]][0]
// CHECK: llvm.inline_asm "rcp.approx.ftz.f32 $0, $1;", "=f,f" %[[H0]]
// CHECK: %[[H1:.+]] = vector.extract %[[H]][1]
// CHECK: llvm.inline_asm "rcp.approx.ftz.f32 $0, $1;", "=f,f" %[[H1]]
// CHECK-NOT: math.tanh
// CHECK: return
func.func @one_plus_tanh(%z: vector<2xf32>) -> vector<2xf32> {
  %one = arith.constant dense<1.0> : vector<2xf32>
  %t = math.tanh %z : vector<2xf32>
  %s = arith.addf %t, %one : vector<2xf32>
  return %s : vector<2xf32>
}

// 1 - tanh(z) on a scalar: the same with +2 log2(e).
// CHECK-LABEL: func @one_minus_tanh
// CHECK-SAME: (%[[Z:.+]]: f32)
// CHECK-DAG: %[[K:.+]] = arith.constant 2.885390e+00 : f32
// CHECK-DAG: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[P:.+]] = arith.mulf %[[Z]], %[[K]] : f32
// CHECK: %[[E:.+]] = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[P]]
// CHECK: %[[H:.+]] = math.fma %[[E]], %[[HALF]], %[[HALF]] : f32
// CHECK: %[[R:.+]] = llvm.inline_asm "rcp.approx.ftz.f32 $0, $1;", "=f,f" %[[H]]
// CHECK: return %[[R]]
func.func @one_minus_tanh(%z: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %t = math.tanh %z : f32
  %s = arith.subf %one, %t : f32
  return %s : f32
}

// The one on the left of the sum, and a tanh with another use: that use
// keeps the tanh.
// CHECK-LABEL: func @tanh_used_twice
// CHECK: %[[T:.+]] = math.tanh
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32
// CHECK: llvm.inline_asm "rcp.approx.ftz.f32
// CHECK: arith.mulf %[[T]]
func.func @tanh_used_twice(%z: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %t = math.tanh %z : f32
  %s = arith.addf %one, %t : f32
  %r = arith.mulf %t, %s : f32
  return %r : f32
}

// Left alone: tanh(z) - 1 (not a logistic function), 2 + tanh(z), f64,
// tanh(z) + 1 in f16, and on a tensor (the PTX is per scalar lane).
// CHECK-LABEL: func @left_alone
// CHECK-NOT: inline_asm
// CHECK: return
func.func @left_alone(%z: f32, %w: f64, %h: f16, %v: tensor<4xf32>) -> (f32, f32, f64, f16, tensor<4xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %t = math.tanh %z : f32
  %a = arith.subf %t, %one : f32
  %b = arith.addf %t, %two : f32
  %one64 = arith.constant 1.0 : f64
  %tw = math.tanh %w : f64
  %c = arith.addf %tw, %one64 : f64
  %one16 = arith.constant 1.0 : f16
  %th = math.tanh %h : f16
  %d = arith.addf %th, %one16 : f16
  %onev = arith.constant dense<1.0> : tensor<4xf32>
  %tv = math.tanh %v : tensor<4xf32>
  %e = arith.addf %tv, %onev : tensor<4xf32>
  return %a, %b, %c, %d, %e : f32, f32, f64, f16, tensor<4xf32>
}
