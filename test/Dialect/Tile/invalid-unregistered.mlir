// RUN: tile-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// A region must end with tile.yield; an unknown terminator is the only way
// to build one that does not, since tile.yield itself checks its parent.
func.func @map_terminator(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected body to end with tile.yield}}
  %y = "tile.map"(%a) ({
  ^bb0(%x: f32):
    "test.end"(%x) : (f32) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
