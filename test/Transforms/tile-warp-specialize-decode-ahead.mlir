// tile-warp-specialize's decode-ahead (DecodeAhead.h, for measuring): in
// each k_warpgroups partition's K loop of two chained products (int4 in
// fragment runs, the transposed product; three steps a partition here),
// each product's register operand (ring wait, shared-memory read, decode)
// is decoded while the product before it runs, the first one's a step
// ahead under the last product of the step before, which stays in flight
// across the loop's back edge: step 0 before the loop (its sum waited for
// there: nothing in flight enters the loop); in the loop the first product
// is issued on the carried sum, the step before waited for (pending 1)
// and its ring slot released, the second operand decoded, the second
// product issued on the first in flight, the first waited for, the next
// step's first operand decoded; the last step after the loop, then its
// sum waited for (pending 0) and its slot released. Without the option
// the loop keeps its waits (pending 0 each).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-hoist-broadcast-math --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-pingpong "--tile-warp-specialize=decode-ahead=1" | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-hoist-broadcast-math --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-pingpong --tile-warp-specialize | FileCheck %s --check-prefix=OFF

// CHECK: tile.warp_specialize
// Partition 0: step 0's operand, then step 0.
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: %[[A0:.+]] = tile.map
// CHECK: %[[F1:.+]] = tile.wgmma %[[A0]], %{{.+}}, %{{.+}} lhs_k_runs = 32
// CHECK: %[[F2:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[F1]] lhs_k_runs = 32
// CHECK-NEXT: tile.wgmma_wait %[[F1]] {pending = 1 : i64}
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: %[[N0:.+]] = tile.map
// CHECK: %[[S0:.+]] = tile.wgmma_wait %[[F2]] {pending = 0 : i64}
// CHECK-NOT: tile.arrive
// Steps 1 .. N - 2: the sum carried in flight.
// CHECK: %[[LOOP:.+]]:4 = scf.for %{{.+}} iter_args(%[[ACC:[a-z0-9_]+]] = %[[S0]], %[[OP:[a-z0-9_]+]] = %[[N0]],
// CHECK: %[[P1:.+]] = tile.wgmma %[[OP]], %{{.+}}, %[[ACC]] lhs_k_runs = 32
// CHECK-NEXT: tile.wgmma_wait %[[ACC]] {pending = 1 : i64}
// CHECK: tile.arrive
// CHECK: %[[A1:.+]] = tile.map
// CHECK: %[[P2:.+]] = tile.wgmma %[[A1]], %{{.+}}, %[[P1]] lhs_k_runs = 32
// CHECK-NEXT: tile.wgmma_wait %[[P1]] {pending = 1 : i64}
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: %[[NEXT:.+]] = tile.map
// CHECK-NOT: tile.wgmma_wait
// CHECK: scf.yield %[[P2]], %[[NEXT]],
// The last step, on the loop's operand and sum; then its sum and slot.
// CHECK: %[[L1:.+]] = tile.wgmma %[[LOOP]]#1, %{{.+}}, %[[LOOP]]#0
// CHECK-NEXT: tile.wgmma_wait %[[LOOP]]#0 {pending = 1 : i64}
// CHECK: tile.arrive
// CHECK: %[[L2:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[L1]]
// CHECK-NEXT: tile.wgmma_wait %[[L1]] {pending = 1 : i64}
// CHECK-NEXT: tile.wgmma_wait %[[L2]] {pending = 0 : i64}
// CHECK: tile.arrive

// OFF-NOT: pending = 1
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @quant_16x64x3072_int4_bf16_runs(%arg0: memref<16x3072xbf16>, %arg1: memref<64x1536xi8>, %arg2: memref<24x64xbf16>, %arg3: memref<16x64xbf16>) {
    tile.kernel @quant_16x64x3072_int4_bf16_runs_0 grid [1, 1] threads 128(%arg1, %arg2, %arg0, %arg3) : memref<64x1536xi8>, memref<24x64xbf16>, memref<16x3072xbf16>, memref<16x64xbf16> attributes {tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4>} {
    ^bb0(%arg4: memref<64x1536xi8>, %arg5: memref<24x64xbf16>, %arg6: memref<16x3072xbf16>, %arg7: memref<16x64xbf16>):
      %0 = tile.program_id 0
      %c16 = arith.constant 16 : index
      %1 = arith.muli %0, %c16 : index
      %2 = tile.program_id 1
      %c64 = arith.constant 64 : index
      %3 = arith.muli %2, %c64 : index
      %cst = arith.constant 0.000000e+00 : f32
      %4 = tile.splat %cst : f32 -> !tile.tile<64x16xf32>
      %c0 = arith.constant 0 : index
      %c3072 = arith.constant 3072 : index
      %c256 = arith.constant 256 : index
      %5 = scf.for %arg8 = %c0 to %c3072 step %c256 iter_args(%arg9 = %4) -> (!tile.tile<64x16xf32>) {
        %c0_0 = arith.constant 0 : index
        %8 = arith.addi %arg8, %c0_0 : index
        %c2 = arith.constant 2 : index
        %9 = arith.divui %8, %c2 : index
        %10 = tile.load %arg4[%3, %9] : memref<64x1536xi8> -> !tile.tile<64x64xi8>
        %11 = tile.unpack %10 signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
        %c128 = arith.constant 128 : index
        %12 = arith.divui %8, %c128 : index
        %c23 = arith.constant 23 : index
        %13 = arith.minui %12, %c23 : index
        %subview = memref.subview %arg5[%13, 0] [1, 64] [1, 1] : memref<24x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
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
        %17 = tile.load %arg6[%1, %8] : memref<16x3072xbf16> -> !tile.tile<16x128xbf16>
        %18 = tile.transpose %17 : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
        %c128_1 = arith.constant 128 : index
        %19 = arith.addi %arg8, %c128_1 : index
        %c2_2 = arith.constant 2 : index
        %20 = arith.divui %19, %c2_2 : index
        %21 = tile.load %arg4[%3, %20] : memref<64x1536xi8> -> !tile.tile<64x64xi8>
        %22 = tile.unpack %21 signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
        %c128_3 = arith.constant 128 : index
        %23 = arith.divui %19, %c128_3 : index
        %c23_4 = arith.constant 23 : index
        %24 = arith.minui %23, %c23_4 : index
        %subview_5 = memref.subview %arg5[%24, 0] [1, 64] [1, 1] : memref<24x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
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
        %28 = tile.load %arg6[%1, %19] : memref<16x3072xbf16> -> !tile.tile<16x128xbf16>
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
