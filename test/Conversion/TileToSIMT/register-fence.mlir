// tile.register_fence: one empty volatile inline asm over each of the
// thread's registers of the tile, tied in and out ("=f" outputs, "0".."N"
// inputs), the tile rebuilt from its results. A 64x64 f32 tile in a
// wgmma accumulator layout over 128 threads holds 32 registers a thread;
// a bf16 dot operand is fenced as the 32-bit registers of its pairs.
// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

// CHECK-LABEL: func @fence
// CHECK: %[[FENCED:.+]] = llvm.inline_asm has_side_effects "", "=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31" {{.+}} -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: llvm.extractvalue %[[FENCED]][0]
// CHECK: llvm.extractvalue %[[FENCED]][31]
// CHECK-NOT: llvm.inline_asm
func.func @fence(%out: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.5 : f32
    %t = tile.splat %x : f32 -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
    %f = tile.register_fence %t : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
    tile.store %f, %out[%c0, %c0] : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>, memref<64x64xf32>
    gpu.terminator
  }
  return
}

// One register a thread: the asm's value itself, not a struct.
// CHECK-LABEL: func @fence_one
// CHECK: llvm.inline_asm has_side_effects "", "=f,0" %{{.+}} : (f32) -> f32
func.func @fence_one(%out: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.5 : f32
    %t = tile.splat %x : f32 -> !tile.tile<128xf32, layout = #tile.blocked<threads = 128, run = 1>>
    %f = tile.register_fence %t : !tile.tile<128xf32, layout = #tile.blocked<threads = 128, run = 1>>
    tile.store %f, %out[%c0] : !tile.tile<128xf32, layout = #tile.blocked<threads = 128, run = 1>>, memref<128xf32>
    gpu.terminator
  }
  return
}

// 16-bit elements of a dot operand, two to a register: fenced as the
// 32-bit registers that hold them ("=r"), through vector.bitcast.
// CHECK-LABEL: func @fence_bf16
// CHECK: vector.bitcast %{{.+}} : vector<32xbf16> to vector<16xi32>
// CHECK: llvm.inline_asm has_side_effects "", "=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,=r,0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15"
// CHECK: vector.bitcast %{{.+}} : vector<16xi32> to vector<32xbf16>
func.func @fence_bf16(%out: memref<64x64xbf16>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.5 : bf16
    %t = tile.splat %x : bf16 -> !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>, k_width = 16>>
    %f = tile.register_fence %t : !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>, k_width = 16>>
    tile.store %f, %out[%c0, %c0] : !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>, k_width = 16>>, memref<64x64xbf16>
    gpu.terminator
  }
  return
}
