// A weight dequantized in a K loop (the tile IR tile-tile builds from
// tile-fuse's weight prologue): tile-assign-layouts gives the packed bytes
// 16-byte runs and the unpacked values twice that (each thread splits its
// own bytes), the map follows them; tile-promote loads the packed bytes
// into shared memory (for tile-pipeline's ring), rows unpadded (thread t
// reads the t-th 16 bytes, as the copies write them: every bank once), and
// back into their runs.
// Each thread's run of 32 values of a row of W [N, K] is, transposed,
// mma.sync's B fragments in the K order of k_width = 32 (lane l % 4 holds
// K 32 (l % 4) .. + 31 of column l / 4): the transpose stays in registers
// as that #tile.dot_operand and moves nothing, and tile-mma gives x the
// same K order. The SIMT lowering reads the bytes back with 16-byte loads,
// splits them on 32-bit words (a shift up and an arithmetic shift down by
// 28 per value), reads each run's scale straight from global memory,
// reorders the thread's slots for the transpose (a shuffle), reads x's
// runs of 8 with 16-byte shared loads (no ldmatrix) and issues mma.sync:
// W never goes to shared memory. The layouts (LAYOUTS, MMA) and the
// lowering (CHECK).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote | FileCheck %s --check-prefix=LAYOUTS
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s --check-prefix=RING

// With the 4 stages its config asks for, tile-pipeline copies the bytes
// (their column, half the K offset, a multiple of 16) into a ring with
// cp.async, beside x.
// RING-LABEL: func.func @w4
// RING: tile.async_load %{{.+}} : memref<16x512xbf16>
// RING: tile.async_load %{{.+}} : memref<256x256xi8>, !tile.tile<64x64xi8, layout = #tile.shared<>
// With prefetch, the scales' row stays in registers and is loaded an
// iteration ahead:
// step 0's before the loop, step i + 1's (the last step's again in the
// last one) in step i, carried in iter_args.
// RING: %[[S0:.+]] = tile.load %{{.+}} : memref<256xf32, strided<[1], offset: ?>> -> !tile.tile<64xf32
// RING: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %[[STEP:.+]] iter_args(%{{.+}} = %{{.+}}, %[[CUR:.+]] = %[[S0]])
// RING: %[[AHEAD:.+]] = arith.addi %[[K]], %[[STEP]] : index
// RING: arith.minui %[[AHEAD]], %c384 : index
// RING: %[[NEXT:.+]] = tile.load %{{.+}} : memref<256xf32, strided<[1], offset: ?>> -> !tile.tile<64xf32
// RING: tile.map(%{{.+}}, %{{.+}})
// RING: scf.yield %{{.+}}, %[[NEXT]]

// LAYOUTS-LABEL: func.func @w4
// x's tile, read as runs of 32 along K: lanes l % 4 = 0 and 2 read 128
// bytes apart in a row, the same banks in a padded row; with row_xor = 128
// every second 128 bytes of a row trade 32-byte halves, and each 16-byte
// read of the warp takes 4 wavefronts, not 8.
// LAYOUTS: tile.load %{{.+}} : memref<16x512xbf16> -> !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8, row_xor = 128>, memory_space = #gpu.address_space<workgroup>>
// LAYOUTS: %[[P:.+]] = tile.load %{{.+}} : memref<256x256xi8> -> !tile.tile<64x64xi8, layout = #tile.shared<>, memory_space = #gpu.address_space<workgroup>>
// LAYOUTS: %[[R:.+]] = tile.convert_layout %[[P]] : {{.+}} -> !tile.tile<64x64xi8, layout = #tile.blocked<threads = 128, run = 16>>
// LAYOUTS: tile.unpack %[[R]] signed : !tile.tile<64x64xi8, layout = #tile.blocked<threads = 128, run = 16>> -> !tile.tile<64x128xi8, layout = #tile.blocked<threads = 128, run = 32>>
// LAYOUTS: %[[W:.+]] = tile.map(%{{.+}}, %{{.+}}) : (!tile.tile<64x128xi8, layout = #tile.blocked<threads = 128, run = 32>>, !tile.tile<64x128xf32, layout = #tile.blocked<threads = 128, run = 32>>) -> !tile.tile<64x128xbf16, layout = #tile.blocked<threads = 128, run = 32>>
// LAYOUTS-NOT: tile.convert_layout
// LAYOUTS: tile.transpose %[[W]] : !tile.tile<64x128xbf16, layout = #tile.blocked<threads = 128, run = 32>> -> !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 32>>

// MMA-LABEL: func.func @w4
// MMA: %[[B:.+]] = tile.transpose {{.+}} -> !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 32>>
// MMA: %[[A:.+]] = tile.convert_layout %{{.+}} : !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8, row_xor = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 32>>
// MMA: tile.dot %[[A]], %[[B]], %{{.+}} : !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, {{.+}}, k_width = 32>>, !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, {{.+}}, k_width = 32>>

// CHECK-LABEL: func.func @w4
// CHECK: vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// CHECK: vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>, vector<16xi8>
// CHECK: %[[W:.+]] = vector.bitcast %{{.+}} : vector<32xi8> to vector<8xi32>
// CHECK: %[[SPREAD:.+]] = vector.shuffle %[[W]], %[[W]] [0, 0, 0, 0, 0, 0, 0, 0, 1,
// CHECK: %[[TOP:.+]] = arith.shli %[[SPREAD]], %{{.+}} : vector<64xi32>
// CHECK: %[[V:.+]] = arith.shrsi %[[TOP]], %{{.+}} : vector<64xi32>
// CHECK: arith.trunci %[[V]] : vector<64xi32> to vector<64xi8>
// The row's scale, one per run of 32 (two per thread), read from the
// scales' row in global memory: no exchange through shared memory.
// CHECK: vector.gather %{{.+}}[%{{.+}}] [%{{.+}}], %{{.+}}, %{{.+}} : memref<256xf32, strided<[1], offset: ?>>, vector<2xindex>, vector<2xi1>, vector<2xf32> into vector<2xf32>
// CHECK-NOT: vector.store %{{.+}} : memref<{{[0-9]+}}xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: nvvm.ldmatrix
// x's runs: the byte offset b in the row xor (b and 128) >> 2 (row_xor =
// 128), plus the row's start (pitch 272 bytes).
// CHECK: %[[HALF:.+]] = arith.andi %[[B:.+]], %c128{{.*}} : index
// CHECK: %[[FLIP:.+]] = arith.shrui %[[HALF]], %{{.+}} : index
// CHECK: %[[SWZ:.+]] = arith.xori %[[B]], %[[FLIP]] : index
// CHECK: %[[ROW:.+]] = arith.muli %{{.+}}, %c272{{.*}} : index
// CHECK: arith.addi %[[ROW]], %[[SWZ]] : index
// CHECK: vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<2176xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK-NOT: nvvm.ldmatrix
// CHECK: nvvm.mma.sync
// CHECK-NOT: nvvm.ldmatrix
// CHECK-LABEL: func.func @w8

// An int8 weight [N, K]: tile-assign-layouts gives the map's result runs
// of K / 4 = 32 (B's fragments of k_width 32, transposed), and its bytes
// follow (two 16-byte runs): registers too.
// LAYOUTS-LABEL: func.func @w8(
// LAYOUTS: tile.map(%{{.+}}, %{{.+}}) : (!tile.tile<64x128xi8, layout = #tile.blocked<threads = 128, run = 32>>, !tile.tile<64x128xf32, layout = #tile.blocked<threads = 128, run = 32>>) -> !tile.tile<64x128xbf16, layout = #tile.blocked<threads = 128, run = 32>>
// LAYOUTS: tile.transpose {{.+}} -> !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 32>>

// With two warps along M, mma.sync's B is copied in both, which no
// blocked layout is: the dequantized tile goes to shared memory as it is
// and ldmatrix reads it through a `transposed` view.
// LAYOUTS-LABEL: func.func @w8_two_warps_along_m
// LAYOUTS: %[[S:.+]] = tile.convert_layout %{{.+}} : !tile.tile<64x128xbf16, layout = #tile.blocked<threads = 128, run = 16>> -> !tile.tile<64x128xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
// LAYOUTS: tile.transpose %[[S]] : {{.+}} -> !tile.tile<128x64xbf16, layout = #tile.shared<padding = 8, transposed = true>, memory_space = #gpu.address_space<workgroup>>
// MMA-LABEL: func.func @w8_two_warps_along_m
// MMA: tile.dot %{{.+}}, %{{.+}}, %{{.+}} : !tile.tile<32x128xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>, !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>
func.func @w4(%X: memref<16x512xbf16>, %W: memref<256x256xi8>, %S: memref<4x256xf32>, %Y: memref<16x256xf32>) {
  tile.kernel @w4 grid [4] threads 128 (%X, %W, %S, %Y) : memref<16x512xbf16>, memref<256x256xi8>, memref<4x256xf32>, memref<16x256xf32> attributes {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 4, prefetch = true>} {
  ^bb0(%x: memref<16x512xbf16>, %w: memref<256x256xi8>, %s: memref<4x256xf32>, %y: memref<16x256xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<16x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%a = %z) -> (!tile.tile<16x64xf32>) {
      %tx = tile.load %x[%c0, %k] : memref<16x512xbf16> -> !tile.tile<16x128xbf16>
      %kh = arith.divui %k, %c2 : index
      %tp = tile.load %w[%n0, %kh] : memref<256x256xi8> -> !tile.tile<64x64xi8>
      %tq = tile.unpack %tp signed : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %g = arith.divui %k, %c128 : index
      %row = memref.subview %s[%g, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      %ts = tile.load %row[%n0] : memref<256xf32, strided<[1], offset: ?>> -> !tile.tile<64xf32>
      %tsb = tile.broadcast %ts [1] : !tile.tile<64xf32> -> !tile.tile<64x128xf32>
      %tw = tile.map (%tq, %tsb) : (!tile.tile<64x128xi8>, !tile.tile<64x128xf32>) -> !tile.tile<64x128xbf16> {
      ^bb0(%qi: i8, %si: f32):
        %f = arith.sitofp %qi : i8 to f32
        %v = arith.mulf %f, %si : f32
        %h = arith.truncf %v : f32 to bf16
        tile.yield %h : bf16
      }
      %tb = tile.transpose %tw : !tile.tile<64x128xbf16> -> !tile.tile<128x64xbf16>
      %a2 = tile.dot %tx, %tb, %a : !tile.tile<16x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<16x64xf32>
      scf.yield %a2 : !tile.tile<16x64xf32>
    }
    tile.store %acc, %y[%c0, %n0] : !tile.tile<16x64xf32>, memref<16x256xf32>
  }
  return
}

func.func @w8(%X: memref<16x512xbf16>, %W: memref<256x512xi8>, %S: memref<4x256xf32>, %Y: memref<16x256xf32>) {
  tile.kernel @w8 grid [4] threads 128 (%X, %W, %S, %Y) : memref<16x512xbf16>, memref<256x512xi8>, memref<4x256xf32>, memref<16x256xf32> attributes {tile.config = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 4>} {
  ^bb0(%x: memref<16x512xbf16>, %w: memref<256x512xi8>, %s: memref<4x256xf32>, %y: memref<16x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<16x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%a = %z) -> (!tile.tile<16x64xf32>) {
      %tx = tile.load %x[%c0, %k] : memref<16x512xbf16> -> !tile.tile<16x128xbf16>
      %tq = tile.load %w[%n0, %k] : memref<256x512xi8> -> !tile.tile<64x128xi8>
      %g = arith.divui %k, %c128 : index
      %row = memref.subview %s[%g, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      %ts = tile.load %row[%n0] : memref<256xf32, strided<[1], offset: ?>> -> !tile.tile<64xf32>
      %tsb = tile.broadcast %ts [1] : !tile.tile<64xf32> -> !tile.tile<64x128xf32>
      %tw = tile.map (%tq, %tsb) : (!tile.tile<64x128xi8>, !tile.tile<64x128xf32>) -> !tile.tile<64x128xbf16> {
      ^bb0(%qi: i8, %si: f32):
        %f = arith.sitofp %qi : i8 to f32
        %v = arith.mulf %f, %si : f32
        %h = arith.truncf %v : f32 to bf16
        tile.yield %h : bf16
      }
      %tb = tile.transpose %tw : !tile.tile<64x128xbf16> -> !tile.tile<128x64xbf16>
      %a2 = tile.dot %tx, %tb, %a : !tile.tile<16x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<16x64xf32>
      scf.yield %a2 : !tile.tile<16x64xf32>
    }
    tile.store %acc, %y[%c0, %n0] : !tile.tile<16x64xf32>, memref<16x256xf32>
  }
  return
}

func.func @w8_two_warps_along_m(%X: memref<32x512xbf16>, %W: memref<256x512xi8>, %S: memref<4x256xf32>, %Y: memref<32x256xf32>) {
  tile.kernel @w8_two_warps_along_m grid [4] threads 128 (%X, %W, %S, %Y) : memref<32x512xbf16>, memref<256x512xi8>, memref<4x256xf32>, memref<32x256xf32> attributes {tile.config = #tile.config<block = [32, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], stages = 4>} {
  ^bb0(%x: memref<32x512xbf16>, %w: memref<256x512xi8>, %s: memref<4x256xf32>, %y: memref<32x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<32x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%a = %z) -> (!tile.tile<32x64xf32>) {
      %tx = tile.load %x[%c0, %k] : memref<32x512xbf16> -> !tile.tile<32x128xbf16>
      %tq = tile.load %w[%n0, %k] : memref<256x512xi8> -> !tile.tile<64x128xi8>
      %g = arith.divui %k, %c128 : index
      %row = memref.subview %s[%g, 0] [1, 256] [1, 1] : memref<4x256xf32> to memref<256xf32, strided<[1], offset: ?>>
      %ts = tile.load %row[%n0] : memref<256xf32, strided<[1], offset: ?>> -> !tile.tile<64xf32>
      %tsb = tile.broadcast %ts [1] : !tile.tile<64xf32> -> !tile.tile<64x128xf32>
      %tw = tile.map (%tq, %tsb) : (!tile.tile<64x128xi8>, !tile.tile<64x128xf32>) -> !tile.tile<64x128xbf16> {
      ^bb0(%qi: i8, %si: f32):
        %f = arith.sitofp %qi : i8 to f32
        %v = arith.mulf %f, %si : f32
        %h = arith.truncf %v : f32 to bf16
        tile.yield %h : bf16
      }
      %tb = tile.transpose %tw : !tile.tile<64x128xbf16> -> !tile.tile<128x64xbf16>
      %a2 = tile.dot %tx, %tb, %a : !tile.tile<32x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<32x64xf32>
      scf.yield %a2 : !tile.tile<32x64xf32>
    }
    tile.store %acc, %y[%c0, %n0] : !tile.tile<32x64xf32>, memref<32x256xf32>
  }
  return
}
