// tile-chain-products: a tile.wgmma_wait {pending = 0} whose result only
// feeds the next tile.wgmma's accumulator in its block is dropped, the next
// product taking the unfinished one's result (CHAINED: two products of one
// K step, their operands loaded into shared memory before the first,
// waited for once after the last). The wait stays where an op between
// them makes a shared tile (KEPT: the second product's operands loaded
// into shared memory after the first product, whose buffers they could
// reuse) or writes memory (STORE).
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-chain-products | FileCheck %s

// CHECK-LABEL: func.func @chained
// CHECK: scf.for
// CHECK: %[[FIRST:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %{{.+}} :
// CHECK-NOT: tile.wgmma_wait
// CHECK: %[[SECOND:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %[[FIRST]] :
// CHECK-NEXT: %[[DONE:.+]] = tile.wgmma_wait %[[SECOND]] {pending = 0 : i64}
// CHECK-NEXT: scf.yield %[[DONE]]
func.func @chained(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>, %D: memref<256x256xf32>) {
  tile.kernel @chained_k grid [4, 4] threads 128 (%A, %B, %C, %D) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 1>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>, %d: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %k1 = arith.addi %k, %c64 : index
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %ta1 = tile.load %a[%m0, %k1] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb1 = tile.load %b[%k1, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %x1 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      %x2 = tile.dot %ta1, %tb1, %x1 : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @kept
// CHECK: %[[FIRST:.+]] = tile.wgmma
// CHECK-NEXT: %[[WAITED:.+]] = tile.wgmma_wait %[[FIRST]] {pending = 0 : i64}
// CHECK: tile.load {{.+}}memory_space = #gpu.address_space<workgroup>>
// CHECK: tile.wgmma %{{.+}}, %{{.+}}, %[[WAITED]] :
func.func @kept(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>, %D: memref<256x256xf32>) {
  tile.kernel @kept_k grid [4, 4] threads 128 (%A, %B, %C, %D) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 1>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>, %d: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %k1 = arith.addi %k, %c64 : index
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %x1 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      %ta1 = tile.load %a[%m0, %k1] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb1 = tile.load %b[%k1, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %ta1, %tb1, %x1 : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @store
// CHECK: %[[FIRST:.+]] = tile.wgmma
// CHECK-NEXT: %[[WAITED:.+]] = tile.wgmma_wait %[[FIRST]] {pending = 0 : i64}
// CHECK-NEXT: tile.store
// CHECK: tile.wgmma %{{.+}}, %{{.+}}, %[[WAITED]] :
func.func @store(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>, %D: memref<256x256xf32>) {
  tile.kernel @store_k grid [4, 4] threads 128 (%A, %B, %C, %D) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 1>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>, %d: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %k1 = arith.addi %k, %c64 : index
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %ta1 = tile.load %a[%m0, %k1] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb1 = tile.load %b[%k1, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %x1 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      tile.store %x, %d[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
      %x2 = tile.dot %ta1, %tb1, %x1 : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}
