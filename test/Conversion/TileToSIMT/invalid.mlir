// Every error convert-tile-to-simt reports, located at the offending op.
// The launches are written by hand so that their thread counts can be bad.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(convert-tile-to-simt)'

// tile.kernel must go through convert-tile-kernel-to-gpu first.
func.func @kernel_not_converted(%m: memref<256xf32>) {
  // expected-error @+1 {{'tile.kernel' op must be converted to gpu.launch first (run convert-tile-kernel-to-gpu)}}
  tile.kernel @k grid [1] threads 256 (%m) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %p = tile.program_id 0
    %t = tile.load %a[%p] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%p] : !tile.tile<256xf32>, memref<256xf32>
  }
  return
}

// -----

// A 24-element tile cannot be spread over 256 threads (neither divides).
func.func @tile_smaller_not_divisor(%m: memref<100xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.load' op cannot spread a tile of 24 elements over 256 threads (one must divide the other)}}
    %t = tile.load %m[%c0] : memref<100xf32> -> !tile.tile<24xf32>
    gpu.terminator
  }
  return
}

// -----

// Nor a 3x128 tile over 256 threads.
func.func @tile_larger_not_multiple(%c: f32) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.splat' op cannot spread a tile of 384 elements over 256 threads (one must divide the other)}}
    %t = tile.splat %c : f32 -> !tile.tile<3x128xf32>
    gpu.terminator
  }
  return
}

// -----

// Loads need static shapes (the flattened index is computed statically).
func.func @dynamic_memref(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.load' op expected a static, row-major memref (or a contiguous view of one) but got 'memref<?xf32>'}}
    %t = tile.load %m[%c0] : memref<?xf32> -> !tile.tile<256xf32>
    gpu.terminator
  }
  return
}

// -----

// Stores need an identity layout, or a view of one row (this is 16 rows).
func.func @strided_memref(%m: memref<16x16xf32, strided<[32, 1]>>, %c: f32) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %t = tile.splat %c : f32 -> !tile.tile<16x16xf32>
    // expected-error @+1 {{'tile.store' op expected a static, row-major memref (or a contiguous view of one) but got 'memref<16x16xf32, strided<[32, 1]>>'}}
    tile.store %t, %m[%c0, %c0] : !tile.tile<16x16xf32>, memref<16x16xf32, strided<[32, 1]>>
    gpu.terminator
  }
  return
}

// -----

// The thread count must be a constant.
func.func @dynamic_threads(%n: index, %c: f32) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op expected a constant block of (T, 1, 1) threads for the SIMT lowering}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %n, %v = %c1, %w = %c1) {
    %t = tile.splat %c : f32 -> !tile.tile<256xf32>
    gpu.terminator
  }
  return
}

// -----

// Threads must be one-dimensional.
func.func @two_dim_threads(%c: f32) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  // expected-error @+1 {{'gpu.launch' op expected a constant block of (T, 1, 1) threads for the SIMT lowering}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c2, %w = %c1) {
    %t = tile.splat %c : f32 -> !tile.tile<256xf32>
    gpu.terminator
  }
  return
}

// -----

// Tile values outside a launch are not lowered.
func.func @outside_launch(%c: f32) {
  // expected-error @+1 {{'tile.splat' op is outside a GPU launch and was not lowered}}
  %t = tile.splat %c : f32 -> !tile.tile<256xf32>
  return
}

// -----

// Nor is tensor-level IR that skipped tile-tile.
func.func @tensor_level(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'tile.cast' op is outside a GPU launch and was not lowered}}
  %y = tile.cast %a : tensor<4xf32> -> tensor<4xf16>
  return %y : tensor<4xf16>
}

// -----

// An m64n192 accumulator (its layout repeats along the columns) is summed
// along its rows (a row sum folds the repetition in each thread), not
// across them.
#n192 = #tile.mma<wgmma, warps = [8, 1], instr = [64, 192, 16]>
func.func @column_sum_n192(%m: memref<192xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %t = tile.splat %zero : f32 -> !tile.tile<128x192xf32, layout = #n192>
    %r = tile.reduce %t, %zero dim = 1 : !tile.tile<128x192xf32, layout = #n192>, f32 -> !tile.tile<128xf32, layout = #tile.slice<1, #n192>> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    // expected-error @+2 {{'tile.reduce' op cannot reduce across rows a tile whose layout repeats along its columns (an instruction N that is not a power of two)}}
    // expected-error @+1 {{failed to legalize operation 'tile.reduce' that was explicitly marked illegal}}
    %c = tile.reduce %t, %zero dim = 0 : !tile.tile<128x192xf32, layout = #n192>, f32 -> !tile.tile<192xf32, layout = #tile.slice<0, #n192>> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    tile.store %c, %m[%c0] : !tile.tile<192xf32, layout = #tile.slice<0, #n192>>, memref<192xf32>
    gpu.terminator
  }
  return
}
