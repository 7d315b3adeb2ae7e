// RUN: tile-opt %s --tile-divide-by-reciprocal --cse | FileCheck %s
// RUN: tile-opt %s --tile-approximate-math --tile-divide-by-reciprocal | FileCheck %s --check-prefix=FAST

// A division of a vector by one broadcast scalar (softmax's row sum): the
// reciprocal once per divisor (NaN when the divisor is out of range), the
// range check from min|x| and max|x|, then per lane a multiply and two
// FMAs, or the IEEE division for the whole vector when any lane is out of
// range (but for a vector of zeros).
// CHECK-LABEL: func @by_row_sum
// CHECK-SAME: (%[[X:.+]]: vector<4xf32>, %[[S:.+]]: f32)
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[NAN:.+]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SB:.+]] = vector.broadcast %[[S]] : f32 to vector<4xf32>
// CHECK: %[[ABSS:.+]] = math.absf %[[S]]
// CHECK: %[[LO:.+]] = arith.cmpf oge, %[[ABSS]], %{{.+}} : f32
// CHECK: %[[HI:.+]] = arith.cmpf ole, %[[ABSS]], %{{.+}} : f32
// CHECK: %[[OK:.+]] = arith.andi %[[LO]], %[[HI]]
// CHECK: %[[DIV:.+]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK: %[[R:.+]] = arith.select %[[OK]], %[[DIV]], %[[NAN]]
// CHECK: %[[NEG:.+]] = arith.negf %[[S]]
// CHECK: %[[ABSX:.+]] = math.absf %[[X]] : vector<4xf32>
// CHECK: %[[MIN:.+]] = vector.reduction <minimumf>, %[[ABSX]]
// CHECK: %[[MAX:.+]] = vector.reduction <maximumf>, %[[ABSX]]
// CHECK: %[[ABSR:.+]] = math.absf %[[R]] : f32
// CHECK: arith.cmpf ult, %[[MIN]]
// CHECK: arith.mulf %[[MIN]], %[[ABSR]] : f32
// CHECK: arith.mulf %[[MAX]], %[[ABSR]] : f32
// Out of range: a vector of zeros (max|x| = 0) by a divisor in range (r
// not NaN) is x * r; any other, the IEEE division.
// CHECK: %[[OUT:.+]] = scf.if %{{.+}} -> (vector<4xf32>) {
// CHECK:   %[[NONE:.+]] = arith.cmpf oeq, %[[MAX]], %[[ZERO]] : f32
// CHECK:   %[[RANGED:.+]] = arith.cmpf ord, %[[R]], %[[R]] : f32
// CHECK:   %[[ZEROS:.+]] = arith.andi %[[NONE]], %[[RANGED]]
// CHECK:   %[[SLOW:.+]] = scf.if %[[ZEROS]] -> (vector<4xf32>) {
// CHECK:     %[[RZ:.+]] = vector.broadcast %[[R]] : f32 to vector<4xf32>
// CHECK:     %[[SIGNED:.+]] = arith.mulf %[[X]], %[[RZ]] : vector<4xf32>
// CHECK:     scf.yield %[[SIGNED]]
// CHECK:   } else {
// CHECK:     %[[EXACT:.+]] = arith.divf %[[X]], %[[SB]] : vector<4xf32>
// CHECK:     scf.yield %[[EXACT]]
// CHECK:   }
// CHECK:   scf.yield %[[SLOW]]
// CHECK: } else {
// CHECK:   %[[RV:.+]] = vector.broadcast %[[R]] : f32 to vector<4xf32>
// CHECK:   %[[NEGV:.+]] = vector.broadcast %[[NEG]] : f32 to vector<4xf32>
// CHECK:   %[[Q0:.+]] = arith.mulf %[[X]], %[[RV]] : vector<4xf32>
// CHECK:   %[[E:.+]] = math.fma %[[NEGV]], %[[Q0]], %[[X]] : vector<4xf32>
// CHECK:   %[[Q:.+]] = math.fma %[[E]], %[[RV]], %[[Q0]] : vector<4xf32>
// CHECK:   scf.yield %[[Q]]
// CHECK: }
// CHECK: return %[[OUT]]
// CHECK-NOT: tile.divide_fallback
// With tile-approximate-math the division is approximate (afn) already,
// and stays as it is.
// FAST-LABEL: func @by_row_sum
// FAST-NOT: scf.if
// FAST: arith.divf %{{.+}}, %{{.+}} fastmath<afn> : vector<4xf32>
// FAST-NOT: scf.if
func.func @by_row_sum(%x: vector<4xf32>, %s: f32) -> vector<4xf32> {
  %sb = vector.broadcast %s : f32 to vector<4xf32>
  %q = arith.divf %x, %sb : vector<4xf32>
  return %q : vector<4xf32>
}

// Two divisions by the same broadcast share its reciprocal (after CSE).
// CHECK-LABEL: func @shared_divisor
// CHECK-COUNT-1: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK-NOT: arith.divf %{{.+}}, %{{.+}} : f32
func.func @shared_divisor(%x: vector<4xf32>, %y: vector<4xf32>, %s: f32) -> (vector<4xf32>, vector<4xf32>) {
  %sb = vector.broadcast %s : f32 to vector<4xf32>
  %q = arith.divf %x, %sb : vector<4xf32>
  %p = arith.divf %y, %sb : vector<4xf32>
  return %q, %p : vector<4xf32>, vector<4xf32>
}

// Left alone: a divisor that differs per lane, a scalar division, a
// single lane, and f16.
// CHECK-LABEL: func @not_broadcast
// CHECK-NOT: scf.if
// CHECK: arith.divf %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK: arith.divf %{{.+}}, %{{.+}} : f32
// CHECK: arith.divf %{{.+}}, %{{.+}} : vector<1xf32>
// CHECK: arith.divf %{{.+}}, %{{.+}} : vector<4xf16>
// CHECK-NOT: scf.if
func.func @not_broadcast(%x: vector<4xf32>, %d: vector<4xf32>, %a: f32, %b: f32,
                         %one: vector<1xf32>, %h: vector<4xf16>, %t: f16)
    -> (vector<4xf32>, f32, vector<1xf32>, vector<4xf16>) {
  %q = arith.divf %x, %d : vector<4xf32>
  %r = arith.divf %a, %b : f32
  %sb = vector.broadcast %b : f32 to vector<1xf32>
  %u = arith.divf %one, %sb : vector<1xf32>
  %tb = vector.broadcast %t : f16 to vector<4xf16>
  %v = arith.divf %h, %tb : vector<4xf16>
  return %q, %r, %u, %v : vector<4xf32>, f32, vector<1xf32>, vector<4xf16>
}
