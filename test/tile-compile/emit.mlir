// tile-compile --emit stops after a stage and prints it: the tile-level IR
// of the real pipeline (tile), of the reference one (reference), the NVVM
// of both (nvvm), or the PTX of every module (ptx); none needs ptxas.
// RUN: tile-compile %s --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: tile-compile %s --emit=tile --tile-options="elementwise-block=16,64 threads=64" | FileCheck %s --check-prefix=OPTS
// --tile-options given more than once: all of them (a test's own beside a
// script's FLAGS).
// RUN: tile-compile %s --emit=tile --tile-options=elementwise-block=16,64 --tile-options=threads=64 | FileCheck %s --check-prefix=OPTS
// RUN: tile-compile %s --emit=reference | FileCheck %s --check-prefix=REF
// RUN: tile-compile %s --emit=nvvm --chip=sm_80 | FileCheck %s --check-prefix=NVVM
// RUN: tile-compile %s --emit=ptx --chip=sm_90a | FileCheck %s --check-prefix=PTX

// TILE-LABEL: func @scale(
// TILE-SAME: memref<1000x300xf32>, %{{.+}}: memref<300xf32>, %{{.+}}: memref<1000x300xf32>)
// The broadcast is read inside the map's kernel (tile-fuse): one kernel,
// no scratch tensor, 16 x 512 blocks (a group that reads a broadcast).
// TILE-NOT: memref.alloc
// TILE: tile.kernel @scale_0 grid [63, 1] threads 256
// TILE: tile.load {{.+}} : memref<300xf32> -> !tile.tile<512xf32>
// TILE: tile.broadcast
// TILE: tile.map
// TILE-NOT: tile.kernel
// TILE-NOT: @scale_ref
// TILE-NOT: gpu.

// OPTS: tile.kernel @scale_0 grid [63, 5] threads 64
// OPTS: tile.load {{.+}} -> !tile.tile<64xf32>
// OPTS: tile.load {{.+}} -> !tile.tile<16x64xf32>

// REF-LABEL: func @scale_ref(
// REF: tile.kernel @scale_ref_0 grid [1172] threads 256
// REF: gpu.thread_id x
// REF: memref.load
// REF: tile.kernel @scale_ref_1 grid [1172] threads 256
// REF-NOT: tile.load
// REF-NOT: func @scale(

// Both pipelines in one module: the host functions launch gpu.modules
// named after their kernels, each with the target attached.
// NVVM-LABEL: func @scale(
// NVVM: gpu.launch_func @scale_0::@scale_0
// NVVM-NOT: gpu.launch_func @scale_1
// NVVM: gpu.module @scale_0 [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx80">]
// NVVM: llvm.func @scale_0(
// NVVM-LABEL: func @scale_ref(
// NVVM: gpu.launch_func @scale_ref_0::@scale_ref_0
// NVVM: gpu.launch_func @scale_ref_1::@scale_ref_1
// NVVM: gpu.module @scale_ref_0 [#nvvm.target<O = 3, chip = "sm_80"
// NVVM: gpu.module @scale_ref_1 [#nvvm.target<O = 3, chip = "sm_80"

// PTX: // module scale_0
// PTX: .target sm_90a
// PTX: .visible .entry scale_0(
// PTX-NOT: // module scale_1
// PTX: // module scale_ref_0
// PTX: .visible .entry scale_ref_0(
// PTX: // module scale_ref_1
// PTX: .visible .entry scale_ref_1(
func.func @scale(%a: tensor<1000x300xf32>, %b: tensor<300xf32>) -> tensor<1000x300xf32> {
  %bb = tile.broadcast %b [0] : tensor<300xf32> -> tensor<1000x300xf32>
  %y = tile.map (%a, %bb) : (tensor<1000x300xf32>, tensor<1000x300xf32>) -> tensor<1000x300xf32> {
  ^bb0(%x: f32, %z: f32):
    %s = arith.mulf %x, %z : f32
    tile.yield %s : f32
  }
  return %y : tensor<1000x300xf32>
}
