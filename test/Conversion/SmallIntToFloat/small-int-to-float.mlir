// RUN: tile-opt %s --tile-small-int-to-float | FileCheck %s

// Signed: extended to i32, plus the bits of 1.5 * 2^23, as f32 minus
// 1.5 * 2^23.
// CHECK-LABEL: func @signed_bytes
// CHECK-SAME: (%[[X:.+]]: vector<4xi8>)
// CHECK-DAG: %[[MAGIC:.+]] = arith.constant dense<1262485504> : vector<4xi32>
// CHECK-DAG: %[[BIAS:.+]] = arith.constant dense<0x4B400000> : vector<4xf32>
// CHECK: %[[W:.+]] = arith.extsi %[[X]] : vector<4xi8> to vector<4xi32>
// CHECK: %[[B:.+]] = arith.addi %[[W]], %[[MAGIC]] : vector<4xi32>
// CHECK: %[[F:.+]] = arith.bitcast %[[B]] : vector<4xi32> to vector<4xf32>
// CHECK: %[[R:.+]] = arith.subf %[[F]], %[[BIAS]] : vector<4xf32>
// CHECK: return %[[R]]
func.func @signed_bytes(%x: vector<4xi8>) -> vector<4xf32> {
  %f = arith.sitofp %x : vector<4xi8> to vector<4xf32>
  return %f : vector<4xf32>
}

// Unsigned scalar: 2^23.
// CHECK-LABEL: func @unsigned_short
// CHECK: arith.extui %{{.+}} : i16 to i32
// CHECK: arith.addi %{{.+}}, %c1258291200_i32 : i32
// CHECK: arith.bitcast %{{.+}} : i32 to f32
// CHECK: arith.subf %{{.+}}, %cst : f32
func.func @unsigned_short(%x: i16) -> f32 {
  %f = arith.uitofp %x : i16 to f32
  return %f : f32
}

// Wider integers and other float types are left alone.
// CHECK-LABEL: func @left_alone
// CHECK: arith.sitofp %{{.+}} : i32 to f32
// CHECK: arith.sitofp %{{.+}} : i8 to bf16
func.func @left_alone(%x: i32, %y: i8) -> (f32, bf16) {
  %f = arith.sitofp %x : i32 to f32
  %g = arith.sitofp %y : i8 to bf16
  return %f, %g : f32, bf16
}

// tile.unpack's signed nibbles of one word to f32: lane e's field at bit
// l = 4e is and-ed out in place (fields at bit 20 and up from the word
// shifted right by 16, at l - 16), xor-ed with the exponent of 2^(23 - l)
// and 8 << l, and 2^(23 - l) + 8 subtracted.
// CHECK-LABEL: func @signed_nibbles
// CHECK-SAME: (%[[W:.+]]: vector<1xi32>)
// CHECK-DAG: %[[SIXTEEN:.+]] = arith.constant dense<16> : vector<1xi32>
// CHECK-DAG: %[[MASKS:.+]] = arith.constant dense<[15, 240, 3840, 61440, 983040, 240, 3840, 61440]> : vector<8xi32>
// CHECK-DAG: %[[MAGIC:.+]] = arith.constant dense<[1258291208, 1224736896, 1191184384, 1157660672, 1124597760, 1224736896, 1191184384, 1157660672]> : vector<8xi32>
// CHECK-DAG: %[[BIAS:.+]] = arith.constant dense<[0x4B000008, 5.242960e+05, 3.277600e+04, 2.056000e+03, 1.360000e+02, 5.242960e+05, 3.277600e+04, 2.056000e+03]> : vector<8xf32>
// CHECK: %[[HIGH:.+]] = arith.shrui %[[W]], %[[SIXTEEN]]
// CHECK: %[[LANES:.+]] = vector.shuffle %[[W]], %[[HIGH]] [0, 0, 0, 0, 0, 1, 1, 1]
// CHECK: %[[F:.+]] = arith.andi %[[LANES]], %[[MASKS]]
// CHECK: %[[B:.+]] = arith.xori %[[F]], %[[MAGIC]]
// CHECK: %[[X:.+]] = arith.bitcast %[[B]] : vector<8xi32> to vector<8xf32>
// CHECK: %[[R:.+]] = arith.subf %[[X]], %[[BIAS]]
// CHECK: return %[[R]]
func.func @signed_nibbles(%w: vector<1xi32>) -> vector<8xf32> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>, vector<1xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0]> : vector<8xi32>
  %c28 = arith.constant dense<28> : vector<8xi32>
  %top = arith.shli %spread, %up : vector<8xi32>
  %field = arith.shrsi %top, %c28 : vector<8xi32>
  %q = arith.trunci %field : vector<8xi32> to vector<8xi8>
  %f = arith.sitofp %q : vector<8xi8> to vector<8xf32>
  return %f : vector<8xf32>
}

// Unsigned nibbles: or-ed with the exponent alone, 2^(23 - l) subtracted.
// CHECK-LABEL: func @unsigned_nibbles
// CHECK: %[[F:.+]] = arith.andi
// CHECK: arith.ori %[[F]], %{{.+}} : vector<2xi32>
// CHECK: arith.subf %{{.+}}, %{{.+}} : vector<2xf32>
func.func @unsigned_nibbles(%w: vector<1xi32>) -> vector<2xf32> {
  %spread = vector.shuffle %w, %w [0, 0] : vector<1xi32>, vector<1xi32>
  %up = arith.constant dense<[28, 24]> : vector<2xi32>
  %c28 = arith.constant dense<28> : vector<2xi32>
  %top = arith.shli %spread, %up : vector<2xi32>
  %field = arith.shrui %top, %c28 : vector<2xi32>
  %f = arith.uitofp %field : vector<2xi32> to vector<2xf32>
  return %f : vector<2xf32>
}
