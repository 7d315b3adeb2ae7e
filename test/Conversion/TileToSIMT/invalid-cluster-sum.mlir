// tile.cluster_sum (and tile.cluster_barrier) needs its launch clustered by exactly (1, 1, size): else
// rank 0 would add slots no program wrote (no clusters: every rank is 0),
// or ranks would write past the slots. Its stores move runs of four
// registers, so each thread's part must come in such runs.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(convert-tile-to-simt)'

func.func @cluster_sum_unclustered(%out: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c2) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %x = arith.constant 1.5 : f32
    %t = tile.splat %x : f32 -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
    // expected-error @+2 {{'tile.cluster_sum' op needs a launch in clusters of (1, 1, 2) programs (its kernel's config: cluster = [1, 1, 2])}}
    // expected-error @+1 {{failed to legalize operation 'tile.cluster_sum' that was explicitly marked illegal}}
    %s = tile.cluster_sum %t of 2 : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
    gpu.terminator
  }
  return
}

// -----

func.func @cluster_sum_other_size(%out: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c1, %sy = %c1, %sz = %c4) blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c4) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %x = arith.constant 1.5 : f32
    %t = tile.splat %x : f32 -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
    // expected-error @+2 {{'tile.cluster_sum' op needs a launch in clusters of (1, 1, 2) programs}}
    // expected-error @+1 {{failed to legalize operation 'tile.cluster_sum' that was explicitly marked illegal}}
    %s = tile.cluster_sum %t of 2 : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
    gpu.terminator
  }
  return
}

// -----

// One register a thread (a blocked tile of 256 over 128 threads): no runs of four.
func.func @cluster_sum_runs(%out: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c1, %sy = %c1, %sz = %c2) blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c2) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %x = arith.constant 1.5 : f32
    %t = tile.splat %x : f32 -> !tile.tile<256xf32, layout = #tile.blocked<threads = 128, run = 1>>
    // expected-error @+2 {{'tile.cluster_sum' op needs each thread's part of the tile in runs of four registers (a tensor-core accumulator layout)}}
    // expected-error @+1 {{failed to legalize operation 'tile.cluster_sum' that was explicitly marked illegal}}
    %s = tile.cluster_sum %t of 2 : !tile.tile<256xf32, layout = #tile.blocked<threads = 128, run = 1>>
    gpu.terminator
  }
  return
}

// -----

// tile.cluster_barrier waits for the programs of the launch's cluster: none
// without clusters.
func.func @cluster_barrier_unclustered() {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    // expected-error @+2 {{'tile.cluster_barrier' op needs a launch in clusters (its kernel's config's cluster)}}
    // expected-error @+1 {{failed to legalize operation 'tile.cluster_barrier' that was explicitly marked illegal}}
    tile.cluster_barrier
    gpu.terminator
  }
  return
}
