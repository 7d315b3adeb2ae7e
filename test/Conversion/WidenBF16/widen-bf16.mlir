// RUN: tile-opt %s --tile-widen-bf16 | FileCheck %s

// Four bf16 in two words: the low halves shifted up, the high halves
// masked, interleaved back in element order.
// CHECK-LABEL: func @widen_pairs
// CHECK-SAME: (%[[X:.+]]: vector<4xbf16>)
// CHECK-DAG: %[[SIXTEEN:.+]] = arith.constant dense<16> : vector<2xi32>
// CHECK-DAG: %[[HIGH:.+]] = arith.constant dense<-65536> : vector<2xi32>
// CHECK: %[[W:.+]] = vector.bitcast %[[X]] : vector<4xbf16> to vector<2xi32>
// CHECK: %[[LO:.+]] = arith.shli %[[W]], %[[SIXTEEN]] : vector<2xi32>
// CHECK: %[[HI:.+]] = arith.andi %[[W]], %[[HIGH]] : vector<2xi32>
// CHECK: %[[L:.+]] = vector.shuffle %[[LO]], %[[HI]] [0, 2, 1, 3] : vector<2xi32>, vector<2xi32>
// CHECK: %[[F:.+]] = arith.bitcast %[[L]] : vector<4xi32> to vector<4xf32>
// CHECK: return %[[F]]
func.func @widen_pairs(%x: vector<4xbf16>) -> vector<4xf32> {
  %w = arith.extf %x : vector<4xbf16> to vector<4xf32>
  return %w : vector<4xf32>
}

// Left to NVPTX: scalars, odd lengths, f16, and bf16 to f64.
// CHECK-LABEL: func @kept
// CHECK-COUNT-4: arith.extf
// CHECK-NOT: vector.bitcast
func.func @kept(%s: bf16, %odd: vector<3xbf16>, %h: vector<2xf16>, %d: vector<2xbf16>)
    -> (f32, vector<3xf32>, vector<2xf32>, vector<2xf64>) {
  %a = arith.extf %s : bf16 to f32
  %b = arith.extf %odd : vector<3xbf16> to vector<3xf32>
  %c = arith.extf %h : vector<2xf16> to vector<2xf32>
  %e = arith.extf %d : vector<2xbf16> to vector<2xf64>
  return %a, %b, %c, %e : f32, vector<3xf32>, vector<2xf32>, vector<2xf64>
}
