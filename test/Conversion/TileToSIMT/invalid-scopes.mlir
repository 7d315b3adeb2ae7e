// convert-tile-to-simt's errors about thread scopes: a tile laid out over
// other threads than its scope's (the launch's or a tile.warp_specialize
// partition's), a partition tile without a layout, scratch shared
// memory wanted by two partitions or by every copy of a replicated one, and
// a one-thread partition or one that takes turns replicated. Launches
// written by hand.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(convert-tile-to-simt)'

// A #tile.blocked tile over 128 threads in a launch of 256.
func.func @blocked_threads(%c: f32) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.splat' op has a tile laid out over 128 threads in a scope of 256: '!tile.tile<256xf32, layout = #tile.blocked<threads = 128, run = 1>>'}}
    %t = tile.splat %c : f32 -> !tile.tile<256xf32, layout = #tile.blocked<threads = 128, run = 1>>
    gpu.terminator
  }
  return
}

// -----

// An mma.sync accumulator of 2x2 warps (128 threads) in a launch of 256.
func.func @linear_threads(%c: f32) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.splat' op has a tile laid out over 128 threads in a scope of 256: '!tile.tile<32x16xf32, layout = #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>'}}
    %t = tile.splat %c : f32 -> !tile.tile<32x16xf32, layout = #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>
    gpu.terminator
  }
  return
}

// -----

// Inside a partition, tiles need layouts (of the partition's threads).
func.func @partition_without_layout(%c: f32) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    tile.warp_specialize threads [128, 128] registers [0, 0] {
      tile.return
    }, {
      // expected-error @+1 {{'tile.splat' op needs tiles with layouts inside a tile.warp_specialize partition (run tile-assign-layouts) but got '!tile.tile<128xf32>'}}
      %t = tile.splat %c : f32 -> !tile.tile<128xf32>
      tile.return
    }
    gpu.terminator
  }
  return
}

// -----

// Both partitions reduce rows, and each reduction needs the scratch region.
func.func @two_partitions_scratch(%c: f32, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  // expected-error @+1 {{more than one tile.warp_specialize partition needs scratch shared memory (reductions, broadcasts, layout conversions); only one may}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c256, %v = %c1, %w = %c1) {
    tile.warp_specialize threads [128, 128] registers [0, 0] {
      %t = tile.splat %c : f32 -> !tile.tile<8x64xf32, layout = #tile.blocked<threads = 128, run = 1>>
      %r = tile.reduce %t, %c dim = 1 : !tile.tile<8x64xf32, layout = #tile.blocked<threads = 128, run = 1>>, f32 -> !tile.tile<8xf32, layout = #tile.blocked<threads = 128, run = 1>> {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        tile.yield %s : f32
      }
      %c0 = arith.constant 0 : index
      tile.store %r, %out[%c0] : !tile.tile<8xf32, layout = #tile.blocked<threads = 128, run = 1>>, memref<8xf32>
      tile.return
    }, {
      %t = tile.splat %c : f32 -> !tile.tile<8x64xf32, layout = #tile.blocked<threads = 128, run = 1>>
      %r = tile.reduce %t, %c dim = 1 : !tile.tile<8x64xf32, layout = #tile.blocked<threads = 128, run = 1>>, f32 -> !tile.tile<8xf32, layout = #tile.blocked<threads = 128, run = 1>> {
      ^bb0(%a: f32, %b: f32):
        %s = arith.maximumf %a, %b : f32
        tile.yield %s : f32
      }
      %c0 = arith.constant 0 : index
      tile.store %r, %out[%c0] : !tile.tile<8xf32, layout = #tile.blocked<threads = 128, run = 1>>, memref<8xf32>
      tile.return
    }
    gpu.terminator
  }
  return
}

// -----

// A partition of no register tiles runs on its first thread alone: it
// cannot run as copies.
func.func @replicated_single_thread(%c: f32) {
  %c1 = arith.constant 1 : index
  %c384 = arith.constant 384 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c384, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.warp_specialize' op partition 0 runs on one thread and cannot be replicated}}
    tile.warp_specialize threads [128, 128] registers [0, 0] attributes {replicas = array<i64: 2, 1>} {
      tile.return
    }, {
      %t = tile.splat %c : f32 -> !tile.tile<128xf32, layout = #tile.blocked<threads = 128, run = 1>>
      tile.return
    }
    gpu.terminator
  }
  return
}

// -----

// Turn barriers are numbered by warpgroup in the scope: the copies of a
// replicated partition would share them.
func.func @replicated_turns(%c: f32) {
  %c1 = arith.constant 1 : index
  %c640 = arith.constant 640 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c640, %v = %c1, %w = %c1) {
    // expected-error @+1 {{'tile.warp_specialize' op partition 1 takes warpgroup turns and cannot be replicated}}
    tile.warp_specialize threads [128, 256] registers [0, 0] attributes {replicas = array<i64: 1, 2>} {
      tile.return
    }, {
      tile.turn_start
      tile.turn_begin
      tile.turn_end
      tile.return
    }
    gpu.terminator
  }
  return
}

// -----

// A reduction through scratch shared memory in every copy of a replicated
// partition: the copies would share the region, each on its own barrier.
func.func @replicated_scratch(%c: f32, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %c384 = arith.constant 384 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c384, %v = %c1, %w = %c1) {
    tile.warp_specialize threads [128, 128] registers [0, 0] attributes {replicas = array<i64: 1, 2>} {
      tile.return
    }, {
      %t = tile.splat %c : f32 -> !tile.tile<8x64xf32, layout = #tile.blocked<threads = 128, run = 1>>
      // expected-error @+1 {{'tile.reduce' op needs scratch shared memory (a reduction, broadcast or layout conversion) in every copy of a replicated tile.warp_specialize partition, which would share it; only what copy 0 alone runs (under scf.if tile.replica == 0) may}}
      %r = tile.reduce %t, %c dim = 1 : !tile.tile<8x64xf32, layout = #tile.blocked<threads = 128, run = 1>>, f32 -> !tile.tile<8xf32, layout = #tile.blocked<threads = 128, run = 1>> {
      ^bb0(%a: f32, %b: f32):
        %s = arith.addf %a, %b : f32
        tile.yield %s : f32
      }
      %c0 = arith.constant 0 : index
      tile.store %r, %out[%c0] : !tile.tile<8xf32, layout = #tile.blocked<threads = 128, run = 1>>, memref<8xf32>
      tile.return
    }
    gpu.terminator
  }
  return
}
