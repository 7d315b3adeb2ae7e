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

// A softmax's exp(a * c - b) is one FFMA before ex2: fma(a, c log2(e),
// b * -log2(e)); without the scale, fma(a, log2(e), b * -log2(e)).
// CHECK-LABEL: func @scaled_shift
// CHECK-SAME: (%[[A:.+]]: vector<2xf32>, %[[B:.+]]: vector<2xf32>)
// CHECK-DAG: %[[NEG:.+]] = arith.constant dense<-1.44269{{[0-9]*}}> : vector<2xf32>
// CHECK-DAG: %[[CL:.+]] = arith.constant dense<0.180336{{[0-9]*}}> : vector<2xf32>
// CHECK-DAG: %[[L:.+]] = arith.constant dense<1.44269{{[0-9]*}}> : vector<2xf32>
// CHECK: %[[SH:.+]] = arith.mulf %[[B]], %[[NEG]] : vector<2xf32>
// CHECK: %[[T:.+]] = math.fma %[[A]], %[[CL]], %[[SH]] : vector<2xf32>
// CHECK: vector.extract %[[T]][0]
// CHECK: "ex2.approx.ftz.f32 $0, $1;"
// CHECK: %[[SH2:.+]] = arith.mulf %[[B]], %[[NEG]] : vector<2xf32>
// CHECK: %[[T2:.+]] = math.fma %[[A]], %[[L]], %[[SH2]] : vector<2xf32>
// CHECK: vector.extract %[[T2]][0]
// CHECK-NOT: math.exp
func.func @scaled_shift(%a: vector<2xf32>, %b: vector<2xf32>) -> (vector<2xf32>, vector<2xf32>) {
  %c = arith.constant dense<0.125> : vector<2xf32>
  %s = arith.mulf %a, %c : vector<2xf32>
  %d = arith.subf %s, %b : vector<2xf32>
  %e = math.exp %d : vector<2xf32>
  %d2 = arith.subf %a, %b : vector<2xf32>
  %e2 = math.exp %d2 : vector<2xf32>
  return %e, %e2 : vector<2xf32>, vector<2xf32>
}

// tile.fma_exp2 = 2 (tile-tile's, from #tile.config's fma_exp2): lanes 1
// and 3 of the four go to the FMA pipe, x = j + f with j = round(x):
// raised to -125, rounded by adding and taking away 1.5 * 2^23, 2^f by
// three FMAs, j shifted into the exponent field and added as an integer;
// lanes 0 and 2 stay on ex2.approx.
// CHECK-LABEL: func @fma_pipe_lanes
// CHECK: %[[P:.+]] = arith.mulf
// CHECK: %[[P0:.+]] = vector.extract %[[P]][0]
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[P0]]
// CHECK: %[[P1:.+]] = vector.extract %[[P]][1]
// CHECK: %[[C:.+]] = arith.maxnumf %[[P1]], %{{.+}} : f32
// CHECK: %[[SH:.+]] = arith.addf %[[C]], %[[MAGIC:.+]] : f32
// CHECK: %[[J:.+]] = arith.subf %[[SH]], %[[MAGIC]] : f32
// CHECK: %[[F:.+]] = arith.subf %[[C]], %[[J]] : f32
// CHECK: %[[Q:.+]] = math.fma %{{.+}}, %[[F]], %{{.+}} : f32
// CHECK: %[[Q2:.+]] = math.fma %[[Q]], %[[F]], %{{.+}} : f32
// CHECK: %[[Q3:.+]] = math.fma %[[Q2]], %[[F]], %{{.+}} : f32
// CHECK: %[[SHBITS:.+]] = arith.bitcast %[[SH]] : f32 to i32
// CHECK: %[[E:.+]] = arith.shli %[[SHBITS]], %{{.+}} : i32
// CHECK: %[[QBITS:.+]] = arith.bitcast %[[Q3]] : f32 to i32
// CHECK: %[[BITS:.+]] = arith.addi %[[QBITS]], %[[E]] : i32
// CHECK: arith.bitcast %[[BITS]] : i32 to f32
// CHECK: vector.extract %[[P]][2]
// CHECK: "ex2.approx.ftz.f32 $0, $1;"
// CHECK: vector.extract %[[P]][3]
// CHECK-NOT: ex2.approx
// CHECK: arith.maxnumf
// CHECK-NOT: ex2.approx
// CHECK: return
func.func @fma_pipe_lanes(%x: vector<4xf32>) -> vector<4xf32> {
  %e = math.exp %x {tile.fma_exp2 = 2 : i64} : vector<4xf32>
  return %e : vector<4xf32>
}
