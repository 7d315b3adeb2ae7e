// convert-tile-kernel-to-gpu turns each tile.kernel into a gpu.launch over
// its grid and threads, named for outlining, with program ids as block ids.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu)' | FileCheck %s
// The names survive upstream outlining: gpu.module @k with gpu.func @k.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu,gpu-kernel-outlining)' | FileCheck %s --check-prefix=OUTLINE

// A 1-D grid: blocks (20, 1, 1), threads (128, 1, 1); the kernel's block
// arguments become the launch's captured operands.
// CHECK-LABEL: func @one_dim
// CHECK-SAME: (%[[IN:.+]]: memref<5000xf32>, %[[OUT:.+]]: memref<5000xf32>)
// CHECK-NEXT: [[GX:%.+]] = arith.constant 20 : index
// CHECK-NEXT: [[GY:%.+]] = arith.constant 1 : index
// CHECK-NEXT: [[GZ:%.+]] = arith.constant 1 : index
// CHECK-NEXT: [[ONE:%.+]] = arith.constant 1 : index
// CHECK-NEXT: [[T:%.+]] = arith.constant 128 : index
// CHECK: gpu.launch blocks([[BX:%[0-9a-z_]+]], {{%[0-9a-z_]+}}, {{%[0-9a-z_]+}})
// CHECK-SAME: in ({{%[0-9a-z_]+}} = [[GX]], {{%[0-9a-z_]+}} = [[GY]], {{%[0-9a-z_]+}} = [[GZ]])
// CHECK-SAME: threads({{%[0-9a-z_]+}}, {{%[0-9a-z_]+}}, {{%[0-9a-z_]+}})
// CHECK-SAME: in ({{%[0-9a-z_]+}} = [[T]], {{%[0-9a-z_]+}} = [[ONE]], {{%[0-9a-z_]+}} = [[ONE]])
// CHECK-SAME: module(@one_dim_0) function(@one_dim_0)
// CHECK: [[OFF:%.+]] = arith.muli [[BX]], %{{.+}} : index
// CHECK: [[V:%.+]] = tile.load %[[IN]][[[OFF]]] : memref<5000xf32> -> !tile.tile<256xf32>
// CHECK: tile.store [[V]], %[[OUT]][[[OFF]]] : !tile.tile<256xf32>, memref<5000xf32>
// CHECK-NEXT: gpu.terminator
// CHECK-NOT: tile.kernel
// CHECK-NOT: tile.program_id
// OUTLINE-LABEL: func @one_dim
// OUTLINE: gpu.launch_func @one_dim_0::@one_dim_0 blocks in ({{.+}}) threads in ({{.+}}) args(
// OUTLINE: gpu.module @one_dim_0 {
// OUTLINE-NEXT: gpu.func @one_dim_0(%{{.+}}: memref<5000xf32>, %{{.+}}: memref<5000xf32>) kernel
// OUTLINE-SAME: known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 20, 1, 1>
func.func @one_dim(%in: memref<5000xf32>, %out: memref<5000xf32>) {
  tile.kernel @one_dim_0 grid [20] threads 128 (%in, %out) : memref<5000xf32>, memref<5000xf32> {
  ^bb0(%a: memref<5000xf32>, %b: memref<5000xf32>):
    %p = tile.program_id 0
    %c256 = arith.constant 256 : index
    %o = arith.muli %p, %c256 : index
    %t = tile.load %a[%o] : memref<5000xf32> -> !tile.tile<256xf32>
    tile.store %t, %b[%o] : !tile.tile<256xf32>, memref<5000xf32>
  }
  return
}

// -----

// 2-D and 3-D grids: program ids 0, 1, 2 read block ids x, y, z; two kernels
// in one function give two launches in order.
// CHECK-LABEL: func @grids
// CHECK-DAG: [[C4:%.+]] = arith.constant 4 : index
// CHECK-DAG: [[C3:%.+]] = arith.constant 3 : index
// CHECK-DAG: [[C256:%.+]] = arith.constant 256 : index
// CHECK: gpu.launch blocks([[BX:%[0-9a-z_]+]], [[BY:%[0-9a-z_]+]], {{%[0-9a-z_]+}})
// CHECK-SAME: in ({{%[0-9a-z_]+}} = [[C4]], {{%[0-9a-z_]+}} = [[C3]], {{%[0-9a-z_]+}} = {{%[0-9a-z_]+}})
// CHECK-SAME: in ({{%[0-9a-z_]+}} = [[C256]],
// CHECK-SAME: module(@grid2) function(@grid2)
// CHECK: tile.load %{{.+}}[[[BX]], [[BY]]]
// CHECK: gpu.terminator
// CHECK: [[C2:%.+]] = arith.constant 2 : index
// CHECK: gpu.launch blocks([[X:%[0-9a-z_]+]], [[Y:%[0-9a-z_]+]], [[Z:%[0-9a-z_]+]])
// CHECK-SAME: in ({{%[0-9a-z_]+}} = [[C2]], {{%[0-9a-z_]+}} = {{%[0-9a-z_]+}}, {{%[0-9a-z_]+}} = {{%[0-9a-z_]+}})
// CHECK-SAME: module(@grid3) function(@grid3)
// CHECK: arith.addi [[X]], [[Y]] : index
// CHECK: arith.addi %{{.+}}, [[Z]] : index
// CHECK: gpu.terminator
// CHECK-NOT: tile.program_id
// OUTLINE-LABEL: func @grids
// OUTLINE: gpu.launch_func @grid2::@grid2
// OUTLINE: gpu.launch_func @grid3::@grid3
// OUTLINE: gpu.module @grid2 {
// OUTLINE-NEXT: gpu.func @grid2({{.+}} known_grid_size = array<i32: 4, 3, 1>
// OUTLINE: gpu.module @grid3 {
// OUTLINE-NEXT: gpu.func @grid3({{.+}} known_grid_size = array<i32: 2, 2, 2>
func.func @grids(%m: memref<64x64xf32>) {
  tile.kernel @grid2 grid [4, 3] threads 256 (%m) : memref<64x64xf32> {
  ^bb0(%a: memref<64x64xf32>):
    %p = tile.program_id 0
    %q = tile.program_id 1
    %t = tile.load %a[%p, %q] : memref<64x64xf32> -> !tile.tile<16x16xf32>
    tile.store %t, %a[%p, %q] : !tile.tile<16x16xf32>, memref<64x64xf32>
  }
  tile.kernel @grid3 grid [2, 2, 2] threads 32 (%m) : memref<64x64xf32> {
  ^bb0(%a: memref<64x64xf32>):
    %x = tile.program_id 0
    %y = tile.program_id 1
    %z = tile.program_id 2
    %s = arith.addi %x, %y : index
    %r = arith.addi %s, %z : index
    %t = tile.load %a[%r, %r] : memref<64x64xf32> -> !tile.tile<32x32xf32>
    tile.store %t, %a[%r, %r] : !tile.tile<32x32xf32>, memref<64x64xf32>
  }
  return
}
