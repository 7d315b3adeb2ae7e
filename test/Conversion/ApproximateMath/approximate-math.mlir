// RUN: tile-opt %s --tile-approximate-math | FileCheck %s

// Fast math on f32: tanh is tanh.approx per lane, exp is ex2.approx.ftz of
// x * log2(e) per lane, a division is marked afn (div.approx in NVPTX).
// CHECK-LABEL: func @fast_f32
// CHECK-SAME: (%[[X:.+]]: vector<2xf32>, %[[S:.+]]: f32)
// CHECK-DAG: %[[LOG2E:.+]] = arith.constant dense<1.44269{{[0-9]*}}> : vector<2xf32>
// CHECK: %[[X0:.+]] = vector.extract %[[X]][0]
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %[[X0]]
// CHECK: %[[X1:.+]] = vector.extract %[[X]][1]
// CHECK: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %[[X1]]
// CHECK: %[[P:.+]] = arith.mulf %[[X]], %[[LOG2E]] : vector<2xf32>
// CHECK: %[[P0:.+]] = vector.extract %[[P]][0]
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[P0]]
// CHECK: %[[P1:.+]] = vector.extract %[[P]][1]
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[P1]]
// CHECK: arith.divf %{{.+}}, %[[S]] fastmath<afn> : f32
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
func.func @fast_f32(%x: vector<2xf32>, %s: f32) -> (vector<2xf32>, vector<2xf32>, f32) {
  %t = math.tanh %x : vector<2xf32>
  %e = math.exp %x : vector<2xf32>
  %l = vector.extract %e[0] : f32 from vector<2xf32>
  %q = arith.divf %l, %s : f32
  return %t, %e, %q : vector<2xf32>, vector<2xf32>, f32
}

// f64 and f16 keep their accurate forms, and so do f32 tensors (the PTX
// is per scalar lane).
// CHECK-LABEL: func @other_types
// CHECK-NOT: inline_asm
// CHECK: math.tanh %{{.+}} : f64
// CHECK: math.exp %{{.+}} : f64
// CHECK: math.exp %{{.+}} : f16
// CHECK: arith.divf %{{.+}}, %{{.+}} : f64
// CHECK: math.tanh %{{.+}} : tensor<4xf32>
// CHECK: math.exp %{{.+}} : tensor<4xf32>
func.func @other_types(%x: f64, %h: f16, %v: tensor<4xf32>) -> (f64, f64, f16, f64, tensor<4xf32>, tensor<4xf32>) {
  %t = math.tanh %x : f64
  %e = math.exp %x : f64
  %eh = math.exp %h : f16
  %q = arith.divf %x, %t : f64
  %tv = math.tanh %v : tensor<4xf32>
  %ev = math.exp %v : tensor<4xf32>
  return %t, %e, %eh, %q, %tv, %ev : f64, f64, f16, f64, tensor<4xf32>, tensor<4xf32>
}
