// Every error tile-tile (and the host-side bufferization it shares with
// tile-reference) reports, each triggered by the smallest input that reaches it.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-tile

// Dynamic argument shapes are rejected at the argument.
// expected-error @+1 {{expected static shapes (kernels are specialized to their shapes) but got 'tensor<?x4xf32>'}}
func.func @dynamic_argument(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = tile.cast %a : tensor<?x4xf32> -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// -----

// A dynamic result (the matmul verifier admits one) is rejected at the op.
func.func @dynamic_result(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{expected static shapes (kernels are specialized to their shapes) but got 'tensor<?x4xf32>'}}
  %c = tile.matmul %a, %b : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
  return %c : tensor<?x4xf32>
}

// -----

// Scalar arguments have no buffer.
// expected-error @+1 {{'func.func' op expected tensor arguments but argument #1 is 'f32'}}
func.func @scalar_argument(%a: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %y = tile.map (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32):
    %r = arith.addf %x, %s : f32
    tile.yield %r : f32
  }
  return %y : tensor<4xf32>
}

// -----

// Host-side ops other than tile ops and scalar constants have no lowering.
func.func @unsupported_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 1.0 : f32
  // expected-error @+1 {{'arith.addf' op is not supported in a tensor-level function (expected tile tensor-level ops and scalar constants)}}
  %d = arith.addf %c, %c : f32
  %y = tile.map (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32):
    %r = arith.addf %x, %d : f32
    tile.yield %r : f32
  }
  return %y : tensor<4xf32>
}

// -----

// Tensor constants are not scalar constants.
func.func @tensor_constant(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.constant' op is not supported in a tensor-level function}}
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %y = tile.map (%a, %c) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32, %z: f32):
    %r = arith.addf %x, %z : f32
    tile.yield %r : f32
  }
  return %y : tensor<4xf32>
}

// -----

// Control flow between blocks is not supported.
// expected-error @+1 {{'func.func' op expected a single block}}
func.func @two_blocks(%a: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  %y = tile.cast %a : tensor<4xf32> -> tensor<4xf16>
  %z = tile.cast %y : tensor<4xf16> -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

// An argument returned as is needs no kernel.
func.func @returns_argument(%a: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>) {
  %y = tile.cast %a : tensor<4xf32> -> tensor<4xf16>
  // expected-error @+1 {{'func.return' op expected result #1 to be computed by a tile op (an argument or constant returned as is needs no kernel)}}
  return %y, %a : tensor<4xf16>, tensor<4xf32>
}

// -----

// One value cannot be written to two output buffers.
func.func @returns_twice(%a: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf16>) {
  %y = tile.cast %a : tensor<4xf32> -> tensor<4xf16>
  // expected-error @+1 {{'func.return' op returns the same value twice (results #0 and #1)}}
  return %y, %y : tensor<4xf16>, tensor<4xf16>
}

// -----

// A map body can only capture constants: the kernel cannot read host values.
func.func @captures_host_value(%a: tensor<4xf32>) -> tensor<4xf32> {
  %t = tile.cast %a : tensor<4xf32> -> tensor<4xf16>
  // expected-error @+1 {{'tile.map' op expected scalar operands and captured values to be constants (a kernel cannot read host values)}}
  %y = tile.map (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32):
    %u = arith.addf %t, %t : tensor<4xf16>
    tile.yield %x : f32
  }
  return %y : tensor<4xf32>
}

// -----

// Threads from tile.config must be a power of two.
func.func @threads_not_power_of_two(%a: tensor<64xf32>) -> tensor<64xf16> {
  // expected-error @+1 {{'tile.cast' op expected threads to be a power of two in [32, 1024] but got 96}}
  %y = tile.cast %a {tile.config = #tile.config<block = [64], threads = 96>} : tensor<64xf32> -> tensor<64xf16>
  return %y : tensor<64xf16>
}

// -----

// Block sizes must be powers of two.
func.func @block_not_power_of_two(%a: tensor<64x64xf32>) -> tensor<64x64xf16> {
  // expected-error @+1 {{'tile.cast' op expected power-of-two block sizes but got 100}}
  %y = tile.cast %a {tile.config = #tile.config<block = [8, 100], threads = 256>} : tensor<64x64xf32> -> tensor<64x64xf16>
  return %y : tensor<64x64xf16>
}

// -----

// A rank-2 elementwise op needs two block sizes.
func.func @elementwise_too_few_block_sizes(%a: tensor<64x64xf32>) -> tensor<64x64xf16> {
  // expected-error @+1 {{'tile.cast' op expected at least 2 block sizes but got 1}}
  %y = tile.cast %a {tile.config = #tile.config<block = [256], threads = 256>} : tensor<64x64xf32> -> tensor<64x64xf16>
  return %y : tensor<64x64xf16>
}

// -----

// Elementwise tiling covers ranks 1 and 2 only.
func.func @elementwise_rank_3(%a: tensor<2x2x2xf32>) -> tensor<2x2x2xf16> {
  // expected-error @+1 {{'tile.cast' op tiling supports results of rank 1 or 2 but got rank 3}}
  %y = tile.cast %a : tensor<2x2x2xf32> -> tensor<2x2x2xf16>
  return %y : tensor<2x2x2xf16>
}

// -----

// A reduction needs [kept, reduced] block sizes.
func.func @reduce_too_few_block_sizes(%a: tensor<64x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'tile.reduce' op expected 2 block sizes [kept, reduced] but got 1}}
  %s = tile.reduce %a, %zero dim = 1 {tile.config = #tile.config<block = [256], threads = 256>} : tensor<64x64xf32>, f32 -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  return %s : tensor<64xf32>
}

// -----

// Reductions of rank-3 tensors are not tiled.
func.func @reduce_rank_3(%a: tensor<4x4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'tile.reduce' op tiling supports reductions of rank-2 tensors but got rank 3}}
  %s = tile.reduce %a, %zero dim = 2 : tensor<4x4x4xf32>, f32 -> tensor<4x4xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  return %s : tensor<4x4xf32>
}

// -----

// Nor are reductions of rank-1 tensors (to a rank-0 result).
func.func @reduce_rank_1(%a: tensor<64xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'tile.reduce' op tiling supports reductions of rank-2 tensors but got rank 1}}
  %s = tile.reduce %a, %zero dim = 0 : tensor<64xf32>, f32 -> tensor<f32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  return %s : tensor<f32>
}

// -----

// A matmul needs [M, N, K] block sizes.
func.func @matmul_two_block_sizes(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'tile.matmul' op expected 3 block sizes [M, N, K] but got 2}}
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64], threads = 256>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// Grid dimension y is limited to 65535 programs.
func.func @grid_y_too_large(%a: tensor<8x65536xf32>) -> tensor<8x65536xf16> {
  // expected-error @+1 {{'tile.cast' op needs 65536 programs along grid dimension 1 but the GPU allows 65535; use a larger block}}
  %y = tile.cast %a {tile.config = #tile.config<block = [8, 1], threads = 32>} : tensor<8x65536xf32> -> tensor<8x65536xf16>
  return %y : tensor<8x65536xf16>
}

// -----

// Grid dimension x is limited to 2^31 - 1 programs.
func.func @grid_x_too_large(%a: tensor<4294967296xf32>) -> tensor<4294967296xf16> {
  // expected-error @+1 {{'tile.cast' op needs 4294967296 programs along grid dimension 0 but the GPU allows 2147483647; use a larger block}}
  %y = tile.cast %a {tile.config = #tile.config<block = [1], threads = 32>} : tensor<4294967296xf32> -> tensor<4294967296xf16>
  return %y : tensor<4294967296xf16>
}

// -----

// The grid of a matmul is checked too.
func.func @matmul_grid_too_large(%a: tensor<64x64xf32>, %b: tensor<64x131072xf32>) -> tensor<64x131072xf32> {
  // expected-error @+1 {{'tile.matmul' op needs 131072 programs along grid dimension 1 but the GPU allows 65535; use a larger block}}
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 1, 16], threads = 256>} : (tensor<64x64xf32>, tensor<64x131072xf32>) -> tensor<64x131072xf32>
  return %c : tensor<64x131072xf32>
}

// -----

// Split-K into more ranges than K has steps of the block.
func.func @split_k_too_many(%a: tensor<64x128xbf16>, %b: tensor<128x64xbf16>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'tile.matmul' op tile.config asks for split_k = 4 but K = 128 has only 2 steps of 64}}
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], split_k = 4>} : (tensor<64x128xbf16>, tensor<128x64xbf16>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// A repeat has a kernel only inside attention (grouped-query K and V).
func.func @repeat_alone(%k: tensor<2x64xbf16>) -> tensor<8x64xbf16> {
  // expected-error @+1 {{'tile.repeat' op has a kernel only as the keys or values of an attention block (grouped-query attention, fused by tile-fuse)}}
  %r = tile.repeat %k dim = 0 times = 4 : tensor<2x64xbf16> -> tensor<8x64xbf16>
  return %r : tensor<8x64xbf16>
}

// -----

// Block scales whose blocks the config's tiles do not fit: 128-column
// scale blocks under 256-column tiles.
func.func @scale_blocks_tile_mismatch(%a: tensor<256x512xf8E4M3FN>, %b: tensor<512x512xf8E4M3FN>, %sa: tensor<256x4xf32>, %sb: tensor<4x4xf32>) -> tensor<256x512xf32> {
  // expected-error @+1 {{has block scales of 1 rows x 128 columns that its 64x256 tiles do not fit (each must be 1 or a multiple of the tile's)}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 128, 128] {tile.config = #tile.config<block = [64, 256, 128], threads = 128>} : (tensor<256x512xf8E4M3FN>, tensor<512x512xf8E4M3FN>, tensor<256x4xf32>, tensor<4x4xf32>) -> tensor<256x512xf32>
  return %c : tensor<256x512xf32>
}

// -----

// Block scales along K shorter than the config's K step.
func.func @scale_blocks_k_step(%a: tensor<256x512xf8E4M3FN>, %b: tensor<512x512xf8E4M3FN>, %sa: tensor<256x8xf32>, %sb: tensor<8x512xf32>) -> tensor<256x512xf32> {
  // expected-error @+1 {{has block scales along K of 64 elements, which its K step of 128 does not divide}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 64, 1] {tile.config = #tile.config<block = [64, 128, 128], threads = 128>} : (tensor<256x512xf8E4M3FN>, tensor<512x512xf8E4M3FN>, tensor<256x8xf32>, tensor<8x512xf32>) -> tensor<256x512xf32>
  return %c : tensor<256x512xf32>
}

// -----

// A batched matmul outside an attention group.
func.func @batched_matmul(%a: tensor<2x64x32xbf16>, %b: tensor<2x32x64xbf16>) -> tensor<2x64x64xf32> {
  // expected-error @+1 {{with batch dimensions is tiled only inside an attention group (tile-fuse) so far}}
  %c = tile.matmul %a, %b : (tensor<2x64x32xbf16>, tensor<2x32x64xbf16>) -> tensor<2x64x64xf32>
  return %c : tensor<2x64x64xf32>
}
