// convert-tile-to-simt{shared-memory-per-sm=N} checks that a kernel's
// min_programs_per_sm programs (one without) fit in the SM's shared
// memory, each with its dynamic shared memory and the 1 KB the hardware
// keeps per program; else the launch would fail or quietly run fewer
// programs per SM. 233472 is sm_90's 228 KB.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu,convert-tile-to-simt{shared-memory-per-sm=233472})'

// 2 x (115712 + 1024) = 233472: fits, exactly.
func.func @two_fit(%m: memref<1x57856xbf16>) {
  tile.kernel @k grid [1] threads 512 (%m) : memref<1x57856xbf16> attributes {min_programs_per_sm = 2 : i64} {
  ^bb0(%a: memref<1x57856xbf16>):
    %buf = tile.shared : memref<1x57856xbf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    tile.copy_async %a[%c0, %c0], %buf[%c0, %c0] shape [1, 4096] : memref<1x57856xbf16>, memref<1x57856xbf16, #gpu.address_space<workgroup>>
    tile.wait_async 0
  }
  return
}

// -----

// 2 x (116736 + 1024) = 235520: does not (nor would 2 x (115728 + 1024)).
func.func @two_do_not_fit(%m: memref<1x58368xbf16>) {
  // expected-error @+1 {{2 programs per SM of 116736 bytes of shared memory each (and 1024 the hardware keeps per program) do not fit in the SM's 233472 bytes}}
  tile.kernel @k grid [1] threads 512 (%m) : memref<1x58368xbf16> attributes {min_programs_per_sm = 2 : i64} {
  ^bb0(%a: memref<1x58368xbf16>):
    %buf = tile.shared : memref<1x58368xbf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    tile.copy_async %a[%c0, %c0], %buf[%c0, %c0] shape [1, 4096] : memref<1x58368xbf16>, memref<1x58368xbf16, #gpu.address_space<workgroup>>
    tile.wait_async 0
  }
  return
}

// -----

// Without min_programs_per_sm nothing is asked for: one program of 117 KB
// is the kernel's to choose.
func.func @no_minimum(%m: memref<1x58368xbf16>) {
  tile.kernel @k grid [1] threads 512 (%m) : memref<1x58368xbf16> {
  ^bb0(%a: memref<1x58368xbf16>):
    %buf = tile.shared : memref<1x58368xbf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    tile.copy_async %a[%c0, %c0], %buf[%c0, %c0] shape [1, 4096] : memref<1x58368xbf16>, memref<1x58368xbf16, #gpu.address_space<workgroup>>
    tile.wait_async 0
  }
  return
}

// -----

// One program (no minimum asked) must fit too: 232448 + 1024 = 233472
// would; 232464 + 1024 does not.
func.func @one_does_not_fit(%m: memref<1x116232xbf16>) {
  // expected-error @+1 {{1 program per SM of 232464 bytes of shared memory each (and 1024 the hardware keeps per program) do not fit in the SM's 233472 bytes}}
  tile.kernel @k grid [1] threads 512 (%m) : memref<1x116232xbf16> {
  ^bb0(%a: memref<1x116232xbf16>):
    %buf = tile.shared : memref<1x116232xbf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    tile.copy_async %a[%c0, %c0], %buf[%c0, %c0] shape [1, 4096] : memref<1x116232xbf16>, memref<1x116232xbf16, #gpu.address_space<workgroup>>
    tile.wait_async 0
  }
  return
}
