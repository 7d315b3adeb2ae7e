// tile-pipeline on a TMA ring whose K step reads a packed weight as tiles
// of the same rows side by side (tile-tile's one tile per product: here
// two 64-byte halves of each row's 128 bytes at (k / 2) and (k + 128) / 2):
// one box of the whole 128 bytes a row, one descriptor and one copy a
// stage, and each half a view of its columns of the slot with the slot's
// row pitch (column 0 and 64, padding 64). Tiles that are not side by
// side (the second half a 64-byte gap further on) keep a ring each.
// RUN: sed 's/SECOND/128/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s
// RUN: sed 's/SECOND/256/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s --check-prefix=APART

// CHECK: tile.tma_descriptor %{{.+}} box [64, 128] swizzle 0
// CHECK-NOT: box [64, 64]
// CHECK: %[[RING:.+]] = tile.shared : memref<4x64x128xi8, #gpu.address_space<workgroup>>
// CHECK-NOT: tile.shared : memref<4x64x64xi8
// CHECK: tile.tma_load {{.+}} : !llvm.ptr, !tile.tile<64x128xi8, layout = #tile.shared<>
// CHECK: scf.for
// CHECK:   nvgpu.mbarrier.try_wait.parity
// CHECK:   %[[LOW:.+]] = tile.view %[[RING]][%{{.+}}] column 0 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<padding = 64>
// CHECK:   tile.convert_layout %[[LOW]]
// CHECK:   %[[HIGH:.+]] = tile.view %[[RING]][%{{.+}}] column 64 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<padding = 64>
// CHECK:   tile.convert_layout %[[HIGH]]
// CHECK:   tile.tma_load {{.+}} : !llvm.ptr, !tile.tile<64x128xi8, layout = #tile.shared<>
// CHECK-NOT: tile.tma_load {{.+}} !tile.tile<64x64xi8

// APART-COUNT-2: tile.shared : memref<4x64x64xi8, #gpu.address_space<workgroup>>
// APART-NOT: column

func.func @kernels(%P: memref<200x384xi8>, %S: memref<6x200xbf16>, %X: memref<13x768xbf16>, %Y: memref<200x13xf32>) {
  tile.kernel @transposed_producer grid [4] threads 128 (%P, %S, %X, %Y) : memref<200x384xi8>, memref<6x200xbf16>, memref<13x768xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 4, warp_specialize = true>} {
  ^bb0(%p: memref<200x384xi8>, %s: memref<6x200xbf16>, %x: memref<13x768xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %second = arith.constant SECOND : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c512 step %c512 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %k0 = arith.addi %k, %c0 : index
      %kh0 = arith.divui %k0, %c2 : index
      %k1 = arith.addi %k, %second : index
      %kh1 = arith.divui %k1, %c2 : index
      %kb = arith.divui %k, %c128 : index
      %t0 = tile.load %p[%n0, %kh0] : memref<200x384xi8> -> !tile.tile<64x64xi8>
      %q0 = tile.unpack %t0 signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %w0 = tile.map (%q0) : (!tile.tile<64x128xi8>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8):
        %vf = arith.sitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx0 = tile.load %x[%c0, %k0] : memref<13x768xbf16> -> !tile.tile<16x128xbf16>
      %xt0 = tile.transpose %tx0 : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a1 = tile.dot %w0, %xt0, %a lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      %t1 = tile.load %p[%n0, %kh1] : memref<200x384xi8> -> !tile.tile<64x64xi8>
      %q1 = tile.unpack %t1 signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %w1 = tile.map (%q1) : (!tile.tile<64x128xi8>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8):
        %vf = arith.sitofp %v : i8 to bf16
        tile.yield %vf : bf16
      }
      %tx1 = tile.load %x[%c0, %k1] : memref<13x768xbf16> -> !tile.tile<16x128xbf16>
      %xt1 = tile.transpose %tx1 : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a2 = tile.dot %w1, %xt1, %a1 lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a2 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  return
}
