// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{tile must have rank 1 or 2 but got rank 3}}
func.func @tile_rank(%a: !tile.tile<2x2x2xf32>)

// -----

// expected-error @+1 {{tile dimensions must be positive but got 0}}
func.func @tile_zero_dim(%a: !tile.tile<0x4xf32>)

// -----

// expected-error @+1 {{tile element type must be an integer or float type but got 'index'}}
func.func @tile_element(%a: !tile.tile<4xindex>)

// -----

// expected-error @+1 {{expected 'layout' or 'memory_space' but got 'color'}}
func.func @tile_key(%a: !tile.tile<4xf32, color = 1>)

// -----

// expected-error @+1 {{block must have 1 to 3 sizes but got 4}}
func.func @config_sizes() attributes {c = #tile.config<block = [1, 2, 3, 4], threads = 32>}

// -----

// expected-error @+1 {{block sizes must be positive but got 0}}
func.func @config_zero() attributes {c = #tile.config<block = [0], threads = 32>}

// -----

// expected-error @+1 {{threads must be a multiple of 32 in [32, 1024] but got 100}}
func.func @config_threads() attributes {c = #tile.config<block = [8], threads = 100>}

// -----

func.func @matmul_rank(%a: tensor<4xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{expected operands and result of one rank, at least 2, but got ranks 1, 2 -> 2}}
  %c = tile.matmul %a, %b : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_mixed(%a: tensor<4x4xf16>, %b: tensor<4x4xbf16>) {
  // expected-error @+1 {{expected operands of one element type but got 'f16' and 'bf16'}}
  %c = tile.matmul %a, %b : (tensor<4x4xf16>, tensor<4x4xbf16>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_int(%a: tensor<4x4xi8>, %b: tensor<4x4xi8>) {
  // expected-error @+1 {{expected f8E4M3FN, f8E5M2, f16, bf16 or f32 operands but got 'i8'}}
  %c = tile.matmul %a, %b : (tensor<4x4xi8>, tensor<4x4xi8>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_result_type(%a: tensor<4x4xbf16>, %b: tensor<4x4xbf16>) {
  // expected-error @+1 {{expected an f32 result (the accumulator) but got 'bf16'}}
  %c = tile.matmul %a, %b : (tensor<4x4xbf16>, tensor<4x4xbf16>) -> tensor<4x4xbf16>
  return
}

// -----

func.func @matmul_k(%a: tensor<4x8xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+1 {{expected the reduction dimensions to agree but lhs has K = 8 and rhs has K = 4}}
  %c = tile.matmul %a, %b : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @matmul_result_shape(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) {
  // expected-error @+1 {{expected a 4x2 result but got 'tensor<4x4xf32>'}}
  %c = tile.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @scales_without_block(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %sa: tensor<4x1xf32>, %sb: tensor<1x2xf32>) {
  // expected-error @+1 {{expected both scales and their block, or none}}
  %c = tile.matmul %a, %b scales(%sa, %sb) : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @scale_block_zero(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %sa: tensor<4x1xf32>, %sb: tensor<1x2xf32>) {
  // expected-error @+1 {{expected a scale block of three positive sizes [rows of A, K, columns of B] but got [1, 0, 1]}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 0, 1] : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @scale_block_rank(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %sa: tensor<4x1xf32>, %sb: tensor<1x2xf32>) {
  // expected-error @+1 {{expected a scale block of three positive sizes [rows of A, K, columns of B] but got [1, 8]}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 8] : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @scale_shape(%a: tensor<300x520xf8E4M3FN>, %b: tensor<520x256xf8E4M3FN>, %sa: tensor<300x4xf32>, %sb: tensor<5x2xf32>) {
  // expected-error @+1 {{expected the scales of A in blocks of 1x128 of shape [300, 5] (or without its unit dimensions) but got 'tensor<300x4xf32>'}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 128, 128] : (tensor<300x520xf8E4M3FN>, tensor<520x256xf8E4M3FN>, tensor<300x4xf32>, tensor<5x2xf32>) -> tensor<300x256xf32>
  return
}

// -----

func.func @scale_shape_b(%a: tensor<300x520xf8E4M3FN>, %b: tensor<520x257xf8E4M3FN>, %sa: tensor<300x5xf32>, %sb: tensor<5x2xf32>) {
  // expected-error @+1 {{expected the scales of B in blocks of 128x128 of shape [5, 3] (or without its unit dimensions) but got 'tensor<5x2xf32>'}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 128, 128] : (tensor<300x520xf8E4M3FN>, tensor<520x257xf8E4M3FN>, tensor<300x5xf32>, tensor<5x2xf32>) -> tensor<300x257xf32>
  return
}

// -----

func.func @scale_type(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %sa: tensor<4x1xbf16>, %sb: tensor<1x2xf32>) {
  // expected-error @+1 {{expected f32 scales but got 'bf16'}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 8, 1] : (tensor<4x8xf32>, tensor<8x2xf32>, tensor<4x1xbf16>, tensor<1x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @scales_batched(%a: tensor<2x4x8xf32>, %b: tensor<2x8x2xf32>, %sa: tensor<4x1xf32>, %sb: tensor<1x2xf32>) {
  // expected-error @+1 {{takes block scales on rank-2 operands only but got rank 3}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 8, 1] : (tensor<2x4x8xf32>, tensor<2x8x2xf32>, tensor<4x1xf32>, tensor<1x2xf32>) -> tensor<2x4x2xf32>
  return
}

// -----

// Block scales with a dynamic M: the scales' shape cannot be checked.
func.func @scales_dynamic(%a: tensor<?x8xf32>, %b: tensor<8x2xf32>, %sa: tensor<?x1xf32>, %sb: tensor<1x2xf32>) {
  // expected-error @+1 {{takes block scales on static shapes only}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 8, 1] : (tensor<?x8xf32>, tensor<8x2xf32>, tensor<?x1xf32>, tensor<1x2xf32>) -> tensor<?x2xf32>
  return
}

// -----

func.func @map_level(%a: !tile.tile<4xf32>) {
  // expected-error @+1 {{expected input #0 to be a tensor like the result but got '!tile.tile<4xf32>'}}
  %y = "tile.map"(%a) ({
  ^bb0(%x: f32):
    tile.yield %x : f32
  }) : (!tile.tile<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @map_shape(%a: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{expected input #1 to have the result's shape but got 'tensor<8xf32>'}}
  %y = tile.map (%a, %b) : (tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32, %z: f32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @map_no_inputs() {
  // expected-error @+1 {{expected at least one input}}
  %y = "tile.map"() ({
  ^bb0:
    %c = arith.constant 1.0 : f32
    tile.yield %c : f32
  }) : () -> tensor<4xf32>
  return
}

// -----

func.func @map_arg_count(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected body to take 1 arguments but it takes 2}}
  %y = tile.map (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32, %z: f32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @map_arg_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected body argument #0 to be 'f32' but got 'f16'}}
  %y = tile.map (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f16):
    %e = arith.extf %x : f16 to f32
    tile.yield %e : f32
  }
  return
}

// -----

func.func @map_yield_type(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected body to yield 'bf16' but it yields 'f32'}}
  %y = tile.map (%a) : (tensor<4xf32>) -> tensor<4xbf16> {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @map_not_elementwise(%a: tensor<4xf32>) {
  // expected-error @+1 {{body may hold only elementwise operations and constants but holds 'memref.alloca'}}
  %y = tile.map (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32):
    %m = memref.alloca() : memref<f32>
    tile.yield %x : f32
  }
  return
}

// -----

func.func @yield_outside(%a: f32) {
  // expected-error @+1 {{expects parent op to be one of 'tile.map, tile.reduce, tile.fused'}}
  tile.yield %a : f32
}

// -----

func.func @reduce_level(%a: tensor<4x4xf32>, %z: f32) {
  // expected-error @+1 {{expected the input to be a tile like the result but got 'tensor<4x4xf32>'}}
  %r = "tile.reduce"(%a, %z) <{dim = 1 : i64}> ({
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }) : (tensor<4x4xf32>, f32) -> !tile.tile<4xf32>
  return
}

// -----

func.func @reduce_dim(%a: tensor<4x4xf32>, %z: f32) {
  // expected-error @+1 {{expected dim in [0, 2) but got 2}}
  %r = tile.reduce %a, %z dim = 2 : tensor<4x4xf32>, f32 -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @reduce_shape(%a: tensor<4x8xf32>, %z: f32) {
  // expected-error @+1 {{expected the result to drop dimension 1 of the input but got 'tensor<8xf32>'}}
  %r = tile.reduce %a, %z dim = 1 : tensor<4x8xf32>, f32 -> tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @reduce_result_type(%a: tensor<4x8xf32>, %z: f32) {
  // expected-error @+1 {{expected result element type 'f32' but got 'f16'}}
  %r = tile.reduce %a, %z dim = 1 : tensor<4x8xf32>, f32 -> tensor<4xf16> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @reduce_init_type(%a: tensor<4x8xf32>, %z: f16) {
  // expected-error @+1 {{expected init of type 'f32' but got 'f16'}}
  %r = tile.reduce %a, %z dim = 1 : tensor<4x8xf32>, f16 -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @reduce_combiner(%a: tensor<4x8xf32>, %z: f32) {
  // expected-error @+1 {{expected combiner to take 2 arguments but it takes 1}}
  %r = tile.reduce %a, %z dim = 1 : tensor<4x8xf32>, f32 -> tensor<4xf32> {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  return
}

// -----

func.func @broadcast_level(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected the input to be a tile like the result but got 'tensor<4xf32>'}}
  %b = tile.broadcast %a [1] : tensor<4xf32> -> !tile.tile<4x4xf32>
  return
}

// -----

func.func @broadcast_element(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected the input and result element types to match but got 'f32' and 'f16'}}
  %b = tile.broadcast %a [1] : tensor<4xf32> -> tensor<4x4xf16>
  return
}

// -----

func.func @broadcast_rank(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected result rank 1 + 2 new dims but got 2}}
  %b = tile.broadcast %a [0, 1] : tensor<4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_dim_range(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected broadcast dims in [0, 2) but got 2}}
  %b = tile.broadcast %a [2] : tensor<4xf32> -> tensor<4x4xf32>
  return
}

// -----

func.func @broadcast_order(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected broadcast dims in increasing order}}
  %b = tile.broadcast %a [2, 0] : tensor<4xf32> -> tensor<2x4x2xf32>
  return
}

// -----

func.func @broadcast_size(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected result dimension 0 to be 4 but got 8}}
  %b = tile.broadcast %a [1] : tensor<4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @cast_level(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected the input to be a tile like the result but got 'tensor<4xf32>'}}
  %b = tile.cast %a : tensor<4xf32> -> !tile.tile<4xbf16>
  return
}

// -----

func.func @cast_shape(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected the input and result shapes to match but got 'tensor<4xf32>' and 'tensor<8xbf16>'}}
  %b = tile.cast %a : tensor<4xf32> -> tensor<8xbf16>
  return
}

// -----

func.func @cast_element(%a: tensor<4xindex>) {
  // expected-error @+1 {{expected element types among i1, i8, i16, i32, i64, f8E4M3FN, f8E5M2, f16, bf16, f32 and f64 but got 'index' and 'f32'}}
  %b = tile.cast %a : tensor<4xindex> -> tensor<4xf32>
  return
}

// -----

// Types the lowering has no cast for: fp8 formats other than e4m3fn and
// e5m2, tf32 (no loads and stores yet), f128 (no NVPTX lowering), signed
// and unsigned integers (no arith).
func.func @cast_fp8(%a: tensor<4xf8E4M3FNUZ>) {
  // expected-error @+1 {{expected element types among i1, i8, i16, i32, i64, f8E4M3FN, f8E5M2, f16, bf16, f32 and f64 but got 'f8E4M3FNUZ' and 'f32'}}
  %b = tile.cast %a : tensor<4xf8E4M3FNUZ> -> tensor<4xf32>
  return
}

// -----

// fp8 has no arithmetic: a map widens it first.
func.func @map_fp8_arith(%a: tensor<4xf8E4M3FN>) {
  // expected-error @+1 {{body computes on 'f8E4M3FN' in 'arith.addf'; fp8 values can only be widened (arith.extf) or made by arith.truncf}}
  %b = tile.map (%a) : (tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  ^bb0(%x: f8E4M3FN):
    %y = arith.addf %x, %x : f8E4M3FN
    tile.yield %y : f8E4M3FN
  }
  return
}

// -----

// fp8 matmul operands may mix the two formats, but not with bf16.
func.func @matmul_fp8_bf16(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x16xbf16>) {
  // expected-error @+1 {{expected operands of one element type but got 'f8E4M3FN' and 'bf16'}}
  %c = tile.matmul %a, %b : (tensor<16x32xf8E4M3FN>, tensor<32x16xbf16>) -> tensor<16x16xf32>
  return
}

// -----

func.func @cast_f128(%a: tensor<4xf32>) {
  // expected-error @+1 {{but got 'f32' and 'f128'}}
  %b = tile.cast %a : tensor<4xf32> -> tensor<4xf128>
  return
}

// -----

func.func @cast_unsigned(%a: tensor<4xui8>) {
  // expected-error @+1 {{but got 'ui8' and 'f32'}}
  %b = tile.cast %a : tensor<4xui8> -> tensor<4xf32>
  return
}

// -----

func.func @kernel_grid_rank() {
  // expected-error @+1 {{expected a grid of 1 to 3 dimensions but got 4}}
  tile.kernel @k grid [1, 1, 1, 1] threads 32 {
  }
  return
}

// -----

func.func @kernel_grid_size() {
  // expected-error @+1 {{expected positive grid sizes but got 0}}
  tile.kernel @k grid [0] threads 32 {
  }
  return
}

// -----

// CUDA's grid limits (2^31 - 1 along x, 65535 along y and z): a larger
// grid would be truncated at launch.
func.func @kernel_grid_past_x() {
  // expected-error @+1 {{has 4294967297 programs along grid dimension 0 but the GPU allows at most 2147483647}}
  tile.kernel @k grid [4294967297] threads 32 {
  }
  return
}

// -----

func.func @kernel_grid_past_y() {
  // expected-error @+1 {{has 65536 programs along grid dimension 1 but the GPU allows at most 65535}}
  tile.kernel @k grid [1, 65536] threads 32 {
  }
  return
}

// -----

func.func @kernel_threads() {
  // expected-error @+1 {{expected threads to be a multiple of 32 in [32, 1024] but got 48}}
  tile.kernel @k grid [1] threads 48 {
  }
  return
}

// -----

func.func @kernel_body_args(%a: memref<4xf32>) {
  // expected-error @+1 {{expected the body to take 1 arguments (one per operand) but it takes 0}}
  tile.kernel @k grid [1] threads 32 (%a) : memref<4xf32> {
  }
  return
}

// -----

func.func @kernel_body_type(%a: memref<4xf32>) {
  // expected-error @+1 {{expected body argument #0 to have type 'memref<4xf32>' but got 'memref<8xf32>'}}
  tile.kernel @k grid [1] threads 32 (%a) : memref<4xf32> {
  ^bb0(%x: memref<8xf32>):
  }
  return
}

// -----

func.func @kernel_isolated(%a: index) {
  // expected-note @+1 {{required by region isolation constraints}}
  tile.kernel @k grid [1] threads 32 {
    // expected-error @+1 {{using value defined outside the region}}
    %b = arith.addi %a, %a : index
  }
  return
}

// -----

func.func @program_id_outside() {
  // expected-error @+1 {{expected to be inside a tile.kernel}}
  %p = tile.program_id 0
  return
}

// -----

func.func @program_id_dim() {
  tile.kernel @k grid [4, 4] threads 32 {
    // expected-error @+1 {{expected dim in [0, 2) for a grid of rank 2 but got 2}}
    %p = tile.program_id 2
  }
  return
}

// -----

func.func @load_indices(%a: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{expected 2 indices for 'memref<8x8xf32>' but got 1}}
  %t = tile.load %a[%i] : memref<8x8xf32> -> !tile.tile<4x4xf32>
  return
}

// -----

func.func @load_rank(%a: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{expected a tile of rank 2 but got '!tile.tile<4xf32>'}}
  %t = tile.load %a[%i, %i] : memref<8x8xf32> -> !tile.tile<4xf32>
  return
}

// -----

func.func @load_element(%a: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{expected tile element type 'f32' but got 'f16'}}
  %t = tile.load %a[%i, %i] : memref<8x8xf32> -> !tile.tile<4x4xf16>
  return
}

// -----

func.func @load_padding(%a: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{expected padding of type 'f32' but got 'f16'}}
  %t = tile.load %a[%i, %i] {padding = 1.0 : f16} : memref<8x8xf32> -> !tile.tile<4x4xf32>
  return
}

// -----

func.func @store_element(%t: !tile.tile<4x4xf16>, %a: memref<8x8xf32>, %i: index) {
  // expected-error @+1 {{expected tile element type 'f32' but got 'f16'}}
  tile.store %t, %a[%i, %i] : !tile.tile<4x4xf16>, memref<8x8xf32>
  return
}

// -----

func.func @dot_rank(%a: !tile.tile<4xf32>, %b: !tile.tile<4x4xf32>, %c: !tile.tile<4x4xf32>) {
  // expected-error @+1 {{expected rank-2 tiles}}
  %d = tile.dot %a, %b, %c : !tile.tile<4xf32>, !tile.tile<4x4xf32> -> !tile.tile<4x4xf32>
  return
}

// -----

func.func @dot_mixed(%a: !tile.tile<4x4xf16>, %b: !tile.tile<4x4xbf16>, %c: !tile.tile<4x4xf32>) {
  // expected-error @+1 {{expected operands of one element type but got 'f16' and 'bf16'}}
  %d = tile.dot %a, %b, %c : !tile.tile<4x4xf16>, !tile.tile<4x4xbf16> -> !tile.tile<4x4xf32>
  return
}

// -----

func.func @dot_int(%a: !tile.tile<4x4xi8>, %b: !tile.tile<4x4xi8>, %c: !tile.tile<4x4xf32>) {
  // expected-error @+1 {{expected f8E4M3FN, f8E5M2, f16, bf16 or f32 operands but got 'i8'}}
  %d = tile.dot %a, %b, %c : !tile.tile<4x4xi8>, !tile.tile<4x4xi8> -> !tile.tile<4x4xf32>
  return
}

// -----

func.func @dot_acc(%a: !tile.tile<4x4xf16>, %b: !tile.tile<4x4xf16>, %c: !tile.tile<4x4xf16>) {
  // expected-error @+1 {{expected an f32 accumulator but got 'f16'}}
  %d = tile.dot %a, %b, %c : !tile.tile<4x4xf16>, !tile.tile<4x4xf16> -> !tile.tile<4x4xf16>
  return
}

// -----

func.func @dot_k(%a: !tile.tile<4x8xf32>, %b: !tile.tile<4x4xf32>, %c: !tile.tile<4x4xf32>) {
  // expected-error @+1 {{expected the reduction dimensions to agree but lhs has K = 8 and rhs has K = 4}}
  %d = tile.dot %a, %b, %c : !tile.tile<4x8xf32>, !tile.tile<4x4xf32> -> !tile.tile<4x4xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: !tile.tile<4x8xf32>, %b: !tile.tile<8x2xf32>, %c: !tile.tile<4x4xf32>) {
  // expected-error @+1 {{expected a 4x2 accumulator but got '!tile.tile<4x4xf32>'}}
  %d = tile.dot %a, %b, %c : !tile.tile<4x8xf32>, !tile.tile<8x2xf32> -> !tile.tile<4x4xf32>
  return
}

// -----

func.func @splat_type(%v: f16) {
  // expected-error @+1 {{expected a value of type 'f32' but got 'f16'}}
  %t = tile.splat %v : f16 -> !tile.tile<4xf32>
  return
}

// -----

func.func @mask_fill(%t: !tile.tile<4x4xf32>, %v: f16, %i: index) {
  // expected-error @+1 {{expected fill of type 'f32' but got 'f16'}}
  %m = tile.mask %t, %v bounds [%i, %i] : !tile.tile<4x4xf32>, f16
  return
}

// -----

func.func @mask_bounds(%t: !tile.tile<4x4xf32>, %v: f32, %i: index) {
  // expected-error @+1 {{expected 2 bounds but got 1}}
  %m = tile.mask %t, %v bounds [%i] : !tile.tile<4x4xf32>, f32
  return
}

// -----

func.func @mask_offsets(%t: !tile.tile<4x4xf32>, %v: f32, %i: index) {
  // expected-error @+1 {{expected 2 offsets or none but got 1}}
  %m = tile.mask %t, %v bounds [%i, %i] at [%i] : !tile.tile<4x4xf32>, f32
  return
}

// -----

func.func @fused_args(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected the region to take one argument per input, of the input's type}}
  %y = tile.fused (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<8xf32>):
    tile.yield %x : tensor<8xf32>
  }
  return
}

// -----

func.func @fused_yield(%a: tensor<4xf32>) {
  // expected-error @+1 {{expected the region to yield 'tensor<4xbf16>'}}
  %y = tile.fused (%a) : (tensor<4xf32>) -> tensor<4xbf16> {
  ^bb0(%x: tensor<4xf32>):
    tile.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @fused_body(%a: tensor<4xf32>) {
  // expected-error @+1 {{may hold only tensor-level tile ops and constants but holds 'memref.alloca'}}
  %y = tile.fused (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %m = memref.alloca() : memref<f32>
    tile.yield %x : tensor<4xf32>
  }
  return
}

// -----

func.func @tma_result(%m: memref<64x64xbf16>) {
  // expected-error @+1 {{expected an !llvm.ptr result but got 'i64'}}
  %d = tile.tma_descriptor %m box [64, 64] swizzle 128 : memref<64x64xbf16> -> i64
  return
}

// -----

func.func @tma_dynamic(%m: memref<?x64xbf16>) {
  // expected-error @+1 {{expected a static, row-major memref but got 'memref<?x64xbf16>'}}
  %d = tile.tma_descriptor %m box [64, 64] swizzle 128 : memref<?x64xbf16> -> !llvm.ptr
  return
}

// -----

func.func @tma_box_rank(%m: memref<64x64xbf16>) {
  // expected-error @+1 {{expected 2 box sizes but got 1}}
  %d = tile.tma_descriptor %m box [64] swizzle 128 : memref<64x64xbf16> -> !llvm.ptr
  return
}

// -----

func.func @tma_box_size(%m: memref<512x64xbf16>) {
  // expected-error @+1 {{expected box sizes in [1, 256] but got 512}}
  %d = tile.tma_descriptor %m box [512, 64] swizzle 128 : memref<512x64xbf16> -> !llvm.ptr
  return
}

// -----

func.func @tma_swizzle(%m: memref<64x64xbf16>) {
  // expected-error @+1 {{expected a swizzle of 0, 32, 64 or 128 bytes but got 16}}
  %d = tile.tma_descriptor %m box [64, 64] swizzle 16 : memref<64x64xbf16> -> !llvm.ptr
  return
}

// -----

func.func @tma_inner_bytes(%m: memref<64x64xbf16>) {
  // expected-error @+1 {{expected the innermost box extent to be a multiple of 16 bytes but it is 6}}
  %d = tile.tma_descriptor %m box [64, 3] swizzle 0 : memref<64x64xbf16> -> !llvm.ptr
  return
}

// -----

func.func @tma_swizzle_span(%m: memref<64x128xbf16>) {
  // expected-error @+1 {{expected the innermost box extent (256 bytes) to fit the 128-byte swizzle}}
  %d = tile.tma_descriptor %m box [64, 128] swizzle 128 : memref<64x128xbf16> -> !llvm.ptr
  return
}

// -----

func.func @tma_stride(%m: memref<64x4097xbf16>) {
  // expected-error @+1 {{TMA needs row strides that are multiples of 16 bytes, but dimension 0 of 'memref<64x4097xbf16>' has a stride of 8194 bytes}}
  %d = tile.tma_descriptor %m box [64, 64] swizzle 128 : memref<64x4097xbf16> -> !llvm.ptr
  return
}

// -----

func.func @shared_global(%x: memref<4xf32>) {
  tile.kernel @k grid [1] threads 32 (%x) : memref<4xf32> {
  ^bb0(%xa: memref<4xf32>):
    // expected-error @+1 {{expected a memref in #gpu.address_space<workgroup> but got 'memref<16xf32>'}}
    %b = tile.shared : memref<16xf32>
    tile.return
  }
  return
}

// -----

func.func @shared_outside() {
  // expected-error @+1 {{expected to be inside a tile.kernel}}
  %b = tile.shared : memref<16xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_to_global(%x: memref<8x64xf32>, %y: memref<8x64xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected the destination in #gpu.address_space<workgroup> but got 'memref<8x64xf32>'}}
  tile.copy_async %x[%c0, %c0], %y[%c0, %c0] shape [1, 64] : memref<8x64xf32>, memref<8x64xf32>
  return
}

// -----

func.func @copy_types(%x: memref<8x64xf32>, %y: memref<1x64xbf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected one element type but got 'f32' and 'bf16'}}
  tile.copy_async %x[%c0, %c0], %y[%c0, %c0] shape [1, 64] : memref<8x64xf32>, memref<1x64xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_rank(%x: memref<8x64xf32>, %y: memref<64xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected 1 indices and a rank-1 shape for the destination 'memref<64xf32, #gpu.address_space<workgroup>>'}}
  tile.copy_async %x[%c0, %c0], %y[%c0] shape [1, 64] : memref<8x64xf32>, memref<64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// A copy larger than its shared destination (the fuzzer's shape [1, 2^62]
// hung the lowering, which unrolls the copy).
func.func @copy_too_large(%x: memref<1x58368xbf16>, %y: memref<1x58368xbf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{copies 4611686018427387904 elements along dim 1, more than the destination 'memref<1x58368xbf16, #gpu.address_space<workgroup>>' holds (58368, a tile of at most 65536)}}
  tile.copy_async %x[%c0, %c0], %y[%c0, %c0] shape [1, 4611686018427387904] : memref<1x58368xbf16>, memref<1x58368xbf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_past_shared(%x: memref<8x64xf32>, %y: memref<4x64xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{copies 8 elements along dim 0, more than the destination 'memref<4x64xf32, #gpu.address_space<workgroup>>' holds (4, a tile of at most 4)}}
  tile.copy_async %x[%c0, %c0], %y[%c0, %c0] shape [8, 64] : memref<8x64xf32>, memref<4x64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @wait_negative() {
  // expected-error @+1 {{attribute 'pending' failed to satisfy constraint}}
  tile.wait_async -1
  return
}

// -----

func.func @kernel_programs_per_sm() {
  // expected-error @+1 {{expected min_programs_per_sm in [1, 8] (at most 2048 threads and 32 programs per SM) but got 9}}
  tile.kernel @k grid [1] threads 256 attributes {min_programs_per_sm = 9 : i64} {
  }
  return
}

// -----

func.func @kernel_programs_per_sm_blocks() {
  // expected-error @+1 {{expected min_programs_per_sm in [1, 32] (at most 2048 threads and 32 programs per SM) but got 33}}
  tile.kernel @k grid [1] threads 32 attributes {min_programs_per_sm = 33 : i64} {
  }
  return
}

// -----

func.func @load_in_bounds_outside(%m: memref<8x100xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // expected-error @+1 {{is in_bounds but its tile spans [64, 128) of dimension 1, which has 100 elements}}
  %t = tile.load %m[%c0, %c64] {in_bounds} : memref<8x100xf32> -> !tile.tile<1x64xf32>
  return
}

// -----

func.func @store_in_bounds_outside(%m: memref<8x100xf32>, %t: !tile.tile<2x64xf32>) {
  %c7 = arith.constant 7 : index
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{is in_bounds but its tile spans [7, 9) of dimension 0, which has 8 elements}}
  tile.store %t, %m[%c7, %c0] {in_bounds} : !tile.tile<2x64xf32>, memref<8x100xf32>
  return
}

// -----

// Zero-size dimensions: no empty kernels yet (tile-tile divided by the zero
// extent: SIGFPE).
func.func @zero_size_map(%a: tensor<0x16xf32>) -> tensor<0x16xf32> {
  // expected-error @+1 {{'tile.map' op has operand #0 'tensor<0x16xf32>' with a zero-size dimension (0): empty tensors are not supported}}
  %c = tile.map (%a) : (tensor<0x16xf32>) -> tensor<0x16xf32> {
  ^bb0(%x: f32):
    tile.yield %x : f32
  }
  return %c : tensor<0x16xf32>
}

// -----

func.func @zero_k_matmul(%a: tensor<64x0xbf16>, %b: tensor<0x64xbf16>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'tile.matmul' op has operand #0 'tensor<64x0xbf16>' with a zero-size dimension (1)}}
  %c = tile.matmul %a, %b : (tensor<64x0xbf16>, tensor<0x64xbf16>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

func.func @zero_reduced_dim(%a: tensor<8x0xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'tile.reduce' op has operand #0 'tensor<8x0xf32>' with a zero-size dimension (1)}}
  %s = tile.reduce %a, %zero dim = 1 : tensor<8x0xf32>, f32 -> tensor<8xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  return %s : tensor<8xf32>
}

// -----

// Sizes whose element count passes 2^48 (the padding copies' size
// arithmetic overflowed near 2^63 and killed the process).
func.func @huge_k(%a: tensor<64x9223372036854775000xbf16>, %b: tensor<9223372036854775000x64xbf16>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'tile.matmul' op has operand #0 'tensor<64x9223372036854775000xbf16>' of more than 2^48 elements}}
  %c = tile.matmul %a, %b : (tensor<64x9223372036854775000xbf16>, tensor<9223372036854775000x64xbf16>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

func.func @kernel_zero_size_arg(%m: memref<0x4xf32>) {
  // expected-error @+1 {{'tile.kernel' op has argument #0 'memref<0x4xf32>' with a zero-size dimension (0)}}
  tile.kernel @k grid [1] threads 32 (%m) : memref<0x4xf32> {
  ^bb0(%x: memref<0x4xf32>):
  }
  return
}

// -----

func.func @transpose_shape(%t: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  // expected-error @+1 {{'tile.transpose' op expected a tensor of rank 2 or more and its transpose in the last two dimensions (the same element type) but got 'tensor<8x16xbf16>' -> 'tensor<8x16xbf16>'}}
  %a = tile.transpose %t : tensor<8x16xbf16> -> tensor<8x16xbf16>
  return %a : tensor<8x16xbf16>
}

// -----

func.func @transpose_element(%r: !tile.tile<8x16xf32>) {
  // expected-error @+1 {{'tile.transpose' op expected a rank-2 tile and its transpose (the same element type) but got '!tile.tile<8x16xf32>' -> '!tile.tile<16x8xbf16>'}}
  %b = tile.transpose %r : !tile.tile<8x16xf32> -> !tile.tile<16x8xbf16>
  return
}

// -----

!s = !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @transpose_shared_layout(%s: !s) {
  // expected-error @+1 {{'tile.transpose' op expected the input's #tile.shared layout with 'transposed' flipped}}
  %c = tile.transpose %s : !s -> !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
  return
}

// -----

!s = !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @transpose_out_of_shared(%s: !s) {
  // expected-error @+1 {{'tile.transpose' op expected both tiles in shared memory or both in registers}}
  %c = tile.transpose %s : !s -> !tile.tile<128x64xbf16>
  return
}

// -----

func.func @iota_dim() {
  // expected-error @+1 {{'tile.iota' op expected a dimension of the rank-2 result but got 2}}
  %a = tile.iota dim = 2 : !tile.tile<64x32xi32>
  return
}

// -----

func.func @iota_negative_dim() {
  // expected-error @+1 {{'tile.iota' op expected a dimension of the rank-2 result but got -1}}
  %a = tile.iota dim = -1 : !tile.tile<64x32xi32>
  return
}

// -----

func.func @iota_element() {
  // expected-error @+1 {{'tile.iota' op expected i32 or i64 elements but got 'f32'}}
  %a = tile.iota dim = 0 : !tile.tile<64x32xf32>
  return
}

// -----

// Tiles past the lowering's bounds (docs/layouts.md, "Sizes"): a register
// tile of more than 1024 elements a thread (a 4096 x 4096 tile from
// tk.load once took 24 GB to compile), a shared tile larger than a
// program's shared memory.
func.func @tile_too_large(%a: memref<4096x4096xf32>) {
  tile.kernel @big grid [1] threads 128 (%a) : memref<4096x4096xf32> {
  ^bb0(%x: memref<4096x4096xf32>):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{makes a register tile of 16777216 elements ('!tile.tile<4096x4096xf32>') over the kernel's 128 threads; at most 1024 a thread}}
    %t = tile.load %x[%c0, %c0] : memref<4096x4096xf32> -> !tile.tile<4096x4096xf32>
  }
  return
}

// -----

func.func @shared_too_large(%a: memref<4096x4096xf32>) {
  tile.kernel @big grid [1] threads 128 (%a) : memref<4096x4096xf32> {
  ^bb0(%x: memref<4096x4096xf32>):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{makes a shared-memory tile of 262144 bytes ('!tile.tile<256x256xf32, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>'); a program has at most 232448}}
    %t = tile.load %x[%c0, %c0] : memref<4096x4096xf32> -> !tile.tile<256x256xf32, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @repeat_rank(%k: tensor<2x64xbf16>) {
  // expected-error @+1 {{'tile.repeat' op expected the input and result of one rank but got 2 and 3}}
  %r = tile.repeat %k dim = 0 times = 2 : tensor<2x64xbf16> -> tensor<2x2x64xbf16>
  return
}

// -----

func.func @repeat_dim(%k: tensor<2x64xbf16>) {
  // expected-error @+1 {{'tile.repeat' op expected dim in [0, 2) but got 2}}
  %r = tile.repeat %k dim = 2 times = 2 : tensor<2x64xbf16> -> tensor<2x64xbf16>
  return
}

// -----

func.func @repeat_times(%k: tensor<2x64xbf16>) {
  // expected-error @+1 {{'tile.repeat' op expected times to be at least 1 but got 0}}
  %r = tile.repeat %k dim = 0 times = 0 : tensor<2x64xbf16> -> tensor<2x64xbf16>
  return
}

// -----

func.func @repeat_size(%k: tensor<2x64xbf16>) {
  // expected-error @+1 {{'tile.repeat' op expected result dimension 0 to be 2 times 4 but got 6}}
  %r = tile.repeat %k dim = 0 times = 4 : tensor<2x64xbf16> -> tensor<6x64xbf16>
  return
}

// -----

func.func @repeat_huge_times(%k: tensor<2x64xbf16>) {
  // expected-error @+1 {{'tile.repeat' op expected result dimension 0 to be 2 times 4611686018427387904 but got 8}}
  %r = tile.repeat %k dim = 0 times = 4611686018427387904 : tensor<2x64xbf16> -> tensor<8x64xbf16>
  return
}

// -----

func.func @repeat_other_dim(%k: tensor<2x64xbf16>) {
  // expected-error @+1 {{'tile.repeat' op expected result dimension 1 to be 64 but got 128}}
  %r = tile.repeat %k dim = 0 times = 1 : tensor<2x64xbf16> -> tensor<2x128xbf16>
  return
}

// -----

func.func @repeat_element(%k: tensor<2x64xbf16>) {
  // expected-error @+1 {{'tile.repeat' op expected the input and result element types to match but got 'bf16' and 'f16'}}
  %r = tile.repeat %k dim = 0 times = 2 : tensor<2x64xbf16> -> tensor<4x64xf16>
  return
}

// -----

func.func @last_arrival_count(%counters: memref<8xi32>, %i: index) {
  // expected-error @+1 {{'tile.last_arrival' op expected a count of at least one program but got 0}}
  %last = tile.last_arrival %counters[%i] of 0 : memref<8xi32>
  return
}

// -----

func.func @last_arrival_type(%counters: memref<8xi64>, %i: index) {
  // expected-error @+1 {{'tile.last_arrival' op operand #0 must be 1D memref of 32-bit signless integer values}}
  %last = tile.last_arrival %counters[%i] of 2 : memref<8xi64>
  return
}

// -----

func.func @unpack_type(%p: tensor<4x8xi16>) {
  // expected-error @+1 {{'tile.unpack' op expected i8 input and result (two 4-bit values per input byte) but got 'i16' -> 'i8'}}
  %q = tile.unpack %p : tensor<4x8xi16> -> tensor<4x16xi8>
  return
}

// -----

func.func @unpack_shape(%p: tensor<4x8xi8>) {
  // expected-error @+1 {{'tile.unpack' op expected the result's last dimension to be twice the input's and the others equal but got 'tensor<4x8xi8>' -> 'tensor<4x8xi8>'}}
  %q = tile.unpack %p : tensor<4x8xi8> -> tensor<4x8xi8>
  return
}

// -----

func.func @unpack_interleaved_words(%p: tensor<4x6xi8>) {
  // expected-error @+1 {{'tile.unpack' op expected whole 32-bit words (a last dimension of a multiple of 4 bytes) when interleaved but got 'tensor<4x6xi8>'}}
  %q = tile.unpack %p interleaved : tensor<4x6xi8> -> tensor<4x12xi8>
  return
}

// -----

func.func @unpack_bits_permutation(%p: tensor<4x8xi8>) {
  // expected-error @+1 {{'tile.unpack' op expected bits to be a permutation of the 32 bits of a word (bit b of value v at entry 4 v + b) but got [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 30]}}
  %q = tile.unpack %p bits = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 30] : tensor<4x8xi8> -> tensor<4x16xi8>
  return
}

// -----

func.func @unpack_bits_count(%p: tensor<4x8xi8>) {
  // expected-error @+1 {{'tile.unpack' op expected bits to be a permutation of the 32 bits of a word (bit b of value v at entry 4 v + b) but got [0, 1, 2, 3]}}
  %q = tile.unpack %p bits = [0, 1, 2, 3] : tensor<4x8xi8> -> tensor<4x16xi8>
  return
}

// -----

func.func @unpack_bits_and_interleaved(%p: tensor<4x8xi8>) {
  // expected-error @+1 {{'tile.unpack' op expected one order of the values, interleaved or bits, not both}}
  %q = tile.unpack %p interleaved bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<4x8xi8> -> tensor<4x16xi8>
  return
}

// -----

func.func @unpack_bits_words(%p: tensor<4x6xi8>) {
  // expected-error @+1 {{'tile.unpack' op expected whole 32-bit words (a last dimension of a multiple of 4 bytes) when in bits' order but got 'tensor<4x6xi8>'}}
  %q = tile.unpack %p bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<4x6xi8> -> tensor<4x12xi8>
  return
}

// -----

func.func @k_runs_value(%a: tensor<16x96xbf16>, %b: tensor<96x8xbf16>) {
  // expected-error @+1 {{'tile.matmul' op expected k_runs of 8, 16 or 32 but got 24}}
  %c = tile.matmul %a, %b k_runs = 24 : (tensor<16x96xbf16>, tensor<96x8xbf16>) -> tensor<16x8xf32>
  return
}

// -----

func.func @k_runs_blocks(%a: tensor<16x96xbf16>, %b: tensor<96x8xbf16>) {
  // expected-error @+1 {{'tile.matmul' op expected K to be a multiple of 128 (blocks of 4 k_runs) but got K = 96}}
  %c = tile.matmul %a, %b k_runs = 32 : (tensor<16x96xbf16>, tensor<96x8xbf16>) -> tensor<16x8xf32>
  return
}

// -----

func.func @k_runs_type(%a: tensor<16x128xf32>, %b: tensor<128x8xf32>) {
  // expected-error @+1 {{'tile.matmul' op takes k_runs with bf16 or f16 operands (the tensor cores' fragments) but got 'f32'}}
  %c = tile.matmul %a, %b k_runs = 32 : (tensor<16x128xf32>, tensor<128x8xf32>) -> tensor<16x8xf32>
  return
}

// -----

// k_runs on a batched matmul: the runs are mma.sync fragments of one matrix.
func.func @k_runs_batched(%a: tensor<2x16x128xbf16>, %b: tensor<2x128x8xbf16>) {
  // expected-error @+1 {{'tile.matmul' op takes k_runs with rank-2 operands without block scales only}}
  %c = tile.matmul %a, %b k_runs = 32 : (tensor<2x16x128xbf16>, tensor<2x128x8xbf16>) -> tensor<2x16x8xf32>
  return
}

// -----

// k_runs beside block scales: one or the other.
func.func @k_runs_scaled(%a: tensor<16x128xbf16>, %b: tensor<128x8xbf16>, %sa: tensor<16x1xf32>, %sb: tensor<1x8xf32>) {
  // expected-error @+1 {{'tile.matmul' op takes k_runs with rank-2 operands without block scales only}}
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 128, 1] k_runs = 32 : (tensor<16x128xbf16>, tensor<128x8xbf16>, tensor<16x1xf32>, tensor<1x8xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @k_runs_dot_blocks(%a: !tile.tile<16x32xbf16>, %b: !tile.tile<32x8xbf16>, %c: !tile.tile<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op expected K to be a multiple of 64 (blocks of 4 k_runs) but got K = 32}}
  %d = tile.dot %a, %b, %c k_runs = 16 : !tile.tile<16x32xbf16>, !tile.tile<32x8xbf16> -> !tile.tile<16x8xf32>
  return
}

// -----

func.func @unpack_level(%p: !tile.tile<4x8xi8>) {
  // expected-error @+1 {{'tile.unpack' op expected the input to be a tensor like the result but got '!tile.tile<4x8xi8>'}}
  %q = tile.unpack %p : !tile.tile<4x8xi8> -> tensor<4x16xi8>
  return
}

// -----

// Fragment-run order on B (k_runs) or on A (lhs_k_runs), not both.
func.func @k_runs_both(%a: !tile.tile<16x128xbf16>, %b: !tile.tile<128x8xbf16>, %c: !tile.tile<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op takes k_runs (B's rows) or lhs_k_runs (A's columns) in fragment-run order, not both}}
  %d = tile.dot %a, %b, %c k_runs = 32 lhs_k_runs = 32 : !tile.tile<16x128xbf16>, !tile.tile<128x8xbf16> -> !tile.tile<16x8xf32>
  return
}

// -----

func.func @lhs_k_runs_blocks(%a: !tile.tile<16x64xbf16>, %b: !tile.tile<64x8xbf16>, %c: !tile.tile<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op expected K to be a multiple of 128 (blocks of 4 lhs_k_runs) but got K = 64}}
  %d = tile.dot %a, %b, %c lhs_k_runs = 32 : !tile.tile<16x64xbf16>, !tile.tile<64x8xbf16> -> !tile.tile<16x8xf32>
  return
}

// -----

// wgmma's register A under lhs_k_runs = 32 holds runs of 32 (k_width 32).
func.func @lhs_k_runs_width(%a: !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>>, %b: !tile.tile<128x16xbf16>, %c: !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>) {
  // expected-error @+1 {{'tile.dot' op expected k_width 32 for A under lhs_k_runs = 32 but got 2}}
  %d = tile.dot %a, %b, %c lhs_k_runs = 32 : !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
  return
}

// -----

// An A in fragment runs reaches the tensor cores as wgmma's register A
// only: a B in registers (mma.sync) is refused.
func.func @lhs_k_runs_register_b(%a: !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>, k_width = 32>>, %b: !tile.tile<128x8xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>>>, %c: !tile.tile<16x8xf32, layout = #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>>) {
  // expected-error @+1 {{'tile.dot' op takes lhs_k_runs with B in shared memory (wgmma) only}}
  %d = tile.dot %a, %b, %c lhs_k_runs = 32 : !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>, k_width = 32>>, !tile.tile<128x8xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>>> -> !tile.tile<16x8xf32, layout = #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>>
  return
}

// -----

// tile.wgmma's A in fragment runs is in registers.
func.func @wgmma_lhs_k_runs_shared(%a: !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, %b: !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>, %c: !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>) {
  // expected-error @+1 {{'tile.wgmma' op expected lhs in registers under lhs_k_runs of 8, 16 or 32}}
  %d = tile.wgmma %a, %b, %c lhs_k_runs = 32 : !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
  return
}

// -----

// ... and in the k_width of its runs.
func.func @wgmma_lhs_k_runs_width(%a: !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>>, %b: !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>, %c: !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>) {
  // expected-error @+1 {{'tile.wgmma' op expected lhs in registers of k_width 32}}
  %d = tile.wgmma %a, %b, %c lhs_k_runs = 32 : !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>>, !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
  return
}

// -----

func.func @lhs_k_runs_value(%a: !tile.tile<16x96xbf16>, %b: !tile.tile<96x8xbf16>, %c: !tile.tile<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op expected lhs_k_runs of 8, 16 or 32 but got 12}}
  %d = tile.dot %a, %b, %c lhs_k_runs = 12 : !tile.tile<16x96xbf16>, !tile.tile<96x8xbf16> -> !tile.tile<16x8xf32>
  return
}

// -----

// wgmma's register A holds runs (k_width > 2) only under lhs_k_runs.
func.func @wgmma_runs_without_lhs_k_runs(%a: !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, %b: !tile.tile<128x16xbf16>, %c: !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>) {
  // expected-error @+1 {{'tile.dot' op expected k_width 2 for A under lhs_k_runs = 0 but got 32}}
  %d = tile.dot %a, %b, %c : !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
  return
}

// -----

// Stream-K is a persistent wgmma schedule without a split of its own.
// expected-error @+1 {{stream_k needs persistent = true and mma = wgmma, with no split_k, cluster, mirror_rows, transposed, k_warpgroups, or overlap without stream_k_part}}
func.func @stream_k_not_persistent() attributes {c = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, stream_k = true>}

// -----

// expected-error @+1 {{stream_k needs persistent = true and mma = wgmma, with no split_k, cluster, mirror_rows, transposed, k_warpgroups, or overlap without stream_k_part}}
func.func @stream_k_split() attributes {c = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, split_k = 2, stream_k = true>}

// -----

// An overlapped K loop takes stream-K only in parts of a fixed count of
// steps (tile-overlap: constant trip counts, or a choice of two).
// expected-error @+1 {{stream_k needs persistent = true and mma = wgmma, with no split_k, cluster, mirror_rows, transposed, k_warpgroups, or overlap without stream_k_part}}
func.func @stream_k_overlap() attributes {c = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, warp_specialize = true, overlap = true, stream_k = true>}

// -----

// expected-error @+1 {{stream_k_part (8) is a positive count of K steps, with stream_k}}
func.func @stream_k_part_without_stream_k() attributes {c = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, stream_k_part = 8>}

// -----

// expected-error @+1 {{stream_k_part (-2) is a positive count of K steps, with stream_k}}
func.func @stream_k_part_negative() attributes {c = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, stream_k = true, stream_k_part = -2>}

// -----

// A block N that is not a power of two is one wgmma instruction per warp ...
// expected-error @+1 {{a block N that is not a power of two (192) is for wgmma, without split_k_in_kernel or stream_k}}
func.func @n192_mma_sync() attributes {c = #tile.config<block = [128, 192, 32], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], stages = 3>}

// -----

// ... whose in-kernel split-K fix-up is not built for it.
// expected-error @+1 {{a block N that is not a power of two (192) is for wgmma, without split_k_in_kernel or stream_k}}
func.func @n192_split_k_in_kernel() attributes {c = #tile.config<block = [128, 192, 64], threads = 256, mma = wgmma, instr = [64, 192, 16], warps = [8, 1], stages = 4, split_k = 2, split_k_in_kernel = true>}

// -----

// The warp index broadcast is for wgmma's descriptors.
// expected-error @+1 {{uniform_warp is a wgmma kernel's (mma = wgmma)}}
func.func @uniform_warp_mma_sync() attributes {c = #tile.config<block = [128, 128, 32], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], stages = 3, uniform_warp = true>}

// -----

// expected-error @+1 {{expected true or false}}
func.func @uniform_warp_not_bool() attributes {c = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], uniform_warp = yes>}

// -----

// The TMA store epilogue is a warp-specialized wgmma kernel's.
// expected-error @+1 {{tma_store is a warp-specialized wgmma kernel's (mma = wgmma, warp_specialize = true)}}
func.func @tma_store_mma_sync() attributes {c = #tile.config<block = [128, 128, 32], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], stages = 3, tma_store = true>}

// -----

// Split-K's partials are not whole output tiles.
// expected-error @+1 {{tma_store stores whole output tiles: not with split_k, stream_k or k_warpgroups}}
func.func @tma_store_split_k() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 8, warp_specialize = true, split_k = 2, split_k_in_kernel = true, tma_store = true>}

// -----

// One program on every SM is a choice of a persistent kernel's.
// expected-error @+1 {{every_sm needs persistent = true, without mirror_rows or stream_k}}
func.func @every_sm_not_persistent() attributes {c = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, every_sm = true>}

// -----

// expected-error @+1 {{every_sm needs persistent = true, without mirror_rows or stream_k}}
func.func @every_sm_mirrored() attributes {c = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, persistent = true, warp_specialize = true, mirror_rows = true, every_sm = true>}

// -----

// PTX's L2 prefetch sizes are 64, 128 and 256 bytes.
// expected-error @+1 {{l2_fetch is 64, 128 or 256 bytes (PTX's L2 prefetch sizes) but got 32}}
func.func @l2_fetch_size() attributes {c = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, warp_specialize = true, prefetch = true, transposed = true, l2_fetch = 32>}

// -----

// The hint is for the loads prefetch moves ahead.
// expected-error @+1 {{l2_fetch hints the loads that prefetch moves ahead: it needs prefetch = true}}
func.func @l2_fetch_without_prefetch() attributes {c = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, warp_specialize = true, transposed = true, l2_fetch = 128>}

// -----

func.func @load_l2_fetch_size(%s: memref<8192x256xi8>, %i: index) {
  // expected-error @+1 {{'tile.load' op l2_fetch is 64, 128 or 256 bytes (PTX's L2 prefetch sizes) but got 100}}
  %t = tile.load %s[%i, %i] {l2_fetch = 100 : i64} : memref<8192x256xi8> -> !tile.tile<64x8xi8>
  return
}

// -----

func.func @load_l2_fetch_shared(%s: memref<64x8xi8, #gpu.address_space<workgroup>>, %i: index) {
  // expected-error @+1 {{'tile.load' op l2_fetch is for loads into registers from global memory}}
  %t = tile.load %s[%i, %i] {l2_fetch = 128 : i64} : memref<64x8xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x8xi8>
  return
}
