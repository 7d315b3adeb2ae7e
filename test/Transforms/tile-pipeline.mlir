// tile-pipeline: the K loop's shared-memory loads become rings of 4 (TMA)
// or 3 (cp.async) slots filled stages - 1 iterations ahead.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_80 --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s --check-prefix=ASYNC

// TMA: a descriptor per source made on the host and passed to the kernel,
// the rings and two barrier groups at the top of the kernel (full: one
// arrival per load; empty: one per consumer warp), iterations 0..2 issued
// before the loop and i + 3 in iteration i, each in an scf.if marked
// tile.producer that first waits for its slot to be empty; iteration i
// waits on its full barrier, keeps one wgmma group in flight and gives the
// previous slot back; after the loop, the last group and its slot.
// CHECK-LABEL: func @gemm_bias
// CHECK-DAG: [[DA:%.+]] = tile.tma_descriptor %arg0 box [64, 64] swizzle 128 : memref<256x512xbf16> -> !llvm.ptr
// CHECK-DAG: [[DB:%.+]] = tile.tma_descriptor %arg1 box [64, 64] swizzle 128 : memref<512x256xbf16> -> !llvm.ptr
// CHECK: tile.kernel @k grid [4, 4] threads 128({{.+}}, [[DA]], [[DB]])
// CHECK: ^bb0({{.+}}, [[KA:%.+]]: !llvm.ptr, [[KB:%.+]]: !llvm.ptr):
// CHECK: [[RA:%.+]] = tile.shared : memref<4x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: [[RB:%.+]] = tile.shared : memref<4x64x64xbf16, #gpu.address_space<workgroup>>
// CHECK: [[FULL:%.+]] = tile.barrier_group arrivals 2 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: [[EMPTY:%.+]] = tile.barrier_group arrivals 4 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: scf.if
// CHECK: nvgpu.mbarrier.try_wait.parity [[EMPTY]]
// CHECK: tile.tma_load [[KA]]
// CHECK: tile.tma_load [[KB]]
// CHECK: } {tile.producer}
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity [[FULL]]
// CHECK: [[VA:%.+]] = tile.view [[RA]]
// CHECK: [[VB:%.+]] = tile.view [[RB]]
// CHECK: [[T:%.+]] = tile.wgmma [[VA]], [[VB]]
// CHECK: tile.wgmma_wait [[T]] {pending = 1 : i64}
// CHECK: scf.if
// CHECK: tile.arrive [[EMPTY]]
// CHECK: scf.if
// CHECK: tile.tma_load
// CHECK: } {tile.producer}
// CHECK: scf.yield
// CHECK: tile.wgmma_wait %{{.+}} {pending = 0 : i64}
// CHECK: tile.arrive [[EMPTY]]
// CHECK-NOT: tile.load %{{.+}} -> {{.+}}workgroup

// cp.async: rings of 3, iterations 0 and 1 issued as one commit group each;
// iteration i waits for its group (one younger may fly), a barrier, then
// issues iteration i + 2 and reads its slot; the copies past the end are
// drained after the loop. A ring of 3 is not a power of two: the loop
// carries the slot (no division in the loop), issues into slot - 1 mod 3
// (iteration i + 2's), reads its own, and yields slot + 1 wrapped at 3.
// ASYNC-LABEL: func @gemm_bias
// ASYNC: [[RA:%.+]] = tile.shared : memref<3x64x64xbf16, #gpu.address_space<workgroup>>
// ASYNC: tile.async_load
// ASYNC: tile.async_load
// ASYNC-NEXT: tile.async_commit
// ASYNC: tile.async_commit
// ASYNC: [[START:%.+]] = arith.remui %c0{{.*}}, %c3{{.*}} : index
// ASYNC: scf.for {{.+}} iter_args({{.+}}, [[SLOT:%.+]] = [[START]])
// ASYNC-NOT: arith.remui
// ASYNC: [[FIRST:%.+]] = arith.cmpi eq, [[SLOT]], %c0
// ASYNC: [[PREV:%.+]] = arith.subi [[SLOT]], %c1
// ASYNC: [[AHEAD:%.+]] = arith.select [[FIRST]], %c2{{.*}}, [[PREV]] : index
// ASYNC: tile.wait_async 1
// ASYNC-NEXT: tile.barrier
// ASYNC-NEXT: tile.view [[RA]][[[AHEAD]]]
// ASYNC: tile.async_load
// ASYNC: tile.async_commit
// ASYNC: tile.view [[RA]][[[SLOT]]]
// ASYNC: tile.dot
// ASYNC-NOT: arith.remui
// ASYNC: [[NEXT:%.+]] = arith.addi [[SLOT]], %c1
// ASYNC: [[WRAPS:%.+]] = arith.cmpi eq, [[NEXT]], %c3
// ASYNC: [[SLOT2:%.+]] = arith.select [[WRAPS]], %c0{{.*}}, [[NEXT]] : index
// ASYNC: scf.yield %{{.+}}, [[SLOT2]]
// ASYNC: tile.wait_async 0
func.func @gemm_bias(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %bias: memref<256xf32>, %C: memref<256x256xbf16>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %bias, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256xf32>, memref<256x256xbf16> {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %v: memref<256xf32>, %c: memref<256x256xbf16>):
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
    %tv = tile.load %v[%n0] : memref<256xf32> -> !tile.tile<64xf32>
    %bv = tile.broadcast %tv [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %sum = tile.map (%acc, %bv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    // The same vector along the other dimension: a second layout.
    %rv = tile.broadcast %tv [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %y = tile.map (%sum, %rv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.mulf %p, %q : f32
      tile.yield %s : f32
    }
    %m = tile.reduce %y, %zero dim = 1 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    %o = tile.cast %y : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<256x256xbf16>
    tile.store %m, %v[%m0] : !tile.tile<64xf32>, memref<256xf32>
  }
  return
}
