// tile-persistent needs the SMs a persistent grid covers: from the
// module's tile.target (its sms, or the chip's flagship part). A module
// without a target, or a chip not in the table (sm_87) without sms, is a
// located error at the kernel. Mirrored pairs of block-rows need an even
// number of them, and clusters at least their size of SMs.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-persistent

func.func @no_target(%A: memref<128x128xf32>) {
  // expected-error @+1 {{a persistent kernel needs the target's SM count (tile.target with sms, or a chip in the table)}}
  tile.kernel @k grid [2, 2] threads 128 (%A) : memref<128x128xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, persistent = true>} {
  ^bb0(%a: memref<128x128xf32>):
    %c64 = arith.constant 64 : index
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %t = tile.load %a[%m0, %n0] : memref<128x128xf32> -> !tile.tile<64x64xf32>
    tile.store %t, %a[%m0, %n0] : !tile.tile<64x64xf32>, memref<128x128xf32>
  }
  return
}

// -----

module attributes {tile.target = #tile.target<"sm_87">} {
  func.func @unknown_chip(%A: memref<128x128xf32>) {
    // expected-error @+1 {{a persistent kernel needs the target's SM count (tile.target with sms, or a chip in the table)}}
    tile.kernel @k grid [2, 2] threads 128 (%A) : memref<128x128xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, persistent = true>} {
    ^bb0(%a: memref<128x128xf32>):
      %c64 = arith.constant 64 : index
      %pm = tile.program_id 0
      %pn = tile.program_id 1
      %m0 = arith.muli %pm, %c64 : index
      %n0 = arith.muli %pn, %c64 : index
      %t = tile.load %a[%m0, %n0] : memref<128x128xf32> -> !tile.tile<64x64xf32>
      tile.store %t, %a[%m0, %n0] : !tile.tile<64x64xf32>, memref<128x128xf32>
    }
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @mirror_odd(%A: memref<192x128xf32>) {
    // expected-error @+1 {{mirror_rows needs a 2-D grid with an even number of block-rows, got grid [3, 2]}}
    tile.kernel @k grid [3, 2] threads 128 (%A) : memref<192x128xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, persistent = true, mirror_rows = true>} {
    ^bb0(%a: memref<192x128xf32>):
      %c64 = arith.constant 64 : index
      %pm = tile.program_id 0
      %pn = tile.program_id 1
      %m0 = arith.muli %pm, %c64 : index
      %n0 = arith.muli %pn, %c64 : index
      %t = tile.load %a[%m0, %n0] : memref<192x128xf32> -> !tile.tile<64x64xf32>
      tile.store %t, %a[%m0, %n0] : !tile.tile<64x64xf32>, memref<192x128xf32>
    }
    return
  }
}

// -----

module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @mirror_one_dimension(%A: memref<256x64xf32>) {
    // expected-error @+1 {{mirror_rows needs a 2-D grid with an even number of block-rows, got 1 grid dimensions}}
    tile.kernel @k grid [4] threads 128 (%A) : memref<256x64xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, persistent = true, mirror_rows = true>} {
    ^bb0(%a: memref<256x64xf32>):
      %c64 = arith.constant 64 : index
      %pm = tile.program_id 0
      %m0 = arith.muli %pm, %c64 : index
      %c0 = arith.constant 0 : index
      %t = tile.load %a[%m0, %c0] : memref<256x64xf32> -> !tile.tile<64x64xf32>
      tile.store %t, %a[%m0, %c0] : !tile.tile<64x64xf32>, memref<256x64xf32>
    }
    return
  }
}

// -----

// Clusters of two programs along M on one SM: no whole cluster fits.
module attributes {tile.target = #tile.target<"sm_90a", sms = 1>} {
  func.func @cluster_one_sm(%A: memref<128x128xf32>) {
    // expected-error @+1 {{a persistent kernel in clusters of 2 programs needs at least as many SMs, got 1}}
    tile.kernel @k grid [2, 2] threads 128 (%A) : memref<128x128xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, persistent = true, group_rows = 2, warp_specialize = true, cluster = [2, 1]>} {
    ^bb0(%a: memref<128x128xf32>):
      %c64 = arith.constant 64 : index
      %pm = tile.program_id 0
      %pn = tile.program_id 1
      %m0 = arith.muli %pm, %c64 : index
      %n0 = arith.muli %pn, %c64 : index
      %t = tile.load %a[%m0, %n0] : memref<128x128xf32> -> !tile.tile<64x64xf32>
      tile.store %t, %a[%m0, %n0] : !tile.tile<64x64xf32>, memref<128x128xf32>
    }
    return
  }
}
