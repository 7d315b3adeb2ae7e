// A tile.load with l2_fetch (the loads a config's prefetch moves ahead,
// tile-configure's l2_fetch): each access of 2, 4 or 8 bytes becomes
// inline PTX `ld.global.L2::<B>B` (LLVM 22's NVPTX cannot ask a load for
// an L2 prefetch size) at the memref's aligned pointer plus its element
// offset, made a global address; masked slots one by one, each under its
// bound. 16-byte runs keep their plain vector.load (no hint).
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu,convert-tile-to-simt)' | FileCheck %s

// Rows of 301 f32 (not 16-byte runs): 8 slots a thread, each read alone
// where it is inside, its padding where it is not.
// CHECK-LABEL: func @gather
// CHECK-NOT: vector.gather
// CHECK: %[[IN:.+]] = vector.extract %{{.+}}[0] : i1 from vector<8xi1>
// CHECK: scf.if %[[IN]] -> (vector<1xf32>) {
// CHECK:   %{{.+}}, %[[OFFSET:.+]], %{{.+}}, %[[STRIDE:.+]] = memref.extract_strided_metadata
// CHECK:   %[[SCALED:.+]] = arith.muli %{{.+}}, %[[STRIDE]] : index
// CHECK:   %[[ELEMENT:.+]] = arith.addi %[[OFFSET]], %[[SCALED]] : index
// CHECK:   %[[BASE:.+]] = memref.extract_aligned_pointer_as_index
// CHECK:   %[[BYTES:.+]] = arith.muli %[[ELEMENT]], %c4{{.*}} : index
// CHECK:   %[[ADDRESS:.+]] = arith.addi %[[BASE]], %[[BYTES]] : index
// CHECK:   %[[A64:.+]] = arith.index_castui %[[ADDRESS]] : index to i64
// CHECK:   %[[WORD:.+]] = llvm.inline_asm has_side_effects "{ .reg .u64 %g; cvta.to.global.u64 %g, $1; ld.global.L2::128B.b32 $0, [%g]; }", "=r,l" %[[A64]] : (i64) -> i32
// CHECK:   %[[V:.+]] = llvm.bitcast %[[WORD]] : i32 to vector<1xf32>
// CHECK:   scf.yield %[[V]] : vector<1xf32>
// CHECK: } else {
// CHECK:   vector.broadcast %{{.+}} : f32 to vector<1xf32>
// CHECK: }
// CHECK-COUNT-7: ld.global.L2::128B.b32
// CHECK-NOT: ld.global.L2
// CHECK: vector.scatter
func.func @gather(%in: memref<100x301xf32>, %out: memref<100x301xf32>) {
  tile.kernel @gather_0 grid [13, 2] threads 256 (%in, %out) : memref<100x301xf32>, memref<100x301xf32> {
  ^bb0(%a: memref<100x301xf32>, %b: memref<100x301xf32>):
    %p = tile.program_id 0
    %q = tile.program_id 1
    %t = tile.load %a[%p, %q] {l2_fetch = 128 : i64} : memref<100x301xf32> -> !tile.tile<8x256xf32>
    tile.store %t, %b[%p, %q] : !tile.tile<8x256xf32>, memref<100x301xf32>
  }
  return
}

// -----

// Two-byte elements take a 16-bit register ("=h").
// CHECK-LABEL: func @halves
// CHECK-COUNT-4: llvm.inline_asm has_side_effects "{ .reg .u64 %g; cvta.to.global.u64 %g, $1; ld.global.L2::256B.b16 $0, [%g]; }", "=h,l" %{{.+}} : (i64) -> i16
// CHECK-NOT: ld.global.L2
func.func @halves(%in: memref<64x1024xbf16>, %out: memref<64x1024xbf16>) {
  tile.kernel @halves_0 grid [8] threads 128 (%in, %out) : memref<64x1024xbf16>, memref<64x1024xbf16> {
  ^bb0(%a: memref<64x1024xbf16>, %b: memref<64x1024xbf16>):
    %p = tile.program_id 0
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%p, %c0] {l2_fetch = 256 : i64} : memref<64x1024xbf16> -> !tile.tile<8x64xbf16>
    tile.store %t, %b[%p, %c0] : !tile.tile<8x64xbf16>, memref<64x1024xbf16>
  }
  return
}

// -----

// 16-byte runs: PTX has no hinted 16-byte ld of one register; the plain
// load stays.
// CHECK-LABEL: func @wide_runs
// CHECK-NOT: llvm.inline_asm
// CHECK: vector.load %{{.+}} {alignment = 16 : i64} : memref<64x1024xbf16>, vector<8xbf16>
func.func @wide_runs(%in: memref<64x1024xbf16>, %out: memref<64x1024xbf16>) {
  tile.kernel @wide_runs_0 grid [8] threads 128 (%in, %out) : memref<64x1024xbf16>, memref<64x1024xbf16> {
  ^bb0(%a: memref<64x1024xbf16>, %b: memref<64x1024xbf16>):
    %p = tile.program_id 0
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%p, %c0] {l2_fetch = 128 : i64} : memref<64x1024xbf16> -> !tile.tile<8x512xbf16>
    tile.store %t, %b[%p, %c0] : !tile.tile<8x512xbf16>, memref<64x1024xbf16>
  }
  return
}
