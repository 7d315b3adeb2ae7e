// tile-tile on block-scaled matmuls (tile.matmul scales(...) block [...]):
// each K step's product starts from a zero accumulator and is added to the
// running sum times its block's scales, in one math.fma per element. The
// scales are read per step: a row (column) of one scale tensor through a
// 1-D view, one scalar where the tile lies within one scale block; the
// block index clamped to the last block (a split's last K range may run
// past K).
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a --tile-fuse --tile-tile | FileCheck %s

// torch's layouts: scale_a M-major (the transpose of [K / 128, M]) and
// scale_b the transpose of [N / 128, K / 128], both read as stored (the
// transposes join the matmul's group); 128 x 128 tiles within one B block.
// CHECK-LABEL: func @torch_layouts
// CHECK-NOT: tile.transpose {{.*}} tensor
// CHECK: tile.kernel @torch_layouts_0 grid [8, 9] threads 256
// CHECK: %[[ZERO:.+]] = tile.splat %{{.+}} : f32 -> !tile.tile<128x128xf32>
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[ZERO]])
// CHECK: %[[KD:.+]] = arith.divui %[[K]], %{{.+}} : index
// CHECK: %[[KB:.+]] = arith.minui %[[KD]], %c4 : index
// CHECK: %[[ROW:.+]] = memref.subview %{{.+}}[%[[KB]], 0] [1, 1000] [1, 1] : memref<5x1000xf32> to memref<1000xf32, strided<[1], offset: ?>>
// CHECK: %[[SA:.+]] = tile.load %[[ROW]][%{{.+}}] : memref<1000xf32, strided<[1], offset: ?>> -> !tile.tile<128xf32>
// CHECK: %[[SB:.+]] = memref.load %{{.+}}[%{{.+}}, %[[KB]]] : memref<9x5xf32>
// CHECK: %[[P:.+]] = tile.dot %{{.+}}, %{{.+}}, %[[ZERO]]
// CHECK: %[[SBV:.+]] = tile.splat %[[SB]] : f32 -> !tile.tile<128xf32>
// CHECK: %[[S:.+]] = tile.map(%[[SA]], %[[SBV]])
// CHECK: arith.mulf
// CHECK: %[[F:.+]] = tile.broadcast %[[S]] [1] : !tile.tile<128xf32> -> !tile.tile<128x128xf32>
// CHECK: tile.map(%[[ACC]], %[[P]], %[[F]])
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[Z:.+]]: f32):
// CHECK: math.fma %[[Y]], %[[Z]], %[[X]] : f32
func.func @torch_layouts(%a: tensor<1000x544xf8E4M3FN>, %w: tensor<1040x544xf8E4M3FN>, %sat: tensor<5x1000xf32>, %sw: tensor<9x5xf32>) -> tensor<1000x1040xbf16> {
  %wt = tile.transpose %w : tensor<1040x544xf8E4M3FN> -> tensor<544x1040xf8E4M3FN>
  %sa = tile.transpose %sat : tensor<5x1000xf32> -> tensor<1000x5xf32>
  %sb = tile.transpose %sw : tensor<9x5xf32> -> tensor<5x9xf32>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 128] : (tensor<1000x544xf8E4M3FN>, tensor<544x1040xf8E4M3FN>, tensor<1000x5xf32>, tensor<5x9xf32>) -> tensor<1000x1040xf32>
  %y = tile.cast %c : tensor<1000x1040xf32> -> tensor<1000x1040xbf16>
  return %y : tensor<1000x1040xbf16>
}

// -----

// Scales stored as they are used: A's [M, K / 128] (a column per step,
// strided) and one per column of B ([K / 128, N], a row per step): both
// vectors broadcast over the tile, multiplied in the promotion (64 x 64
// tiles: 24 programs for 132 SMs).
// CHECK-LABEL: func @stored_layouts
// CHECK: memref.subview %{{.+}}[0, %[[KB:.+]]] [256, 1] [1, 1] : memref<256x4xf32> to memref<256xf32, strided<[4], offset: ?>>
// CHECK: memref.subview %{{.+}}[%[[KB]], 0] [1, 384] [1, 1] : memref<4x384xf32> to memref<384xf32, strided<[1], offset: ?>>
// CHECK: %[[R:.+]] = tile.broadcast %{{.+}} [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
// CHECK: %[[C:.+]] = tile.broadcast %{{.+}} [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
// CHECK: tile.map(%{{.+}}, %{{.+}}, %[[R]], %[[C]])
// CHECK: ^bb0(%[[X:.+]]: f32, %[[Y:.+]]: f32, %[[U:.+]]: f32, %[[V:.+]]: f32):
// CHECK: %[[UV:.+]] = arith.mulf %[[U]], %[[V]] : f32
// CHECK: math.fma %[[Y]], %[[UV]], %[[X]] : f32
func.func @stored_layouts(%a: tensor<256x512xf8E4M3FN>, %w: tensor<384x512xf8E5M2>, %sa: tensor<256x4xf32>, %sb: tensor<4x384xf32>) -> tensor<256x384xf32> {
  %wt = tile.transpose %w : tensor<384x512xf8E5M2> -> tensor<512x384xf8E5M2>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [1, 128, 1] : (tensor<256x512xf8E4M3FN>, tensor<512x384xf8E5M2>, tensor<256x4xf32>, tensor<4x384xf32>) -> tensor<256x384xf32>
  return %c : tensor<256x384xf32>
}

// -----

// One 128-row block of A (M <= 128) given without its unit dimension, as
// the Python frontend drops it: viewed as [1, K / 128] in the loop.
// CHECK-LABEL: func @unit_dimension_dropped
// CHECK: memref.expand_shape %{{.+}} {{\[\[}}0, 1{{\]\]}} output_shape [1, 4] : memref<4xf32> into memref<1x4xf32>
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<1x4xf32>
func.func @unit_dimension_dropped(%a: tensor<100x512xf8E4M3FN>, %w: tensor<256x512xf8E4M3FN>, %sa: tensor<4xf32>, %sb: tensor<4x256xf32>) -> tensor<100x256xf32> {
  %wt = tile.transpose %w : tensor<256x512xf8E4M3FN> -> tensor<512x256xf8E4M3FN>
  %c = tile.matmul %a, %wt scales(%sa, %sb) block [128, 128, 1] : (tensor<100x512xf8E4M3FN>, tensor<512x256xf8E4M3FN>, tensor<4xf32>, tensor<4x256xf32>) -> tensor<100x256xf32>
  return %c : tensor<100x256xf32>
}

// -----

// K = 100 in blocks of 20 (5 blocks), padded to 104 for A's rows, in SIMT
// steps of 4: the step at 100 lies in the padding (zeros) and reads the
// last block's scales, block 4, not a sixth past SA's and SB's 5.
// CHECK-LABEL: func @padded_k
// CHECK: scf.for %[[K:.+]] = %c0{{.*}} to %c104{{.*}} step %c4
// CHECK: %[[KD:.+]] = arith.divui %[[K]], %c20
// CHECK: arith.minui %[[KD]], %c4
func.func @padded_k(%a: tensor<64x100xbf16>, %b: tensor<100x64xbf16>, %sa: tensor<64x5xf32>, %sb: tensor<5x64xf32>) -> tensor<64x64xf32> {
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 20, 1] {tile.config = #tile.config<block = [32, 64, 4], threads = 128, mma = simt, stages = 1>} : (tensor<64x100xbf16>, tensor<100x64xbf16>, tensor<64x5xf32>, tensor<5x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
