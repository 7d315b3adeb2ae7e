// RUN: tile-opt %s -split-input-file --convert-tile-matmul-to-wgmma | FileCheck %s
// RUN: tile-opt %s -split-input-file --convert-tile-matmul-to-mma-sync | FileCheck %s --check-prefix=SYNC
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile --convert-tile-matmul-to-wgmma | FileCheck %s --check-prefix=PADDED

// Epilogue operands against the output's shape. The tensor-core paths read
// them vector-wide wherever the output is written, and the Hopper path
// before its mask, clamped to the output's last row and last 4 columns: an
// operand must cover the output.

// A bias of 1030 for 1032 output columns does not: the kernel stays on the
// SIMT path (its tile.dot is left for convert-tile-to-simt).
// CHECK-LABEL: func @short_bias
// CHECK-NOT: nvgpu.
// CHECK: tile.dot
// SYNC-LABEL: func @short_bias
// SYNC-NOT: nvgpu.
// SYNC: tile.dot
func.func @short_bias(%arg0: memref<1024x512xbf16>, %arg1: memref<512x1032xbf16>, %arg2: memref<1030xf32>, %arg3: memref<1024x1032xbf16>) {
  tile.kernel @short_bias_0 grid [16, 17] threads 256(%arg0, %arg1, %arg2, %arg3) : memref<1024x512xbf16>, memref<512x1032xbf16>, memref<1030xf32>, memref<1024x1032xbf16> {
  ^bb0(%arg4: memref<1024x512xbf16>, %arg5: memref<512x1032xbf16>, %arg6: memref<1030xf32>, %arg7: memref<1024x1032xbf16>):
    %0 = tile.program_id 0
    %c64 = arith.constant 64 : index
    %1 = arith.muli %0, %c64 : index
    %2 = tile.program_id 1
    %c64_0 = arith.constant 64 : index
    %3 = arith.muli %2, %c64_0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %4 = tile.splat %cst : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %c16 = arith.constant 16 : index
    %5 = scf.for %arg8 = %c0 to %c512 step %c16 iter_args(%arg9 = %4) -> (!tile.tile<64x64xf32>) {
      %10 = tile.load %arg4[%1, %arg8] : memref<1024x512xbf16> -> !tile.tile<64x16xbf16>
      %11 = tile.load %arg5[%arg8, %3] : memref<512x1032xbf16> -> !tile.tile<16x64xbf16>
      %12 = tile.dot %10, %11, %arg9 : !tile.tile<64x16xbf16>, !tile.tile<16x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %12 : !tile.tile<64x64xf32>
    }
    %6 = tile.load %arg6[%3] : memref<1030xf32> -> !tile.tile<64xf32>
    %7 = tile.broadcast %6 [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %8 = tile.map(%5, %7) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%arg8: f32, %arg9: f32):
      %10 = arith.addf %arg8, %arg9 : f32
      tile.yield %10 : f32
    }
    %9 = tile.cast %8 : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %9, %arg7[%1, %3] : !tile.tile<64x64xbf16>, memref<1024x1032xbf16>
  }
  return
}

// -----

// A bias of 1034, wider than the output: taken. The bias loads are clamped
// to column 1028 (the output's last 4, 16-byte aligned) and the mask
// compares against the output's 1032 columns, not the bias's.
// CHECK-LABEL: func @long_bias
// CHECK: arith.minui %{{.+}}, %c1028
// CHECK: vector.load %{{.+}} : memref<1034xf32>, vector<4xf32>
// CHECK: arith.cmpi ult, %{{.+}}, %c1032
// CHECK-NOT: nvgpu.warpgroup.mma.store
// SYNC-LABEL: func @long_bias
// SYNC: nvvm.mma.sync
// SYNC: arith.cmpi ult, %{{.+}}, %c1032
func.func @long_bias(%arg0: memref<1024x512xbf16>, %arg1: memref<512x1032xbf16>, %arg2: memref<1034xf32>, %arg3: memref<1024x1032xbf16>) {
  tile.kernel @long_bias_0 grid [16, 17] threads 256(%arg0, %arg1, %arg2, %arg3) : memref<1024x512xbf16>, memref<512x1032xbf16>, memref<1034xf32>, memref<1024x1032xbf16> {
  ^bb0(%arg4: memref<1024x512xbf16>, %arg5: memref<512x1032xbf16>, %arg6: memref<1034xf32>, %arg7: memref<1024x1032xbf16>):
    %0 = tile.program_id 0
    %c64 = arith.constant 64 : index
    %1 = arith.muli %0, %c64 : index
    %2 = tile.program_id 1
    %c64_0 = arith.constant 64 : index
    %3 = arith.muli %2, %c64_0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %4 = tile.splat %cst : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %c512 = arith.constant 512 : index
    %c16 = arith.constant 16 : index
    %5 = scf.for %arg8 = %c0 to %c512 step %c16 iter_args(%arg9 = %4) -> (!tile.tile<64x64xf32>) {
      %10 = tile.load %arg4[%1, %arg8] : memref<1024x512xbf16> -> !tile.tile<64x16xbf16>
      %11 = tile.load %arg5[%arg8, %3] : memref<512x1032xbf16> -> !tile.tile<16x64xbf16>
      %12 = tile.dot %10, %11, %arg9 : !tile.tile<64x16xbf16>, !tile.tile<16x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %12 : !tile.tile<64x64xf32>
    }
    %6 = tile.load %arg6[%3] : memref<1034xf32> -> !tile.tile<64xf32>
    %7 = tile.broadcast %6 [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %8 = tile.map(%5, %7) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%arg8: f32, %arg9: f32):
      %10 = arith.addf %arg8, %arg9 : f32
      tile.yield %10 : f32
    }
    %9 = tile.cast %8 : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %9, %arg7[%1, %3] : !tile.tile<64x64xbf16>, memref<1024x1032xbf16>
  }
  return
}

// -----

// bf16 inputs with an f32 output of 1020 columns: tile-tile pads B (and
// the bias and residual) to 1024 columns, whose bf16 rows are 16-byte
// runs; the f32 output's rows (4080 bytes) already are, so it is not
// padded. The epilogue masks at the output's 1020 columns (it masked at
// B's 1024, writing columns 1020..1023 over the next row's first four),
// and clamps the early loads to column 1016.
// PADDED-LABEL: func @f32_out_1020
// PADDED: tile.kernel @f32_out_1020_0 grid
// PADDED-SAME: memref<1000x520xbf16>, memref<520x1024xbf16>, memref<1000x1020xf32>
// PADDED: arith.minui %{{.+}}, %c1016
// PADDED: arith.cmpi ult, %{{.+}}, %c1020 : index
// PADDED-NOT: %c1024 : index
// PADDED: vector.store %{{.+}} : memref<1000x1020xf32>, vector<4xf32>
func.func @f32_out_1020(%a: tensor<1000x520xbf16>, %b: tensor<520x1020xbf16>, %bias: tensor<1020xf32>, %res: tensor<1000x1020xf32>) -> tensor<1000x1020xf32> {
  %c = tile.matmul %a, %b : (tensor<1000x520xbf16>, tensor<520x1020xbf16>) -> tensor<1000x1020xf32>
  %bb = tile.broadcast %bias [0] : tensor<1020xf32> -> tensor<1000x1020xf32>
  %y = tile.map (%c, %bb, %res) : (tensor<1000x1020xf32>, tensor<1000x1020xf32>, tensor<1000x1020xf32>) -> tensor<1000x1020xf32> {
  ^bb0(%acc: f32, %bv: f32, %rv: f32):
    %x = arith.addf %acc, %bv : f32
    %r = arith.addf %x, %rv : f32
    tile.yield %r : f32
  }
  return %y : tensor<1000x1020xf32>
}
