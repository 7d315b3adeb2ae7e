// tile-pipeline on a TMA ring whose K step reads a packed weight as eight
// 16-byte columns of the same rows (MXFP4 in runs of 8: one product per
// group of 32 values, each thread reading 4 bytes of a row): merged into
// one box of 128-byte rows, as tile-pipeline-row-pieces.mlir's halves are.
// Unswizzled, the eight rows a warp reads at once lie 128 bytes apart on
// the same banks (8 wavefronts a read); swizzled by 128, on 8 different
// 16-byte units (1). So the box and its descriptor take swizzle 128, and
// each product's view is its 16 columns in the swizzled block, padded to
// the block's 128 (its reads count the swizzle from the view's column).
// (The int4 halves of tile-pipeline-row-pieces.mlir read 16 bytes a
// thread: as many wavefronts either way, so they stay unswizzled.)
// RUN: tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline %s | FileCheck %s
// RUN: tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt %s | FileCheck %s --check-prefix=SIMT

// CHECK: tile.tma_descriptor %{{.+}} box [64, 128] swizzle 128
// CHECK: %[[RING:.+]] = tile.shared : memref<4x64x128xi8, #gpu.address_space<workgroup>>
// CHECK: tile.tma_load {{.+}} : !llvm.ptr, !tile.tile<64x128xi8, layout = #tile.shared<swizzle = 128>
// CHECK: scf.for
// CHECK:   nvgpu.mbarrier.try_wait.parity
// CHECK:   %[[P0:.+]] = tile.view %[[RING]][%{{.+}}] column 0 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x16xi8, layout = #tile.shared<swizzle = 128, padding = 112>
// CHECK:   tile.convert_layout %[[P0]] {{.+}} -> !tile.tile<64x16xi8, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 16, 16]>, k_width = 4>>
// CHECK:   %[[P1:.+]] = tile.view %[[RING]][%{{.+}}] column 16 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x16xi8, layout = #tile.shared<swizzle = 128, padding = 112>
// CHECK:   tile.convert_layout %[[P1]]
// CHECK-COUNT-6: tile.view %[[RING]]
// CHECK:   tile.tma_load {{.+}} : !llvm.ptr, !tile.tile<64x128xi8, layout = #tile.shared<swizzle = 128>

// The reads of the product at column 16 (bytes 16 .. 31 of each row):
// row r's 16-byte unit 1 lies at unit 1 xor (r mod 8) of its row, so the
// offset of (r, 4 c) is 128 r + ((16 + 4 c) xor 16 (r mod 8)) - 16 from
// the view's first byte: the index arithmetic adds the 16 bytes, swizzles
// (the xor of bits 7-9 into 4-6) and takes them off again.
// SIMT-LABEL: gpu.launch
// SIMT: %[[LINE:.+]] = arith.shrui %[[IN:.+]], %c7{{(_[0-9]+)?}} : index
// SIMT-NEXT: %c7{{(_[0-9]+)?}} = arith.constant 7 : index
// SIMT-NEXT: %[[BITS:.+]] = arith.andi %[[LINE]], %c7
// SIMT-NEXT: %c4{{(_[0-9]+)?}} = arith.constant 4 : index
// SIMT-NEXT: %[[SHIFT:.+]] = arith.shli %[[BITS]], %c4
// SIMT-NEXT: %[[SWZ:.+]] = arith.xori %[[IN]], %[[SHIFT]] : index
// SIMT-NEXT: %c1{{(_[0-9]+)?}} = arith.constant 1 : index
// SIMT: %[[AT:.+]] = arith.subi %{{.+}}, %c16{{(_[0-9]+)?}} : index
// SIMT-NEXT: %c1{{(_[0-9]+)?}} = arith.constant 1 : index
// SIMT-NEXT: %[[I:.+]] = arith.divui %[[AT]], %c1
// SIMT-NEXT: vector.load %{{.+}}[%[[I]]] {alignment = 4 : i64} : memref<8192xi8, #gpu.address_space<workgroup>>, vector<4xi8>

func.func @kernels(%P: memref<200x384xi8>, %X: memref<13x768xbf16>, %Y: memref<200x13xf32>) {
  tile.kernel @transposed_producer grid [4] threads 128 (%P, %X, %Y) : memref<200x384xi8>, memref<13x768xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 4, warp_specialize = true>} {
  ^bb0(%p: memref<200x384xi8>, %x: memref<13x768xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c512 step %c512 iter_args(%a0 = %z) -> (!tile.tile<64x16xf32>) {
      %o0 = arith.constant 0 : index
      %k0 = arith.addi %k, %o0 : index
      %kh0 = arith.divui %k0, %c2 : index
      %t0 = tile.load %p[%n0, %kh0] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q0 = tile.unpack %t0 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w0 = tile.map (%q0) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.uitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx0 = tile.load %x[%c0, %k0] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt0 = tile.transpose %tx0 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a1 = tile.dot %w0, %xt0, %a0 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %o1 = arith.constant 32 : index
      %k1 = arith.addi %k, %o1 : index
      %kh1 = arith.divui %k1, %c2 : index
      %t1 = tile.load %p[%n0, %kh1] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q1 = tile.unpack %t1 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w1 = tile.map (%q1) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.uitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx1 = tile.load %x[%c0, %k1] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt1 = tile.transpose %tx1 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a2 = tile.dot %w1, %xt1, %a1 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %o2 = arith.constant 64 : index
      %k2 = arith.addi %k, %o2 : index
      %kh2 = arith.divui %k2, %c2 : index
      %t2 = tile.load %p[%n0, %kh2] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q2 = tile.unpack %t2 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w2 = tile.map (%q2) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.uitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx2 = tile.load %x[%c0, %k2] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt2 = tile.transpose %tx2 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a3 = tile.dot %w2, %xt2, %a2 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %o3 = arith.constant 96 : index
      %k3 = arith.addi %k, %o3 : index
      %kh3 = arith.divui %k3, %c2 : index
      %t3 = tile.load %p[%n0, %kh3] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q3 = tile.unpack %t3 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w3 = tile.map (%q3) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.uitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx3 = tile.load %x[%c0, %k3] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt3 = tile.transpose %tx3 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a4 = tile.dot %w3, %xt3, %a3 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %o4 = arith.constant 128 : index
      %k4 = arith.addi %k, %o4 : index
      %kh4 = arith.divui %k4, %c2 : index
      %t4 = tile.load %p[%n0, %kh4] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q4 = tile.unpack %t4 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w4 = tile.map (%q4) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.uitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx4 = tile.load %x[%c0, %k4] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt4 = tile.transpose %tx4 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a5 = tile.dot %w4, %xt4, %a4 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %o5 = arith.constant 160 : index
      %k5 = arith.addi %k, %o5 : index
      %kh5 = arith.divui %k5, %c2 : index
      %t5 = tile.load %p[%n0, %kh5] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q5 = tile.unpack %t5 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w5 = tile.map (%q5) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.uitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx5 = tile.load %x[%c0, %k5] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt5 = tile.transpose %tx5 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a6 = tile.dot %w5, %xt5, %a5 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %o6 = arith.constant 192 : index
      %k6 = arith.addi %k, %o6 : index
      %kh6 = arith.divui %k6, %c2 : index
      %t6 = tile.load %p[%n0, %kh6] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q6 = tile.unpack %t6 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w6 = tile.map (%q6) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.uitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx6 = tile.load %x[%c0, %k6] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt6 = tile.transpose %tx6 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a7 = tile.dot %w6, %xt6, %a6 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      %o7 = arith.constant 224 : index
      %k7 = arith.addi %k, %o7 : index
      %kh7 = arith.divui %k7, %c2 : index
      %t7 = tile.load %p[%n0, %kh7] : memref<200x384xi8> -> !tile.tile<64x16xi8>
      %q7 = tile.unpack %t7 interleaved : !tile.tile<64x16xi8> -> !tile.tile<64x32xi8>
      %w7 = tile.map (%q7) : (!tile.tile<64x32xi8>) -> !tile.tile<64x32xbf16> {
      ^bb0(%v: i8):
        %vf = arith.uitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx7 = tile.load %x[%c0, %k7] : memref<13x768xbf16> -> !tile.tile<16x32xbf16>
      %xt7 = tile.transpose %tx7 : !tile.tile<16x32xbf16> -> !tile.tile<32x16xbf16>
      %a8 = tile.dot %w7, %xt7, %a7 lhs_k_runs = 8 : !tile.tile<64x32xbf16>, !tile.tile<32x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a8 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  return
}
