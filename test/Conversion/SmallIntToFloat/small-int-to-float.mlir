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
