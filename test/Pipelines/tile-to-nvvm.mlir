// tile-to-nvvm lowers tile-level kernels to gpu.modules of llvm.funcs with an
// NVVM target attached, and leaves a host function of gpu.launch_func;
// upstream gpu-module-to-binary{format=isa} then gives PTX (no ptxas needed).
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_90a" | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_80" --gpu-module-to-binary="format=isa" | FileCheck %s --check-prefix=PTX80
// RUN: tile-opt %s -split-input-file --tile-to-nvvm="chip=sm_90a features=+ptx83" --gpu-module-to-binary="format=isa" | FileCheck %s --check-prefix=PTX90A

// An elementwise kernel: one gpu.module per kernel, same name as the
// kernel and its llvm.func; bare-pointer arguments; no tile or vector
// gather/scatter ops left.
// CHECK: module attributes {gpu.container_module, tile.target = #tile.target<"sm_90a">}
// CHECK-LABEL: func @add
// CHECK-SAME: (%[[A:.+]]: memref<1000xf32>, %[[B:.+]]: memref<1000xf32>)
// CHECK: gpu.launch_func @add_0::@add_0 blocks in ({{.+}}) threads in ({{.+}}) args(%[[A]] : memref<1000xf32>, %[[B]] : memref<1000xf32>)
// CHECK-NEXT: return
// CHECK: gpu.module @add_0 [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
// CHECK-NEXT: llvm.func @add_0(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
// CHECK-SAME: gpu.kernel
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.intr.masked.gather
// CHECK: llvm.fadd
// CHECK: llvm.intr.masked.scatter
// CHECK-NOT: {{= tile\.|^ *tile\.}}
// CHECK-NOT: vector.

// PTX80: gpu.binary @add_0
// PTX80-SAME: chip = "sm_80"
// PTX80-SAME: .target sm_80
// PTX80-SAME: .entry add_0(

// PTX90A: gpu.binary @add_0
// PTX90A-SAME: chip = "sm_90a", features = "+ptx83"
// PTX90A-SAME: .version 8.3
// PTX90A-SAME: .target sm_90a
// PTX90A-SAME: .entry add_0(
func.func @add(%a: memref<1000xf32>, %b: memref<1000xf32>) {
  tile.kernel @add_0 grid [4] threads 256 (%a, %b) : memref<1000xf32>, memref<1000xf32> {
  ^bb0(%x: memref<1000xf32>, %y: memref<1000xf32>):
    %p = tile.program_id 0
    %c256 = arith.constant 256 : index
    %o = arith.muli %p, %c256 : index
    %t = tile.load %x[%o] : memref<1000xf32> -> !tile.tile<256xf32>
    %s = tile.map (%t) : (!tile.tile<256xf32>) -> !tile.tile<256xf32> {
    ^bb0(%v: f32):
      %r = arith.addf %v, %v : f32
      tile.yield %r : f32
    }
    tile.store %s, %y[%o] : !tile.tile<256xf32>, memref<1000xf32>
  }
  return
}

// -----

// A reduction kernel: the launch carries its dynamic shared memory size
// (8x128 f32 = 4096 bytes), the module an external shared-memory global
// (tile-extern-dynamic-shared: PTX's `.extern .shared`), the kernel
// barriers.
// CHECK-LABEL: func @row_sum
// CHECK: [[SMEM:%.+]] = arith.constant 4096 : i32
// CHECK: gpu.launch_func @row_sum_0::@row_sum_0 blocks in ({{.+}}) threads in ({{.+}}) dynamic_shared_memory_size [[SMEM]] args(
// CHECK: gpu.module @row_sum_0 [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
// CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK: llvm.func @row_sum_0(
// CHECK: nvvm.barrier0
// CHECK: nvvm.barrier0

// PTX80: gpu.binary @row_sum_0
// PTX80-SAME: .target sm_80
// PTX80-SAME: .entry row_sum_0(
// PTX80-SAME: bar.sync

// PTX90A: gpu.binary @row_sum_0
// PTX90A-SAME: .target sm_90a
// PTX90A-SAME: bar.sync
func.func @row_sum(%in: memref<64x100xf32>, %out: memref<64xf32>) {
  tile.kernel @row_sum_0 grid [8] threads 256 (%in, %out) : memref<64x100xf32>, memref<64xf32> {
  ^bb0(%arg2: memref<64x100xf32>, %arg3: memref<64xf32>):
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tile.program_id 0
    %c8 = arith.constant 8 : index
    %1 = arith.muli %0, %c8 : index
    %2 = tile.splat %cst : f32 -> !tile.tile<8xf32>
    %c0 = arith.constant 0 : index
    %c100 = arith.constant 100 : index
    %c128 = arith.constant 128 : index
    %3 = scf.for %k = %c0 to %c100 step %c128 iter_args(%acc = %2) -> (!tile.tile<8xf32>) {
      %4 = tile.load %arg2[%1, %k] {padding = 0.000000e+00 : f32} : memref<64x100xf32> -> !tile.tile<8x128xf32>
      %5 = tile.reduce %4, %cst dim = 1 : !tile.tile<8x128xf32>, f32 -> !tile.tile<8xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        tile.yield %r : f32
      }
      %6 = tile.map(%acc, %5) : (!tile.tile<8xf32>, !tile.tile<8xf32>) -> !tile.tile<8xf32> {
      ^bb0(%a: f32, %b: f32):
        %r = arith.addf %a, %b : f32
        tile.yield %r : f32
      }
      scf.yield %6 : !tile.tile<8xf32>
    }
    tile.store %3, %arg3[%1] : !tile.tile<8xf32>, memref<64xf32>
  }
  return
}
