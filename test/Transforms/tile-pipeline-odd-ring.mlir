// tile-pipeline with a ring of 3 TMA slots (not a power of two): the K
// loop carries its slot and the round's parity instead of dividing the
// ring position by 3 at every step. Iteration i waits for full[slot] at
// the parity, keeps one wgmma group in flight, gives back slot - 1 mod 3
// and refills it (iteration i + 2: in the next round unless the slot is
// 0, so the producer waits for empty at the other parity), then advances:
// slot + 1, wrapping to 0 and flipping the parity at 3.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s
// CHECK-LABEL: func @gemm_ring3
// CHECK: [[FULL:%[a-z0-9_]+]] = tile.barrier_group arrivals 2 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: [[EMPTY:%[a-z0-9_]+]] = tile.barrier_group arrivals 4
// Iterations 0 and 1 issued before the loop; the loop starts at ring
// position 0.
// CHECK: } {tile.producer}
// CHECK: } {tile.producer}
// CHECK-NOT: scf.for
// CHECK: [[SLOT0:%[a-z0-9_]+]] = arith.remui [[BASE:%[a-z0-9_]+]], %c3{{.*}} : index
// CHECK: [[ROUND0:%[a-z0-9_]+]] = arith.divui [[BASE]], %c3{{.*}} : index
// CHECK: [[ROUND64:%[a-z0-9_]+]] = arith.index_cast [[ROUND0]] : index to i64
// CHECK: [[PARITY0:%[a-z0-9_]+]] = arith.trunci [[ROUND64]] : i64 to i1
// CHECK: scf.for {{.+}} iter_args({{.+}}, [[SLOT:%[a-z0-9_]+]] = [[SLOT0]], [[PARITY:%[a-z0-9_]+]] = [[PARITY0]])
// CHECK-NOT: arith.remui
// CHECK-NOT: arith.divui {{.+}}, %c3
// CHECK: [[FIRST:%[a-z0-9_]+]] = arith.cmpi eq, [[SLOT]], %c0
// CHECK: [[PREV:%[a-z0-9_]+]] = arith.subi [[SLOT]], %c1
// CHECK: [[AHEAD:%[a-z0-9_]+]] = arith.select [[FIRST]], %c2{{.*}}, [[PREV]] : index
// CHECK: [[FLIPPED:%[a-z0-9_]+]] = arith.xori [[PARITY]], %true
// CHECK: [[AHEADPARITY:%[a-z0-9_]+]] = arith.select [[FIRST]], [[PARITY]], [[FLIPPED]] : i1
// CHECK: nvgpu.mbarrier.try_wait.parity [[FULL]][[[SLOT]]], [[PARITY]]
// CHECK: tile.wgmma_wait {{.+}} {pending = 1 : i64}
// CHECK: tile.arrive [[EMPTY]][[[AHEAD]]]
// CHECK: [[NEXT:%[a-z0-9_]+]] = arith.addi [[SLOT]], %c1
// CHECK: [[WRAPS:%[a-z0-9_]+]] = arith.cmpi eq, [[NEXT]], %c3
// CHECK: [[SLOT1:%[a-z0-9_]+]] = arith.select [[WRAPS]], %c0{{.*}}, [[NEXT]] : index
// CHECK: [[PARITY1:%[a-z0-9_]+]] = arith.xori [[PARITY]], [[WRAPS]] : i1
// CHECK: scf.if
// CHECK: [[WAITPARITY:%[a-z0-9_]+]] = arith.xori [[AHEADPARITY]], %true
// CHECK: nvgpu.mbarrier.try_wait.parity [[EMPTY]][[[AHEAD]]], [[WAITPARITY]]
// CHECK: tile.tma_load {{.+}}, [[FULL]][[[AHEAD]]]
// CHECK: tile.tma_load {{.+}}, [[FULL]][[[AHEAD]]]
// CHECK: } {tile.producer}
// CHECK: scf.yield %{{.+}}, [[SLOT1]], [[PARITY1]]
func.func @gemm_ring3(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 3>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>):
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
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}
