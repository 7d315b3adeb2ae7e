// tile-pipeline with a cluster of two programs along M (cluster = [2, 1]):
// the programs of a cluster hold tiles of one block-column
// (tile-persistent's grouped order), so they read the same B tiles. Each
// copies half of a B slot's rows (rank r: rows [128 r, 128 r + 128), its
// rank program id 0 mod 2) into both programs (multicast = 3), through a
// descriptor of half the box; A's copies stay whole and local. The empty
// barriers count the consumer warps of both programs (16), and every
// consumer warp gives its slot back to both (ranks = 3). A cluster barrier
// after the barriers' initialization and one at the end of the kernel.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline | FileCheck %s
// With per-load barriers (overlap): only B's empty barriers count both
// programs' warps and hear from both.
// RUN: sed 's/warp_specialize = true/warp_specialize = true, overlap = true/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline | FileCheck %s --check-prefix=OVERLAP
// tile-warp-specialize keeps the cluster barriers out of its partitions:
// one before them, one after.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize | FileCheck %s --check-prefix=WS
// Three SMs: two programs (whole clusters).
// RUN: tile-opt %s --tile-configure="chip=sm_90a sms=3" --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline | FileCheck %s --check-prefix=THREE
// Seven SMs: three clusters would take the 8 tiles in two rounds, and so
// do two clusters: four programs.
// RUN: tile-opt %s --tile-configure="chip=sm_90a sms=7" --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline | FileCheck %s --check-prefix=SEVEN

// CHECK: [[DA:%.+]] = tile.tma_descriptor %arg0 box [128, 128] swizzle 128 : memref<512x256xf8E4M3FN> -> !llvm.ptr
// CHECK: [[DB:%.+]] = tile.tma_descriptor %arg1 box [128, 128] swizzle 128 : memref<512x256xf8E4M3FN> -> !llvm.ptr
// CHECK: tile.kernel @f_0 grid [8] threads 256({{.+}}, [[DA]], [[DB]])
// CHECK: ^bb0({{.+}}, [[KA:%.+]]: !llvm.ptr, [[KB:%.+]]: !llvm.ptr):
// CHECK: [[PID:%.+]] = tile.program_id 0
// CHECK: [[RANK:%.+]] = arith.remui [[PID]], %c2{{.*}} : index
// CHECK: [[RA:%.+]] = tile.shared : memref<4x128x128xf8E4M3FN, #gpu.address_space<workgroup>>
// CHECK: [[RB:%.+]] = tile.shared : memref<4x256x128xf8E4M3FN, #gpu.address_space<workgroup>>
// CHECK: [[FULL:%.+]] = tile.barrier_group arrivals 2
// CHECK: [[EMPTY:%.+]] = tile.barrier_group arrivals 16
// CHECK-NEXT: tile.cluster_barrier
// CHECK: scf.for
// CHECK: scf.if
// CHECK: nvgpu.mbarrier.try_wait.parity [[EMPTY]]
// CHECK: tile.tma_load [[KA]][{{.+}}], %{{.+}}, [[FULL]][{{.+}}] : !llvm.ptr, !tile.tile<128x128xf8E4M3FN
// CHECK: [[FIRST:%.+]] = arith.muli [[RANK]], %c128{{.*}} : index
// CHECK: [[HALF:%.+]] = tile.view [[RB]][{{.+}}] rows [[FIRST]] : memref<4x256x128xf8E4M3FN, #gpu.address_space<workgroup>> -> !tile.tile<128x128xf8E4M3FN, layout = #tile.shared<swizzle = 128>
// CHECK: [[ROW:%.+]] = arith.addi %{{.+}}, [[FIRST]] : index
// CHECK: tile.tma_load [[KB]][[[ROW]], %{{.+}}], [[HALF]], [[FULL]][{{.+}}] {multicast = 3 : i64}
// CHECK: } {tile.producer}
// CHECK: tile.view [[RB]][{{.+}}] : memref<4x256x128xf8E4M3FN, #gpu.address_space<workgroup>> -> !tile.tile<256x128xf8E4M3FN
// CHECK: tile.wgmma
// CHECK: tile.arrive [[EMPTY]][{{.+}}] {ranks = 3 : i64}
// CHECK: tile.arrive [[EMPTY]][{{.+}}] {ranks = 3 : i64}
// CHECK-NOT: tile.arrive
// CHECK: tile.cluster_barrier
// CHECK-NEXT: }

// OVERLAP: [[FULLA:%.+]] = tile.barrier_group arrivals 1
// OVERLAP: [[EMPTYA:%.+]] = tile.barrier_group arrivals 8
// OVERLAP: [[FULLB:%.+]] = tile.barrier_group arrivals 1
// OVERLAP: [[EMPTYB:%.+]] = tile.barrier_group arrivals 16
// OVERLAP-NEXT: tile.cluster_barrier
// OVERLAP: tile.tma_load {{.+}} [[FULLA]][{{.+}}] : !llvm.ptr
// OVERLAP: tile.tma_load {{.+}} [[FULLB]][{{.+}}] {multicast = 3 : i64}
// OVERLAP-DAG: tile.arrive [[EMPTYA]][{{[^]]+}}] :
// OVERLAP-DAG: tile.arrive [[EMPTYB]][{{[^]]+}}] {ranks = 3 : i64}
// OVERLAP: tile.cluster_barrier

// WS: tile.barrier_group arrivals 16
// WS-NEXT: tile.cluster_barrier
// WS: tile.warp_specialize
// WS: tile.tma_load {{.+}} {multicast = 3 : i64}
// WS: }, {
// WS-NOT: tile.tma_load
// WS: tile.arrive {{.+}} {ranks = 3 : i64}
// WS: tile.store
// WS-NEXT: }
// WS-NEXT: }
// WS-NEXT: tile.cluster_barrier
// WS-NEXT: }
// WS-NEXT: return

// SEVEN: tile.kernel @f_0 grid [4]
// THREE: tile.kernel @f_0 grid [2]
// THREE: scf.for %{{.+}} = %{{.+}} to %c8{{.*}} step %c2{{.*}} {

func.func @f(%arg0: memref<512x256xf8E4M3FN>, %arg1: memref<512x256xf8E4M3FN>, %arg2: memref<512x512xf32>) {
  tile.kernel @f_0 grid [4, 2] threads 256(%arg1, %arg0, %arg2) : memref<512x256xf8E4M3FN>, memref<512x256xf8E4M3FN>, memref<512x512xf32> attributes {tile.config = #tile.config<block = [128, 256, 128], threads = 256, mma = wgmma, instr = [64, 256, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 2, warp_specialize = true, cluster = [2, 1]>} {
  ^bb0(%w: memref<512x256xf8E4M3FN>, %a: memref<512x256xf8E4M3FN>, %c: memref<512x512xf32>):
    %pm = tile.program_id 0
    %c128 = arith.constant 128 : index
    %m0 = arith.muli %pm, %c128 : index
    %pn = tile.program_id 1
    %c256 = arith.constant 256 : index
    %n0 = arith.muli %pn, %c256 : index
    %zero = arith.constant 0.000000e+00 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<128x256xf32>
    %c0 = arith.constant 0 : index
    %acc = scf.for %k = %c0 to %c256 step %c128 iter_args(%x = %z) -> (!tile.tile<128x256xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<512x256xf8E4M3FN> -> !tile.tile<128x128xf8E4M3FN>
      %tw = tile.load %w[%n0, %k] : memref<512x256xf8E4M3FN> -> !tile.tile<256x128xf8E4M3FN>
      %tb = tile.transpose %tw : !tile.tile<256x128xf8E4M3FN> -> !tile.tile<128x256xf8E4M3FN>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x128xf8E4M3FN>, !tile.tile<128x256xf8E4M3FN> -> !tile.tile<128x256xf32>
      scf.yield %d : !tile.tile<128x256xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<128x256xf32>, memref<512x512xf32>
  }
  return
}
