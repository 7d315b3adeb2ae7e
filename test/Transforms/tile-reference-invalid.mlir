// tile-reference's error: an op with no reference lowering. Every
// tensor-level compute op has one; a tile.fused group (tile-fuse's) does
// not, since the reference runs on the unfused function.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-reference

func.func @fused_group(%a: tensor<64xf32>) -> tensor<64xf16> {
  // expected-error @+1 {{has no reference lowering}}
  %0 = tile.fused(%a) : (tensor<64xf32>) -> tensor<64xf16> {
  ^bb0(%x: tensor<64xf32>):
    %h = tile.cast %x : tensor<64xf32> -> tensor<64xf16>
    tile.yield %h : tensor<64xf16>
  }
  return %0 : tensor<64xf16>
}
