// Without cp.async (async-copies=false: before sm_80) convert-tile-to-simt
// rejects tile.async_load, followed by the conversion driver's error.
// RUN: tile-opt %s -verify-diagnostics --pass-pipeline='builtin.module(convert-tile-to-simt{async-copies=false})'

func.func @async_load_without_cp_async(%m: memref<64x64xbf16>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %buf = tile.shared : memref<2x32x64xbf16, #gpu.address_space<workgroup>>
    %d = tile.view %buf[%c0] : memref<2x32x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<32x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
    // expected-error @+2 {{'tile.async_load' op needs cp.async (sm_80 or later)}}
    // expected-error @+1 {{failed to legalize operation 'tile.async_load' that was explicitly marked illegal}}
    tile.async_load %m[%c0, %c0], %d : memref<64x64xbf16>, !tile.tile<32x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
