// tile-tile's errors for tile.fused groups (TileFusedGroups.cpp), written
// by hand: ops and shapes a group's schedule cannot tile, one case each.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-tile

// A matmul epilogue's row reduction over rows wider than the 64x64 output
// tile: no program sees a whole row.
func.func @epilogue_reduce(%a: tensor<64x32xbf16>, %b: tensor<32x256xbf16>) -> tensor<64x256xf32> {
  %0 = tile.fused(%a, %b) : (tensor<64x32xbf16>, tensor<32x256xbf16>) -> tensor<64x256xf32> {
  ^bb0(%x: tensor<64x32xbf16>, %y: tensor<32x256xbf16>):
    %zero = arith.constant 0.0 : f32
    %c = tile.matmul %x, %y : (tensor<64x32xbf16>, tensor<32x256xbf16>) -> tensor<64x256xf32>
    // expected-error @+1 {{can be fused only as a row reduction whose tile spans the row}}
    %s = tile.reduce %c, %zero dim = 1 : tensor<64x256xf32>, f32 -> tensor<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.yield %r : f32
    }
    %sb = tile.broadcast %s [1] : tensor<64xf32> -> tensor<64x256xf32>
    %d = tile.map (%c, %sb) : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.divf %p, %q : f32
      tile.yield %r : f32
    }
    tile.yield %d : tensor<64x256xf32>
  }
  return %0 : tensor<64x256xf32>
}

// -----

// A transpose in an elementwise group has no tiling there.
func.func @transpose_in_group(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tile.fused(%a) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%x: tensor<64x64xf32>):
    // expected-error @+1 {{cannot be tiled inside a fused group yet (only elementwise ops, broadcasts and row reductions)}}
    %t = tile.transpose %x : tensor<64x64xf32> -> tensor<64x64xf32>
    %d = tile.map (%t, %x) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.yield %r : f32
    }
    tile.yield %d : tensor<64x64xf32>
  }
  return %0 : tensor<64x64xf32>
}

// -----

// A group whose reduction is along columns, of rows too wide for
// registers (walked in chunks).
func.func @wide_column_reduce(%a: tensor<8x40001xf32>) -> tensor<40001xf32> {
  %0 = tile.fused(%a) : (tensor<8x40001xf32>) -> tensor<40001xf32> {
  ^bb0(%x: tensor<8x40001xf32>):
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{can be fused only as a row reduction (dim = 1)}}
    %s = tile.reduce %x, %zero dim = 0 : tensor<8x40001xf32>, f32 -> tensor<40001xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.yield %r : f32
    }
    tile.yield %s : tensor<40001xf32>
  }
  return %0 : tensor<40001xf32>
}

// -----

// A matmul group whose result is its rows' sums (rank 1).
func.func @matmul_row_sums(%a: tensor<64x32xbf16>, %b: tensor<32x64xbf16>) -> tensor<64xf32> {
  // expected-error @+1 {{expected a rank-2 matmul result}}
  %0 = tile.fused(%a, %b) : (tensor<64x32xbf16>, tensor<32x64xbf16>) -> tensor<64xf32> {
  ^bb0(%x: tensor<64x32xbf16>, %y: tensor<32x64xbf16>):
    %zero = arith.constant 0.0 : f32
    %c = tile.matmul %x, %y : (tensor<64x32xbf16>, tensor<32x64xbf16>) -> tensor<64x64xf32>
    %s = tile.reduce %c, %zero dim = 1 : tensor<64x64xf32>, f32 -> tensor<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.yield %r : f32
    }
    tile.yield %s : tensor<64xf32>
  }
  return %0 : tensor<64xf32>
}

// -----

// An elementwise group of rank 3.
func.func @elementwise_rank_3(%a: tensor<2x4x8xf32>) -> tensor<2x4x8xf16> {
  // expected-error @+1 {{tiling supports rank-1 or rank-2 results with as many block sizes}}
  %0 = tile.fused(%a) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf16> {
  ^bb0(%x: tensor<2x4x8xf32>):
    %d = tile.map (%x) : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
    ^bb0(%p: f32):
      %r = arith.addf %p, %p : f32
      tile.yield %r : f32
    }
    %h = tile.cast %d : tensor<2x4x8xf32> -> tensor<2x4x8xf16>
    tile.yield %h : tensor<2x4x8xf16>
  }
  return %0 : tensor<2x4x8xf16>
}

// -----

// A batched matmul (summed over the batch) as a group's root.
func.func @batched_matmul(%a: tensor<2x64x32xbf16>, %b: tensor<2x32x64xbf16>) -> tensor<64x64xf32> {
  %0 = tile.fused(%a, %b) : (tensor<2x64x32xbf16>, tensor<2x32x64xbf16>) -> tensor<64x64xf32> {
  ^bb0(%x: tensor<2x64x32xbf16>, %y: tensor<2x32x64xbf16>):
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{with batch dimensions is tiled only inside an attention group (tile-fuse) so far}}
    %c = tile.matmul %x, %y : (tensor<2x64x32xbf16>, tensor<2x32x64xbf16>) -> tensor<2x64x64xf32>
    %s = tile.reduce %c, %zero dim = 0 : tensor<2x64x64xf32>, f32 -> tensor<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.yield %r : f32
    }
    tile.yield %s : tensor<64x64xf32>
  }
  return %0 : tensor<64x64xf32>
}

// -----

// A matmul whose A is computed inside the group.
func.func @computed_lhs(%a: tensor<64x32xf32>, %b: tensor<32x64xbf16>) -> tensor<64x64xf32> {
  %0 = tile.fused(%a, %b) : (tensor<64x32xf32>, tensor<32x64xbf16>) -> tensor<64x64xf32> {
  ^bb0(%x: tensor<64x32xf32>, %y: tensor<32x64xbf16>):
    %h = tile.cast %x : tensor<64x32xf32> -> tensor<64x32xbf16>
    // expected-error @+1 {{expected matmul operands from outside the fused group}}
    %c = tile.matmul %h, %y : (tensor<64x32xbf16>, tensor<32x64xbf16>) -> tensor<64x64xf32>
    tile.yield %c : tensor<64x64xf32>
  }
  return %0 : tensor<64x64xf32>
}

// -----

// A block-scaled matmul whose A scales are computed inside the group.
func.func @computed_scales(%a: tensor<256x512xf8E4M3FN>, %b: tensor<512x512xf8E4M3FN>, %sa: tensor<256x4xf32>, %sb: tensor<4x4xf32>) -> tensor<256x512xf32> {
  %0 = tile.fused(%a, %b, %sa, %sb) : (tensor<256x512xf8E4M3FN>, tensor<512x512xf8E4M3FN>, tensor<256x4xf32>, tensor<4x4xf32>) -> tensor<256x512xf32> {
  ^bb0(%x: tensor<256x512xf8E4M3FN>, %y: tensor<512x512xf8E4M3FN>, %u: tensor<256x4xf32>, %v: tensor<4x4xf32>):
    %us = tile.map (%u) : (tensor<256x4xf32>) -> tensor<256x4xf32> {
    ^bb0(%p: f32):
      %r = arith.mulf %p, %p : f32
      tile.yield %r : f32
    }
    // expected-error @+1 {{expected block scales from outside the fused group}}
    %c = tile.matmul %x, %y scales(%us, %v) block [1, 128, 128] : (tensor<256x512xf8E4M3FN>, tensor<512x512xf8E4M3FN>, tensor<256x4xf32>, tensor<4x4xf32>) -> tensor<256x512xf32>
    tile.yield %c : tensor<256x512xf32>
  }
  return %0 : tensor<256x512xf32>
}

// -----

// A weight stored in fragment runs (k_runs = 32: K steps of 128) whose
// scales come in groups of 64 along K: a step would read one group's
// scales for two groups.
func.func @k_runs_groups(%x: tensor<16x256xbf16>, %qw: tensor<64x128xi8>, %s: tensor<4x64xbf16>) -> tensor<16x64xf32> {
  %0 = tile.fused(%x, %qw, %s) : (tensor<16x256xbf16>, tensor<64x128xi8>, tensor<4x64xbf16>) -> tensor<16x64xf32> {
  ^bb0(%xa: tensor<16x256xbf16>, %qa: tensor<64x128xi8>, %sa: tensor<4x64xbf16>):
    %q = tile.unpack %qa signed interleaved : tensor<64x128xi8> -> tensor<64x256xi8>
    %st = tile.transpose %sa : tensor<4x64xbf16> -> tensor<64x4xbf16>
    %sr = tile.repeat %st dim = 1 times = 64 : tensor<64x4xbf16> -> tensor<64x256xbf16>
    %w = tile.map (%q, %sr) : (tensor<64x256xi8>, tensor<64x256xbf16>) -> tensor<64x256xbf16> {
    ^bb0(%qi: i8, %si: bf16):
      %f = arith.sitofp %qi : i8 to f32
      %sf = arith.extf %si : bf16 to f32
      %v = arith.mulf %f, %sf : f32
      %h = arith.truncf %v : f32 to bf16
      tile.yield %h : bf16
    }
    %wt = tile.transpose %w : tensor<64x256xbf16> -> tensor<256x64xbf16>
    // expected-error @+1 {{'tile.matmul' op has k_runs = 32, whose K steps of 128 its weight's groups of 64 along K do not hold whole (groups of a multiple of 128 are needed)}}
    %y = tile.matmul %xa, %wt k_runs = 32 : (tensor<16x256xbf16>, tensor<256x64xbf16>) -> tensor<16x64xf32>
    tile.yield %y : tensor<16x64xf32>
  }
  return %0 : tensor<16x64xf32>
}

// -----

// A config whose K steps (128) span parts of two groups of 96 of the
// weight's scales: a product reads one line of scales, and a step is read
// in products of one group only where it holds whole groups, so the part
// of the second group would take the first's scales (a hand-written or
// tuned config; the heuristic never picks it). (Steps of 256 over groups of
// 128 are two products: tile-tile-dequant.mlir.)
func.func @step_spans_groups(%x: tensor<16x384xbf16>, %qw: tensor<64x192xi8>, %s: tensor<4x64xbf16>) -> tensor<16x64xf32> {
  %0 = tile.fused(%x, %qw, %s) : (tensor<16x384xbf16>, tensor<64x192xi8>, tensor<4x64xbf16>) -> tensor<16x64xf32> {
  ^bb0(%xa: tensor<16x384xbf16>, %qa: tensor<64x192xi8>, %sa: tensor<4x64xbf16>):
    %q = tile.unpack %qa signed : tensor<64x192xi8> -> tensor<64x384xi8>
    %st = tile.transpose %sa : tensor<4x64xbf16> -> tensor<64x4xbf16>
    %sr = tile.repeat %st dim = 1 times = 96 : tensor<64x4xbf16> -> tensor<64x384xbf16>
    %w = tile.map (%q, %sr) : (tensor<64x384xi8>, tensor<64x384xbf16>) -> tensor<64x384xbf16> {
    ^bb0(%qi: i8, %si: bf16):
      %f = arith.sitofp %qi : i8 to f32
      %sf = arith.extf %si : bf16 to f32
      %v = arith.mulf %f, %sf : f32
      %h = arith.truncf %v : f32 to bf16
      tile.yield %h : bf16
    }
    %wt = tile.transpose %w : tensor<64x384xbf16> -> tensor<384x64xbf16>
    // expected-error @+1 {{'tile.matmul' op has K steps of 128 (its config's block) that its weight's groups of 96 along K neither divide nor are a multiple of: each product must lie within one group}}
    %y = tile.matmul %xa, %wt {tile.config = #tile.config<block = [16, 64, 128], threads = 64>} : (tensor<16x384xbf16>, tensor<384x64xbf16>) -> tensor<16x64xf32>
    tile.yield %y : tensor<16x64xf32>
  }
  return %0 : tensor<16x64xf32>
}

// -----

// A transposed config on a matmul whose B is no weight computed in the K
// loop: the transposed product takes such a weight only.
func.func @transposed_plain_b(%x: tensor<16x256xbf16>, %w: tensor<256x64xbf16>) -> tensor<16x64xf32> {
  // expected-error @+1 {{has a transposed config, which takes a weight computed in the K loop and stored in fragment runs (k_runs) only}}
  %y = tile.matmul %x, %w {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], transposed = true>} : (tensor<16x256xbf16>, tensor<256x64xbf16>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}
