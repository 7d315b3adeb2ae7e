// tile-tile of a matmul whose B is a weight dequantized in its K loop
// (tile-fuse's group, WeightPrologue.h): each K step loads the packed
// bytes (half the step's K, at half its offset), unpacks them, reads one
// row of GPTQ's [K/g, N] scales through a 1-D view (the row clamped to the
// last group: a split's last K range may run past K) and broadcasts it
// along K, runs the dequantizing map on tiles, and takes the transpose as B.
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a --tile-fuse --tile-tile | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_80 --tile-fuse --tile-tile | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: func @dequantized_weight
// CHECK: tile.kernel @dequantized_weight_0 grid [1, 4] threads 256
// CHECK-SAME: mma = mma_sync
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// CHECK:   tile.load %{{.+}} : memref<16x512xbf16> -> !tile.tile<16x128xbf16>
// CHECK:   %[[HALF:.+]] = arith.divui %[[K]], %{{.+}} : index
// CHECK:   %[[BYTES:.+]] = tile.load %{{.+}}[%{{.+}}, %[[HALF]]] : memref<256x256xi8> -> !tile.tile<64x64xi8>
// CHECK:   %[[Q:.+]] = tile.unpack %[[BYTES]] signed : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
// CHECK:   %[[G:.+]] = arith.divui %[[K]], %{{.+}} : index
// CHECK:   %[[LAST:.+]] = arith.minui %[[G]], %c3 : index
// CHECK:   %[[ROW:.+]] = memref.subview %{{.+}}[%[[LAST]], 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
// CHECK:   %[[S:.+]] = tile.load %[[ROW]]
// CHECK:   %[[SB:.+]] = tile.broadcast %[[S]] [1] : !tile.tile<64xf32> -> !tile.tile<64x128xf32>
// CHECK:   %[[W:.+]] = tile.map(%[[Q]], %[[SB]]) : (!tile.tile<64x128xi8>, !tile.tile<64x128xf32>) -> !tile.tile<64x128xbf16>
// CHECK:   %[[B:.+]] = tile.transpose %[[W]] : !tile.tile<64x128xbf16> -> !tile.tile<128x64xbf16>
// CHECK:   tile.dot %{{.+}}, %[[B]], %{{.+}}
func.func @dequantized_weight(%x: tensor<16x512xbf16>, %qw: tensor<256x256xi8>, %s: tensor<4x256xf32>) -> tensor<16x256xbf16> {
  %q = tile.unpack %qw signed : tensor<256x256xi8> -> tensor<256x512xi8>
  %st = tile.transpose %s : tensor<4x256xf32> -> tensor<256x4xf32>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<256x4xf32> -> tensor<256x512xf32>
  %w = tile.map (%q, %sr) : (tensor<256x512xi8>, tensor<256x512xf32>) -> tensor<256x512xbf16> {
  ^bb0(%qi: i8, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<256x512xbf16> -> tensor<512x256xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x512xbf16>, tensor<512x256xbf16>) -> tensor<16x256xf32>
  %o = tile.cast %y : tensor<16x256xf32> -> tensor<16x256xbf16>
  return %o : tensor<16x256xbf16>
}

// -----

// Alone (not fused), a tensor-level unpack is a kernel of its own: each
// program loads half its tile's bytes at half its column offset.
// CHECK-LABEL: func @unpack_alone
// CHECK: tile.kernel @unpack_alone_0
// CHECK:   %[[C:.+]] = arith.muli %{{.+}}, %c256 : index
// CHECK:   %[[H:.+]] = arith.divui %[[C]], %c2 : index
// CHECK:   %[[B:.+]] = tile.load %{{.+}}[%{{.+}}, %[[H]]] : memref<37x100xi8> -> !tile.tile<8x128xi8>
// CHECK:   %[[U:.+]] = tile.unpack %[[B]] : !tile.tile<8x128xi8> -> !tile.tile<8x256xi8>
// CHECK:   tile.store %[[U]], %{{.+}}[%{{.+}}, %[[C]]]
func.func @unpack_alone(%p: tensor<37x100xi8>) -> tensor<37x200xi8> {
  %u = tile.unpack %p : tensor<37x100xi8> -> tensor<37x200xi8>
  return %u : tensor<37x200xi8>
}

// -----

// A weight in fragment runs (k_runs = 32) at M = 16 takes the transposed
// product on sm_90a (tile-tile-transposed-decode.mlir); on sm_80 (mma.sync)
// tile-configure's steps of 256 are two sub-steps of one block of 128 each, all loads first (x's
// tile, the packed bytes, the group's scale row; then the same at K + 128,
// with the next group's row), then the two products on the accumulator.
// CHECK-LABEL: func @k_runs_two_blocks
// CHECK: transposed = true, k_warpgroups = 4
// SM80-LABEL: func @k_runs_two_blocks
// SM80: tile.kernel @k_runs_two_blocks_0
// SM80-SAME: block = [16, 64, 256]
// SM80: scf.for %[[K:[a-z0-9_]+]] = %{{.+}} step %c256{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] =
// SM80:   %[[K0:.+]] = arith.addi %[[K]], %c0{{.*}} : index
// SM80:   %[[X0:.+]] = tile.load %{{.+}}[%{{.+}}, %[[K0]]] : memref<16x1024xbf16> -> !tile.tile<16x128xbf16>
// SM80:   tile.load {{.+}} -> !tile.tile<64x64xi8>
// SM80:   %[[G0:.+]] = arith.divui %[[K0]], %c128
// SM80:   tile.load {{.+}} -> !tile.tile<64xbf16>
// SM80:   %[[B0:.+]] = tile.transpose {{.+}} -> !tile.tile<128x64xbf16>
// SM80:   %[[K1:.+]] = arith.addi %[[K]], %c128{{.*}} : index
// SM80:   %[[X1:.+]] = tile.load %{{.+}}[%{{.+}}, %[[K1]]] : memref<16x1024xbf16> -> !tile.tile<16x128xbf16>
// SM80:   tile.load {{.+}} -> !tile.tile<64x64xi8>
// SM80:   %[[G1:.+]] = arith.divui %[[K1]], %c128
// SM80:   tile.load {{.+}} -> !tile.tile<64xbf16>
// SM80:   %[[B1:.+]] = tile.transpose {{.+}} -> !tile.tile<128x64xbf16>
// SM80:   %[[D0:.+]] = tile.dot %[[X0]], %[[B0]], %[[ACC]] k_runs = 32
// SM80:   %[[D1:.+]] = tile.dot %[[X1]], %[[B1]], %[[D0]] k_runs = 32
// SM80:   scf.yield %[[D1]]
func.func @k_runs_two_blocks(%x: tensor<16x1024xbf16>, %qw: tensor<256x512xi8>, %s: tensor<8x256xbf16>) -> tensor<16x256xf32> {
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
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<16x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x256xf32>
  return %y : tensor<16x256xf32>
}

// -----

// MXFP4-like groups of 32 along K in a config's steps of 128: four
// sub-steps of one group each (productStepK), all loads first (x's tile,
// the packed bytes, the group's scale byte: the first reads the step's
// four as one i32 a row, tile-tile-step-group-loads.mlir), then four
// products on the accumulator, without k_runs.
// CHECK-LABEL: func @groups_of_32_in_steps_of_128
// CHECK: scf.for %[[K:[a-z0-9_]+]] = %{{.+}} step %c128{{.*}} iter_args(%[[ACC:[a-z0-9_]+]] =
// CHECK:   %[[K0:.+]] = arith.addi %[[K]], %c0{{.*}} : index
// CHECK:   %[[X0:.+]] = tile.load %{{.+}}[%{{.+}}, %[[K0]]] : memref<16x512xbf16> -> !tile.tile<16x32xbf16>
// CHECK:   tile.load {{.+}} -> !tile.tile<64x16xi8>
// CHECK:   %[[S:.+]] = arith.divui %[[K]], %c128
// CHECK:   %[[C0:.+]] = arith.minui %[[S]], %c3
// CHECK:   memref.subview %{{.+}}[0, %[[C0]]] [128, 1]
// CHECK:   %[[B0:.+]] = tile.transpose {{.+}} -> !tile.tile<32x64xbf16>
// CHECK:   %[[K1:.+]] = arith.addi %[[K]], %c32{{.*}} : index
// CHECK:   %[[X1:.+]] = tile.load %{{.+}}[%{{.+}}, %[[K1]]] : memref<16x512xbf16> -> !tile.tile<16x32xbf16>
// CHECK:   arith.shrui %{{.+}}, %c8_i32 : i32
// CHECK:   %[[B1:.+]] = tile.transpose {{.+}} -> !tile.tile<32x64xbf16>
// CHECK:   %[[K2:.+]] = arith.addi %[[K]], %c64{{.*}} : index
// CHECK:   %[[X2:.+]] = tile.load %{{.+}}[%{{.+}}, %[[K2]]] : memref<16x512xbf16> -> !tile.tile<16x32xbf16>
// CHECK:   arith.shrui %{{.+}}, %c16_i32 : i32
// CHECK:   %[[B2:.+]] = tile.transpose {{.+}} -> !tile.tile<32x64xbf16>
// CHECK:   %[[K3:.+]] = arith.addi %[[K]], %c96{{.*}} : index
// CHECK:   %[[X3:.+]] = tile.load %{{.+}}[%{{.+}}, %[[K3]]] : memref<16x512xbf16> -> !tile.tile<16x32xbf16>
// CHECK:   arith.shrui %{{.+}}, %c24_i32 : i32
// CHECK:   %[[B3:.+]] = tile.transpose {{.+}} -> !tile.tile<32x64xbf16>
// CHECK:   %[[D0:.+]] = tile.dot %[[X0]], %[[B0]], %[[ACC]] :
// CHECK:   %[[D1:.+]] = tile.dot %[[X1]], %[[B1]], %[[D0]] :
// CHECK:   %[[D2:.+]] = tile.dot %[[X2]], %[[B2]], %[[D1]] :
// CHECK:   %[[D3:.+]] = tile.dot %[[X3]], %[[B3]], %[[D2]] :
// CHECK:   scf.yield %[[D3]]
func.func @groups_of_32_in_steps_of_128(%x: tensor<16x512xbf16>, %qw: tensor<128x256xi8>, %e: tensor<128x16xi8>) -> tensor<16x128xf32> {
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
