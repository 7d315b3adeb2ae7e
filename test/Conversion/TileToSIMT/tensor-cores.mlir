// convert-tile-to-simt on what the tensor-core passes leave: the
// warp-specialized wgmma kernel on sm_90a (TMA copies on mbarriers, wgmma
// on matrix descriptors, setmaxnreg in each partition's branch, named
// barriers inside the consumers, the accumulator stored through shared
// memory as 16-byte runs) and the mma.sync kernel on sm_80 (cp.async,
// ldmatrix, mma.sync). GPU tests (test/Integration) check what they
// compute.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=DESC
// RUN: tile-opt %s --tile-configure=chip=sm_80 --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=SYNC

// Two rings of 4 x 8 KB, 1 KB to align them to 1024 bytes, the epilogue's
// 64 x (64 + 8) bf16 scratch after them.
// The first wgmma's matrix descriptors: the low word is base / 16 plus
// offset / 16 plus the leading byte offset's field at bit 16 (A: 16 bytes,
// 1 << 16; B: its 64-column blocks 8192 bytes apart, 512 << 16), one
// 32-bit add of the two; the high word is the stride byte offset (1024 /
// 16 = 64) and the 128-byte swizzle mode (1 << 62): 0x4000004000000000.
// DESC: nvvm.wgmma.fence.aligned
// DESC: %[[AB:.+]] = arith.shrui %{{.+}}, %c4_i32 : i32
// DESC: %[[AO:.+]] = arith.shrui %{{.+}}, %c4_i32 : i32
// DESC-NEXT: %c65536_i32 = arith.constant 65536 : i32
// DESC-NEXT: %[[AL:.+]] = arith.addi %[[AO]], %c65536_i32 : i32
// DESC-NEXT: %[[ALOW:.+]] = arith.addi %[[AB]], %[[AL]] : i32
// DESC-NEXT: %[[AW:.+]] = arith.extui %[[ALOW]] : i32 to i64
// DESC-NEXT: %[[AHIGH:.+]] = arith.constant 4611686293305294848 : i64
// DESC-NEXT: %[[ADESC:.+]] = arith.ori %[[AW]], %[[AHIGH]] : i64
// DESC: %[[BB:.+]] = arith.shrui %{{.+}}, %c4_i32{{.*}} : i32
// DESC: %[[BO:.+]] = arith.shrui %{{.+}}, %c4_i32{{.*}} : i32
// DESC-NEXT: %c33554432_i32 = arith.constant 33554432 : i32
// DESC-NEXT: %[[BL:.+]] = arith.addi %[[BO]], %c33554432_i32 : i32
// DESC-NEXT: %[[BLOW:.+]] = arith.addi %[[BB]], %[[BL]] : i32
// DESC-NEXT: %[[BW:.+]] = arith.extui %[[BLOW]] : i32 to i64
// DESC-NEXT: %[[BHIGH:.+]] = arith.constant 4611686293305294848 : i64
// DESC-NEXT: %[[BDESC:.+]] = arith.ori %[[BW]], %[[BHIGH]] : i64
// DESC-NEXT: nvvm.wgmma.mma_async %[[ADESC]], %[[BDESC]],
// CHECK-LABEL: func @gemm_bias
// CHECK: gpu.launch {{.+}} threads({{.+}}) in (%{{.+}} = %c256, {{.+}}) dynamic_shared_memory_size %c75776_i32
// CHECK: nvgpu.mbarrier.create
// CHECK: nvgpu.mbarrier.init
// CHECK: gpu.barrier
// The producer: the warpgroup below thread 128, 40 registers, its first
// thread alone waiting on the ring, announcing each tile's bytes and
// issuing its TMA copies (the others only give their registers back).
// CHECK: arith.cmpi ult, %[[TID:[^,]+]], %c128
// CHECK: nvvm.setmaxregister decrease 40
// CHECK-NEXT: %c0{{.*}} = arith.constant 0 : index
// CHECK-NEXT: %[[FIRST:.+]] = arith.cmpi eq, %[[TID]], %c0
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.tma.async.load {{.+}} : <tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// The consumers: 256 registers, wgmma m64n64k16 four times per K step of
// 64 on the descriptors of the slot, B transposed (N-major: layout row).
// CHECK: nvvm.setmaxregister increase 256
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: nvvm.bar.warp.sync
// CHECK: nvgpu.mbarrier.arrive
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// The epilogue: pairs of the accumulator into the scratch, a barrier of the
// consumers alone (id 2, 128 threads), 16-byte runs back and out.
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}] {alignment = 4 : i64} : memref<4608xbf16, #gpu.address_space<workgroup>>, vector<2xbf16>
// CHECK: nvvm.barrier id = %c2_i32{{.*}} number_of_threads = %c128_i32
// CHECK: vector.load %{{.+}}[%{{.+}}] {alignment = 16 : i64} : memref<4608xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<256x256xbf16>, vector<8xbf16>

// SYNC-LABEL: func @gemm_bias
// SYNC: nvgpu.device_async_copy
// SYNC: nvvm.cp.async.commit.group
// SYNC: scf.for
// SYNC: nvvm.cp.async.wait.group 1
// SYNC: gpu.barrier
// SYNC: nvvm.ldmatrix {{.+}}layout = #nvvm.mma_layout<row>, num = 4
// SYNC: nvvm.ldmatrix {{.+}}layout = #nvvm.mma_layout<col>, num = 4
// SYNC: nvvm.mma.sync {{.+}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// SYNC: nvvm.cp.async.wait.group 0
func.func @gemm_bias(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %bias: memref<256xf32>, %C: memref<256x256xbf16>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %bias, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256xf32>, memref<256x256xbf16> {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %v: memref<256xf32>, %c: memref<256x256xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %tv = tile.load %v[%n0] : memref<256xf32> -> !tile.tile<64xf32>
    %bv = tile.broadcast %tv [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %sum = tile.map (%acc, %bv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    // The same vector along the other dimension: a second layout.
    %rv = tile.broadcast %tv [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %y = tile.map (%sum, %rv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.mulf %p, %q : f32
      tile.yield %s : f32
    }
    %m = tile.reduce %y, %zero dim = 1 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    %o = tile.cast %y : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<256x256xbf16>
    tile.store %m, %v[%m0] : !tile.tile<64xf32>, memref<256xf32>
  }
  return
}
