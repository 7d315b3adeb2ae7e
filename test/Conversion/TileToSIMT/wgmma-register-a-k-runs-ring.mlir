// The transposed product's K loop on a ring (tile.dot lhs_k_runs = 32:
// an int4 weight unpacked into wgmma's register A, x^T its B). Without a
// producer the ring is cp.async, and each wait for it is followed by
// fence.proxy.async (cp.async writes through the generic proxy, wgmma
// reads through the async one); with one (warp_specialize) the packed
// bytes' unswizzled, unpadded tile is one TMA box of the whole tile
// (swizzle none; its descriptor keyed by the box's width too), x
// 128-byte-swizzled boxes.
// RUN: sed 's/CONFIG//' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=CPASYNC
// RUN: sed 's/CONFIG/, warp_specialize = true/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=TMA
// RUN: sed 's/CONFIG/, warp_specialize = true/' %s | tile-opt --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt --cse | FileCheck %s --check-prefix=DESC

// With A in registers, x's descriptor for each wgmma of a slot is one
// 64-bit add to a common one: the constants of its address (x's place in
// the slot, 8 KB: 512 units; each k16 step 32 bytes: 2; the next block
// of 64 along K, 2 KB: 128) come off its view and offset and are added
// last (ptxas: one UIADD3.64 a wgmma in uniform registers).
// DESC: %[[LOW:.+]] = arith.addi %{{.+}}, %c65536_i32 : i32
// DESC-NEXT: %[[WIDE:.+]] = arith.extui %[[LOW]] : i32 to i64
// DESC-NEXT: %[[HIGH:.+]] = arith.constant 4611686293305294848 : i64
// DESC-NEXT: %[[BASE:.+]] = arith.ori %[[WIDE]], %[[HIGH]] : i64
// DESC-NEXT: %[[C0:.+]] = arith.constant 512 : i64
// DESC-NEXT: %[[D0:.+]] = arith.addi %[[BASE]], %[[C0]] : i64
// DESC: wgmma.mma_async{{.+}}%[[D0]],
// DESC: %[[D1:.+]] = arith.addi %[[BASE]], %c514_i64 : i64
// DESC: wgmma.mma_async{{.+}}%[[D1]],
// DESC: arith.addi %[[BASE]], %c516_i64 : i64
// DESC: arith.addi %[[BASE]], %c518_i64 : i64
// DESC: arith.addi %[[BASE]], %c640_i64 : i64

// CPASYNC-NOT: nvgpu.tma.async.load
// CPASYNC: nvvm.cp.async.wait.group
// CPASYNC-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CPASYNC: nvvm.wgmma.fence.aligned

// TMA: tile.tma_descriptor %{{.+}} box [64, 64] swizzle 0 : memref<64x256xi8> -> !llvm.ptr
// TMA: tile.tma_descriptor %{{.+}} box [16, 64] swizzle 128 : memref<16x512xbf16> -> !llvm.ptr
// TMA: nvgpu.tma.async.load {{.+}} : <tensor = memref<64x64xi8, #gpu.address_space<workgroup>>, swizzle = none,
// TMA: nvgpu.tma.async.load {{.+}} : <tensor = memref<16x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b,

func.func @transposed(%P: memref<64x256xi8>, %X: memref<16x512xbf16>, %Y: memref<64x16xf32>) {
  tile.kernel @k grid [1] threads 128 (%P, %X, %Y) : memref<64x256xi8>, memref<16x512xbf16>, memref<64x16xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 2CONFIG>} {
  ^bb0(%p: memref<64x256xi8>, %x: memref<16x512xbf16>, %y: memref<64x16xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %kh = arith.divui %k, %c2 : index
      %tb = tile.load %p[%c0, %kh] : memref<64x256xi8> -> !tile.tile<64x64xi8>
      %q = tile.unpack %tb signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %wd = tile.map (%q) : (!tile.tile<64x128xi8>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8):
        %h = arith.sitofp %v : i8 to bf16
        tile.yield %h : bf16
      }
      %tx = tile.load %x[%c0, %k] : memref<16x512xbf16> -> !tile.tile<16x128xbf16>
      %xt = tile.transpose %tx : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a2 = tile.dot %wd, %xt, %a lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a2 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%c0, %c0] : !tile.tile<64x16xf32>, memref<64x16xf32>
  }
  return
}
