// tile-warp-specialize's errors, on kernels whose tile.producer marks are
// written by hand (tile-pipeline marks only its result-less scf.if copies).
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-warp-specialize

// A marked op whose result the consumers read.
func.func @producer_result(%A: memref<256x64xbf16>, %C: memref<256x64xbf16>) {
  tile.kernel @k grid [4] threads 128 (%A, %C) : memref<256x64xbf16>, memref<256x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], warp_specialize = true>} {
  ^bb0(%a: memref<256x64xbf16>, %c: memref<256x64xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %pm = tile.program_id 0
    %m0 = arith.muli %pm, %c64 : index
    // expected-error @+1 {{a producer op with results cannot be taken from the consumers}}
    %t = tile.load %a[%m0, %c0] {tile.producer} : memref<256x64xbf16> -> !tile.tile<64x64xbf16>
    tile.store %t, %c[%m0, %c0] : !tile.tile<64x64xbf16>, memref<256x64xbf16>
  }
  return
}

// -----

// A marked copy under a tile.last_arrival: both partitions would arrive.
func.func @last_arrival(%A: memref<256x64xbf16>, %C: memref<256x64xbf16>, %N: memref<4xi32>) {
  // expected-error @+1 {{the producer's copies need a tile.last_arrival, which the consumers run}}
  tile.kernel @k grid [4] threads 128 (%A, %C, %N) : memref<256x64xbf16>, memref<256x64xbf16>, memref<4xi32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], warp_specialize = true>} {
  ^bb0(%a: memref<256x64xbf16>, %c: memref<256x64xbf16>, %n: memref<4xi32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %pm = tile.program_id 0
    %m0 = arith.muli %pm, %c64 : index
    %last = tile.last_arrival %n[%pm] of 2 : memref<4xi32>
    scf.if %last {
      %t = tile.load %a[%m0, %c0] : memref<256x64xbf16> -> !tile.tile<64x64xbf16>
      tile.store %t, %c[%m0, %c0] : !tile.tile<64x64xbf16>, memref<256x64xbf16>
    } {tile.producer}
  }
  return
}

// -----

// A config of 1024 threads leaves no room for the producer's warpgroup.
func.func @too_many_threads(%A: memref<256x64xbf16>, %C: memref<256x64xbf16>) {
  // expected-error @+1 {{warp specialization needs 128 threads more than the config's 1024, over 1024}}
  tile.kernel @k grid [4] threads 1024 (%A, %C) : memref<256x64xbf16>, memref<256x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 1024, warp_specialize = true>} {
  ^bb0(%a: memref<256x64xbf16>, %c: memref<256x64xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %pm = tile.program_id 0
    %m0 = arith.muli %pm, %c64 : index
    %t = tile.load %a[%m0, %c0] : memref<256x64xbf16> -> !tile.tile<64x64xbf16>
    tile.store %t, %c[%m0, %c0] {tile.producer} : !tile.tile<64x64xbf16>, memref<256x64xbf16>
  }
  return
}
