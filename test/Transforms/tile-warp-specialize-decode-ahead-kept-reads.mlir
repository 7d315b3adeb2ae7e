// tile-warp-specialize's decode-ahead leaves two more partition loops as
// they are (inputs as tile-pipeline leaves them, edited by hand): one with
// a store after the step's last wait (it would move past the next step's
// reads: here the scale row a later step loads), and one whose operand
// reads its ring slot through a memref.subview and tile.load instead of a
// tile.view (no ring wait of its own would come before a read a step
// ahead).
// RUN: tile-opt %s --split-input-file "--tile-warp-specialize=decode-ahead=1" | FileCheck %s

// CHECK: tile.warp_specialize
// CHECK-NOT: pending = 1
// CHECK: tile.warp_specialize
// CHECK-NOT: pending = 1

module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @quant_16x64x3072_int4_bf16_runs(%arg0: memref<16x3072xbf16>, %arg1: memref<64x1536xi8>, %arg2: memref<24x64xbf16>, %arg3: memref<16x64xbf16>) {
    %0 = tile.tma_descriptor %arg1 box [64, 64] swizzle 0 : memref<64x1536xi8> -> !llvm.ptr
    %1 = tile.tma_descriptor %arg0 box [16, 64] swizzle 128 : memref<16x3072xbf16> -> !llvm.ptr
    tile.kernel @quant_16x64x3072_int4_bf16_runs_0 grid [1] threads 128(%arg1, %arg2, %arg0, %arg3, %0, %1) : memref<64x1536xi8>, memref<24x64xbf16>, memref<16x3072xbf16>, memref<16x64xbf16>, !llvm.ptr, !llvm.ptr attributes {tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4>} {
    ^bb0(%arg4: memref<64x1536xi8>, %arg5: memref<24x64xbf16>, %arg6: memref<16x3072xbf16>, %arg7: memref<16x64xbf16>, %arg8: !llvm.ptr, %arg9: !llvm.ptr):
      %2 = tile.shared : memref<8x64x64xi8, #gpu.address_space<workgroup>>
      %3 = tile.shared : memref<8x16x128xbf16, #gpu.address_space<workgroup>>
      %4 = tile.shared : memref<8x64x64xi8, #gpu.address_space<workgroup>>
      %5 = tile.shared : memref<8x16x128xbf16, #gpu.address_space<workgroup>>
      %6 = tile.barrier_group arrivals 4 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      %7 = tile.barrier_group arrivals 4 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      %8 = tile.program_id 0
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c8_0 = arith.constant 8 : index
      %9 = arith.divui %8, %c8 : index
      %10 = arith.muli %9, %c8_0 : index
      %c1 = arith.constant 1 : index
      %11 = arith.subi %c1, %10 : index
      %12 = arith.minui %11, %c8_0 : index
      %13 = arith.remui %8, %c8 : index
      %14 = arith.remui %13, %12 : index
      %15 = arith.addi %10, %14 : index
      %16 = arith.divui %13, %12 : index
      %c16 = arith.constant 16 : index
      %17 = arith.muli %15, %c16 : index
      %c64 = arith.constant 64 : index
      %18 = arith.muli %16, %c64 : index
      %cst = arith.constant 0.000000e+00 : f32
      %19 = tile.splat %cst : f32 -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
      %cbf = arith.constant 1.000000e+00 : bf16
      %spl = tile.splat %cbf : bf16 -> !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>>
      %c1024o = arith.constant 1024 : index
      %c128o = arith.constant 128 : index
      %c23o = arith.constant 23 : index
      %c0_1 = arith.constant 0 : index
      %c3072 = arith.constant 3072 : index
      %c256 = arith.constant 256 : index
      %20 = arith.subi %c3072, %c0_1 : index
      %c1_2 = arith.constant 1 : index
      %21 = arith.subi %c256, %c1_2 : index
      %22 = arith.addi %20, %21 : index
      %23 = arith.divui %22, %c256 : index
      %c0_3 = arith.constant 0 : index
      %c0_4 = arith.constant 0 : index
      %c0_5 = arith.constant 0 : index
      %24 = arith.addi %c0_3, %c0_5 : index
      %c8_6 = arith.constant 8 : index
      %25 = arith.remui %24, %c8_6 : index
      %26 = arith.cmpi ult, %c0_4, %23 : index
      scf.if %26 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %24, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%25], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%25] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c0_4, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%25] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%25] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c0_4, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%25] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%25] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c0_4, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%25] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%25] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c0_4, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%25] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c1_7 = arith.constant 1 : index
      %c1_8 = arith.constant 1 : index
      %27 = arith.addi %c0_3, %c1_8 : index
      %c8_9 = arith.constant 8 : index
      %28 = arith.remui %27, %c8_9 : index
      %29 = arith.cmpi ult, %c1_7, %23 : index
      scf.if %29 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %27, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%28], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%28] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c1_7, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%28] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%28] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c1_7, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%28] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%28] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c1_7, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%28] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%28] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c1_7, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%28] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c2 = arith.constant 2 : index
      %c2_10 = arith.constant 2 : index
      %30 = arith.addi %c0_3, %c2_10 : index
      %c8_11 = arith.constant 8 : index
      %31 = arith.remui %30, %c8_11 : index
      %32 = arith.cmpi ult, %c2, %23 : index
      scf.if %32 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %30, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%31], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%31] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c2, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%31] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%31] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c2, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%31] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%31] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c2, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%31] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%31] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c2, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%31] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c3 = arith.constant 3 : index
      %c3_12 = arith.constant 3 : index
      %33 = arith.addi %c0_3, %c3_12 : index
      %c8_13 = arith.constant 8 : index
      %34 = arith.remui %33, %c8_13 : index
      %35 = arith.cmpi ult, %c3, %23 : index
      scf.if %35 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %33, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%34], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%34] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c3, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%34] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%34] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c3, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%34] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%34] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c3, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%34] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%34] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c3, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%34] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c4 = arith.constant 4 : index
      %c4_14 = arith.constant 4 : index
      %36 = arith.addi %c0_3, %c4_14 : index
      %c8_15 = arith.constant 8 : index
      %37 = arith.remui %36, %c8_15 : index
      %38 = arith.cmpi ult, %c4, %23 : index
      scf.if %38 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %36, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%37], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%37] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c4, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%37] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%37] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c4, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%37] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%37] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c4, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%37] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%37] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c4, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%37] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c5 = arith.constant 5 : index
      %c5_16 = arith.constant 5 : index
      %39 = arith.addi %c0_3, %c5_16 : index
      %c8_17 = arith.constant 8 : index
      %40 = arith.remui %39, %c8_17 : index
      %41 = arith.cmpi ult, %c5, %23 : index
      scf.if %41 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %39, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%40], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%40] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c5, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%40] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%40] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c5, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%40] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%40] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c5, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%40] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%40] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c5, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%40] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c6 = arith.constant 6 : index
      %c6_18 = arith.constant 6 : index
      %42 = arith.addi %c0_3, %c6_18 : index
      %c8_19 = arith.constant 8 : index
      %43 = arith.remui %42, %c8_19 : index
      %44 = arith.cmpi ult, %c6, %23 : index
      scf.if %44 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %42, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%43], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%43] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c6, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%43] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%43] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c6, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%43] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%43] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c6, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%43] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%43] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c6, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%43] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %45 = scf.for %arg10 = %c0_1 to %c3072 step %c256 iter_args(%arg11 = %19) -> (!tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>) {
        %49 = arith.subi %arg10, %c0_1 : index
        %50 = arith.divui %49, %c256 : index
        %51 = arith.addi %c0_3, %50 : index
        %c8_20 = arith.constant 8 : index
        %52 = arith.remui %51, %c8_20 : index
        %c7 = arith.constant 7 : index
        %53 = arith.addi %50, %c7 : index
        %c7_21 = arith.constant 7 : index
        %54 = arith.addi %51, %c7_21 : index
        %c8_22 = arith.constant 8 : index
        %55 = arith.divui %51, %c8_22 : index
        %56 = arith.index_cast %55 : index to i64
        %57 = arith.trunci %56 : i64 to i1
        %c10000000 = arith.constant 10000000 : index
        %c0_23 = arith.constant 0 : index
        %58 = arith.addi %arg10, %c0_23 : index
        %c128 = arith.constant 128 : index
        %59 = arith.divui %58, %c128 : index
        %c23 = arith.constant 23 : index
        %60 = arith.minui %59, %c23 : index
        %subview = memref.subview %arg5[%60, 0] [1, 64] [1, 1] : memref<24x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %61 = tile.load %subview[%18] : memref<64xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>>
        %c128_24 = arith.constant 128 : index
        %62 = arith.addi %arg10, %c128_24 : index
        %c128_25 = arith.constant 128 : index
        %63 = arith.divui %62, %c128_25 : index
        %c23_26 = arith.constant 23 : index
        %64 = arith.minui %63, %c23_26 : index
        %subview_27 = memref.subview %arg5[%64, 0] [1, 64] [1, 1] : memref<24x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %65 = tile.load %subview_27[%18] : memref<64xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>>
        %nx = arith.addi %arg10, %c1024o : index
        %nr = arith.divui %nx, %c128o : index
        %nm = arith.minui %nr, %c23o : index
        %sv = memref.subview %arg5[%nm, 0] [1, 64] [1, 1] : memref<24x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        nvgpu.mbarrier.try_wait.parity %6[%52], %57, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %c2_28 = arith.constant 2 : index
        %66 = arith.divui %58, %c2_28 : index
        %67 = tile.view %2[%52] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %68 = tile.convert_layout %67 : !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>>
        %69 = tile.unpack %68 signed interleaved : !tile.tile<64x64xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>> -> !tile.tile<64x128xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
        %70 = tile.broadcast %61 [1] : !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>> -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
        %71 = tile.map(%69, %70) : (!tile.tile<64x128xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>) -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>> {
        ^bb0(%arg12: i8, %arg13: bf16):
          %88 = arith.sitofp %arg12 : i8 to f32
          %89 = arith.extf %arg13 : bf16 to f32
          %90 = arith.mulf %88, %89 : f32
          %91 = arith.truncf %90 : f32 to bf16
          tile.yield %91 : bf16
        }
        %72 = tile.view %3[%52] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %73 = tile.transpose %72 : !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
        %c2_29 = arith.constant 2 : index
        %74 = arith.divui %62, %c2_29 : index
        %75 = tile.view %4[%52] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %76 = tile.convert_layout %75 : !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>>
        %77 = tile.unpack %76 signed interleaved : !tile.tile<64x64xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>> -> !tile.tile<64x128xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
        %78 = tile.broadcast %65 [1] : !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>> -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
        %79 = tile.map(%77, %78) : (!tile.tile<64x128xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>) -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>> {
        ^bb0(%arg12: i8, %arg13: bf16):
          %88 = arith.sitofp %arg12 : i8 to f32
          %89 = arith.extf %arg13 : bf16 to f32
          %90 = arith.mulf %88, %89 : f32
          %91 = arith.truncf %90 : f32 to bf16
          tile.yield %91 : bf16
        }
        %80 = tile.view %5[%52] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %81 = tile.transpose %80 : !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
        %82 = tile.wgmma %71, %73, %arg11 lhs_k_runs = 32 : !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
        %83 = tile.wgmma_wait %82 {pending = 0 : i64} : !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
        %84 = tile.wgmma %79, %81, %83 lhs_k_runs = 32 : !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
        %85 = tile.wgmma_wait %84 {pending = 0 : i64} : !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
        tile.arrive %7[%52] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        tile.store %spl, %sv[%18] : !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>>, memref<64xbf16, strided<[1], offset: ?>>
        %c8_30 = arith.constant 8 : index
        %86 = arith.remui %54, %c8_30 : index
        %87 = arith.cmpi ult, %53, %23 : index
        scf.if %87 {
          %c8_31 = arith.constant 8 : index
          %88 = arith.divui %54, %c8_31 : index
          %89 = arith.index_cast %88 : index to i64
          %90 = arith.trunci %89 : i64 to i1
          %true = arith.constant true
          %91 = arith.xori %90, %true : i1
          %c10000000_32 = arith.constant 10000000 : index
          nvgpu.mbarrier.try_wait.parity %7[%86], %91, %c10000000_32 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
          %92 = tile.view %2[%86] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
          %93 = arith.muli %53, %c256 : index
          %94 = arith.addi %c0_1, %93 : index
          %c0_33 = arith.constant 0 : index
          %95 = arith.addi %94, %c0_33 : index
          %c2_34 = arith.constant 2 : index
          %96 = arith.divui %95, %c2_34 : index
          tile.tma_load %arg8[%18, %96], %92, %6[%86] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
          %97 = tile.view %3[%86] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
          %98 = arith.muli %53, %c256 : index
          %99 = arith.addi %c0_1, %98 : index
          %c0_35 = arith.constant 0 : index
          %100 = arith.addi %99, %c0_35 : index
          tile.tma_load %arg9[%17, %100], %97, %6[%86] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
          %101 = tile.view %4[%86] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
          %102 = arith.muli %53, %c256 : index
          %103 = arith.addi %c0_1, %102 : index
          %c128_36 = arith.constant 128 : index
          %104 = arith.addi %103, %c128_36 : index
          %c2_37 = arith.constant 2 : index
          %105 = arith.divui %104, %c2_37 : index
          tile.tma_load %arg8[%18, %105], %101, %6[%86] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
          %106 = tile.view %5[%86] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
          %107 = arith.muli %53, %c256 : index
          %108 = arith.addi %c0_1, %107 : index
          %c128_38 = arith.constant 128 : index
          %109 = arith.addi %108, %c128_38 : index
          tile.tma_load %arg9[%17, %109], %106, %6[%86] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        } {tile.producer}
        scf.yield %85 : !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
      }
      %46 = tile.transpose %45 : !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>> -> !tile.tile<16x64xf32, layout = #tile.blocked<threads = 128, run = 4>>
      %47 = tile.convert_layout %46 : !tile.tile<16x64xf32, layout = #tile.blocked<threads = 128, run = 4>> -> !tile.tile<16x64xf32, layout = #tile.blocked<threads = 128, run = 8>>
      %48 = tile.cast %47 : !tile.tile<16x64xf32, layout = #tile.blocked<threads = 128, run = 8>> -> !tile.tile<16x64xbf16, layout = #tile.blocked<threads = 128, run = 8>>
      tile.store %48, %arg7[%17, %18] : !tile.tile<16x64xbf16, layout = #tile.blocked<threads = 128, run = 8>>, memref<16x64xbf16>
    }
    return
  }
}
// -----
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @quant_16x64x3072_int4_bf16_runs(%arg0: memref<16x3072xbf16>, %arg1: memref<64x1536xi8>, %arg2: memref<24x64xbf16>, %arg3: memref<16x64xbf16>) {
    %0 = tile.tma_descriptor %arg1 box [64, 64] swizzle 0 : memref<64x1536xi8> -> !llvm.ptr
    %1 = tile.tma_descriptor %arg0 box [16, 64] swizzle 128 : memref<16x3072xbf16> -> !llvm.ptr
    tile.kernel @quant_16x64x3072_int4_bf16_runs_0 grid [1] threads 128(%arg1, %arg2, %arg0, %arg3, %0, %1) : memref<64x1536xi8>, memref<24x64xbf16>, memref<16x3072xbf16>, memref<16x64xbf16>, !llvm.ptr, !llvm.ptr attributes {tile.config = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, transposed = true, k_warpgroups = 4>} {
    ^bb0(%arg4: memref<64x1536xi8>, %arg5: memref<24x64xbf16>, %arg6: memref<16x3072xbf16>, %arg7: memref<16x64xbf16>, %arg8: !llvm.ptr, %arg9: !llvm.ptr):
      %2 = tile.shared : memref<8x64x64xi8, #gpu.address_space<workgroup>>
      %3 = tile.shared : memref<8x16x128xbf16, #gpu.address_space<workgroup>>
      %4 = tile.shared : memref<8x64x64xi8, #gpu.address_space<workgroup>>
      %5 = tile.shared : memref<8x16x128xbf16, #gpu.address_space<workgroup>>
      %6 = tile.barrier_group arrivals 4 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      %7 = tile.barrier_group arrivals 4 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      %8 = tile.program_id 0
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c8_0 = arith.constant 8 : index
      %9 = arith.divui %8, %c8 : index
      %10 = arith.muli %9, %c8_0 : index
      %c1 = arith.constant 1 : index
      %11 = arith.subi %c1, %10 : index
      %12 = arith.minui %11, %c8_0 : index
      %13 = arith.remui %8, %c8 : index
      %14 = arith.remui %13, %12 : index
      %15 = arith.addi %10, %14 : index
      %16 = arith.divui %13, %12 : index
      %c16 = arith.constant 16 : index
      %17 = arith.muli %15, %c16 : index
      %c64 = arith.constant 64 : index
      %18 = arith.muli %16, %c64 : index
      %cst = arith.constant 0.000000e+00 : f32
      %19 = tile.splat %cst : f32 -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
      %c0_1 = arith.constant 0 : index
      %c3072 = arith.constant 3072 : index
      %c256 = arith.constant 256 : index
      %20 = arith.subi %c3072, %c0_1 : index
      %c1_2 = arith.constant 1 : index
      %21 = arith.subi %c256, %c1_2 : index
      %22 = arith.addi %20, %21 : index
      %23 = arith.divui %22, %c256 : index
      %c0_3 = arith.constant 0 : index
      %c0_4 = arith.constant 0 : index
      %c0_5 = arith.constant 0 : index
      %24 = arith.addi %c0_3, %c0_5 : index
      %c8_6 = arith.constant 8 : index
      %25 = arith.remui %24, %c8_6 : index
      %26 = arith.cmpi ult, %c0_4, %23 : index
      scf.if %26 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %24, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%25], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%25] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c0_4, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%25] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%25] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c0_4, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%25] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%25] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c0_4, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%25] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%25] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c0_4, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%25] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c1_7 = arith.constant 1 : index
      %c1_8 = arith.constant 1 : index
      %27 = arith.addi %c0_3, %c1_8 : index
      %c8_9 = arith.constant 8 : index
      %28 = arith.remui %27, %c8_9 : index
      %29 = arith.cmpi ult, %c1_7, %23 : index
      scf.if %29 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %27, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%28], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%28] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c1_7, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%28] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%28] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c1_7, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%28] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%28] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c1_7, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%28] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%28] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c1_7, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%28] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c2 = arith.constant 2 : index
      %c2_10 = arith.constant 2 : index
      %30 = arith.addi %c0_3, %c2_10 : index
      %c8_11 = arith.constant 8 : index
      %31 = arith.remui %30, %c8_11 : index
      %32 = arith.cmpi ult, %c2, %23 : index
      scf.if %32 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %30, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%31], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%31] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c2, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%31] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%31] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c2, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%31] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%31] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c2, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%31] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%31] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c2, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%31] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c3 = arith.constant 3 : index
      %c3_12 = arith.constant 3 : index
      %33 = arith.addi %c0_3, %c3_12 : index
      %c8_13 = arith.constant 8 : index
      %34 = arith.remui %33, %c8_13 : index
      %35 = arith.cmpi ult, %c3, %23 : index
      scf.if %35 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %33, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%34], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%34] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c3, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%34] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%34] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c3, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%34] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%34] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c3, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%34] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%34] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c3, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%34] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c4 = arith.constant 4 : index
      %c4_14 = arith.constant 4 : index
      %36 = arith.addi %c0_3, %c4_14 : index
      %c8_15 = arith.constant 8 : index
      %37 = arith.remui %36, %c8_15 : index
      %38 = arith.cmpi ult, %c4, %23 : index
      scf.if %38 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %36, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%37], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%37] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c4, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%37] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%37] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c4, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%37] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%37] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c4, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%37] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%37] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c4, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%37] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c5 = arith.constant 5 : index
      %c5_16 = arith.constant 5 : index
      %39 = arith.addi %c0_3, %c5_16 : index
      %c8_17 = arith.constant 8 : index
      %40 = arith.remui %39, %c8_17 : index
      %41 = arith.cmpi ult, %c5, %23 : index
      scf.if %41 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %39, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%40], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%40] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c5, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%40] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%40] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c5, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%40] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%40] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c5, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%40] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%40] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c5, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%40] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %c6 = arith.constant 6 : index
      %c6_18 = arith.constant 6 : index
      %42 = arith.addi %c0_3, %c6_18 : index
      %c8_19 = arith.constant 8 : index
      %43 = arith.remui %42, %c8_19 : index
      %44 = arith.cmpi ult, %c6, %23 : index
      scf.if %44 {
        %c8_20 = arith.constant 8 : index
        %49 = arith.divui %42, %c8_20 : index
        %50 = arith.index_cast %49 : index to i64
        %51 = arith.trunci %50 : i64 to i1
        %true = arith.constant true
        %52 = arith.xori %51, %true : i1
        %c10000000 = arith.constant 10000000 : index
        nvgpu.mbarrier.try_wait.parity %7[%43], %52, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %53 = tile.view %2[%43] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %54 = arith.muli %c6, %c256 : index
        %55 = arith.addi %c0_1, %54 : index
        %c0_21 = arith.constant 0 : index
        %56 = arith.addi %55, %c0_21 : index
        %c2_22 = arith.constant 2 : index
        %57 = arith.divui %56, %c2_22 : index
        tile.tma_load %arg8[%18, %57], %53, %6[%43] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %58 = tile.view %3[%43] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %59 = arith.muli %c6, %c256 : index
        %60 = arith.addi %c0_1, %59 : index
        %c0_23 = arith.constant 0 : index
        %61 = arith.addi %60, %c0_23 : index
        tile.tma_load %arg9[%17, %61], %58, %6[%43] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %62 = tile.view %4[%43] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %63 = arith.muli %c6, %c256 : index
        %64 = arith.addi %c0_1, %63 : index
        %c128 = arith.constant 128 : index
        %65 = arith.addi %64, %c128 : index
        %c2_24 = arith.constant 2 : index
        %66 = arith.divui %65, %c2_24 : index
        tile.tma_load %arg8[%18, %66], %62, %6[%43] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %67 = tile.view %5[%43] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %68 = arith.muli %c6, %c256 : index
        %69 = arith.addi %c0_1, %68 : index
        %c128_25 = arith.constant 128 : index
        %70 = arith.addi %69, %c128_25 : index
        tile.tma_load %arg9[%17, %70], %67, %6[%43] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
      } {tile.producer}
      %45 = scf.for %arg10 = %c0_1 to %c3072 step %c256 iter_args(%arg11 = %19) -> (!tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>) {
        %49 = arith.subi %arg10, %c0_1 : index
        %50 = arith.divui %49, %c256 : index
        %51 = arith.addi %c0_3, %50 : index
        %c8_20 = arith.constant 8 : index
        %52 = arith.remui %51, %c8_20 : index
        %c7 = arith.constant 7 : index
        %53 = arith.addi %50, %c7 : index
        %c7_21 = arith.constant 7 : index
        %54 = arith.addi %51, %c7_21 : index
        %c8_22 = arith.constant 8 : index
        %55 = arith.divui %51, %c8_22 : index
        %56 = arith.index_cast %55 : index to i64
        %57 = arith.trunci %56 : i64 to i1
        %c10000000 = arith.constant 10000000 : index
        %c0_23 = arith.constant 0 : index
        %58 = arith.addi %arg10, %c0_23 : index
        %c128 = arith.constant 128 : index
        %59 = arith.divui %58, %c128 : index
        %c23 = arith.constant 23 : index
        %60 = arith.minui %59, %c23 : index
        %subview = memref.subview %arg5[%60, 0] [1, 64] [1, 1] : memref<24x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %61 = tile.load %subview[%18] : memref<64xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>>
        %c128_24 = arith.constant 128 : index
        %62 = arith.addi %arg10, %c128_24 : index
        %c128_25 = arith.constant 128 : index
        %63 = arith.divui %62, %c128_25 : index
        %c23_26 = arith.constant 23 : index
        %64 = arith.minui %63, %c23_26 : index
        %subview_27 = memref.subview %arg5[%64, 0] [1, 64] [1, 1] : memref<24x64xbf16> to memref<64xbf16, strided<[1], offset: ?>>
        %65 = tile.load %subview_27[%18] : memref<64xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>>
        nvgpu.mbarrier.try_wait.parity %6[%52], %57, %c10000000 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %c2_28 = arith.constant 2 : index
        %66 = arith.divui %58, %c2_28 : index
        %sv2 = memref.subview %2[%52, 0, 0] [1, 64, 64] [1, 1, 1] : memref<8x64x64xi8, #gpu.address_space<workgroup>> to memref<64x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %68 = tile.load %sv2[%c0_23, %c0_23] {in_bounds} : memref<64x64xi8, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>>
        %69 = tile.unpack %68 signed interleaved : !tile.tile<64x64xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>> -> !tile.tile<64x128xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
        %70 = tile.broadcast %61 [1] : !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>> -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
        %71 = tile.map(%69, %70) : (!tile.tile<64x128xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>) -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>> {
        ^bb0(%arg12: i8, %arg13: bf16):
          %88 = arith.sitofp %arg12 : i8 to f32
          %89 = arith.extf %arg13 : bf16 to f32
          %90 = arith.mulf %88, %89 : f32
          %91 = arith.truncf %90 : f32 to bf16
          tile.yield %91 : bf16
        }
        %72 = tile.view %3[%52] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %73 = tile.transpose %72 : !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
        %c2_29 = arith.constant 2 : index
        %74 = arith.divui %62, %c2_29 : index
        %75 = tile.view %4[%52] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
        %76 = tile.convert_layout %75 : !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>>
        %77 = tile.unpack %76 signed interleaved : !tile.tile<64x64xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 16>> -> !tile.tile<64x128xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
        %78 = tile.broadcast %65 [1] : !tile.tile<64xbf16, layout = #tile.slice<1, #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>> -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>
        %79 = tile.map(%77, %78) : (!tile.tile<64x128xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>) -> !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>> {
        ^bb0(%arg12: i8, %arg13: bf16):
          %88 = arith.sitofp %arg12 : i8 to f32
          %89 = arith.extf %arg13 : bf16 to f32
          %90 = arith.mulf %88, %89 : f32
          %91 = arith.truncf %90 : f32 to bf16
          tile.yield %91 : bf16
        }
        %80 = tile.view %5[%52] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %81 = tile.transpose %80 : !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
        %82 = tile.wgmma %71, %73, %arg11 lhs_k_runs = 32 : !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
        %83 = tile.wgmma_wait %82 {pending = 0 : i64} : !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
        %84 = tile.wgmma %79, %81, %83 lhs_k_runs = 32 : !tile.tile<64x128xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 32>>, !tile.tile<128x16xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
        %85 = tile.wgmma_wait %84 {pending = 0 : i64} : !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
        tile.arrive %7[%52] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        %c8_30 = arith.constant 8 : index
        %86 = arith.remui %54, %c8_30 : index
        %87 = arith.cmpi ult, %53, %23 : index
        scf.if %87 {
          %c8_31 = arith.constant 8 : index
          %88 = arith.divui %54, %c8_31 : index
          %89 = arith.index_cast %88 : index to i64
          %90 = arith.trunci %89 : i64 to i1
          %true = arith.constant true
          %91 = arith.xori %90, %true : i1
          %c10000000_32 = arith.constant 10000000 : index
          nvgpu.mbarrier.try_wait.parity %7[%86], %91, %c10000000_32 : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
          %92 = tile.view %2[%86] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
          %93 = arith.muli %53, %c256 : index
          %94 = arith.addi %c0_1, %93 : index
          %c0_33 = arith.constant 0 : index
          %95 = arith.addi %94, %c0_33 : index
          %c2_34 = arith.constant 2 : index
          %96 = arith.divui %95, %c2_34 : index
          tile.tma_load %arg8[%18, %96], %92, %6[%86] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
          %97 = tile.view %3[%86] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
          %98 = arith.muli %53, %c256 : index
          %99 = arith.addi %c0_1, %98 : index
          %c0_35 = arith.constant 0 : index
          %100 = arith.addi %99, %c0_35 : index
          tile.tma_load %arg9[%17, %100], %97, %6[%86] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
          %101 = tile.view %4[%86] : memref<8x64x64xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
          %102 = arith.muli %53, %c256 : index
          %103 = arith.addi %c0_1, %102 : index
          %c128_36 = arith.constant 128 : index
          %104 = arith.addi %103, %c128_36 : index
          %c2_37 = arith.constant 2 : index
          %105 = arith.divui %104, %c2_37 : index
          tile.tma_load %arg8[%18, %105], %101, %6[%86] : !llvm.ptr, !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
          %106 = tile.view %5[%86] : memref<8x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
          %107 = arith.muli %53, %c256 : index
          %108 = arith.addi %c0_1, %107 : index
          %c128_38 = arith.constant 128 : index
          %109 = arith.addi %108, %c128_38 : index
          tile.tma_load %arg9[%17, %109], %106, %6[%86] : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
        } {tile.producer}
        scf.yield %85 : !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>>
      }
      %46 = tile.transpose %45 : !tile.tile<64x16xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>> -> !tile.tile<16x64xf32, layout = #tile.blocked<threads = 128, run = 4>>
      %47 = tile.convert_layout %46 : !tile.tile<16x64xf32, layout = #tile.blocked<threads = 128, run = 4>> -> !tile.tile<16x64xf32, layout = #tile.blocked<threads = 128, run = 8>>
      %48 = tile.cast %47 : !tile.tile<16x64xf32, layout = #tile.blocked<threads = 128, run = 8>> -> !tile.tile<16x64xbf16, layout = #tile.blocked<threads = 128, run = 8>>
      tile.store %48, %arg7[%17, %18] : !tile.tile<16x64xbf16, layout = #tile.blocked<threads = 128, run = 8>>, memref<16x64xbf16>
    }
    return
  }
}
