// tile.cluster_sum of 2: every program of the cluster arrives (releasing
// its earlier reads of the scratch region) and waits, so that rank 0 is
// running; rank 1 maps rank 0's scratch region
// (mapa) and writes its 32 registers there as eight 16-byte runs; a second
// cluster barrier (arrive releases, wait acquires) hands them over; every
// rank reads slot 0 back and adds it (only rank 0's sum is used), then a
// barrier frees the scratch region for what comes next.
// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

// CHECK-LABEL: func @cluster_sum
// CHECK: %[[SCRATCH:.+]] = memref.view {{.+}} to memref<4096xf32, #gpu.address_space<workgroup>>
// CHECK: %[[RANK:.+]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: nvvm.cluster.arrive{{$}}
// CHECK-NEXT: nvvm.cluster.wait
// CHECK: %[[SENDER:.+]] = arith.cmpi ne, %[[RANK]], %c0_i32
// CHECK: scf.if %[[SENDER]] {
// CHECK: %[[REMOTE:.+]] = nvvm.mapa %{{.+}}, %c0_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-COUNT-8: llvm.store %{{.+}}, %{{.+}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<7>
// CHECK: }
// CHECK-NEXT: nvvm.cluster.arrive
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-COUNT-8: vector.load %[[SCRATCH]][%{{.+}}] {alignment = 16 : i64} : memref<4096xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<32xf32>
// CHECK: gpu.barrier
func.func @cluster_sum(%out: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c1, %sy = %c1, %sz = %c2) blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c2) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.5 : f32
    %t = tile.splat %x : f32 -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
    %s = tile.cluster_sum %t of 2 : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
    tile.store %s, %out[%c0, %c0] : !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>, memref<64x64xf32>
    gpu.terminator
  }
  return
}
