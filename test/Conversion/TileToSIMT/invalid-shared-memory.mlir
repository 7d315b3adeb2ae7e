// convert-tile-to-simt's errors on tiles in shared memory: loads and layout
// conversions into shared memory of rank-1 tiles, tile.async_load of a
// rank-1 tile or from rows that are not whole 16-byte runs, and a
// tile.tma_load into a tile that is neither a tile.view nor a tile.load.
// (invalid-sync-copies.mlir: tile.async_load without cp.async.) Each error
// is followed by the conversion driver's own.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(convert-tile-to-simt)'

func.func @load_rank1(%m: memref<256xbf16>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    // expected-error @+2 {{'tile.load' op loads rank-2 tiles into shared memory only}}
    // expected-error @+1 {{failed to legalize operation 'tile.load' that was explicitly marked illegal}}
    %t = tile.load %m[%c0] : memref<256xbf16> -> !tile.tile<256xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @async_load_rank1(%m: memref<256xbf16>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %buf = tile.shared : memref<2x256xbf16, #gpu.address_space<workgroup>>
    %d = tile.view %buf[%c0] : memref<2x256xbf16, #gpu.address_space<workgroup>> -> !tile.tile<256xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
    // expected-error @+2 {{'tile.async_load' op copies rank-2 tiles only}}
    // expected-error @+1 {{failed to legalize operation 'tile.async_load' that was explicitly marked illegal}}
    tile.async_load %m[%c0], %d : memref<256xbf16>, !tile.tile<256xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// Rows of 1001 bf16 are not whole 16-byte runs: no cp.async can copy them.
func.func @async_load_ragged_rows(%m: memref<64x1001xbf16>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %buf = tile.shared : memref<2x32x64xbf16, #gpu.address_space<workgroup>>
    %d = tile.view %buf[%c0] : memref<2x32x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<32x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
    // expected-error @+2 {{'tile.async_load' op needs rows of whole 16-byte runs at 16-byte-aligned columns for cp.async but got 'memref<64x1001xbf16>'}}
    // expected-error @+1 {{failed to legalize operation 'tile.async_load' that was explicitly marked illegal}}
    tile.async_load %m[%c0, %c0], %d : memref<64x1001xbf16>, !tile.tile<32x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// The destination comes out of an scf.if, not straight from a tile.view.
func.func @tma_load_dest(%desc: !llvm.ptr, %pick: i1) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %full = tile.barrier_group arrivals 1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    %ring = tile.shared : memref<2x64x64xbf16, #gpu.address_space<workgroup>>
    %d = scf.if %pick -> (!tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>) {
      %v0 = tile.view %ring[%c0] : memref<2x64x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
      scf.yield %v0 : !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
    } else {
      %v1 = tile.view %ring[%c1] : memref<2x64x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
      scf.yield %v1 : !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
    }
    // expected-error @+2 {{'tile.tma_load' op needs its destination from tile.view or a tile.load into shared memory}}
    // expected-error @+1 {{failed to legalize operation 'tile.tma_load' that was explicitly marked illegal}}
    tile.tma_load %desc[%c0, %c0], %d, %full[%c0] : !llvm.ptr, !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
    gpu.terminator
  }
  return
}

// -----

// A rank-1 tile in registers converted into shared memory.
func.func @convert_rank1_to_shared(%c: bf16) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %t = tile.splat %c : bf16 -> !tile.tile<256xbf16, layout = #tile.blocked<threads = 128, run = 1>>
    // expected-error @+2 {{'tile.convert_layout' op stores rank-2 tiles into shared memory only}}
    // expected-error @+1 {{failed to legalize operation 'tile.convert_layout' that was explicitly marked illegal}}
    %s = tile.convert_layout %t : !tile.tile<256xbf16, layout = #tile.blocked<threads = 128, run = 1>> -> !tile.tile<256xbf16, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
