// The transposed product: a weight-only matmul of at most 64 rows whose
// weight is stored in fragment runs (k_runs = 32, or 8 for MXFP4) gets,
// on a target with wgmma and TMA, the transposed product's config first
// (x's rows a power of two of at least 16: wgmma's N; 64 rows of W a
// program; steps of two blocks; a producer's ring whose stages are
// counted by the bytes it holds: 8 KiB of packed weight and 8 KiB of x a
// step, 8 stages; prefetch: the scale lines through the ring; not
// persistent), with four consumer warpgroups taking turns at the steps up
// to 32 rows (k_warpgroups = 4) and two at 64 (@rows_40: x's 64 x 256
// bf16 a step, 4 stages). tile-tile builds y^T's [64, 16] tile: each
// product the weight's stored [64, 128] tile (A, lhs_k_runs = 32) times
// x's [16, 128] tile transposed, the accumulator transposed back for the
// store. On sm_80 (no wgmma) the mma.sync kernel (tile-tile-dequant.mlir).
// RUN: tile-opt %s -split-input-file --tile-configure="chip=sm_90a" --tile-fuse --tile-tile | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure="chip=sm_80" | FileCheck %s --check-prefix=SM80

// CHECK: tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4, uniform_warp = true, l2_fetch = 128>
// CHECK: scf.for {{.+}} step %c256 iter_args(%[[ACC:.+]] = %{{.+}}) -> (!tile.tile<64x16xf32>)
// CHECK:   tile.load {{.+}} : memref<256x512xi8> -> !tile.tile<64x64xi8>
// CHECK:   %[[X0:.+]] = tile.load {{.+}} : memref<5x1024xbf16> -> !tile.tile<16x128xbf16>
// CHECK:   %[[XT0:.+]] = tile.transpose %[[X0]] : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
// CHECK:   %[[X1:.+]] = tile.load {{.+}} : memref<5x1024xbf16> -> !tile.tile<16x128xbf16>
// CHECK:   %[[XT1:.+]] = tile.transpose %[[X1]]
// CHECK:   %[[D0:.+]] = tile.dot %{{.+}}, %[[XT0]], %[[ACC]] lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
// CHECK:   %[[D1:.+]] = tile.dot %{{.+}}, %[[XT1]], %[[D0]] lhs_k_runs = 32
// CHECK:   scf.yield %[[D1]]
// CHECK: %[[Y:.+]] = tile.transpose %{{.+}} : !tile.tile<64x16xf32> -> !tile.tile<16x64xf32>
// CHECK: tile.store %[[Y]]

// SM80-LABEL: func @transposed
// SM80: mma = mma_sync
// SM80-NOT: transposed = true
// CHECK-LABEL: func @rows_40
// CHECK: block = [64, 64, 256], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 2, uniform_warp = true, l2_fetch = 128>
// SM80-LABEL: func @rows_40
// SM80: mma = mma_sync
// SM80-NOT: transposed = true

func.func @transposed(%x: tensor<5x1024xbf16>, %qw: tensor<256x512xi8>, %s: tensor<8x256xbf16>) -> tensor<5x256xf32> {
  %q = tile.unpack %qw signed interleaved : tensor<256x512xi8> -> tensor<256x1024xi8>
  %st = tile.transpose %s : tensor<8x256xbf16> -> tensor<256x8xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<256x8xbf16> -> tensor<256x1024xbf16>
  %w = tile.map (%q, %sr) : (tensor<256x1024xi8>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x1024xbf16> -> tensor<1024x256xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<5x1024xbf16>, tensor<1024x256xbf16>) -> tensor<5x256xf32>
  return %y : tensor<5x256xf32>
}

// -----

func.func @rows_40(%x: tensor<40x1024xbf16>, %qw: tensor<256x512xi8>, %s: tensor<8x256xbf16>) -> tensor<40x256xf32> {
  %q = tile.unpack %qw signed interleaved : tensor<256x512xi8> -> tensor<256x1024xi8>
  %st = tile.transpose %s : tensor<8x256xbf16> -> tensor<256x8xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<256x8xbf16> -> tensor<256x1024xbf16>
  %w = tile.map (%q, %sr) : (tensor<256x1024xi8>, tensor<256x1024xbf16>) -> tensor<256x1024xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x1024xbf16> -> tensor<1024x256xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<40x1024xbf16>, tensor<1024x256xbf16>) -> tensor<40x256xf32>
  return %y : tensor<40x256xf32>
}

// -----

// MXFP4 in runs of 8 (k_runs = 8: a block of 32, one group): the
// transposed product in steps of 256, eight products of one group each
// (lhs_k_runs = 8), each with its own group's scale column; on sm_80 the
// mma.sync kernel.
// CHECK-LABEL: func @mxfp4_runs8
// CHECK: tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4, uniform_warp = true, l2_fetch = 128>
// CHECK: scf.for {{.+}} step %c256
// CHECK-COUNT-8: tile.dot {{.+}} lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
// CHECK: scf.yield
// SM80-LABEL: func @mxfp4_runs8
// SM80: mma = mma_sync
// SM80-NOT: transposed = true
func.func @mxfp4_runs8(%x: tensor<5x1024xbf16>, %qw: tensor<256x512xi8>, %e: tensor<256x32xi8>) -> tensor<5x256xf32> {
  %q = tile.unpack %qw interleaved : tensor<256x512xi8> -> tensor<256x1024xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<256x32xi8> -> tensor<256x1024xi8>
  %w = tile.map (%q, %er) : (tensor<256x1024xi8>, tensor<256x1024xi8>) -> tensor<256x1024xbf16> {
  ^bb0(%u: i8, %ei: i8):
    %u32 = arith.extui %u : i8 to i32
    %e32 = arith.extui %ei : i8 to i32
    %c23 = arith.constant 23 : i32
    %sbits = arith.shli %e32, %c23 : i32
    %scale = arith.bitcast %sbits : i32 to f32
    %v = arith.uitofp %u32 : i32 to f32
    %ws = arith.mulf %v, %scale : f32
    %h = arith.truncf %ws : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x1024xbf16> -> tensor<1024x256xbf16>
  %y = tile.matmul %x, %wt k_runs = 8 : (tensor<5x1024xbf16>, tensor<1024x256xbf16>) -> tensor<5x256xf32>
  return %y : tensor<5x256xf32>
}

// -----

// Never more consumer warpgroups than K has steps: three steps of 256 at
// 5 rows take two (a fourth, and a third, would only wait).
// CHECK-LABEL: func @three_steps
// CHECK: transposed = true, k_warpgroups = 2, uniform_warp = true, l2_fetch = 128>
func.func @three_steps(%x: tensor<5x768xbf16>, %qw: tensor<256x384xi8>, %s: tensor<6x256xbf16>) -> tensor<5x256xf32> {
  %q = tile.unpack %qw signed interleaved : tensor<256x384xi8> -> tensor<256x768xi8>
  %st = tile.transpose %s : tensor<6x256xbf16> -> tensor<256x6xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<256x6xbf16> -> tensor<256x768xbf16>
  %w = tile.map (%q, %sr) : (tensor<256x768xi8>, tensor<256x768xbf16>) -> tensor<256x768xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x768xbf16> -> tensor<768x256xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<5x768xbf16>, tensor<768x256xbf16>) -> tensor<5x256xf32>
  return %y : tensor<5x256xf32>
}
