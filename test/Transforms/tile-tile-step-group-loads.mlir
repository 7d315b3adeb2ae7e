// tile-tile's step group loads: a weight dequantized in the K loop whose
// per-group bytes (here one scale byte per 32 along K, as MXFP4's e8m0)
// a K step spans several of reads each row's bytes of the step as one
// integer, loaded by the step's first product from S viewed as
// [N, G / perStep] of i(8 perStep); each product takes its own byte
// (little-endian: group j in bits 8j .. 8j + 7). The column is clamped to
// the last one, as the per-group loads are (a split's last range may run
// past K). Where it does not apply, one byte column a product (the last
// two cases; tile-tile-dequant.mlir).
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile | FileCheck %s

// Four groups a step of 128 (mma.sync, sm_80's config): an i32 a row.
// CHECK-LABEL: func @four_groups_a_step
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %c128
// CHECK:   %[[FLAT:.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0, 1]] : memref<128x16xi8> into memref<2048xi8>
// CHECK:   %[[VIEW:.+]] = memref.view %[[FLAT]][%{{.+}}][] : memref<2048xi8> to memref<128x4xi32>
// CHECK:   %[[STEP:.+]] = arith.divui %[[K]], %c128{{.*}} : index
// CHECK:   %[[COL:.+]] = arith.minui %[[STEP]], %c3
// CHECK:   %[[LINE:.+]] = memref.subview %[[VIEW]][0, %[[COL]]] [128, 1] [1, 1]
// CHECK:   %[[BYTES:.+]] = tile.load %[[LINE]][%{{.+}}] : memref<128xi32, strided<[4], offset: ?>> -> !tile.tile<64xi32>
// CHECK:   %[[E0:.+]] = tile.map(%[[BYTES]])
// CHECK-NEXT: ^bb0(%[[V0:.+]]: i32):
// CHECK-NEXT:   %[[T0:.+]] = arith.trunci %[[V0]] : i32 to i8
// CHECK-NEXT:   tile.yield %[[T0]] : i8
// CHECK:   tile.broadcast %[[E0]] [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
// CHECK:   tile.map(%[[BYTES]])
// CHECK-NEXT: ^bb0(%[[V1:.+]]: i32):
// CHECK-NEXT:   %c8_i32 = arith.constant 8 : i32
// CHECK-NEXT:   %[[S1:.+]] = arith.shrui %[[V1]], %c8_i32 : i32
// CHECK-NEXT:   arith.trunci %[[S1]] : i32 to i8
// CHECK:   tile.map(%[[BYTES]])
// CHECK:     arith.shrui %{{.+}}, %c16_i32 : i32
// CHECK:   tile.map(%[[BYTES]])
// CHECK:     arith.shrui %{{.+}}, %c24_i32 : i32
// CHECK-NOT: tile.load %{{.+}} -> !tile.tile<64xi
// CHECK:   scf.yield
func.func @four_groups_a_step(%x: tensor<16x512xbf16>, %qw: tensor<128x256xi8>, %e: tensor<128x16xi8>) -> tensor<16x128xf32> {
  %q = tile.unpack %qw : tensor<128x256xi8> -> tensor<128x512xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<128x16xi8> -> tensor<128x512xi8>
  %w = tile.map (%q, %er) : (tensor<128x512xi8>, tensor<128x512xi8>) -> tensor<128x512xbf16> {
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
  %wt = tile.transpose %w : tensor<128x512xbf16> -> tensor<512x128xbf16>
  %y = tile.matmul %x, %wt {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 2, group_rows = 8>} : (tensor<16x512xbf16>, tensor<512x128xbf16>) -> tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}

// -----

// MXFP4 in runs of 8 on the transposed product (sm_90a's config): eight
// groups a step of 256, an i64 a row; the last product takes bits 56..63.
// CHECK-LABEL: func @eight_groups_a_step
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %c256
// CHECK:   memref.view %{{.+}}[%{{.+}}][] : memref<8192xi8> to memref<256x4xi64>
// CHECK:   %[[BYTES:.+]] = tile.load %{{.+}} : memref<256xi64, strided<[4], offset: ?>> -> !tile.tile<64xi64>
// CHECK-COUNT-7: arith.shrui %{{.+}}, %c{{8|16|24|32|40|48|56}}_i64 : i64
// CHECK-NOT: tile.load %{{.+}} -> !tile.tile<64xi
// CHECK: scf.yield
func.func @eight_groups_a_step(%x: tensor<16x1024xbf16>, %qw: tensor<256x512xi8>, %e: tensor<256x32xi8>) -> tensor<16x256xf32> {
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
  %y = tile.matmul %x, %wt k_runs = 8 {tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4>} : (tensor<16x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x256xf32>
  return %y : tensor<16x256xf32>
}

// -----

// Not a whole number of steps' bytes a row (17 groups: K = 544), or
// values wider than a byte (f32 scales): one column a product, as without
// the option.
// CHECK-LABEL: func @groups_not_whole_steps
// CHECK-NOT: memref.view
// CHECK-COUNT-4: tile.load %{{.+}} : memref<128xi8, strided<[17], offset: ?>> -> !tile.tile<64xi8>
// CHECK: scf.yield
func.func @groups_not_whole_steps(%x: tensor<16x544xbf16>, %qw: tensor<128x272xi8>, %e: tensor<128x17xi8>) -> tensor<16x128xf32> {
  %q = tile.unpack %qw : tensor<128x272xi8> -> tensor<128x544xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<128x17xi8> -> tensor<128x544xi8>
  %w = tile.map (%q, %er) : (tensor<128x544xi8>, tensor<128x544xi8>) -> tensor<128x544xbf16> {
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
  %wt = tile.transpose %w : tensor<128x544xbf16> -> tensor<544x128xbf16>
  %y = tile.matmul %x, %wt {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 2, group_rows = 8>} : (tensor<16x544xbf16>, tensor<544x128xbf16>) -> tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}

// -----

// CHECK-LABEL: func @f32_scales
// CHECK-NOT: memref.view
// CHECK-COUNT-4: tile.load %{{.+}} : memref<128xf32, strided<[16], offset: ?>> -> !tile.tile<64xf32>
// CHECK: scf.yield
func.func @f32_scales(%x: tensor<16x512xbf16>, %qw: tensor<128x256xi8>, %s: tensor<128x16xf32>) -> tensor<16x128xf32> {
  %q = tile.unpack %qw signed : tensor<128x256xi8> -> tensor<128x512xi8>
  %sr = tile.repeat %s dim = 1 times = 32 : tensor<128x16xf32> -> tensor<128x512xf32>
  %w = tile.map (%q, %sr) : (tensor<128x512xi8>, tensor<128x512xf32>) -> tensor<128x512xbf16> {
  ^bb0(%u: i8, %si: f32):
    %v = arith.sitofp %u : i8 to f32
    %ws = arith.mulf %v, %si : f32
    %h = arith.truncf %ws : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<128x512xbf16> -> tensor<512x128xbf16>
  %y = tile.matmul %x, %wt {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 2, group_rows = 8>} : (tensor<16x512xbf16>, tensor<512x128xbf16>) -> tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}

// -----

// Two groups a step of 64: an i16 a row.
// CHECK-LABEL: func @two_groups_a_step
// CHECK: scf.for %{{.+}} step %c64
// CHECK:   memref.view %{{.+}}[%{{.+}}][] : memref<2048xi8> to memref<128x8xi16>
// CHECK:   %[[BYTES:.+]] = tile.load %{{.+}} : memref<128xi16, strided<[8], offset: ?>> -> !tile.tile<64xi16>
// CHECK:   arith.trunci %{{.+}} : i16 to i8
// CHECK:   arith.shrui %{{.+}}, %c8_i16 : i16
// CHECK-NOT: tile.load %{{.+}} -> !tile.tile<64xi
// CHECK: scf.yield
func.func @two_groups_a_step(%x: tensor<16x512xbf16>, %qw: tensor<128x256xi8>, %e: tensor<128x16xi8>) -> tensor<16x128xf32> {
  %q = tile.unpack %qw : tensor<128x256xi8> -> tensor<128x512xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<128x16xi8> -> tensor<128x512xi8>
  %w = tile.map (%q, %er) : (tensor<128x512xi8>, tensor<128x512xi8>) -> tensor<128x512xbf16> {
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
  %wt = tile.transpose %w : tensor<128x512xbf16> -> tensor<512x128xbf16>
  %y = tile.matmul %x, %wt {tile.config = #tile.config<block = [16, 64, 64], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 2, group_rows = 8>} : (tensor<16x512xbf16>, tensor<512x128xbf16>) -> tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}
