// RUN: tile-opt %s --canonicalize | FileCheck %s

// A cast to the type it already has folds away.
// CHECK-LABEL: func @cast_to_same_type
// CHECK-NOT: tile.cast
// CHECK: return %arg0
func.func @cast_to_same_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = tile.cast %a : tensor<4xf32> -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// CHECK-LABEL: func @real_cast_stays
// CHECK: tile.cast
func.func @real_cast_stays(%a: tensor<4xf32>) -> tensor<4xbf16> {
  %b = tile.cast %a : tensor<4xf32> -> tensor<4xbf16>
  return %b : tensor<4xbf16>
}
