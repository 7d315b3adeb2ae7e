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

// One pair: one word.
// CHECK-LABEL: func @widen_one_pair
// CHECK: vector.bitcast %{{.+}} : vector<2xbf16> to vector<1xi32>
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 1] : vector<1xi32>, vector<1xi32>
func.func @widen_one_pair(%x: vector<2xbf16>) -> vector<2xf32> {
  %w = arith.extf %x : vector<2xbf16> to vector<2xf32>
  return %w : vector<2xf32>
}

// Left to NVPTX: scalars, odd lengths (one element included), f16, bf16
// to f64, 2-D vectors and tensors.
// CHECK-LABEL: func @kept
// CHECK-COUNT-7: arith.extf
// CHECK-NOT: vector.bitcast
func.func @kept(%s: bf16, %odd: vector<3xbf16>, %h: vector<2xf16>, %d: vector<2xbf16>,
                %one: vector<1xbf16>, %m: vector<2x2xbf16>, %t: tensor<2xbf16>)
    -> (f32, vector<3xf32>, vector<2xf32>, vector<2xf64>, vector<1xf32>,
        vector<2x2xf32>, tensor<2xf32>) {
  %a = arith.extf %s : bf16 to f32
  %b = arith.extf %odd : vector<3xbf16> to vector<3xf32>
  %c = arith.extf %h : vector<2xf16> to vector<2xf32>
  %e = arith.extf %d : vector<2xbf16> to vector<2xf64>
  %f = arith.extf %one : vector<1xbf16> to vector<1xf32>
  %g = arith.extf %m : vector<2x2xbf16> to vector<2x2xf32>
  %k = arith.extf %t : tensor<2xbf16> to tensor<2xf32>
  return %a, %b, %c, %e, %f, %g, %k : f32, vector<3xf32>, vector<2xf32>,
      vector<2xf64>, vector<1xf32>, vector<2x2xf32>, tensor<2xf32>
}
