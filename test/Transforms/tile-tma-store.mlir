// tile-tma-store: a kernel whose config has tma_store (tile-configure's
// tma-store option) stores its mma tile into a kernel argument through the
// TMA: a host-side tile.tma_descriptor of the argument (box [tile rows, 128
// bytes], swizzle 128), a tile.shared staging buffer of two 128-byte column
// blocks (one where the tile is one block) and a tile.tma_store. Without
// the option, or where the TMA cannot store the argument (rows of 1030 bf16
// are not 16-byte multiples; a layout with warps along N; an output the
// kernel also reads), the tile.store stays.
// RUN: tile-opt %s -split-input-file --tile-configure="chip=sm_90a tma-store=1" --tile-assign-layouts --tile-promote --tile-mma --tile-tma-store | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure="chip=sm_90a tma-store=0" --tile-assign-layouts --tile-promote --tile-mma --tile-tma-store | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func.func @through_tma
// CHECK: %[[D:.+]] = tile.tma_descriptor %arg2 box [128, 64] swizzle 128 : memref<1000x1040xbf16> -> !llvm.ptr
// CHECK: tile.kernel @through_tma_k grid [8, 5] threads 256(%arg0, %arg1, %arg2, %[[D]]) : {{.*}}, !llvm.ptr attributes {tile.config = #tile.config<{{.*}}tma_store = true>}
// CHECK-NEXT: ^bb0({{.*}}, %[[DESC:.+]]: !llvm.ptr):
// CHECK-NEXT: %[[STAGING:.+]] = tile.shared : memref<2x128x64xbf16, #gpu.address_space<workgroup>>
// CHECK-NOT: tile.store
// CHECK: tile.tma_store %{{.+}}, %arg5[%{{.+}}, %{{.+}}] via %[[DESC]], %[[STAGING]] : !tile.tile<128x256xbf16, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>>, memref<1000x1040xbf16>, !llvm.ptr, memref<2x128x64xbf16, #gpu.address_space<workgroup>>
// OFF-LABEL: func.func @through_tma
// OFF-NOT: tma_store
// OFF: tile.store

func.func @through_tma(%A: memref<1000x512xbf16>, %B: memref<512x1040xbf16>, %C: memref<1000x1040xbf16>) {
  tile.kernel @through_tma_k grid [8, 5] threads 256 (%A, %B, %C) : memref<1000x512xbf16>, memref<512x1040xbf16>, memref<1000x1040xbf16> {
  ^bb0(%a: memref<1000x512xbf16>, %b: memref<512x1040xbf16>, %c: memref<1000x1040xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %z = tile.splat %zero : f32 -> !tile.tile<128x256xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<128x256xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<1000x512xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x1040xbf16> -> !tile.tile<64x256xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<128x256xf32>
      scf.yield %d : !tile.tile<128x256xf32>
    }
    %h = tile.cast %acc : !tile.tile<128x256xf32> -> !tile.tile<128x256xbf16>
    tile.store %h, %c[%m0, %n0] : !tile.tile<128x256xbf16>, memref<1000x1040xbf16>
  }
  return
}

// -----

// One 128-byte block a tile: one staging slot.
// CHECK-LABEL: func.func @one_block
// CHECK: tile.tma_descriptor %arg2 box [128, 64] swizzle 128
// CHECK: tile.shared : memref<1x128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: tile.tma_store

func.func @one_block(%A: memref<1000x512xbf16>, %B: memref<512x1040xbf16>, %C: memref<1000x1040xbf16>) {
  tile.kernel @one_block_k grid [8, 17] threads 256 (%A, %B, %C) : memref<1000x512xbf16>, memref<512x1040xbf16>, memref<1000x1040xbf16> {
  ^bb0(%a: memref<1000x512xbf16>, %b: memref<512x1040xbf16>, %c: memref<1000x1040xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<128x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<128x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<1000x512xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x1040xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<128x64xf32>
      scf.yield %d : !tile.tile<128x64xf32>
    }
    %h = tile.cast %acc : !tile.tile<128x64xf32> -> !tile.tile<128x64xbf16>
    tile.store %h, %c[%m0, %n0] : !tile.tile<128x64xbf16>, memref<1000x1040xbf16>
  }
  return
}

// -----

// CHECK-LABEL: func.func @rows_not_16_bytes
// CHECK-NOT: tile.tma_descriptor
// CHECK: tile.config = #tile.config<{{.*}}tma_store = true>
// CHECK-NOT: tile.tma_store
// CHECK: tile.store

func.func @rows_not_16_bytes(%A: memref<1000x512xbf16>, %B: memref<512x1040xbf16>, %C: memref<1000x1030xbf16>) {
  tile.kernel @rows_not_16_bytes_k grid [8, 5] threads 256 (%A, %B, %C) : memref<1000x512xbf16>, memref<512x1040xbf16>, memref<1000x1030xbf16> {
  ^bb0(%a: memref<1000x512xbf16>, %b: memref<512x1040xbf16>, %c: memref<1000x1030xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %z = tile.splat %zero : f32 -> !tile.tile<128x256xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<128x256xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<1000x512xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x1040xbf16> -> !tile.tile<64x256xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<128x256xf32>
      scf.yield %d : !tile.tile<128x256xf32>
    }
    %h = tile.cast %acc : !tile.tile<128x256xf32> -> !tile.tile<128x256xbf16>
    tile.store %h, %c[%m0, %n0] : !tile.tile<128x256xbf16>, memref<1000x1030xbf16>
  }
  return
}

// -----

// Warps along N (a hand-written config): a warp's columns span blocks, so
// the store stays.
// CHECK-LABEL: func.func @warps_along_n
// CHECK-NOT: tile.tma_descriptor
// CHECK-NOT: tile.tma_store
// CHECK: tile.store
func.func @warps_along_n(%A: memref<1000x512xbf16>, %B: memref<512x1040xbf16>, %C: memref<1000x1040xbf16>) {
  tile.kernel @warps_along_n_k grid [8, 5] threads 256 (%A, %B, %C) : memref<1000x512xbf16>, memref<512x1040xbf16>, memref<1000x1040xbf16> attributes {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [4, 2], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, tma_store = true>} {
  ^bb0(%a: memref<1000x512xbf16>, %b: memref<512x1040xbf16>, %c: memref<1000x1040xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %z = tile.splat %zero : f32 -> !tile.tile<128x256xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<128x256xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<1000x512xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x1040xbf16> -> !tile.tile<64x256xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<128x256xf32>
      scf.yield %d : !tile.tile<128x256xf32>
    }
    %h = tile.cast %acc : !tile.tile<128x256xf32> -> !tile.tile<128x256xbf16>
    tile.store %h, %c[%m0, %n0] : !tile.tile<128x256xbf16>, memref<1000x1040xbf16>
  }
  return
}

// -----

// The kernel reads its output too (a residual in place): the TMA's copies
// would race with the reads, so the store stays.
// CHECK-LABEL: func.func @reads_its_output
// CHECK-NOT: tile.tma_descriptor
// CHECK-NOT: tile.tma_store
// CHECK: tile.store
func.func @reads_its_output(%A: memref<1000x512xbf16>, %B: memref<512x1040xbf16>, %C: memref<1000x1040xbf16>) {
  tile.kernel @reads_its_output_k grid [8, 5] threads 256 (%A, %B, %C) : memref<1000x512xbf16>, memref<512x1040xbf16>, memref<1000x1040xbf16> {
  ^bb0(%a: memref<1000x512xbf16>, %b: memref<512x1040xbf16>, %c: memref<1000x1040xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c256 : index
    %z = tile.splat %zero : f32 -> !tile.tile<128x256xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<128x256xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<1000x512xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x1040xbf16> -> !tile.tile<64x256xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x256xbf16> -> !tile.tile<128x256xf32>
      scf.yield %d : !tile.tile<128x256xf32>
    }
    %h = tile.cast %acc : !tile.tile<128x256xf32> -> !tile.tile<128x256xbf16>
    %old = tile.load %c[%m0, %n0] : memref<1000x1040xbf16> -> !tile.tile<128x256xbf16>
    %sum = tile.map(%h, %old) : (!tile.tile<128x256xbf16>, !tile.tile<128x256xbf16>) -> !tile.tile<128x256xbf16> {
    ^bb0(%p: bf16, %q: bf16):
      %r = arith.addf %p, %q : bf16
      tile.yield %r : bf16
    }
    tile.store %sum, %c[%m0, %n0] : !tile.tile<128x256xbf16>, memref<1000x1040xbf16>
  }
  return
}
