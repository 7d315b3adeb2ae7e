// tile-warp-specialize's decode-ahead leaves a partition's K loop as it is
// (each product waited for at once, no fence) where computing the first
// operand a step ahead would be wrong: a ring of as many stages as
// k_warpgroups partitions (a partition's next step is in the slot it
// still holds: waiting for it before giving it back would never end), and
// a step whose ring wait comes before B's view, not before the operand's
// (the operand's read a step ahead would have no wait for its slot).
// RUN: tile-opt %s --split-input-file --tile-configure=chip=sm_90a --tile-hoist-broadcast-math --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-pingpong "--tile-warp-specialize=decode-ahead=1" | FileCheck %s

// CHECK: tile.warp_specialize
// CHECK-NOT: tile.register_fence
// CHECK-NOT: pending = 1
// CHECK: tile.warp_specialize
// CHECK-NOT: tile.register_fence
// CHECK-NOT: pending = 1
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @quant_16x64x2048_int4_bf16_runs(%arg0: memref<16x2048xbf16>, %arg1: memref<64x1024xi8>, %arg2: memref<16x64xbf16>, %arg3: memref<16x64xbf16>) {
    tile.kernel @quant_16x64x2048_int4_bf16_runs_0 grid [1, 1] threads 128(%arg1, %arg2, %arg0, %arg3) : memref<64x1024xi8>, memref<16x64xbf16>, memref<16x2048xbf16>, memref<16x64xbf16> attributes {tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 4, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4>} {
    ^bb0(%arg4: memref<64x1024xi8>, %arg5: memref<16x64xbf16>, %arg6: memref<16x2048xbf16>, %arg7: memref<16x64xbf16>):
      %0 = tile.program_id 0
      %c16 = arith.constant 16 : index
      %1 = arith.muli %0, %c16 : index
      %2 = tile.program_id 1
      %c64 = arith.constant 64 : index
      %3 = arith.muli %2, %c64 : index
      %cst = arith.constant 0.000000e+00 : f32
      %4 = tile.splat %cst : f32 -> !tile.tile<64x16xf32>
      %c0 = arith.constant 0 : index
      %c2048 = arith.constant 2048 : index
      %c256 = arith.constant 256 : index
      %5 = scf.for %arg8 = %c0 to %c2048 step %c256 iter_args(%arg9 = %4) -> (!tile.tile<64x16xf32>) {
        %c0_0 = arith.constant 0 : index
        %8 = arith.addi %arg8, %c0_0 : index
        %c2 = arith.constant 2 : index
        %9 = arith.divui %8, %c2 : index
        %10 = tile.load %arg4[%3, %9] : memref<64x1024xi8> -> !tile.tile<64x64xi8>
        %11 = tile.unpack %10 signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
        %c128 = arith.constant 128 : index
        %12 = arith.divui %8, %c128 : index
        %c15 = arith.constant 15 : index
        %13 = arith.minui %12, %c15 : index
        %subview = memref.subview %arg5[%13, 0] [1, 64] [1, 1] : memref<16x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %14 = tile.load %subview[%3] : memref<64xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
        %15 = tile.broadcast %14 [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
        %16 = tile.map(%11, %15) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
        ^bb0(%arg10: i8, %arg11: bf16):
          %32 = arith.sitofp %arg10 : i8 to f32
          %33 = arith.extf %arg11 : bf16 to f32
          %34 = arith.mulf %32, %33 : f32
          %35 = arith.truncf %34 : f32 to bf16
          tile.yield %35 : bf16
        }
        %17 = tile.load %arg6[%1, %8] : memref<16x2048xbf16> -> !tile.tile<16x128xbf16>
        %18 = tile.transpose %17 : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
        %c128_1 = arith.constant 128 : index
        %19 = arith.addi %arg8, %c128_1 : index
        %c2_2 = arith.constant 2 : index
        %20 = arith.divui %19, %c2_2 : index
        %21 = tile.load %arg4[%3, %20] : memref<64x1024xi8> -> !tile.tile<64x64xi8>
        %22 = tile.unpack %21 signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
        %c128_3 = arith.constant 128 : index
        %23 = arith.divui %19, %c128_3 : index
        %c15_4 = arith.constant 15 : index
        %24 = arith.minui %23, %c15_4 : index
        %subview_5 = memref.subview %arg5[%24, 0] [1, 64] [1, 1] : memref<16x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %25 = tile.load %subview_5[%3] : memref<64xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
        %26 = tile.broadcast %25 [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
        %27 = tile.map(%22, %26) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
        ^bb0(%arg10: i8, %arg11: bf16):
          %32 = arith.sitofp %arg10 : i8 to f32
          %33 = arith.extf %arg11 : bf16 to f32
          %34 = arith.mulf %32, %33 : f32
          %35 = arith.truncf %34 : f32 to bf16
          tile.yield %35 : bf16
        }
        %28 = tile.load %arg6[%1, %19] : memref<16x2048xbf16> -> !tile.tile<16x128xbf16>
        %29 = tile.transpose %28 : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
        %30 = tile.dot %16, %18, %arg9 lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
        %31 = tile.dot %27, %29, %30 lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
        scf.yield %31 : !tile.tile<64x16xf32>
      }
      %6 = tile.transpose %5 : !tile.tile<64x16xf32> -> !tile.tile<16x64xf32>
      %7 = tile.cast %6 : !tile.tile<16x64xf32> -> !tile.tile<16x64xbf16>
      tile.store %7, %arg7[%1, %3] : !tile.tile<16x64xbf16>, memref<16x64xbf16>
    }
    return
  }
}
// -----
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @quant_16x64x2048_int4_bf16_runs(%arg0: memref<16x2048xbf16>, %arg1: memref<64x1024xi8>, %arg2: memref<16x64xbf16>, %arg3: memref<16x64xbf16>) {
    tile.kernel @quant_16x64x2048_int4_bf16_runs_0 grid [1, 1] threads 128(%arg1, %arg2, %arg0, %arg3) : memref<64x1024xi8>, memref<16x64xbf16>, memref<16x2048xbf16>, memref<16x64xbf16> attributes {tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4>} {
    ^bb0(%arg4: memref<64x1024xi8>, %arg5: memref<16x64xbf16>, %arg6: memref<16x2048xbf16>, %arg7: memref<16x64xbf16>):
      %0 = tile.program_id 0
      %c16 = arith.constant 16 : index
      %1 = arith.muli %0, %c16 : index
      %2 = tile.program_id 1
      %c64 = arith.constant 64 : index
      %3 = arith.muli %2, %c64 : index
      %cst = arith.constant 0.000000e+00 : f32
      %4 = tile.splat %cst : f32 -> !tile.tile<64x16xf32>
      %c0 = arith.constant 0 : index
      %c2048 = arith.constant 2048 : index
      %c256 = arith.constant 256 : index
      %5 = scf.for %arg8 = %c0 to %c2048 step %c256 iter_args(%arg9 = %4) -> (!tile.tile<64x16xf32>) {
        %c0_0 = arith.constant 0 : index
        %8 = arith.addi %arg8, %c0_0 : index
        %c2 = arith.constant 2 : index
        %9 = arith.divui %8, %c2 : index
        %17 = tile.load %arg6[%1, %8] : memref<16x2048xbf16> -> !tile.tile<16x128xbf16>
        %18 = tile.transpose %17 : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
        %10 = tile.load %arg4[%3, %9] : memref<64x1024xi8> -> !tile.tile<64x64xi8>
        %11 = tile.unpack %10 signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
        %c128 = arith.constant 128 : index
        %12 = arith.divui %8, %c128 : index
        %c15 = arith.constant 15 : index
        %13 = arith.minui %12, %c15 : index
        %subview = memref.subview %arg5[%13, 0] [1, 64] [1, 1] : memref<16x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %14 = tile.load %subview[%3] : memref<64xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
        %15 = tile.broadcast %14 [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
        %16 = tile.map(%11, %15) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
        ^bb0(%arg10: i8, %arg11: bf16):
          %32 = arith.sitofp %arg10 : i8 to f32
          %33 = arith.extf %arg11 : bf16 to f32
          %34 = arith.mulf %32, %33 : f32
          %35 = arith.truncf %34 : f32 to bf16
          tile.yield %35 : bf16
        }
        %c128_1 = arith.constant 128 : index
        %19 = arith.addi %arg8, %c128_1 : index
        %c2_2 = arith.constant 2 : index
        %20 = arith.divui %19, %c2_2 : index
        %21 = tile.load %arg4[%3, %20] : memref<64x1024xi8> -> !tile.tile<64x64xi8>
        %22 = tile.unpack %21 signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
        %c128_3 = arith.constant 128 : index
        %23 = arith.divui %19, %c128_3 : index
        %c15_4 = arith.constant 15 : index
        %24 = arith.minui %23, %c15_4 : index
        %subview_5 = memref.subview %arg5[%24, 0] [1, 64] [1, 1] : memref<16x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %25 = tile.load %subview_5[%3] : memref<64xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
        %26 = tile.broadcast %25 [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
        %27 = tile.map(%22, %26) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
        ^bb0(%arg10: i8, %arg11: bf16):
          %32 = arith.sitofp %arg10 : i8 to f32
          %33 = arith.extf %arg11 : bf16 to f32
          %34 = arith.mulf %32, %33 : f32
          %35 = arith.truncf %34 : f32 to bf16
          tile.yield %35 : bf16
        }
        %28 = tile.load %arg6[%1, %19] : memref<16x2048xbf16> -> !tile.tile<16x128xbf16>
        %29 = tile.transpose %28 : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
        %30 = tile.dot %16, %18, %arg9 lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
        %31 = tile.dot %27, %29, %30 lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
        scf.yield %31 : !tile.tile<64x16xf32>
      }
      %6 = tile.transpose %5 : !tile.tile<64x16xf32> -> !tile.tile<16x64xf32>
      %7 = tile.cast %6 : !tile.tile<16x64xf32> -> !tile.tile<16x64xbf16>
      tile.store %7, %arg7[%1, %3] : !tile.tile<16x64xbf16>, memref<16x64xbf16>
    }
    return
  }
}
