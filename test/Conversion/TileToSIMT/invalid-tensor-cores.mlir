// convert-tile-to-simt's tensor-core errors: ldmatrix of a 32-bit tile in
// shared memory into mma.sync operands; a TMA store of warps along N. (A
// tile.dot of f32 mma.sync operands is the verifier's: invalid-tile-ops.mlir.)
// RUN: tile-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(convert-tile-to-simt)'

func.func @ldmatrix_f32(%m: memref<64x32xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %s = tile.load %m[%c0, %c0] : memref<64x32xf32> -> !tile.tile<64x32xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
    // expected-error @+2 {{'tile.convert_layout' op ldmatrix moves 16-bit elements only}}
    // expected-error @+1 {{failed to legalize operation 'tile.convert_layout' that was explicitly marked illegal}}
    %a = tile.convert_layout %s : !tile.tile<64x32xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x32xf32, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>
    gpu.terminator
  }
  return
}


// -----

// A TMA store of an accumulator whose warps are along N: a thread's pairs
// of a block would fall in the next 128-byte block (tile-tma-store leaves
// such a store a tile.store; a tile.tma_store written by hand is refused).
!acc = !tile.tile<128x256xbf16, layout = #tile.mma<wgmma, warps = [4, 2], instr = [64, 128, 16]>>
func.func @tma_store_warps_along_n(%c: memref<256x256xbf16>, %desc: !llvm.ptr) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : bf16
    %s = tile.shared : memref<2x128x64xbf16, #gpu.address_space<workgroup>>
    %t = tile.splat %zero : bf16 -> !acc
    // expected-error @+2 {{'tile.tma_store' op needs each thread's pairs in one 128-byte column block (a layout whose warps are along M)}}
    // expected-error @+1 {{failed to legalize operation 'tile.tma_store' that was explicitly marked illegal}}
    tile.tma_store %t, %c[%c0, %c0] via %desc, %s : !acc, memref<256x256xbf16>, !llvm.ptr, memref<2x128x64xbf16, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
