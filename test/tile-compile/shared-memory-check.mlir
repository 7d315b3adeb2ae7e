// tile-compile checks a kernel's shared memory against the chip's (through
// convert-tile-to-simt{shared-memory-per-sm}): the two programs per SM
// this kernel asks for, 116736 bytes each, fit neither in sm_90a's 228 KB
// nor in sm_80's 164 KB. A chip outside tile-compile's table (sm_75) is
// not checked.
// RUN: not tile-compile %s --level=tile --chip=sm_90a -o %t.bundle 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not tile-compile %s --level=tile --chip=sm_80 -o %t.bundle 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: tile-compile %s --level=tile --chip=sm_75 -o %t.bundle
// SM90: shared-memory-check.mlir:[[# @LINE + 4]]:3: error: 2 programs per SM of 116736 bytes of shared memory each (and 1024 the hardware keeps per program) do not fit in the SM's 233472 bytes
// SM80: error: 2 programs per SM of 116736 bytes of shared memory each (and 1024 the hardware keeps per program) do not fit in the SM's 167936 bytes

func.func @staged(%m: memref<1x58368xbf16>) {
  tile.kernel @k grid [1] threads 512 (%m) : memref<1x58368xbf16> attributes {min_programs_per_sm = 2 : i64} {
  ^bb0(%a: memref<1x58368xbf16>):
    %buf = tile.shared : memref<1x58368xbf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    tile.copy_async %a[%c0, %c0], %buf[%c0, %c0] shape [1, 4096] : memref<1x58368xbf16>, memref<1x58368xbf16, #gpu.address_space<workgroup>>
    tile.wait_async 0
  }
  return
}
