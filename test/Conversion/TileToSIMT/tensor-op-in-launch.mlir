// Tensor-level tile ops have no SIMT lowering (tile-tile turns them into
// kernels over tiles first): inside a gpu.launch they are rejected at the op
// before any pattern sees them.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --convert-tile-to-simt

func.func @tensor_map_in_launch(%a: tensor<4x4xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.map' op expected tile operands and results inside a GPU launch but got tensors (tensor-level ops must be tiled first: run tile-tile)}}
    %c = tile.map (%a) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb0(%e: f32):
      tile.yield %e : f32
    }
    gpu.terminator
  }
  return
}

// -----

func.func @tensor_cast_in_launch(%a: tensor<4x4xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.cast' op expected tile operands and results inside a GPU launch but got tensors (tensor-level ops must be tiled first: run tile-tile)}}
    %c = tile.cast %a : tensor<4x4xf32> -> tensor<4x4xf16>
    gpu.terminator
  }
  return
}

// -----

// A broadcast used to reach the rank check, which casts to a tile type.
func.func @tensor_broadcast_in_launch(%a: tensor<4xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.broadcast' op expected tile operands and results inside a GPU launch but got tensors (tensor-level ops must be tiled first: run tile-tile)}}
    %c = tile.broadcast %a [1] : tensor<4xf32> -> tensor<4x8xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @tensor_matmul_in_launch(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.matmul' op expected tile operands and results inside a GPU launch but got tensors (tensor-level ops must be tiled first: run tile-tile)}}
    %c = tile.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    gpu.terminator
  }
  return
}
