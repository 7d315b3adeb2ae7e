// tile-outline-kernels is upstream gpu-kernel-outlining plus the launches'
// nvvm.* attributes: a kernel's min_programs_per_sm becomes nvvm.minctasm on
// the launch (convert-tile-kernel-to-gpu), which outlining alone drops and
// this pass puts on the outlined gpu.func.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu,tile-outline-kernels)' | FileCheck %s
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu)' | FileCheck %s --check-prefix=LAUNCH
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu,gpu-kernel-outlining)' | FileCheck %s --check-prefix=UPSTREAM

// LAUNCH-LABEL: func @bounded
// LAUNCH: gpu.launch
// LAUNCH: } {nvvm.minctasm = 2 : i32}
// CHECK-LABEL: func @bounded
// CHECK: gpu.launch_func @bounded_0::@bounded_0
// CHECK: gpu.module @bounded_0
// CHECK: gpu.func @bounded_0(%{{.+}}: memref<4096xf32>) kernel attributes {
// CHECK-SAME: nvvm.minctasm = 2 : i32
// The unbounded kernel's function has none (its whole attribute list).
// CHECK: gpu.func @unbounded_0(%{{.+}}: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 16, 1, 1>} {
// UPSTREAM-LABEL: gpu.module @bounded_0
// UPSTREAM-NOT: nvvm.minctasm
// UPSTREAM: gpu.return
func.func @bounded(%m: memref<4096xf32>) {
  tile.kernel @bounded_0 grid [16] threads 256 (%m) : memref<4096xf32> attributes {min_programs_per_sm = 2 : i64} {
  ^bb0(%a: memref<4096xf32>):
    %pid = tile.program_id 0
    %c256 = arith.constant 256 : index
    %off = arith.muli %pid, %c256 : index
    %t = tile.load %a[%off] : memref<4096xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%off] : !tile.tile<256xf32>, memref<4096xf32>
  }
  tile.kernel @unbounded_0 grid [16] threads 256 (%m) : memref<4096xf32> {
  ^bb0(%a: memref<4096xf32>):
    %pid = tile.program_id 0
    %c256 = arith.constant 256 : index
    %off = arith.muli %pid, %c256 : index
    %t = tile.load %a[%off] : memref<4096xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%off] : !tile.tile<256xf32>, memref<4096xf32>
  }
  return
}
