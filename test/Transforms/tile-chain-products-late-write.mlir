// tile-chain-products on a kernel after tile-mma, with a store between the
// second product and its wait (written here: tile-mma puts each wait
// right after its product). Dropping the first wait would leave the first
// product in flight across the store too, so both waits stay.
// RUN: tile-opt %s --tile-chain-products | FileCheck %s

// CHECK: %[[FIRST:.+]] = tile.wgmma
// CHECK-NEXT: %[[WAITED:.+]] = tile.wgmma_wait %[[FIRST]] {pending = 0 : i64}
// CHECK-NEXT: %[[SECOND:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[WAITED]] :
// CHECK-NEXT: tile.store
// CHECK-NEXT: tile.wgmma_wait %[[SECOND]] {pending = 0 : i64}
module attributes {tile.target = #tile.target<"sm_90a">} {
  func.func @chained(%arg0: memref<256x512xbf16>, %arg1: memref<512x256xbf16>, %arg2: memref<256x256xf32>, %arg3: memref<256x256xf32>) {
    tile.kernel @chained_k grid [4, 4] threads 128(%arg0, %arg1, %arg2, %arg3) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1]>} {
    ^bb0(%arg4: memref<256x512xbf16>, %arg5: memref<512x256xbf16>, %arg6: memref<256x256xf32>, %arg7: memref<256x256xf32>):
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c512 = arith.constant 512 : index
      %cst = arith.constant 0.000000e+00 : f32
      %0 = tile.program_id 0
      %1 = tile.program_id 1
      %2 = arith.muli %0, %c64 : index
      %3 = arith.muli %1, %c64 : index
      %4 = tile.splat %cst : f32 -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
      %5 = scf.for %arg8 = %c0 to %c512 step %c128 iter_args(%arg9 = %4) -> (!tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>) {
        %6 = arith.addi %arg8, %c64 : index
        %7 = tile.load %arg4[%2, %arg8] : memref<256x512xbf16> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %8 = tile.load %arg5[%arg8, %3] : memref<512x256xbf16> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %9 = tile.load %arg4[%2, %6] : memref<256x512xbf16> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %10 = tile.load %arg5[%6, %3] : memref<512x256xbf16> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
        %11 = tile.wgmma %7, %8, %arg9 : !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
        %12 = tile.wgmma_wait %11 {pending = 0 : i64} : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
        %13 = tile.wgmma %9, %10, %12 : !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>, !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
        tile.store %arg9, %arg7[%2, %3] : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>, memref<256x256xf32>
        %14 = tile.wgmma_wait %13 {pending = 0 : i64} : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
        scf.yield %14 : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
      }
      tile.store %5, %arg6[%2, %3] : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>, memref<256x256xf32>
    }
    return
  }
}

