// A kernel's uniform_warp (#tile.config, which tile-configure gives a
// kernel of one product; tile-mma marks its tile.wgmma ops): tile-to-simt
// broadcasts the warp index from lane 0 (gpu.shuffle idx) once, at the
// start of the launch, and every uniform_warp tile.wgmma takes its warp's
// place from it, so that ptxas can prove it the same in every lane and
// keep the descriptors in uniform registers. A kernel whose config has no
// uniform_warp (given by hand here; tile-configure's attention configs)
// takes the thread id over 32 in each wgmma, and no idx shuffle appears.
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s
// Warp-specialized, the consumer partition broadcasts its own warp index
// (counted from its first thread) at its start; the producer, which issues
// no wgmma, none.
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=WS

// WS-LABEL: func.func @configured
// WS: nvvm.setmaxregister decrease
// WS-NOT: gpu.shuffle idx
// WS: nvvm.setmaxregister increase
// WS-NEXT: %[[C128:.+]] = arith.constant 128 : index
// WS-NEXT: %[[LOCAL:.+]] = arith.subi %{{.+}}, %[[C128]] : index
// WS-NEXT: %{{.+}} = arith.constant 32 : index
// WS-NEXT: %[[WARP:.+]] = arith.divui %[[LOCAL]], %{{.+}} : index
// WS-NEXT: %[[W32:.+]] = arith.index_castui %[[WARP]] : index to i32
// WS: %[[B:.+]], %{{.+}} = gpu.shuffle idx %[[W32]], %c0_i32, %c32_i32{{.*}} : i32
// WS-NEXT: %[[U:.+]] = arith.index_castui %[[B]] : i32 to index
// WS: arith.remui %[[U]], %c4
// WS: nvvm.wgmma.mma_async
// WS-NOT: gpu.shuffle idx
// WS-LABEL: func.func @by_hand
// WS-NOT: gpu.shuffle idx

// CHECK-LABEL: func.func @configured
// CHECK: gpu.launch
// CHECK: %[[WARP:.+]] = arith.divui %{{.+}}, %c32{{.*}} : index
// CHECK-NEXT: %[[W32:.+]] = arith.index_castui %[[WARP]] : index to i32
// CHECK: %[[B:.+]], %{{.+}} = gpu.shuffle idx %[[W32]], %c0_i32, %c32_i32{{.*}} : i32
// CHECK-NEXT: %[[U:.+]] = arith.index_castui %[[B]] : i32 to index
// CHECK: scf.for
// CHECK: arith.remui %[[U]], %c4
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: gpu.shuffle idx
// CHECK: return
func.func @configured(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xbf16>) {
  tile.kernel @configured_k grid [4, 4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xbf16> {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %o = tile.cast %acc : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<256x256xbf16>
  }
  return
}

// -----

// CHECK-LABEL: func.func @by_hand
// CHECK-NOT: gpu.shuffle idx
// CHECK: nvvm.wgmma.mma_async
// CHECK-NOT: gpu.shuffle idx
// CHECK: return
func.func @by_hand(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xbf16>) {
  tile.kernel @by_hand_k grid [4, 4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %o = tile.cast %acc : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<256x256xbf16>
  }
  return
}
