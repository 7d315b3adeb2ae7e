// tile-pipeline with the config's prefetch on a producer warpgroup's TMA
// ring: with ring-register-loads (not the default: slower on the H200 at
// M = 16) the K loop's load into registers of a dequantized weight's scale
// line (one row of a kernel argument, through a subview that runs to the
// row's end) goes through the ring (RING); without it, it is issued above
// the ring's wait (HOIST): a [1, 64] box of the scales'
// argument (its column the subview's plus the load's, zeros past column
// 200 as the load's padding), a slot per stage, the line read from the
// slot after the ring's wait, in bounds. Without prefetch (NOHOIST) the
// scale load stays after the wait, where tile-tile put it.
// RUN: sed 's/CONFIG/, prefetch = true/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline=ring-register-loads=1 | FileCheck %s --check-prefix=RING
// RUN: sed 's/CONFIG/, prefetch = true/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s --check-prefix=HOIST
// RUN: sed 's/CONFIG//' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s --check-prefix=NOHOIST
//
// A line TMA cannot copy is issued above the ring's wait instead, with the
// index arithmetic it needs, so that its latency passes under the wait;
// the ring's views stay below it: rows of 408 bytes, not a multiple of 16
// (the NOBOX run), or a subview that stops short of the row's end (the
// NARROW run; the load reads zeros past column 100, TMA would read the row
// on).
// RUN: sed 's/CONFIG/, prefetch = true/; s/3x200xbf16/3x204xbf16/g; s/\[1, 200\]/[1, 204]/; s/memref<200xbf16/memref<204xbf16/g' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s --check-prefix=NOBOX
// RUN: sed 's/CONFIG/, prefetch = true/; s/\[1, 200\] \[1, 1\]/[1, 100] [1, 1]/; s/memref<200xbf16/memref<100xbf16/g' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline | FileCheck %s --check-prefix=NARROW
// A ring of 3 (not a power of two: the loop carries its slot) copies the
// line with the box's two indices too.
// RUN: sed 's/CONFIG/, prefetch = true/; s/stages = 4/stages = 3/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline=ring-register-loads=1 | FileCheck %s --check-prefix=RING3

// NOHOIST: scf.for
// NOHOIST:   nvgpu.mbarrier.try_wait.parity
// NOHOIST:   tile.view
// NOHOIST:   tile.load %{{.+}} : memref<200xbf16, strided<[1], offset: ?>>
// NOHOIST:   tile.wgmma

// RING: tile.tma_descriptor %arg1 box [1, 64] swizzle 0 : memref<3x200xbf16>
// RING: %[[LINES:.+]] = tile.shared : memref<4x1x64xbf16, #gpu.address_space<workgroup>>
// RING: %[[FULL:.+]] = tile.barrier_group arrivals 3
// RING: scf.if
// RING:   %[[KB0:.+]] = arith.divui %{{.+}}, %c128
// RING:   %[[COL0:.+]] = arith.addi %c0{{.*}}, %{{.+}} : index
// RING:   %[[SLOT0:.+]] = tile.view %[[LINES]][%{{.+}}] : memref<4x1x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x64xbf16, layout = #tile.shared<>
// RING:   tile.tma_load %{{.+}}[%[[KB0]], %[[COL0]]], %[[SLOT0]], %[[FULL]][%{{.+}}]
// RING: } {tile.producer}
// RING: scf.for
// RING-NOT: memref<200xbf16
// RING:   nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[SLOT:.+]]],
// RING:   %[[ROW:.+]] = memref.subview %[[LINES]][%[[SLOT]], 0, 0] [1, 1, 64] [1, 1, 1] : memref<4x1x64xbf16, #gpu.address_space<workgroup>> to memref<64xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
// RING-NOT: memref<200xbf16
// RING:   %[[SCALES:.+]] = tile.load %[[ROW]][%c0{{.*}}] {in_bounds} : memref<64xbf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>> -> !tile.tile<64xbf16, layout = #tile.slice<1,
// RING:   tile.broadcast %[[SCALES]]
// RING:   tile.wgmma
// RING: } {tile.producer}
// RING: scf.yield

// HOIST: %[[FULLH:.+]] = tile.barrier_group arrivals 2
// HOIST: scf.for
// HOIST:   %[[LINEH:.+]] = memref.subview %{{.+}} [1, 200] [1, 1]
// HOIST:   tile.load %[[LINEH]][%{{.+}}] : memref<200xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16
// HOIST:   nvgpu.mbarrier.try_wait.parity %[[FULLH]][
// HOIST:   tile.wgmma %

// NOBOX: %[[FULLB:.+]] = tile.barrier_group arrivals 2
// NOBOX: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args
// NOBOX:   %[[KB:.+]] = arith.divui %[[K]], %c128
// NOBOX:   %[[LINE:.+]] = memref.subview %{{.+}}[%[[KB]], 0] [1, 204] [1, 1]
// NOBOX:   %[[SCALES:.+]] = tile.load %[[LINE]][%{{.+}}] : memref<204xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16, layout = #tile.slice<1,
// NOBOX:   nvgpu.mbarrier.try_wait.parity %[[FULLB]][
// NOBOX:   tile.view
// NOBOX:   tile.broadcast %[[SCALES]]
// NOBOX:   tile.wgmma %

// NARROW: %[[FULLN:.+]] = tile.barrier_group arrivals 2
// NARROW: scf.for
// NARROW:   tile.load %{{.+}} : memref<100xbf16, strided<[1], offset: ?>>
// NARROW:   nvgpu.mbarrier.try_wait.parity %[[FULLN]][
// NARROW:   tile.wgmma %

// RING3: %[[LINES3:.+]] = tile.shared : memref<3x1x64xbf16, #gpu.address_space<workgroup>>
// RING3: scf.for %{{.+}} iter_args(%{{.+}}, %[[SLOT3:.+]] = %{{.+}}, %{{.+}} = %{{.+}}) ->
// RING3:   memref.subview %[[LINES3]][%[[SLOT3]], 0, 0] [1, 1, 64]
// RING3:   tile.load %{{.+}}[%c0{{.*}}] {in_bounds}
// RING3:   %[[VIEW3:.+]] = tile.view %[[LINES3]][%{{.+}}] : memref<3x1x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x64xbf16
// RING3:   tile.tma_load %{{.+}}[%{{.+}}, %{{.+}}], %[[VIEW3]],

func.func @kernels(%P: memref<200x192xi8>, %S: memref<3x200xbf16>, %X: memref<13x384xbf16>, %Y: memref<200x13xf32>) {
  tile.kernel @transposed_producer grid [4] threads 128 (%P, %S, %X, %Y) : memref<200x192xi8>, memref<3x200xbf16>, memref<13x384xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 4, warp_specialize = trueCONFIG>} {
  ^bb0(%p: memref<200x192xi8>, %s: memref<3x200xbf16>, %x: memref<13x384xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %kh = arith.divui %k, %c2 : index
      %kb = arith.divui %k, %c128 : index
      %tb = tile.load %p[%n0, %kh] : memref<200x192xi8> -> !tile.tile<64x64xi8>
      %q = tile.unpack %tb signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %line = memref.subview %s[%kb, 0] [1, 200] [1, 1] : memref<3x200xbf16> to memref<200xbf16, strided<[1], offset: ?>>
      %ts = tile.load %line[%n0] : memref<200xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
      %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
      %wd = tile.map (%q, %bs) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8, %g: bf16):
        %vf = arith.sitofp %v : i8 to f32
        %gf = arith.extf %g : bf16 to f32
        %r = arith.mulf %vf, %gf : f32
        %h = arith.truncf %r : f32 to bf16
        tile.yield %h : bf16
      }
      %tx = tile.load %x[%c0, %k] : memref<13x384xbf16> -> !tile.tile<16x128xbf16>
      %xt = tile.transpose %tx : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a2 = tile.dot %wd, %xt, %a lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a2 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  return
}
