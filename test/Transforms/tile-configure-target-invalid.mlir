// A hand-written tile.config that asks for what the target lacks: wgmma
// below sm_90a, mma.sync below sm_80, and a producer warpgroup (TMA copies)
// below sm_90. Each is an error located at its kernel.
// RUN: not tile-opt %s -split-input-file --tile-configure=chip=sm_80 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not tile-opt %s -split-input-file --tile-configure=chip=sm_75 2>&1 | FileCheck %s --check-prefix=SM75

!t64 = !tile.tile<64x64xbf16>
!acc = !tile.tile<64x64xf32>

// SM80: tile-configure-target-invalid.mlir:[[# @LINE + 3]]:3: error: tile.config asks for wgmma, which sm_80 does not have
// SM75: tile-configure-target-invalid.mlir:[[# @LINE + 2]]:3: error: tile.config asks for wgmma, which sm_75 does not have
func.func @wgmma(%A: memref<64x64xbf16>) {
  tile.kernel @wgmma grid [1] threads 128 (%A) : memref<64x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1]>} {
  ^bb0(%a: memref<64x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<64x64xbf16> -> !t64
    %d = tile.dot %t, %t, %z : !t64, !t64 -> !acc
  }
  return
}

// -----

!t64 = !tile.tile<64x64xbf16>
!acc = !tile.tile<64x64xf32>

// sm_80 takes this one; sm_75 has no mma.sync.
// SM80-NOT: asks for mma.sync
// SM75: tile-configure-target-invalid.mlir:[[# @LINE + 2]]:3: error: tile.config asks for mma.sync, which sm_75 does not have
func.func @mma_sync(%A: memref<64x64xbf16>) {
  tile.kernel @mma_sync grid [1] threads 128 (%A) : memref<64x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2]>} {
  ^bb0(%a: memref<64x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<64x64xbf16> -> !t64
    %d = tile.dot %t, %t, %z : !t64, !t64 -> !acc
  }
  return
}

// -----

!t64 = !tile.tile<64x64xbf16>
!acc = !tile.tile<64x64xf32>

// SM80: tile-configure-target-invalid.mlir:[[# @LINE + 2]]:3: error: tile.config asks for warp specialization, whose producer copies with the TMA, which sm_80 does not have
func.func @producer(%A: memref<64x64xbf16>) {
  tile.kernel @producer grid [1] threads 128 (%A) : memref<64x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], warp_specialize = true>} {
  ^bb0(%a: memref<64x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<64x64xbf16> -> !t64
    %d = tile.dot %t, %t, %z : !t64, !t64 -> !acc
  }
  return
}
