// KNOWN BUG (kept out of the suite: lit skips Inputs/). Documents the
// current behaviour; run by hand with
//   lit build/test/Conversion/TileToSIMT/Inputs/known-bugs/tensor-op-in-launch.mlir
//
// checkLaunch in TileToSIMT.cpp only looks at !tile.tile types, so a
// tensor-level tile op inside a gpu.launch reaches the patterns, which
// `cast<TileType>` its type unconditionally (MapLowering, ReduceLowering,
// BroadcastLowering) or cast it as if it were a tile (CastLowering). In
// this build that yields invalid IR caught by the verifier (an assertion
// in a build with assertions). Expected: a located error such as
// "'tile.map' op expected tile operands inside a GPU launch".
// RUN: split-file %s %t
// RUN: not tile-opt %t/map.mlir --convert-tile-to-simt 2>&1 | FileCheck %s --check-prefix=MAP
// RUN: not tile-opt %t/cast.mlir --convert-tile-to-simt 2>&1 | FileCheck %s --check-prefix=CAST
// MAP: error: 'vector.broadcast' op failed to verify that source operand and result have same element type
// CAST: error: 'arith.truncf' op failed to verify that input and output have the same tensor dimensions

//--- map.mlir
func.func @tensor_map_in_launch(%a: tensor<4x4xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    %c = tile.map (%a) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb0(%e: f32):
      tile.yield %e : f32
    }
    gpu.terminator
  }
  return
}
//--- cast.mlir
func.func @tensor_cast_in_launch(%a: tensor<4x4xf32>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c32, %v = %c1, %w = %c1) {
    %c = tile.cast %a : tensor<4x4xf32> -> tensor<4x4xf16>
    gpu.terminator
  }
  return
}
