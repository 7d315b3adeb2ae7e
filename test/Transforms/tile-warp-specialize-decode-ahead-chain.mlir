// tile-warp-specialize's decode-ahead on a chain of eight products a step
// (MXFP4 in runs of 8 on the transposed product: one product a scale
// group of 32; three steps a partition): in the loop the first product is
// issued on the carried sum (the last step's last product, in flight), that
// step waited for and its slot released; then each next operand is decoded
// while the product before it runs: product k + 1 is issued on product k's
// accumulator in flight, then product k is waited for (pending 1); the next
// step's first operand (its ring wait first) last, the sum yielded in
// flight.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-hoist-broadcast-math --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-pingpong "--tile-warp-specialize=decode-ahead=1" | FileCheck %s

// CHECK: tile.warp_specialize
// CHECK: scf.for %{{.+}} iter_args(%[[ACC:[a-z0-9_]+]] = %{{[a-z0-9_]+}}, %[[OP:[a-z0-9_]+]] = %{{[a-z0-9_]+}},
// CHECK: %[[P1:.+]] = tile.wgmma %[[OP]], %{{.+}}, %[[ACC]] lhs_k_runs = 8
// CHECK-NEXT: tile.wgmma_wait %[[ACC]] {pending = 1 : i64}
// CHECK: tile.arrive
// CHECK: %[[P2:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[P1]] lhs_k_runs = 8
// CHECK-NEXT: tile.wgmma_wait %[[P1]] {pending = 1 : i64}
// CHECK: %[[P3:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[P2]] lhs_k_runs = 8
// CHECK-NEXT: tile.wgmma_wait %[[P2]] {pending = 1 : i64}
// CHECK: %[[P4:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[P3]] lhs_k_runs = 8
// CHECK-NEXT: tile.wgmma_wait %[[P3]] {pending = 1 : i64}
// CHECK: %[[P5:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[P4]] lhs_k_runs = 8
// CHECK-NEXT: tile.wgmma_wait %[[P4]] {pending = 1 : i64}
// CHECK: %[[P6:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[P5]] lhs_k_runs = 8
// CHECK-NEXT: tile.wgmma_wait %[[P5]] {pending = 1 : i64}
// CHECK: %[[P7:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[P6]] lhs_k_runs = 8
// CHECK-NEXT: tile.wgmma_wait %[[P6]] {pending = 1 : i64}
// CHECK: %[[P8:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[P7]] lhs_k_runs = 8
// CHECK-NEXT: tile.wgmma_wait %[[P7]] {pending = 1 : i64}
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: tile.map
// CHECK-NOT: tile.wgmma_wait
// CHECK: scf.yield %[[P8]], %{{[0-9]+}},

module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @quant_16x64x3072_mxfp4_bits_runs(%arg0: memref<16x3072xbf16>, %arg1: memref<64x1536xi8>, %arg2: memref<64x96xi8>, %arg3: memref<16x64xbf16>) {
    tile.kernel @quant_16x64x3072_mxfp4_bits_runs_0 grid [1, 1] threads 128(%arg1, %arg2, %arg0, %arg3) : memref<64x1536xi8>, memref<64x96xi8>, memref<16x3072xbf16>, memref<16x64xbf16> attributes {tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4>} {
    ^bb0(%arg4: memref<64x1536xi8>, %arg5: memref<64x96xi8>, %arg6: memref<16x3072xbf16>, %arg7: memref<16x64xbf16>):
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
        %10 = tile.load %arg4[%3, %9] : memref<64x1536xi8> -> !tile.tile<64x16xi8>
        %11 = tile.unpack %10 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
        %c32 = arith.constant 32 : index
        %12 = arith.divui %8, %c32 : index
        %c95 = arith.constant 95 : index
        %13 = arith.minui %12, %c95 : index
        %subview = memref.subview %arg5[0, %13] [64, 1] [1, 1] : memref<64x96xi8> to memref<64xi8, strided<[96], offset: ?>>
        %14 = tile.load %subview[%3] : memref<64xi8, strided<[96], offset: ?>> -> !tile.tile<64xi8>
        %15 = tile.broadcast %14 [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
        %16 = tile.map(%11, %15) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
        ^bb0(%arg10: i8, %arg11: i8):
          %c7_i32 = arith.constant 7 : i32
          %c8_i32 = arith.constant 8 : i32
          %c15_i32 = arith.constant 15 : i32
          %c22_i32 = arith.constant 22 : i32
          %c23_i32 = arith.constant 23 : i32
          %c28_i32 = arith.constant 28 : i32
          %c120_i32 = arith.constant 120 : i32
          %cst_31 = arith.constant 8.50705917E+37 : f32
          %104 = arith.extui %arg10 : i8 to i32
          %105 = arith.andi %104, %c7_i32 : i32
          %106 = arith.shli %105, %c22_i32 : i32
          %107 = arith.andi %104, %c8_i32 : i32
          %108 = arith.shli %107, %c28_i32 : i32
          %109 = arith.ori %106, %108 : i32
          %110 = arith.bitcast %109 : i32 to f32
          %111 = arith.mulf %110, %cst_31 : f32
          %112 = arith.extui %arg11 : i8 to i32
          %113 = arith.andi %112, %c15_i32 : i32
          %114 = arith.addi %113, %c120_i32 : i32
          %115 = arith.shli %114, %c23_i32 : i32
          %116 = arith.bitcast %115 : i32 to f32
          %117 = arith.mulf %111, %116 : f32
          %118 = arith.truncf %117 : f32 to bf16
          tile.yield %118 : bf16
        }
        %17 = tile.load %arg6[%1, %8] : memref<16x3072xbf16> -> !tile.tile<16x32xbf16>
        %18 = tile.transpose %17 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
        %c32_1 = arith.constant 32 : index
        %19 = arith.addi %arg8, %c32_1 : index
        %c2_2 = arith.constant 2 : index
        %20 = arith.divui %19, %c2_2 : index
        %21 = tile.load %arg4[%3, %20] : memref<64x1536xi8> -> !tile.tile<64x16xi8>
        %22 = tile.unpack %21 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
        %c32_3 = arith.constant 32 : index
        %23 = arith.divui %19, %c32_3 : index
        %c95_4 = arith.constant 95 : index
        %24 = arith.minui %23, %c95_4 : index
        %subview_5 = memref.subview %arg5[0, %24] [64, 1] [1, 1] : memref<64x96xi8> to memref<64xi8, strided<[96], offset: ?>>
        %25 = tile.load %subview_5[%3] : memref<64xi8, strided<[96], offset: ?>> -> !tile.tile<64xi8>
        %26 = tile.broadcast %25 [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
        %27 = tile.map(%22, %26) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
        ^bb0(%arg10: i8, %arg11: i8):
          %c7_i32 = arith.constant 7 : i32
          %c8_i32 = arith.constant 8 : i32
          %c15_i32 = arith.constant 15 : i32
          %c22_i32 = arith.constant 22 : i32
          %c23_i32 = arith.constant 23 : i32
          %c28_i32 = arith.constant 28 : i32
          %c120_i32 = arith.constant 120 : i32
          %cst_31 = arith.constant 8.50705917E+37 : f32
          %104 = arith.extui %arg10 : i8 to i32
          %105 = arith.andi %104, %c7_i32 : i32
          %106 = arith.shli %105, %c22_i32 : i32
          %107 = arith.andi %104, %c8_i32 : i32
          %108 = arith.shli %107, %c28_i32 : i32
          %109 = arith.ori %106, %108 : i32
          %110 = arith.bitcast %109 : i32 to f32
          %111 = arith.mulf %110, %cst_31 : f32
          %112 = arith.extui %arg11 : i8 to i32
          %113 = arith.andi %112, %c15_i32 : i32
          %114 = arith.addi %113, %c120_i32 : i32
          %115 = arith.shli %114, %c23_i32 : i32
          %116 = arith.bitcast %115 : i32 to f32
          %117 = arith.mulf %111, %116 : f32
          %118 = arith.truncf %117 : f32 to bf16
          tile.yield %118 : bf16
        }
        %28 = tile.load %arg6[%1, %19] : memref<16x3072xbf16> -> !tile.tile<16x32xbf16>
        %29 = tile.transpose %28 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
        %c64_6 = arith.constant 64 : index
        %30 = arith.addi %arg8, %c64_6 : index
        %c2_7 = arith.constant 2 : index
        %31 = arith.divui %30, %c2_7 : index
        %32 = tile.load %arg4[%3, %31] : memref<64x1536xi8> -> !tile.tile<64x16xi8>
        %33 = tile.unpack %32 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
        %c32_8 = arith.constant 32 : index
        %34 = arith.divui %30, %c32_8 : index
        %c95_9 = arith.constant 95 : index
        %35 = arith.minui %34, %c95_9 : index
        %subview_10 = memref.subview %arg5[0, %35] [64, 1] [1, 1] : memref<64x96xi8> to memref<64xi8, strided<[96], offset: ?>>
        %36 = tile.load %subview_10[%3] : memref<64xi8, strided<[96], offset: ?>> -> !tile.tile<64xi8>
        %37 = tile.broadcast %36 [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
        %38 = tile.map(%33, %37) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
        ^bb0(%arg10: i8, %arg11: i8):
          %c7_i32 = arith.constant 7 : i32
          %c8_i32 = arith.constant 8 : i32
          %c15_i32 = arith.constant 15 : i32
          %c22_i32 = arith.constant 22 : i32
          %c23_i32 = arith.constant 23 : i32
          %c28_i32 = arith.constant 28 : i32
          %c120_i32 = arith.constant 120 : i32
          %cst_31 = arith.constant 8.50705917E+37 : f32
          %104 = arith.extui %arg10 : i8 to i32
          %105 = arith.andi %104, %c7_i32 : i32
          %106 = arith.shli %105, %c22_i32 : i32
          %107 = arith.andi %104, %c8_i32 : i32
          %108 = arith.shli %107, %c28_i32 : i32
          %109 = arith.ori %106, %108 : i32
          %110 = arith.bitcast %109 : i32 to f32
          %111 = arith.mulf %110, %cst_31 : f32
          %112 = arith.extui %arg11 : i8 to i32
          %113 = arith.andi %112, %c15_i32 : i32
          %114 = arith.addi %113, %c120_i32 : i32
          %115 = arith.shli %114, %c23_i32 : i32
          %116 = arith.bitcast %115 : i32 to f32
          %117 = arith.mulf %111, %116 : f32
          %118 = arith.truncf %117 : f32 to bf16
          tile.yield %118 : bf16
        }
        %39 = tile.load %arg6[%1, %30] : memref<16x3072xbf16> -> !tile.tile<16x32xbf16>
        %40 = tile.transpose %39 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
        %c96 = arith.constant 96 : index
        %41 = arith.addi %arg8, %c96 : index
        %c2_11 = arith.constant 2 : index
        %42 = arith.divui %41, %c2_11 : index
        %43 = tile.load %arg4[%3, %42] : memref<64x1536xi8> -> !tile.tile<64x16xi8>
        %44 = tile.unpack %43 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
        %c32_12 = arith.constant 32 : index
        %45 = arith.divui %41, %c32_12 : index
        %c95_13 = arith.constant 95 : index
        %46 = arith.minui %45, %c95_13 : index
        %subview_14 = memref.subview %arg5[0, %46] [64, 1] [1, 1] : memref<64x96xi8> to memref<64xi8, strided<[96], offset: ?>>
        %47 = tile.load %subview_14[%3] : memref<64xi8, strided<[96], offset: ?>> -> !tile.tile<64xi8>
        %48 = tile.broadcast %47 [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
        %49 = tile.map(%44, %48) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
        ^bb0(%arg10: i8, %arg11: i8):
          %c7_i32 = arith.constant 7 : i32
          %c8_i32 = arith.constant 8 : i32
          %c15_i32 = arith.constant 15 : i32
          %c22_i32 = arith.constant 22 : i32
          %c23_i32 = arith.constant 23 : i32
          %c28_i32 = arith.constant 28 : i32
          %c120_i32 = arith.constant 120 : i32
          %cst_31 = arith.constant 8.50705917E+37 : f32
          %104 = arith.extui %arg10 : i8 to i32
          %105 = arith.andi %104, %c7_i32 : i32
          %106 = arith.shli %105, %c22_i32 : i32
          %107 = arith.andi %104, %c8_i32 : i32
          %108 = arith.shli %107, %c28_i32 : i32
          %109 = arith.ori %106, %108 : i32
          %110 = arith.bitcast %109 : i32 to f32
          %111 = arith.mulf %110, %cst_31 : f32
          %112 = arith.extui %arg11 : i8 to i32
          %113 = arith.andi %112, %c15_i32 : i32
          %114 = arith.addi %113, %c120_i32 : i32
          %115 = arith.shli %114, %c23_i32 : i32
          %116 = arith.bitcast %115 : i32 to f32
          %117 = arith.mulf %111, %116 : f32
          %118 = arith.truncf %117 : f32 to bf16
          tile.yield %118 : bf16
        }
        %50 = tile.load %arg6[%1, %41] : memref<16x3072xbf16> -> !tile.tile<16x32xbf16>
        %51 = tile.transpose %50 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
        %c128 = arith.constant 128 : index
        %52 = arith.addi %arg8, %c128 : index
        %c2_15 = arith.constant 2 : index
        %53 = arith.divui %52, %c2_15 : index
        %54 = tile.load %arg4[%3, %53] : memref<64x1536xi8> -> !tile.tile<64x16xi8>
        %55 = tile.unpack %54 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
        %c32_16 = arith.constant 32 : index
        %56 = arith.divui %52, %c32_16 : index
        %c95_17 = arith.constant 95 : index
        %57 = arith.minui %56, %c95_17 : index
        %subview_18 = memref.subview %arg5[0, %57] [64, 1] [1, 1] : memref<64x96xi8> to memref<64xi8, strided<[96], offset: ?>>
        %58 = tile.load %subview_18[%3] : memref<64xi8, strided<[96], offset: ?>> -> !tile.tile<64xi8>
        %59 = tile.broadcast %58 [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
        %60 = tile.map(%55, %59) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
        ^bb0(%arg10: i8, %arg11: i8):
          %c7_i32 = arith.constant 7 : i32
          %c8_i32 = arith.constant 8 : i32
          %c15_i32 = arith.constant 15 : i32
          %c22_i32 = arith.constant 22 : i32
          %c23_i32 = arith.constant 23 : i32
          %c28_i32 = arith.constant 28 : i32
          %c120_i32 = arith.constant 120 : i32
          %cst_31 = arith.constant 8.50705917E+37 : f32
          %104 = arith.extui %arg10 : i8 to i32
          %105 = arith.andi %104, %c7_i32 : i32
          %106 = arith.shli %105, %c22_i32 : i32
          %107 = arith.andi %104, %c8_i32 : i32
          %108 = arith.shli %107, %c28_i32 : i32
          %109 = arith.ori %106, %108 : i32
          %110 = arith.bitcast %109 : i32 to f32
          %111 = arith.mulf %110, %cst_31 : f32
          %112 = arith.extui %arg11 : i8 to i32
          %113 = arith.andi %112, %c15_i32 : i32
          %114 = arith.addi %113, %c120_i32 : i32
          %115 = arith.shli %114, %c23_i32 : i32
          %116 = arith.bitcast %115 : i32 to f32
          %117 = arith.mulf %111, %116 : f32
          %118 = arith.truncf %117 : f32 to bf16
          tile.yield %118 : bf16
        }
        %61 = tile.load %arg6[%1, %52] : memref<16x3072xbf16> -> !tile.tile<16x32xbf16>
        %62 = tile.transpose %61 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
        %c160 = arith.constant 160 : index
        %63 = arith.addi %arg8, %c160 : index
        %c2_19 = arith.constant 2 : index
        %64 = arith.divui %63, %c2_19 : index
        %65 = tile.load %arg4[%3, %64] : memref<64x1536xi8> -> !tile.tile<64x16xi8>
        %66 = tile.unpack %65 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
        %c32_20 = arith.constant 32 : index
        %67 = arith.divui %63, %c32_20 : index
        %c95_21 = arith.constant 95 : index
        %68 = arith.minui %67, %c95_21 : index
        %subview_22 = memref.subview %arg5[0, %68] [64, 1] [1, 1] : memref<64x96xi8> to memref<64xi8, strided<[96], offset: ?>>
        %69 = tile.load %subview_22[%3] : memref<64xi8, strided<[96], offset: ?>> -> !tile.tile<64xi8>
        %70 = tile.broadcast %69 [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
        %71 = tile.map(%66, %70) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
        ^bb0(%arg10: i8, %arg11: i8):
          %c7_i32 = arith.constant 7 : i32
          %c8_i32 = arith.constant 8 : i32
          %c15_i32 = arith.constant 15 : i32
          %c22_i32 = arith.constant 22 : i32
          %c23_i32 = arith.constant 23 : i32
          %c28_i32 = arith.constant 28 : i32
          %c120_i32 = arith.constant 120 : i32
          %cst_31 = arith.constant 8.50705917E+37 : f32
          %104 = arith.extui %arg10 : i8 to i32
          %105 = arith.andi %104, %c7_i32 : i32
          %106 = arith.shli %105, %c22_i32 : i32
          %107 = arith.andi %104, %c8_i32 : i32
          %108 = arith.shli %107, %c28_i32 : i32
          %109 = arith.ori %106, %108 : i32
          %110 = arith.bitcast %109 : i32 to f32
          %111 = arith.mulf %110, %cst_31 : f32
          %112 = arith.extui %arg11 : i8 to i32
          %113 = arith.andi %112, %c15_i32 : i32
          %114 = arith.addi %113, %c120_i32 : i32
          %115 = arith.shli %114, %c23_i32 : i32
          %116 = arith.bitcast %115 : i32 to f32
          %117 = arith.mulf %111, %116 : f32
          %118 = arith.truncf %117 : f32 to bf16
          tile.yield %118 : bf16
        }
        %72 = tile.load %arg6[%1, %63] : memref<16x3072xbf16> -> !tile.tile<16x32xbf16>
        %73 = tile.transpose %72 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
        %c192 = arith.constant 192 : index
        %74 = arith.addi %arg8, %c192 : index
        %c2_23 = arith.constant 2 : index
        %75 = arith.divui %74, %c2_23 : index
        %76 = tile.load %arg4[%3, %75] : memref<64x1536xi8> -> !tile.tile<64x16xi8>
        %77 = tile.unpack %76 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
        %c32_24 = arith.constant 32 : index
        %78 = arith.divui %74, %c32_24 : index
        %c95_25 = arith.constant 95 : index
        %79 = arith.minui %78, %c95_25 : index
        %subview_26 = memref.subview %arg5[0, %79] [64, 1] [1, 1] : memref<64x96xi8> to memref<64xi8, strided<[96], offset: ?>>
        %80 = tile.load %subview_26[%3] : memref<64xi8, strided<[96], offset: ?>> -> !tile.tile<64xi8>
        %81 = tile.broadcast %80 [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
        %82 = tile.map(%77, %81) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
        ^bb0(%arg10: i8, %arg11: i8):
          %c7_i32 = arith.constant 7 : i32
          %c8_i32 = arith.constant 8 : i32
          %c15_i32 = arith.constant 15 : i32
          %c22_i32 = arith.constant 22 : i32
          %c23_i32 = arith.constant 23 : i32
          %c28_i32 = arith.constant 28 : i32
          %c120_i32 = arith.constant 120 : i32
          %cst_31 = arith.constant 8.50705917E+37 : f32
          %104 = arith.extui %arg10 : i8 to i32
          %105 = arith.andi %104, %c7_i32 : i32
          %106 = arith.shli %105, %c22_i32 : i32
          %107 = arith.andi %104, %c8_i32 : i32
          %108 = arith.shli %107, %c28_i32 : i32
          %109 = arith.ori %106, %108 : i32
          %110 = arith.bitcast %109 : i32 to f32
          %111 = arith.mulf %110, %cst_31 : f32
          %112 = arith.extui %arg11 : i8 to i32
          %113 = arith.andi %112, %c15_i32 : i32
          %114 = arith.addi %113, %c120_i32 : i32
          %115 = arith.shli %114, %c23_i32 : i32
          %116 = arith.bitcast %115 : i32 to f32
          %117 = arith.mulf %111, %116 : f32
          %118 = arith.truncf %117 : f32 to bf16
          tile.yield %118 : bf16
        }
        %83 = tile.load %arg6[%1, %74] : memref<16x3072xbf16> -> !tile.tile<16x32xbf16>
        %84 = tile.transpose %83 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
        %c224 = arith.constant 224 : index
        %85 = arith.addi %arg8, %c224 : index
        %c2_27 = arith.constant 2 : index
        %86 = arith.divui %85, %c2_27 : index
        %87 = tile.load %arg4[%3, %86] : memref<64x1536xi8> -> !tile.tile<64x16xi8>
        %88 = tile.unpack %87 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
        %c32_28 = arith.constant 32 : index
        %89 = arith.divui %85, %c32_28 : index
        %c95_29 = arith.constant 95 : index
        %90 = arith.minui %89, %c95_29 : index
        %subview_30 = memref.subview %arg5[0, %90] [64, 1] [1, 1] : memref<64x96xi8> to memref<64xi8, strided<[96], offset: ?>>
        %91 = tile.load %subview_30[%3] : memref<64xi8, strided<[96], offset: ?>> -> !tile.tile<64xi8>
        %92 = tile.broadcast %91 [1] : !tile.tile<64xi8> -> !tile.tile<64x32xi8>
        %93 = tile.map(%88, %92) : (!tile.tile<64x32xi8>, !tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
        ^bb0(%arg10: i8, %arg11: i8):
          %c7_i32 = arith.constant 7 : i32
          %c8_i32 = arith.constant 8 : i32
          %c15_i32 = arith.constant 15 : i32
          %c22_i32 = arith.constant 22 : i32
          %c23_i32 = arith.constant 23 : i32
          %c28_i32 = arith.constant 28 : i32
          %c120_i32 = arith.constant 120 : i32
          %cst_31 = arith.constant 8.50705917E+37 : f32
          %104 = arith.extui %arg10 : i8 to i32
          %105 = arith.andi %104, %c7_i32 : i32
          %106 = arith.shli %105, %c22_i32 : i32
          %107 = arith.andi %104, %c8_i32 : i32
          %108 = arith.shli %107, %c28_i32 : i32
          %109 = arith.ori %106, %108 : i32
          %110 = arith.bitcast %109 : i32 to f32
          %111 = arith.mulf %110, %cst_31 : f32
          %112 = arith.extui %arg11 : i8 to i32
          %113 = arith.andi %112, %c15_i32 : i32
          %114 = arith.addi %113, %c120_i32 : i32
          %115 = arith.shli %114, %c23_i32 : i32
          %116 = arith.bitcast %115 : i32 to f32
          %117 = arith.mulf %111, %116 : f32
          %118 = arith.truncf %117 : f32 to bf16
          tile.yield %118 : bf16
        }
        %94 = tile.load %arg6[%1, %85] : memref<16x3072xbf16> -> !tile.tile<16x32xbf16>
        %95 = tile.transpose %94 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
        %96 = tile.dot %16, %18, %arg9 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
        %97 = tile.dot %27, %29, %96 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
        %98 = tile.dot %38, %40, %97 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
        %99 = tile.dot %49, %51, %98 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
        %100 = tile.dot %60, %62, %99 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
        %101 = tile.dot %71, %73, %100 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
        %102 = tile.dot %82, %84, %101 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
        %103 = tile.dot %93, %95, %102 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
        scf.yield %103 : !tile.tile<64x16xf32>
      }
      %6 = tile.transpose %5 : !tile.tile<64x16xf32> -> !tile.tile<16x64xf32>
      %7 = tile.cast %6 : !tile.tile<16x64xf32> -> !tile.tile<16x64xbf16>
      tile.store %7, %arg7[%1, %3] : !tile.tile<16x64xbf16>, memref<16x64xbf16>
    }
    return
  }
}
