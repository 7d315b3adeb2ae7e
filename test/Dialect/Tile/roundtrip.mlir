// RUN: tile-opt %s | FileCheck %s
// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s

// CHECK-LABEL: func @tensor_level
func.func @tensor_level(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>,
                        %v: tensor<16xf32>) -> tensor<64x16xbf16> {
  // CHECK: tile.matmul %{{.*}}, %{{.*}} : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xf32>
  %c = tile.matmul %a, %b : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xf32>
  // CHECK: tile.broadcast %{{.*}} [0] : tensor<16xf32> -> tensor<64x16xf32>
  %bb = tile.broadcast %v [0] : tensor<16xf32> -> tensor<64x16xf32>
  // CHECK: tile.repeat %{{.*}} dim = 1 times = 2 : tensor<64x16xf32> -> tensor<64x32xf32>
  %rp = tile.repeat %bb dim = 1 times = 2 : tensor<64x16xf32> -> tensor<64x32xf32>
  // CHECK: tile.map(%{{.*}}, %{{.*}}) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  // CHECK:   arith.addf
  // CHECK:   tile.yield %{{.*}} : f32
  %y = tile.map (%c, %bb) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    tile.yield %s : f32
  }
  %ninf = arith.constant 0xFF800000 : f32
  // CHECK: tile.reduce %{{.*}}, %{{.*}} dim = 1 : tensor<64x16xf32>, f32 -> tensor<64xf32> {
  // CHECK:   arith.maximumf
  %m = tile.reduce %y, %ninf dim = 1 : tensor<64x16xf32>, f32 -> tensor<64xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.maximumf %p, %q : f32
    tile.yield %r : f32
  }
  // CHECK: tile.cast %{{.*}} : tensor<64x16xf32> -> tensor<64x16xbf16>
  %o = tile.cast %y : tensor<64x16xf32> -> tensor<64x16xbf16>
  return %o : tensor<64x16xbf16>
}

// CHECK-LABEL: func @block_scaled_matmul
func.func @block_scaled_matmul(%a: tensor<256x520xf8E4M3FN>, %b: tensor<520x300xf8E5M2>,
                               %sa: tensor<256x5xf32>, %sb: tensor<5x3xf32>) -> tensor<256x300xf32> {
  // CHECK: tile.matmul %{{.*}}, %{{.*}} scales(%{{.*}}, %{{.*}}) block [1, 128, 128] : (tensor<256x520xf8E4M3FN>, tensor<520x300xf8E5M2>, tensor<256x5xf32>, tensor<5x3xf32>) -> tensor<256x300xf32>
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 128, 128] : (tensor<256x520xf8E4M3FN>, tensor<520x300xf8E5M2>, tensor<256x5xf32>, tensor<5x3xf32>) -> tensor<256x300xf32>
  return %c : tensor<256x300xf32>
}

// CHECK-LABEL: func @config_attribute
func.func @config_attribute(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> {
  // CHECK: tile.config = #tile.config<block = [64, 64, 16], threads = 256>
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64, 16], threads = 256>}
      : (tensor<128x64xf32>, tensor<64x128xf32>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// CHECK-LABEL: func @tile_level
func.func @tile_level(%A: memref<100x100xf32>, %V: memref<100xf32>) {
  // CHECK: tile.kernel @k0 grid [4, 4] threads 128(%{{.*}}, %{{.*}}) : memref<100x100xf32>, memref<100xf32> {
  tile.kernel @k0 grid [4, 4] threads 128 (%A, %V) : memref<100x100xf32>, memref<100xf32> {
  ^bb0(%a: memref<100x100xf32>, %v: memref<100xf32>):
    // CHECK: tile.program_id 0
    %p = tile.program_id 0
    // CHECK: tile.program_id 1
    %q = tile.program_id 1
    // CHECK: tile.load %{{.*}}[%{{.*}}, %{{.*}}] {padding = 1.000000e+00 : f32} : memref<100x100xf32> -> !tile.tile<32x32xf32>
    %t = tile.load %a[%p, %q] {padding = 1.0 : f32} : memref<100x100xf32> -> !tile.tile<32x32xf32>
    // CHECK: tile.load %{{.*}}[%{{.*}}] : memref<100xf32> -> !tile.tile<32xf32>
    %r = tile.load %v[%p] : memref<100xf32> -> !tile.tile<32xf32>
    %z = arith.constant 0.0 : f32
    // CHECK: tile.splat %{{.*}} : f32 -> !tile.tile<32x32xf32>
    %acc = tile.splat %z : f32 -> !tile.tile<32x32xf32>
    // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} : !tile.tile<32x32xf32>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    %d = tile.dot %t, %t, %acc : !tile.tile<32x32xf32>, !tile.tile<32x32xf32> -> !tile.tile<32x32xf32>
    // CHECK: tile.broadcast %{{.*}} [1] : !tile.tile<32xf32> -> !tile.tile<32x32xf32>
    %rb = tile.broadcast %r [1] : !tile.tile<32xf32> -> !tile.tile<32x32xf32>
    // CHECK: tile.map(%{{.*}}, %{{.*}}) : (!tile.tile<32x32xf32>, !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32>
    %s = tile.map (%d, %rb) : (!tile.tile<32x32xf32>, !tile.tile<32x32xf32>) -> !tile.tile<32x32xf32> {
    ^bb0(%x: f32, %y: f32):
      %w = arith.mulf %x, %y : f32
      tile.yield %w : f32
    }
    // CHECK: tile.mask %{{.*}}, %{{.*}} bounds[%{{.*}}, %{{.*}}] : !tile.tile<32x32xf32>, f32
    %m = tile.mask %s, %z bounds [%p, %q] : !tile.tile<32x32xf32>, f32
    // CHECK: tile.mask %{{.*}}, %{{.*}} bounds[%{{.*}}, %{{.*}}] at[%{{.*}}, %{{.*}}] : !tile.tile<32x32xf32>, f32
    %ma = tile.mask %s, %z bounds [%p, %q] at [%q, %p] : !tile.tile<32x32xf32>, f32
    // CHECK: tile.reduce %{{.*}}, %{{.*}} dim = 0 : !tile.tile<32x32xf32>, f32 -> !tile.tile<32xf32>
    %rs = tile.reduce %m, %z dim = 0 : !tile.tile<32x32xf32>, f32 -> !tile.tile<32xf32> {
    ^bb0(%x: f32, %y: f32):
      %w = arith.addf %x, %y : f32
      tile.yield %w : f32
    }
    // CHECK: tile.cast %{{.*}} : !tile.tile<32xf32> -> !tile.tile<32xbf16>
    %h = tile.cast %rs : !tile.tile<32xf32> -> !tile.tile<32xbf16>
    // CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : !tile.tile<32x32xf32>, memref<100x100xf32>
    tile.store %m, %a[%p, %q] : !tile.tile<32x32xf32>, memref<100x100xf32>
    // CHECK: tile.store %{{.*}}, %{{.*}}[%{{.*}}] : !tile.tile<32xf32>, memref<100xf32>
    tile.store %rs, %v[%p] : !tile.tile<32xf32>, memref<100xf32>
  }
  return
}

// CHECK-LABEL: func @tile_types
// CHECK-SAME: !tile.tile<8x8xi32>
// CHECK-SAME: !tile.tile<16x256xf16, layout = #tile.blocked<threads = 256, run = 8>>
// CHECK-SAME: !tile.tile<128x256xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>>
// CHECK-SAME: !tile.tile<128x32xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [2, 4], instr = [16, 8, 16]>>>
// CHECK-SAME: !tile.tile<32x256xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [2, 4], instr = [16, 8, 16]>>>
// CHECK-SAME: !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 8], instr = [16, 8, 16]>, k_width = 32>>
// CHECK-SAME: !tile.tile<128xf32, layout = #tile.slice<1, #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>>>
// CHECK-SAME: !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// CHECK-SAME: !tile.tile<32x256xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
// CHECK-SAME: !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8, row_xor = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @tile_types(%a: !tile.tile<8x8xi32>,
                      %b: !tile.tile<16x256xf16, layout = #tile.blocked<threads = 256, run = 8>>,
                      %c: !tile.tile<128x256xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>>,
                      %d: !tile.tile<128x32xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [2, 4], instr = [16, 8, 16]>>>,
                      %e: !tile.tile<32x256xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [2, 4], instr = [16, 8, 16]>, k_width = 2>>,
                      %e2: !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 8], instr = [16, 8, 16]>, k_width = 32>>,
                      %f: !tile.tile<128xf32, layout = #tile.slice<1, #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>>>,
                      %g: !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>,
                      %h: !tile.tile<32x256xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>,
                      %i: !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8, row_xor = 128>, memory_space = #gpu.address_space<workgroup>>) {
  return
}

// CHECK-LABEL: func @configs
// CHECK-SAME: b = #tile.target<"sm_90a", sms = 114>
// CHECK-SAME: c = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, cluster = [2, 1]>
// CHECK-SAME: d = #tile.config<block = [128, 128, 32], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], stages = 3, split_k = 2, cluster = [1, 1]>
// CHECK-SAME: e = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 8, split_k = 2, split_k_in_kernel = true>
// CHECK-SAME: f = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, fma_exp2 = 8>
// CHECK-SAME: g = #tile.config<block = [128, 256, 128], threads = 256, mma = wgmma, instr = [64, 256, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>
// CHECK-SAME: h = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, every_sm = true>
// CHECK-SAME: i = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, stream_k = true, stream_k_part = 8>
// CHECK-SAME: j = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true>
// CHECK-SAME: k = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, tma_store = true>
// CHECK-SAME: l = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4, l2_fetch = 128>
// CHECK-SAME: tile.target = #tile.target<"sm_90a">
func.func @configs() attributes {tile.target = #tile.target<"sm_90a">, b = #tile.target<"sm_90a", sms = 114>,
    c = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, cluster = [2, 1]>,
    d = #tile.config<threads = 128, block = [128, 128, 32], mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], stages = 3, split_k = 2, cluster = [1, 1]>,
    e = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 8, split_k = 2, split_k_in_kernel = true>,
    f = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, fma_exp2 = 8>,
    g = #tile.config<block = [128, 256, 128], threads = 256, mma = wgmma, instr = [64, 256, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, stream_k = true>,
    h = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, every_sm = true>,
    i = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 32], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, stream_k = true, stream_k_part = 8>,
    j = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true>,
    k = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, tma_store = true>,
    l = #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4, l2_fetch = 128>} {
  return
}

// CHECK-LABEL: func @load_l2_fetch
// CHECK: tile.load %{{.+}}[%{{.+}}, %{{.+}}] {l2_fetch = 128 : i64} : memref<8192x256xi8> -> !tile.tile<64x8xi8>
func.func @load_l2_fetch(%s: memref<8192x256xi8>, %i: index, %j: index) -> !tile.tile<64x8xi8> {
  %t = tile.load %s[%i, %j] {l2_fetch = 128 : i64} : memref<8192x256xi8> -> !tile.tile<64x8xi8>
  return %t : !tile.tile<64x8xi8>
}

// CHECK-LABEL: func @last_arrival
// CHECK: %{{.+}} = tile.last_arrival %{{.+}}[%{{.+}}] of 4 : memref<16xi32>
func.func @last_arrival(%counters: memref<16xi32>, %i: index) -> i1 {
  %last = tile.last_arrival %counters[%i] of 4 : memref<16xi32>
  return %last : i1
}

// CHECK-LABEL: func @last_arrival_weighted
// CHECK: %{{.+}} = tile.last_arrival %{{.+}}[%{{.+}}] of 64 adding %{{.+}} : memref<16xi32>
func.func @last_arrival_weighted(%counters: memref<16xi32>, %i: index, %steps: index) -> i1 {
  %last = tile.last_arrival %counters[%i] of 64 adding %steps : memref<16xi32>
  return %last : i1
}

!smemA = !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!smemB = !tile.tile<64x256xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<128x256xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>>
!bars = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>

// CHECK-LABEL: func @tensor_core_ops
// CHECK: tile.barrier_group arrivals 2 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: tile.warp_specialize threads [128, 256] registers [40, 232] {
// CHECK: tile.view %{{.+}}[%{{.+}}] : memref<4x128x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// CHECK: tile.tma_load %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}}, %{{.+}}[%{{.+}}] : !llvm.ptr, !tile.tile<128x64xbf16
// CHECK: tile.tma_load %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}}, %{{.+}}[%{{.+}}] {multicast = 3 : i64} : !llvm.ptr, !tile.tile<128x64xbf16
// CHECK: tile.view %{{.+}}[%{{.+}}] column 64 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<padding = 64>, memory_space = #gpu.address_space<workgroup>>
// CHECK: tile.view %{{.+}}[%{{.+}}] rows %{{.+}} : memref<4x128x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// CHECK: }, {
// CHECK: tile.arrive %{{.+}}[%{{.+}}] : !nvgpu.mbarrier.group
// CHECK: tile.arrive %{{.+}}[%{{.+}}] {every_thread} : !nvgpu.mbarrier.group
// CHECK: tile.arrive %{{.+}}[%{{.+}}] {ranks = 3 : i64} : !nvgpu.mbarrier.group
// CHECK: %[[T:.+]] = tile.wgmma %{{.+}}, %{{.+}}, %{{.+}} : !tile.tile<128x64xbf16
// CHECK: tile.wgmma_wait %[[T]] {pending = 1 : i64}
// CHECK: %{{.+}} = tile.wgmma %{{.+}}, %{{.+}}, %[[T]] uniform_warp : !tile.tile<128x64xbf16
// CHECK: tile.barrier
// CHECK-NEXT: tile.cluster_barrier
// CHECK: tile.async_load %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} : memref<256x256xbf16>, !tile.tile<128x64xbf16
// CHECK: tile.async_commit
// CHECK: tile.convert_layout %{{.+}} : !tile.tile<128x256xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 256, 16]>> -> !tile.tile<128x256xf32, layout = #tile.blocked<threads = 256, run = 4>>
func.func @tensor_core_ops(%A: memref<256x256xbf16>, %B: memref<256x256xbf16>, %desc: !llvm.ptr) {
  tile.kernel @k grid [4] threads 384 (%A, %desc) : memref<256x256xbf16>, !llvm.ptr {
  ^bb0(%a: memref<256x256xbf16>, %d: !llvm.ptr):
    %c0 = arith.constant 0 : index
    %ring = tile.shared : memref<4x128x64xbf16, #gpu.address_space<workgroup>>
    %wring = tile.shared : memref<4x64x128xi8, #gpu.address_space<workgroup>>
    %full = tile.barrier_group arrivals 2 : !bars
    %handoff = tile.barrier_group arrivals 256 : !bars
    tile.warp_specialize threads [128, 256] registers [40, 232] {
      %s = tile.view %ring[%c0] : memref<4x128x64xbf16, #gpu.address_space<workgroup>> -> !smemA
      tile.tma_load %d[%c0, %c0], %s, %full[%c0] : !llvm.ptr, !smemA, !bars
      tile.tma_load %d[%c0, %c0], %s, %full[%c0] {multicast = 3} : !llvm.ptr, !smemA, !bars
      %half = tile.view %wring[%c0] column 64 : memref<4x64x128xi8, #gpu.address_space<workgroup>> -> !tile.tile<64x64xi8, layout = #tile.shared<padding = 64>, memory_space = #gpu.address_space<workgroup>>
      %rows = tile.view %ring[%c0] rows %c0 : memref<4x128x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
    }, {
      %s = tile.view %ring[%c0] : memref<4x128x64xbf16, #gpu.address_space<workgroup>> -> !smemA
      tile.arrive %full[%c0] : !bars
      tile.arrive %handoff[%c0] {every_thread} : !bars
      tile.arrive %full[%c0] {ranks = 3} : !bars
      %b = tile.view %ring[%c0] : memref<4x128x64xbf16, #gpu.address_space<workgroup>> -> !smemA
      %z = arith.constant 0.0 : f32
      %acc = tile.splat %z : f32 -> !acc
      %bb = tile.load %a[%c0, %c0] : memref<256x256xbf16> -> !smemB
      %t = tile.wgmma %s, %bb, %acc : !smemA, !smemB -> !acc
      %w = tile.wgmma_wait %t {pending = 1} : !acc
      %u = tile.wgmma %s, %bb, %t uniform_warp : !smemA, !smemB -> !acc
      tile.barrier
      tile.cluster_barrier
      tile.async_load %a[%c0, %c0], %b : memref<256x256xbf16>, !smemA
      tile.async_commit
      %r = tile.convert_layout %w : !acc -> !tile.tile<128x256xf32, layout = #tile.blocked<threads = 256, run = 4>>
    }
  }
  return
}

// CHECK-LABEL: func @cast_folds
func.func @cast_folds(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = tile.cast %a : tensor<4xf32> -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// CHECK-LABEL: func @fused_and_tma
// CHECK: tile.fused(%arg0, %arg1) : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xbf16> {
// CHECK: ^bb0(%{{.*}}: tensor<64x32xbf16>, %{{.*}}: tensor<32x16xbf16>):
// CHECK:   tile.matmul
// CHECK:   tile.cast
// CHECK:   tile.yield %{{.*}} : tensor<64x16xbf16>
// CHECK: tile.tma_descriptor %arg2 box [128, 64] swizzle 128 : memref<256x256xbf16> -> !llvm.ptr
func.func @fused_and_tma(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>, %m: memref<256x256xbf16>) -> tensor<64x16xbf16> {
  %y = tile.fused (%a, %b) : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xbf16> {
  ^bb0(%x: tensor<64x32xbf16>, %w: tensor<32x16xbf16>):
    %c = tile.matmul %x, %w : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xf32>
    %o = tile.cast %c : tensor<64x16xf32> -> tensor<64x16xbf16>
    tile.yield %o : tensor<64x16xbf16>
  }
  %d = tile.tma_descriptor %m box [128, 64] swizzle 128 : memref<256x256xbf16> -> !llvm.ptr
  return %y : tensor<64x16xbf16>
}

// CHECK-LABEL: func @shared_copies
// CHECK: tile.kernel @k grid [8] threads 128
// CHECK: %[[BUF:.+]] = tile.shared : memref<2x512xbf16, #gpu.address_space<workgroup>>
// CHECK: tile.copy_async %{{.+}}[%{{.+}}, %{{.+}}], %[[BUF]][%{{.+}}, %{{.+}}] shape [1, 512] : memref<8x512xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
// CHECK: tile.wait_async 1
// CHECK: tile.load %[[BUF]]
func.func @shared_copies(%x: memref<8x512xbf16>) {
  tile.kernel @k grid [8] threads 128 (%x) : memref<8x512xbf16> {
  ^bb0(%xa: memref<8x512xbf16>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %pid = tile.program_id 0
    %buf = tile.shared : memref<2x512xbf16, #gpu.address_space<workgroup>>
    tile.copy_async %xa[%pid, %c0], %buf[%c1, %c0] shape [1, 512] : memref<8x512xbf16>, memref<2x512xbf16, #gpu.address_space<workgroup>>
    tile.wait_async 1
    %t = tile.load %buf[%c1, %c0] : memref<2x512xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x512xbf16>
    tile.return
  }
  return
}

// Transposes of a tensor, of a register tile, and of a tile in shared
// memory (a view: the `transposed` layout).
// CHECK-LABEL: func @transposes
// CHECK: tile.transpose %{{.+}} : tensor<8x16xbf16> -> tensor<16x8xbf16>
// CHECK: tile.transpose %{{.+}} : !tile.tile<8x16xf32> -> !tile.tile<16x8xf32>
// CHECK: tile.transpose %{{.+}} : !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
func.func @transposes(%t: tensor<8x16xbf16>, %r: !tile.tile<8x16xf32>, %s: !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>) -> tensor<16x8xbf16> {
  %a = tile.transpose %t : tensor<8x16xbf16> -> tensor<16x8xbf16>
  %b = tile.transpose %r : !tile.tile<8x16xf32> -> !tile.tile<16x8xf32>
  %c = tile.transpose %s : !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
  return %a : tensor<16x8xbf16>
}

// Positions along a dimension, of a tile and of a tensor.
// CHECK-LABEL: func @iotas
// CHECK: tile.iota dim = 0 : !tile.tile<64x32xi32>
// CHECK: tile.iota dim = 1 : tensor<8x16xi64>
func.func @iotas() -> tensor<8x16xi64> {
  %a = tile.iota dim = 0 : !tile.tile<64x32xi32>
  %b = tile.iota dim = 1 : tensor<8x16xi64>
  return %b : tensor<8x16xi64>
}

// Into a blocked tile of more elements, the input may have its own runs
// (the broadcast goes through shared memory).
// CHECK-LABEL: func @broadcast_blocked_runs
// CHECK: tile.broadcast %{{.+}} [0] : !tile.tile<64xbf16, layout = #tile.blocked<threads = 128, run = 1>> -> !tile.tile<16x64xbf16, layout = #tile.blocked<threads = 128, run = 8>>
func.func @broadcast_blocked_runs(%v: !tile.tile<64xbf16, layout = #tile.blocked<threads = 128, run = 1>>) -> !tile.tile<16x64xbf16, layout = #tile.blocked<threads = 128, run = 8>> {
  %b = tile.broadcast %v [0] : !tile.tile<64xbf16, layout = #tile.blocked<threads = 128, run = 1>> -> !tile.tile<16x64xbf16, layout = #tile.blocked<threads = 128, run = 8>>
  return %b : !tile.tile<16x64xbf16, layout = #tile.blocked<threads = 128, run = 8>>
}

// CHECK-LABEL: func @unpack
// CHECK: tile.unpack %{{.+}} signed : tensor<8x16xi8> -> tensor<8x32xi8>
// CHECK: tile.unpack %{{.+}} : !tile.tile<8x16xi8> -> !tile.tile<8x32xi8>
func.func @unpack(%p: tensor<8x16xi8>, %t: !tile.tile<8x16xi8>) -> (tensor<8x32xi8>, !tile.tile<8x32xi8>) {
  %s = tile.unpack %p signed : tensor<8x16xi8> -> tensor<8x32xi8>
  %u = tile.unpack %t : !tile.tile<8x16xi8> -> !tile.tile<8x32xi8>
  return %s, %u : tensor<8x32xi8>, !tile.tile<8x32xi8>
}

// AWQ's nibble order (interleaved), MXFP4's bit order (bits) and a B
// stored in fragment runs (k_runs) on a matmul and a dot; an A stored so (lhs_k_runs) on a dot.
// CHECK-LABEL: func @fragment_order
// CHECK: tile.unpack %{{.+}} signed interleaved : tensor<64x64xi8> -> tensor<64x128xi8>
// CHECK: tile.unpack %{{.+}} bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<64x64xi8> -> tensor<64x128xi8>
// CHECK: tile.matmul %{{.+}}, %{{.+}} k_runs = 32 : (tensor<16x128xbf16>, tensor<128x64xbf16>) -> tensor<16x64xf32>
// CHECK: tile.dot %{{.+}}, %{{.+}}, %{{.+}} k_runs = 16 : !tile.tile<16x64xbf16>, !tile.tile<64x8xbf16> -> !tile.tile<16x8xf32>
// CHECK: tile.dot %{{.+}}, %{{.+}}, %{{.+}} lhs_k_runs = 16 : !tile.tile<16x64xbf16>, !tile.tile<64x8xbf16> -> !tile.tile<16x8xf32>
func.func @fragment_order(%p: tensor<64x64xi8>, %x: tensor<16x128xbf16>, %w: tensor<128x64xbf16>, %a: !tile.tile<16x64xbf16>, %b: !tile.tile<64x8xbf16>, %c: !tile.tile<16x8xf32>) -> (tensor<64x128xi8>, tensor<16x64xf32>, !tile.tile<16x8xf32>, !tile.tile<16x8xf32>) {
  %q = tile.unpack %p signed interleaved : tensor<64x64xi8> -> tensor<64x128xi8>
  %fp4 = tile.unpack %p bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<64x64xi8> -> tensor<64x128xi8>
  %y = tile.matmul %x, %w k_runs = 32 : (tensor<16x128xbf16>, tensor<128x64xbf16>) -> tensor<16x64xf32>
  %d = tile.dot %a, %b, %c k_runs = 16 : !tile.tile<16x64xbf16>, !tile.tile<64x8xbf16> -> !tile.tile<16x8xf32>
  %e = tile.dot %a, %b, %c lhs_k_runs = 16 : !tile.tile<16x64xbf16>, !tile.tile<64x8xbf16> -> !tile.tile<16x8xf32>
  return %q, %y, %d, %e : tensor<64x128xi8>, tensor<16x64xf32>, !tile.tile<16x8xf32>, !tile.tile<16x8xf32>
}
