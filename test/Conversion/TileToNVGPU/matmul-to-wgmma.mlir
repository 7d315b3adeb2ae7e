// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile --convert-tile-matmul-to-wgmma | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile --convert-tile-matmul-to-wgmma=persistent-programs=16 | FileCheck %s --check-prefix=LOOP
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile --convert-tile-matmul-to-wgmma=persistent-programs=0 | FileCheck %s --check-prefix=ONE
// RUN: not tile-opt %s -split-input-file --convert-tile-matmul-to-wgmma=persistent-programs=-1 2>&1 | FileCheck %s --check-prefix=BADPROGRAMS
// RUN: not tile-opt %s -split-input-file --convert-tile-matmul-to-wgmma=stages=9 2>&1 | FileCheck %s --check-prefix=BADSTAGES

// RUN: not tile-opt %s -split-input-file --convert-tile-matmul-to-wgmma=group-rows=0 2>&1 | FileCheck %s --check-prefix=BADGROUP
// BADPROGRAMS: error: persistent-programs must be >= 0 but is -1
// BADGROUP: error: group-rows must be at least 1 but is 0
// BADSTAGES: error: stages must be in [2, 8] but is 9
// Five 48 KB stages of 128x256x64 bf16 do not fit in a block's shared memory.
// RUN: not tile-opt %s -split-input-file --tile-fuse --tile-tile --convert-tile-matmul-to-wgmma=stages=5 2>&1 | FileCheck %s --check-prefix=BIGRING
// BIGRING: error: stages=5 needs 267264 bytes of shared memory per block; sm_90 has 232448

// A bf16 matmul with a fused bias + cast epilogue becomes the Hopper kernel:
// TMA descriptors on the host, 384 threads (producer + two consumers), the
// 4-stage ring in dynamic shared memory (aligned at run time, hence +1 KB),
// full/empty mbarriers, setmaxnreg per role, TMA copies into the ring,
// wgmma on 64x256 per consumer (B transposed: it is K x N row-major), and
// the epilogue: the bias loaded before the last wgmma group is waited for
// (8 4-wide pieces per thread, one per 32-column slab, clamped inside the
// bias because the mask comes later), accumulator registers to a
// shared-memory slab of 32 columns per consumer, then the add and cast on
// 4-wide rows before the store, with no bias load there. 64 tiles fit the
// default grid
// of 132 programs, so there are 64 programs, one tile each.
// CHECK-LABEL: func @matmul_bias
// CHECK-DAG: %[[DA:.+]] = tile.tma_descriptor %arg0 box [128, 64] swizzle 128 : memref<1024x512xbf16> -> !llvm.ptr
// CHECK-DAG: %[[DB:.+]] = tile.tma_descriptor %arg1 box [64, 64] swizzle 128 : memref<512x2048xbf16> -> !llvm.ptr
// CHECK: tile.kernel @matmul_bias_0 grid [64] threads 384(%arg0, %arg1, %arg3, %[[DA]], %[[DB]], %arg2)
// CHECK-SAME: dynamic_shared_memory = 218112
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: nvvm.setmaxregister decrease 40
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.tma.async.load
// CHECK: nvvm.setmaxregister increase 232
// CHECK: nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<64x256xf32>>
// CHECK: nvgpu.warpgroup.mma %{{.+}}, %{{.+}}, %{{.+}} {transposeB}
// CHECK: nvgpu.mbarrier.arrive
// CHECK: arith.minui %{{.+}}, %c2044
// CHECK-COUNT-8: vector.load %{{.+}} : memref<2048xf32>, vector<4xf32>
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.mbarrier.arrive
// CHECK: builtin.unrealized_conversion_cast %{{.+}} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to !llvm.struct<(struct<(f32,
// CHECK: llvm.extractvalue
// CHECK: %[[SLAB:.+]] = memref.view %{{.+}}[%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x40xf32, #gpu.address_space<workgroup>>
// CHECK: vector.from_elements %{{.+}}, %{{.+}} : vector<2xf32>
// CHECK: vector.store %{{.+}}, %[[SLAB]]
// CHECK: nvvm.barrier id = %{{.+}} number_of_threads = %{{.+}}
// CHECK: vector.load %[[SLAB]]{{.+}} vector<4xf32>
// CHECK-NOT: memref<2048xf32>
// CHECK: arith.addf %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK: arith.truncf %{{.+}} : vector<4xf32> to vector<4xbf16>
// CHECK: vector.store %{{.+}} : memref<1024x2048xbf16>, vector<4xbf16>
// CHECK-NOT: nvgpu.warpgroup.mma.store
// CHECK-NOT: tile.dot
// With 16 programs, each walks tiles pid, pid + 16, ... and both roles
// count ring iterations across tiles.
// LOOP-LABEL: func @matmul_bias
// LOOP: tile.kernel @matmul_bias_0 grid [16] threads 384
// LOOP: %[[PID:.+]] = tile.program_id 0
// LOOP: scf.for %{{.+}} = %[[PID]] to %c64{{.*}} step %c16
// LOOP: nvgpu.tma.async.load
// LOOP: %[[PID2:.+]] = tile.program_id 0
// LOOP: scf.for %{{.+}} = %[[PID2]] to %c64{{.*}} step %c16
// LOOP: nvgpu.warpgroup.mma
// With persistent-programs=0, one program per tile: the tile loop runs once.
// ONE-LABEL: func @matmul_bias
// ONE: tile.kernel @matmul_bias_0 grid [64] threads 384
// ONE: scf.for %{{.+}} = %{{.+}} to %c64{{.*}} step %c64
func.func @matmul_bias(%a: tensor<1024x512xbf16>, %b: tensor<512x2048xbf16>, %v: tensor<2048xf32>) -> tensor<1024x2048xbf16> {
  %c = tile.matmul %a, %b : (tensor<1024x512xbf16>, tensor<512x2048xbf16>) -> tensor<1024x2048xf32>
  %vb = tile.broadcast %v [0] : tensor<2048xf32> -> tensor<1024x2048xf32>
  %s = tile.map (%c, %vb) : (tensor<1024x2048xf32>, tensor<1024x2048xf32>) -> tensor<1024x2048xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  %o = tile.cast %s : tensor<1024x2048xf32> -> tensor<1024x2048xbf16>
  return %o : tensor<1024x2048xbf16>
}

// -----

// Rows that TMA cannot read (1023 bf16 = 2046 bytes) are copied into
// padded scratch buffers by tile-tile; the kernel on those takes the
// Hopper path.
// CHECK-LABEL: func @unaligned
// CHECK: tile.kernel @unaligned_0_pad_a
// CHECK: tile.kernel @unaligned_0_pad_b
// CHECK: tile.tma_descriptor %{{.+}} box [128, 64] swizzle 128 : memref<1024x1024xbf16> -> !llvm.ptr
// CHECK: tile.kernel @unaligned_0 grid [32] threads 384
func.func @unaligned(%a: tensor<1024x1023xbf16>, %b: tensor<1023x1024xbf16>) -> tensor<1024x1024xf32> {
  %c = tile.matmul %a, %b : (tensor<1024x1023xbf16>, tensor<1023x1024xbf16>) -> tensor<1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}

// -----

// A per-row scale and a residual in the epilogue. The scale's 4 values per
// thread (one per 16-row step) are loaded before the last wgmma group is
// waited for, clamped to the last row (M = 1000 is ragged); each slab's 4
// residual loads go out before the slab's barriers, clamped to the last row
// and the last 4 columns; the steps load nothing.
// CHECK-LABEL: func @matmul_scale_residual
// CHECK: arith.minui %{{.+}}, %c999
// CHECK-COUNT-4: memref.load %{{.+}} : memref<1000xf32>
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: arith.minui %{{.+}}, %c999
// CHECK: arith.minui %{{.+}}, %c1028
// CHECK-COUNT-4: vector.load %{{.+}} : memref<1000x1032xbf16>, vector<4xbf16>
// CHECK: nvvm.barrier
// CHECK: vector.load %{{.+}} vector<4xf32>
// CHECK-NOT: vector.load %{{.+}} : memref<1000
// CHECK: vector.store %{{.+}} : memref<1000x1032xbf16>, vector<4xbf16>
func.func @matmul_scale_residual(%a: tensor<1000x512xbf16>, %b: tensor<512x1032xbf16>, %scale: tensor<1000xf32>, %res: tensor<1000x1032xbf16>) -> tensor<1000x1032xbf16> {
  %c = tile.matmul %a, %b : (tensor<1000x512xbf16>, tensor<512x1032xbf16>) -> tensor<1000x1032xf32>
  %sb = tile.broadcast %scale [1] : tensor<1000xf32> -> tensor<1000x1032xf32>
  %y = tile.map (%c, %sb, %res) : (tensor<1000x1032xf32>, tensor<1000x1032xf32>, tensor<1000x1032xbf16>) -> tensor<1000x1032xbf16> {
  ^bb0(%acc: f32, %s: f32, %rv: bf16):
    %rf = arith.extf %rv : bf16 to f32
    %x = arith.mulf %acc, %s : f32
    %r = arith.addf %x, %rf : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<1000x1032xbf16>
}
