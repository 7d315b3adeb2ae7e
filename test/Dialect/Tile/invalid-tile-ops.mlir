// Op verifier errors of TileOps.cpp not covered by invalid.mlir or
// invalid-layouts.mlir: tiles in shared memory where registers are needed,
// matmul batches, tile.shared, tile.copy_async, tile.dot, tile.convert_layout,
// tile.view (and its columns of wider slots), tile.async_load, tile.tma_load,
// tile.tma_store, tile.barrier_group, tile.wgmma
// and tile.warp_specialize.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// An elementwise op computing on a tile in shared memory.
!s = !tile.tile<8x8xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
!h = !tile.tile<8x8xbf16, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
func.func @cast_shared(%a: !s) {
  // expected-error @+1 {{'tile.cast' op computes in registers, not on a tile in shared memory}}
  %b = tile.cast %a : !s -> !h
  return
}

// -----

// Matmul batch dimensions that differ.
func.func @matmul_batch(%a: tensor<2x4x4xf32>, %b: tensor<3x4x4xf32>) {
  // expected-error @+1 {{'tile.matmul' op expected the same batch dimensions but got 'tensor<2x4x4xf32>' x 'tensor<3x4x4xf32>' -> 'tensor<2x4x4xf32>'}}
  %c = tile.matmul %a, %b : (tensor<2x4x4xf32>, tensor<3x4x4xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

// A reduction of a tile in shared memory.
!s = !tile.tile<8x8xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
func.func @reduce_shared(%a: !s, %z: f32) {
  // expected-error @+1 {{'tile.reduce' op reduces tiles in registers, not in shared memory}}
  %r = tile.reduce %a, %z dim = 0 : !s, f32 -> !tile.tile<8xf32> {
  ^bb0(%x: f32, %y: f32):
    %w = arith.addf %x, %y : f32
    tile.yield %w : f32
  }
  return
}

// -----

// A broadcast into a tile in shared memory.
!s = !tile.tile<8x8xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
func.func @broadcast_shared(%a: !tile.tile<8xf32>) {
  // expected-error @+1 {{'tile.broadcast' op broadcasts tiles in registers, not in shared memory}}
  %b = tile.broadcast %a [1] : !tile.tile<8xf32> -> !s
  return
}

// -----

// A load into shared memory padding with a non-zero value.
!s = !tile.tile<8x8xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
func.func @load_shared_padding(%m: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.load' op loads into shared memory pad with zeros only}}
  %t = tile.load %m[%c0, %c0] {padding = 1.0 : f32} : memref<8x8xf32> -> !s
  return
}

// -----

// A store of a tile in shared memory.
!s = !tile.tile<8x8xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
func.func @store_shared(%t: !s, %m: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.store' op stores a tile in registers, not in shared memory}}
  tile.store %t, %m[%c0, %c0] : !s, memref<8x8xf32>
  return
}

// -----

// A shared buffer with a strided layout.
func.func @shared_strided() {
  // expected-error @+1 {{'tile.shared' op expected an identity layout but got 'memref<4x4xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>'}}
  %b = tile.shared : memref<4x4xf32, strided<[8, 1]>, #gpu.address_space<workgroup>>
  return
}

// -----

// An asynchronous copy from shared memory.
func.func @copy_from_shared(%x: memref<1x64xf32, #gpu.address_space<workgroup>>, %y: memref<1x64xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.copy_async' op expected a global-memory source but got 'memref<1x64xf32, #gpu.address_space<workgroup>>'}}
  tile.copy_async %x[%c0, %c0], %y[%c0, %c0] shape [1, 64] : memref<1x64xf32, #gpu.address_space<workgroup>>, memref<1x64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// An asynchronous copy of an empty shape.
func.func @copy_empty(%x: memref<8x64xf32>, %y: memref<1x64xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.copy_async' op expected a positive shape}}
  tile.copy_async %x[%c0, %c0], %y[%c0, %c0] shape [1, 0] : memref<8x64xf32>, memref<1x64xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// A dot accumulating in shared memory.
!s = !tile.tile<16x16xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
func.func @dot_shared_acc(%a: !tile.tile<16x16xf32>, %acc: !s) {
  // expected-error @+1 {{'tile.dot' op accumulates in registers, not in shared memory}}
  %d = tile.dot %a, %a, %acc : !tile.tile<16x16xf32>, !tile.tile<16x16xf32> -> !s
  return
}

// -----

// A layout conversion that changes the shape.
func.func @convert_shape(%a: !tile.tile<8x8xf32>) {
  // expected-error @+1 {{'tile.convert_layout' op expected the same shape and element type but got '!tile.tile<8x8xf32>' and '!tile.tile<8x4xf32>'}}
  %b = tile.convert_layout %a : !tile.tile<8x8xf32> -> !tile.tile<8x4xf32>
  return
}

// -----

// A view of a buffer in global memory.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @view_global(%x: memref<4x64x64xbf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.view' op expected a buffer in #gpu.address_space<workgroup> but got 'memref<4x64x64xbf16>'}}
  %v = tile.view %x[%c0] : memref<4x64x64xbf16> -> !s
  return
}

// -----

// A view as a register tile.
func.func @view_registers(%x: memref<4x64x64xbf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.view' op expected a tile in shared memory but got '!tile.tile<64x64xbf16>'}}
  %v = tile.view %x[%c0] : memref<4x64x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<64x64xbf16>
  return
}

// -----

// A part of a slot's columns past the slot's end.
func.func @view_columns_outside(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %x = tile.shared : memref<4x64x128xi8, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected '!tile.tile<64x64xi8, layout = #tile.shared<padding = 64>, memory_space = #gpu.address_space<workgroup>>' to be columns [96, 160) of the slots of 'memref<4x64x128xi8, #gpu.address_space<workgroup>>'}}
  %v = tile.view %x[%c0] column 96 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<padding = 64>, memory_space = #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A part of a slot's columns off a 16-byte boundary.
func.func @view_columns_misaligned(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %x = tile.shared : memref<4x64x128xi8, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected columns that start on a 16-byte boundary of the slot's rows but got column 8}}
  %v = tile.view %x[%c0] column 8 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x16xi8, layout = #tile.shared<padding = 112>, memory_space = #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A part of a slot's columns without the slot's row pitch.
func.func @view_columns_unpadded(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %x = tile.shared : memref<4x64x128xi8, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected a part of a slot's columns laid out unswizzled with the slot's row pitch (#tile.shared<padding = 64>), or swizzled within one column block, but got '!tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>'}}
  %v = tile.view %x[%c0] column 64 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A part of a swizzled slot's columns across two of its column blocks
// (64 bf16 each under swizzle 128).
func.func @view_columns_swizzled_across_blocks(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %x = tile.shared : memref<4x16x256xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected a part of a swizzled slot's columns within one of its column blocks of 64 but got columns [48, 80) of slots of width 256}}
  %v = tile.view %x[%c0] column 48 : memref<4x16x256xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A part of a swizzled slot's columns of sub-byte elements (the view's
// offset counts whole bytes).
func.func @view_columns_swizzled_sub_byte(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %x = tile.shared : memref<4x16x256xi4, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected a part of a swizzled slot's columns of whole-byte elements but got '!tile.tile<16x64xi4, layout = #tile.shared<swizzle = 128, padding = 64>, memory_space = #gpu.address_space<workgroup>>'}}
  %v = tile.view %x[%c0] column 0 : memref<4x16x256xi4, #gpu.address_space<workgroup>> -> !tile.tile<16x64xi4, layout = #tile.shared<swizzle = 128, padding = 64>, memory_space = #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A part inside a swizzled column block read by other than tile.wgmma or
// a convert into an A operand's runs (which would count its swizzle from
// the part's first byte): here into blocked registers.
func.func @view_columns_swizzled_read_by_load(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %x = tile.shared : memref<4x16x256xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected a part inside a swizzled column block (column 96) to be read only by tile.wgmma, K-major (its A, or its B transposed), or into registers as runs of an A operand}}
  %v = tile.view %x[%c0] column 96 : memref<4x16x256xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>>
  %r = tile.convert_layout %v : !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.blocked<threads = 128, run = 2>>
  }
  return
}

// -----

// An asynchronous load from shared memory.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
func.func @async_load_from_shared(%x: memref<64x64xbf16, #gpu.address_space<workgroup>>, %d: !s) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.async_load' op expected a global-memory source but got 'memref<64x64xbf16, #gpu.address_space<workgroup>>'}}
  tile.async_load %x[%c0, %c0], %d : memref<64x64xbf16, #gpu.address_space<workgroup>>, !s
  return
}

// -----

// An asynchronous load into registers.
func.func @async_load_to_registers(%x: memref<64x64xbf16>, %d: !tile.tile<64x64xbf16>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.async_load' op expected a destination tile in shared memory but got '!tile.tile<64x64xbf16>'}}
  tile.async_load %x[%c0, %c0], %d : memref<64x64xbf16>, !tile.tile<64x64xbf16>
  return
}

// -----

// A TMA load whose descriptor is not a pointer.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_descriptor_type(%desc: i64, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected the descriptor as an !llvm.ptr (to its 128 bytes) but got 'i64'}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : i64, !s, !bars
  return
}

// -----

// A TMA load into an unswizzled, padded tile (one box needs plain rows).
!s = !tile.tile<64x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_unswizzled(%desc: !llvm.ptr, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected a rank-2 destination in shared memory with an unpadded #tile.shared<swizzle = ...> layout, or an unpadded one of 16-byte rows and at most 256 x 256 (one box), but got '!tile.tile<64x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>'}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : !llvm.ptr, !s, !bars
  return
}

// -----

// A TMA load into a part of a swizzled column block (TMA writes whole
// blocks from their first byte).
!s = !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_swizzled_part(%desc: !llvm.ptr, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected a rank-2 destination in shared memory with an unpadded #tile.shared<swizzle = ...> layout, or an unpadded one of 16-byte rows and at most 256 x 256 (one box), but got '!tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>, memory_space = #gpu.address_space<workgroup>>'}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : !llvm.ptr, !s, !bars
  return
}

// -----

// One unswizzled box needs rows of 16-byte multiples (8 bytes here).
!s = !tile.tile<8x4xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_unswizzled_short_rows(%desc: !llvm.ptr, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected a rank-2 destination in shared memory with an unpadded #tile.shared<swizzle = ...> layout, or an unpadded one of 16-byte rows and at most 256 x 256 (one box), but got '!tile.tile<8x4xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>'}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : !llvm.ptr, !s, !bars
  return
}

// -----

// ... and at most 256 elements a box dimension.
!s = !tile.tile<8x512xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_unswizzled_wide(%desc: !llvm.ptr, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected a rank-2 destination in shared memory with an unpadded #tile.shared<swizzle = ...> layout, or an unpadded one of 16-byte rows and at most 256 x 256 (one box), but got '!tile.tile<8x512xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>'}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : !llvm.ptr, !s, !bars
  return
}

// -----

// A box of 64 bytes: the next slot of a ring of them would not start on
// the 128 bytes TMA writes at.
!s = !tile.tile<2x16xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_unaligned_box(%desc: !llvm.ptr, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected a destination of a multiple of 128 bytes (the alignment TMA writes at) but got '!tile.tile<2x16xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>'}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : !llvm.ptr, !s, !bars
  return
}

// -----

// A TMA multicast to no program of the cluster.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_multicast_none(%desc: !llvm.ptr, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected a multicast mask of cluster ranks (1 to 0xffff) but got 0}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] {multicast = 0} : !llvm.ptr, !s, !bars
  return
}

// -----

// A TMA multicast to ranks past a cluster's 16 programs.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_multicast_wide(%desc: !llvm.ptr, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected a multicast mask of cluster ranks (1 to 0xffff) but got 65536}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] {multicast = 65536} : !llvm.ptr, !s, !bars
  return
}

// -----

// Cluster arrivals with a negative mask.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @arrive_ranks_negative(%empty: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.arrive' op expected a mask of cluster ranks (1 to 0xffff) but got -1}}
  tile.arrive %empty[%c0] {ranks = -1} : !bars
  return
}

// -----

// Cluster arrivals are a warp's: not every thread's.
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @arrive_ranks_every_thread(%empty: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.arrive' op arrives per warp on the ranks' barriers: every_thread is not taken with ranks}}
  tile.arrive %empty[%c0] {every_thread, ranks = 3} : !bars
  return
}

// -----

// A TMA load with one index.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @tma_indices(%desc: !llvm.ptr, %d: !s, %full: !bars) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected 2 indices (row, column) but got 1}}
  tile.tma_load %desc[%c0], %d, %full[%c0] : !llvm.ptr, !s, !bars
  return
}

// -----

// A TMA load whose barriers are not an mbarrier group.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @tma_barriers(%desc: !llvm.ptr, %d: !s, %full: i64) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_load' op expected an !nvgpu.mbarrier.group but got 'i64'}}
  tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : !llvm.ptr, !s, i64
  return
}

// -----

// A barrier group of another type.
func.func @barrier_group_type() {
  // expected-error @+1 {{'tile.barrier_group' op expected an !nvgpu.mbarrier.group but got 'i64'}}
  %b = tile.barrier_group arrivals 1 : i64
  return
}

// -----

// A barrier group whose phases would complete with no arrival.
func.func @barrier_group_arrivals() {
  // expected-error @+1 {{'tile.barrier_group' op expected at least one arrival but got 0}}
  %b = tile.barrier_group arrivals 0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
  return
}

// -----

// A barrier group that both warps and threads arrive on: its count can be
// of only one of them.
func.func @barrier_group_mixed_arrivals(%a: memref<64xf32>) {
  tile.kernel @k grid [1] threads 128 (%a) : memref<64xf32> {
  ^bb0(%x: memref<64xf32>):
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{'tile.barrier_group' op expected its tile.arrive ops to arrive all once a warp or all once a thread (every_thread), not both}}
    %b = tile.barrier_group arrivals 4 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    // expected-note @+1 {{once a warp here}}
    tile.arrive %b[%c0] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    // expected-note @+1 {{once a thread here}}
    tile.arrive %b[%c0] {every_thread} : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A barrier group outside the top of a kernel body.
func.func @barrier_group_nested() {
  // expected-error @+1 {{'tile.barrier_group' op expected at the top of a kernel body, before any partition or loop}}
  %b = tile.barrier_group arrivals 1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 1>
  return
}

// -----

// A wgmma whose accumulator has no wgmma layout.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @wgmma_acc_layout(%a: !s, %c: !tile.tile<64x64xf32>) {
  // expected-error @+1 {{'tile.wgmma' op expected an accumulator with a #tile.mma<wgmma> layout but got '!tile.tile<64x64xf32>'}}
  %d = tile.wgmma %a, %a, %c : !s, !s -> !tile.tile<64x64xf32>
  return
}

// -----

// A wgmma of mixed 16-bit operands.
!a = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!b = !tile.tile<64x64xf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
func.func @wgmma_mixed(%a: !a, %b: !b, %c: !acc) {
  // expected-error @+1 {{'tile.wgmma' op expected bf16 or f16 operands of one type, or fp8 ones, but got 'bf16' and 'f16'}}
  %d = tile.wgmma %a, %b, %c : !a, !b -> !acc
  return
}

// -----

// A wgmma of fp8 operands whose B is stored [K, N]: wgmma reads fp8 K-major only.
!a = !tile.tile<64x64xf8E4M3FN, layout = #tile.shared<swizzle = 64>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 32]>>
func.func @wgmma_fp8_b_not_k_major(%a: !a, %b: !a, %c: !acc) {
  // expected-error @+1 {{'tile.wgmma' op expected fp8 operands in shared memory, B K-major (a transposed view), but got '!tile.tile<64x64xf8E4M3FN, layout = #tile.shared<swizzle = 64>, memory_space = #gpu.address_space<workgroup>>' x '!tile.tile<64x64xf8E4M3FN, layout = #tile.shared<swizzle = 64>, memory_space = #gpu.address_space<workgroup>>'}}
  %d = tile.wgmma %a, %b, %c : !a, !a -> !acc
  return
}

// -----

// A wgmma whose accumulator is not [M, N].
!a = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!b = !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
func.func @wgmma_shape(%a: !a, %b: !b, %c: !acc) {
  // expected-error @+1 {{'tile.wgmma' op expected [M, K] x [K, N] -> [M, N] with K a multiple of 16 but got '!tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>' x '!tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>' -> '!tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>'}}
  %d = tile.wgmma %a, %b, %c : !a, !b -> !acc
  return
}

// -----

// Partitions without a register count each.
func.func @warp_specialize_counts() {
  // expected-error @+1 {{'tile.warp_specialize' op expected one thread count and one register count per partition but got 1 and 0 for 1 partitions}}
  tile.warp_specialize threads [128] registers [] {
  }
  return
}

// -----

// A partition asking for a register count that is not a multiple of 8.
func.func @warp_specialize_registers() {
  // expected-error @+1 {{'tile.warp_specialize' op expected registers of 0 (unchanged) or a multiple of 8 in [24, 256] but got 20}}
  tile.warp_specialize threads [128] registers [20] {
  }
  return
}

// -----

// Partitions asking for more registers than the launch holds: 640 threads
// start with 96 each (61440), and setmaxnreg.inc would wait forever.
func.func @warp_specialize_register_pool() {
  // expected-error @+1 {{'tile.warp_specialize' op partitions ask for 62464 registers but a launch of 640 threads holds 61440 (96 a thread)}}
  tile.warp_specialize threads [128, 512] registers [40, 112] {
  }, {
  }
  return
}

// -----

// Partitions inside a partition.
func.func @warp_specialize_nested() {
  tile.warp_specialize threads [128] registers [0] {
    // expected-error @+1 {{'tile.warp_specialize' op cannot be nested in another partition}}
    tile.warp_specialize threads [128] registers [0] {
    }
  }
  return
}

// -----

// f32 operands of an mma.sync accumulator (mma.sync takes bf16 or f16).
func.func @mma_sync_f32(%c: f32) {
  %a = tile.splat %c : f32 -> !tile.tile<32x16xf32, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>
  %b = tile.splat %c : f32 -> !tile.tile<16x16xf32, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>
  %acc = tile.splat %c : f32 -> !tile.tile<32x16xf32, layout = #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>
  // expected-error @+1 {{'tile.dot' op expected bf16 or f16 operands for an mma.sync accumulator but got 'f32'}}
  %d = tile.dot %a, %b, %acc : !tile.tile<32x16xf32, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>, !tile.tile<16x16xf32, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>> -> !tile.tile<32x16xf32, layout = #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>
  return
}

// -----

// tile.register_fence pins registers: not a tile in shared memory.
func.func @register_fence_shared(%c: f32) {
  %t = tile.splat %c : f32 -> !tile.tile<64x64xf32, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.register_fence' op expected a register tile of 32-bit elements with a layout (or 16-bit ones of a dot operand) but got '!tile.tile<64x64xf32, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>'}}
  %f = tile.register_fence %t : !tile.tile<64x64xf32, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
  return
}

// -----

// Nor 16-bit elements (two to a register) but a dot operand's.
func.func @register_fence_bf16(%c: bf16) {
  %t = tile.splat %c : bf16 -> !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
  // expected-error @+1 {{'tile.register_fence' op expected a register tile of 32-bit elements with a layout (or 16-bit ones of a dot operand) but got '!tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>'}}
  %f = tile.register_fence %t : !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
  return
}

// -----

// tile.cluster_sum: a cluster of 2 to 8 programs.
func.func @cluster_sum_one(%c: f32) {
  %t = tile.splat %c : f32 -> !tile.tile<64x64xf32>
  // expected-error @+1 {{'tile.cluster_sum' op expected a cluster of 2 to 8 programs but got 1}}
  %s = tile.cluster_sum %t of 1 : !tile.tile<64x64xf32>
  return
}

// -----

// Of f32 registers (the partial sums).
func.func @cluster_sum_bf16(%c: bf16) {
  %t = tile.splat %c : bf16 -> !tile.tile<64x64xbf16>
  // expected-error @+1 {{'tile.cluster_sum' op expected a register tile of f32 but got '!tile.tile<64x64xbf16>'}}
  %s = tile.cluster_sum %t of 2 : !tile.tile<64x64xbf16>
  return
}

// -----

// A tensor-level op inside a kernel: kernel bodies take tiles, buffers and
// scalars (tile-tile makes the kernels of tensor-level functions).
func.func @tensor_in_kernel(%a: memref<64xf32>) {
  tile.kernel @k grid [1] threads 128 (%a) : memref<64xf32> {
  ^bb0(%x: memref<64xf32>):
    // expected-error @+1 {{'tensor.empty' op works on tensors inside tile.kernel @k: a kernel's body takes tiles, buffers and scalars (tensor-level ops belong in the function around it)}}
    %t = tensor.empty() : tensor<4xf32>
  }
  return
}

// -----

// A part of a slot's rows: whole rows, as many as divide the slot's ...
!t = !tile.tile<96x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @view_rows_not_dividing(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %ring = tile.shared : memref<2x128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected '!tile.tile<96x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>' to be a part of whole rows of the slots of 'memref<2x128x64xbf16, #gpu.address_space<workgroup>>' (as many rows as divide theirs)}}
  %v = tile.view %ring[%c0] rows %c0 : memref<2x128x64xbf16, #gpu.address_space<workgroup>> -> !t
  }
  return
}

// -----

// ... and in a swizzled slot one column block (rows of the swizzle's
// bytes): a wider slot's rows are not one after the other.
!t = !tile.tile<32x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @view_rows_two_blocks(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %ring = tile.shared : memref<2x64x128xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected a part of a swizzled slot's rows to be whole 8-row atoms of one column block (rows of 128 bytes) but got '!tile.tile<32x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>'}}
  %v = tile.view %ring[%c0] rows %c0 : memref<2x64x128xbf16, #gpu.address_space<workgroup>> -> !t
  }
  return
}

// -----

// A padded part: the slot's rows are unpadded.
!t = !tile.tile<32x56xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
func.func @view_rows_padded(%y: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%y) : memref<4xf32> {
  ^bb0(%arg: memref<4xf32>):
  %c0 = arith.constant 0 : index
  %ring = tile.shared : memref<2x64x56xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.view' op expected a part of a slot's rows in an unpadded #tile.shared layout but got '!tile.tile<32x56xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>'}}
  %v = tile.view %ring[%c0] rows %c0 : memref<2x64x56xbf16, #gpu.address_space<workgroup>> -> !t
  }
  return
}

// -----

// A TMA store of a tile that is not in a tensor-core layout.
func.func @tma_store_blocked(%y: memref<256x256xbf16>, %d: !llvm.ptr) {
  tile.kernel @k grid [1] threads 256 (%y, %d) : memref<256x256xbf16>, !llvm.ptr {
  ^bb0(%arg: memref<256x256xbf16>, %desc: !llvm.ptr):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : bf16
  %v = tile.splat %zero : bf16 -> !tile.tile<128x64xbf16>
  %s = tile.shared : memref<1x128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.tma_store' op expected a rank-2 register tile in a #tile.mma layout but got '!tile.tile<128x64xbf16>'}}
  tile.tma_store %v, %arg[%c0, %c0] via %desc, %s : !tile.tile<128x64xbf16>, memref<256x256xbf16>, !llvm.ptr, memref<1x128x64xbf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Staging slots of 64 bytes a row: the TMA's 128-byte swizzle needs 128.
func.func @tma_store_narrow_staging(%y: memref<256x256xbf16>, %d: !llvm.ptr) {
  tile.kernel @k grid [1] threads 256 (%y, %d) : memref<256x256xbf16>, !llvm.ptr {
  ^bb0(%arg: memref<256x256xbf16>, %desc: !llvm.ptr):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : bf16
  %v = tile.splat %zero : bf16 -> !tile.tile<128x64xbf16, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 64, 16]>>
  %s = tile.shared : memref<2x128x32xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.tma_store' op expected a staging buffer in shared memory of 1 or 2 slots of 128 x 64 (128 bytes a row) 'bf16' but got 'memref<2x128x32xbf16, #gpu.address_space<workgroup>>'}}
  tile.tma_store %v, %arg[%c0, %c0] via %desc, %s : !tile.tile<128x64xbf16, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 64, 16]>>, memref<256x256xbf16>, !llvm.ptr, memref<2x128x32xbf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A tile of part of a 128-byte block.
func.func @tma_store_part_block(%y: memref<256x256xbf16>, %d: !llvm.ptr) {
  tile.kernel @k grid [1] threads 256 (%y, %d) : memref<256x256xbf16>, !llvm.ptr {
  ^bb0(%arg: memref<256x256xbf16>, %desc: !llvm.ptr):
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : bf16
  %v = tile.splat %zero : bf16 -> !tile.tile<128x32xbf16, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 32, 16]>>
  %s = tile.shared : memref<1x128x64xbf16, #gpu.address_space<workgroup>>
  // expected-error @+1 {{'tile.tma_store' op expected a tile of whole 128-byte column blocks and at most 256 rows (a TMA box) but got '!tile.tile<128x32xbf16, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 32, 16]>>'}}
  tile.tma_store %v, %arg[%c0, %c0] via %desc, %s : !tile.tile<128x32xbf16, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 32, 16]>>, memref<256x256xbf16>, !llvm.ptr, memref<1x128x64xbf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The staging buffer must be the op's own tile.shared.
!acc = !tile.tile<128x64xbf16, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 64, 16]>>
func.func @tma_store_staging_argument(%arg: memref<256x256xbf16>, %desc: !llvm.ptr, %v: !acc, %s: memref<1x128x64xbf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'tile.tma_store' op expected the staging buffer from tile.shared}}
  tile.tma_store %v, %arg[%c0, %c0] via %desc, %s : !acc, memref<256x256xbf16>, !llvm.ptr, memref<1x128x64xbf16, #gpu.address_space<workgroup>>
  return
}
