// tile-pipeline on a TMA ring whose K step reads x as narrow swizzled
// tiles side by side, each the K-major B of one product (MXFP4's x: a
// [16, 32] bf16 tile of 64-byte rows a product, swizzle 64): one [16, 128]
// tile swizzled by 128 a stage, copied as two boxes of 128-byte rows,
// each product's tile a view of its columns within a column block
// (columns 0 and 32 of the first, 64 and 96 of the second; padding 32),
// its transpose swizzled alike, read by wgmma. The weight's unswizzled
// pieces merge as before. x tiles that are not side by side (each 32
// columns past the last one's end) are not merged.
// RUN: sed 's/SECOND/32/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s
// RUN: sed 's/SECOND/64/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s --check-prefix=APART
// The merged IR parses and verifies again.
// RUN: sed 's/SECOND/32/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | tile-opt -o /dev/null

// CHECK-DAG: tile.tma_descriptor %{{.+}} box [16, 64] swizzle 128
// CHECK-DAG: %[[RING:.+]] = tile.shared : memref<4x16x128xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: tile.shared : memref<4x16x32xbf16
// CHECK: scf.for
// CHECK:   nvgpu.mbarrier.try_wait.parity
// CHECK:   %[[LOW:.+]] = tile.view %[[RING]][%{{.+}}] column 0 : memref<4x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>
// CHECK:   %[[LOWT:.+]] = tile.transpose %[[LOW]] : {{.+}} -> !tile.tile<32x16xbf16, layout = #tile.shared<swizzle = 128, padding = 32, transposed = true>
// CHECK:   tile.wgmma %{{.+}}, %[[LOWT]]
// CHECK:   %[[HIGH:.+]] = tile.view %[[RING]][%{{.+}}] column 32 : memref<4x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>
// CHECK:   %[[HIGHT:.+]] = tile.transpose %[[HIGH]]
// CHECK:   tile.wgmma %{{.+}}, %[[HIGHT]]
// CHECK:   tile.view %[[RING]][%{{.+}}] column 64 : memref<4x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>
// CHECK:   tile.view %[[RING]][%{{.+}}] column 96 : memref<4x16x128xbf16, #gpu.address_space<workgroup>> -> !tile.tile<16x32xbf16, layout = #tile.shared<swizzle = 128, padding = 32>
// CHECK:   tile.tma_load {{.+}} : !llvm.ptr, !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128>

// APART-COUNT-4: tile.shared : memref<4x16x32xbf16, #gpu.address_space<workgroup>>
// APART-NOT: swizzle = 128, padding

func.func @kernels(%P: memref<200x384xi8>, %X: memref<13x768xbf16>, %Y: memref<200x13xf32>) {
  tile.kernel @transposed_producer grid [4] threads 128 (%P, %X, %Y) : memref<200x384xi8>, memref<13x768xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 4, warp_specialize = true>} {
  ^bb0(%p: memref<200x384xi8>, %x: memref<13x768xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %second = arith.constant SECOND : index
    %c768 = arith.constant 768 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c768 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %k0 = arith.addi %k, %c0 : index
      %kh0 = arith.divui %k0, %c2 : index
      %k1 = arith.addi %k, %second : index
      %kh1 = arith.divui %k1, %c2 : index
      %t0 = tile.load %p[%n0, %kh0] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q0 = tile.unpack %t0 signed interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w0 = tile.map (%q0) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.sitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx0 = tile.load %x[%c0, %k0] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt0 = tile.transpose %tx0 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a1 = tile.dot %w0, %xt0, %a lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %t1 = tile.load %p[%n0, %kh1] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q1 = tile.unpack %t1 signed interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w1 = tile.map (%q1) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.sitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx1 = tile.load %x[%c0, %k1] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt1 = tile.transpose %tx1 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a2 = tile.dot %w1, %xt1, %a1 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %k2 = arith.addi %k1, %second : index
      %kh2 = arith.divui %k2, %c2 : index
      %t2 = tile.load %p[%n0, %kh2] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q2 = tile.unpack %t2 signed interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w2 = tile.map (%q2) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.sitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx2 = tile.load %x[%c0, %k2] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt2 = tile.transpose %tx2 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a3 = tile.dot %w2, %xt2, %a2 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %k3 = arith.addi %k2, %second : index
      %kh3 = arith.divui %k3, %c2 : index
      %t3 = tile.load %p[%n0, %kh3] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q3 = tile.unpack %t3 signed interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w3 = tile.map (%q3) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.sitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx3 = tile.load %x[%c0, %k3] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt3 = tile.transpose %tx3 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a4 = tile.dot %w3, %xt3, %a3 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a4 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  return
}
