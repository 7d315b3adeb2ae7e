// tile.tma_store's lowering, in a warp-specialized persistent kernel of 128
// x 256 bf16 tiles: four 128-byte column blocks a tile, through two staging
// slots (196608 and 212992: after the ring, 1024-byte aligned) taken in
// turn. Each block: the consumers' fragment pairs into the slot, a proxy
// fence, the elected thread's wait until the copies before have read their
// slots, the consumers' barrier (named barrier 2, 256 threads), then the
// elected thread's TMA store of the slot at the tile's row and the block's
// column, and a bulk group. After the tile loop the elected thread waits
// for every copy to finish. (Four blocks, two slots: no wait before the
// first block. Three blocks, a 128 x 192 tile: the first block's slot is
// the last copy's of the tile before, so a wait and a barrier come first.)
// RUN: tile-opt %s -split-input-file --tile-configure="chip=sm_90a tma-store=1" --tile-assign-layouts --tile-promote --tile-mma --tile-tma-store --tile-persistent --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s

// CHECK-LABEL: func.func @through_tma
// CHECK: nvvm.setmaxregister increase
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: nvvm.cp.async.bulk.wait_group
// CHECK: vector.store %{{.+}}, %[[SLOTS:.+]][%{{.+}}] {alignment = 4 : i64} : memref<16384xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK-COUNT-15: vector.store %{{.+}}, %[[SLOTS]]
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: scf.if
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK: scf.if
// CHECK: arith.constant 196608 : index
// CHECK: %[[S0:.+]] = memref.view {{.*}} to memref<128x64xbf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.store %[[S0]] to %{{.+}}[%{{.+}}, %[[ROW:.+]]] : memref<128x64xbf16, #gpu.address_space<workgroup>> -> <tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-COUNT-16: vector.store %{{.+}}, %[[SLOTS]]
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: arith.constant 212992 : index
// CHECK: nvgpu.tma.async.store
// CHECK: nvgpu.tma.async.store
// CHECK: arith.constant 212992 : index
// CHECK: arith.constant 192 : index
// CHECK: nvgpu.tma.async.store %{{.+}} to %{{.+}}[%{{.+}}, %[[ROW]]]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: scf.if
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0{{$}}
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.terminator
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

// CHECK-LABEL: func.func @three_blocks
// CHECK: nvvm.setmaxregister increase
// CHECK: scf.for
// CHECK-NOT: vector.store
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NOT: vector.store
// CHECK: nvvm.barrier
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: vector.store
// CHECK-COUNT-3: nvgpu.tma.async.store
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: nvvm.cp.async.bulk.wait_group 0{{$}}
func.func @three_blocks(%A: memref<1000x512xbf16>, %B: memref<512x1152xbf16>, %C: memref<1000x1152xbf16>) {
  tile.kernel @three_blocks_k grid [8, 6] threads 256 (%A, %B, %C) : memref<1000x512xbf16>, memref<512x1152xbf16>, memref<1000x1152xbf16> attributes {tile.config = #tile.config<block = [128, 192, 64], threads = 256, mma = wgmma, instr = [64, 192, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, tma_store = true>} {
  ^bb0(%a: memref<1000x512xbf16>, %b: memref<512x1152xbf16>, %c: memref<1000x1152xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c192 = arith.constant 192 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c128 : index
    %n0 = arith.muli %pn, %c192 : index
    %z = tile.splat %zero : f32 -> !tile.tile<128x192xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<128x192xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<1000x512xbf16> -> !tile.tile<128x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x1152xbf16> -> !tile.tile<64x192xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<128x64xbf16>, !tile.tile<64x192xbf16> -> !tile.tile<128x192xf32>
      scf.yield %d : !tile.tile<128x192xf32>
    }
    %h = tile.cast %acc : !tile.tile<128x192xf32> -> !tile.tile<128x192xbf16>
    tile.store %h, %c[%m0, %n0] : !tile.tile<128x192xbf16>, memref<1000x1152xbf16>
  }
  return
}
