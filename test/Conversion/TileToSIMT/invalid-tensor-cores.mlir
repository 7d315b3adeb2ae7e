// convert-tile-to-simt's tensor-core errors on element types: ldmatrix of
// a 32-bit tile in shared memory into mma.sync operands. (A tile.dot of f32
// mma.sync operands is the verifier's: invalid-tile-ops.mlir.)
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

