// RUN: tile-opt %s -split-input-file -verify-diagnostics --convert-tile-matmul-to-mma-sync | FileCheck %s
// RUN: tile-opt %s -split-input-file -verify-diagnostics --convert-tile-matmul-to-mma-sync="stages=4" | FileCheck %s --check-prefix=STAGES4
// RUN: tile-opt %s -split-input-file -verify-diagnostics --convert-tile-matmul-to-mma-sync="block-n=256" | FileCheck %s --check-prefix=WIDE
// RUN: not tile-opt %s -split-input-file --convert-tile-matmul-to-mma-sync="stages=1" 2>&1 | FileCheck %s --check-prefix=BADSTAGES
// RUN: not tile-opt %s -split-input-file --convert-tile-matmul-to-mma-sync="block-n=64" 2>&1 | FileCheck %s --check-prefix=BADBLOCK

// BADSTAGES: error: stages must be in [2, 8] but is 1
// BADBLOCK: error: block-n must be 0 (auto), 128 or 256 but is 64

// A bf16 matmul ragged in M, N and K, as tile-tile makes it: one program per
// 128 x 128 block (8 x 9 of them), 4 warps, a 3-stage ring of padded A
// (128 x 40) and B (32 x 136) tiles, 3 x 18944 bytes.
// CHECK-LABEL: func @ragged
// CHECK: tile.kernel @ragged_0 grid [72] threads 128(%{{.+}}, %{{.+}}, %{{.+}}) : memref<1000x1000xbf16>, memref<1000x1032xbf16>, memref<1000x1032xbf16> attributes {dynamic_shared_memory = 56832 : i64}
// CHECK-NEXT: ^bb0(%[[A:.+]]: memref<1000x1000xbf16>, %[[B:.+]]: memref<1000x1032xbf16>, %[[C:.+]]: memref<1000x1032xbf16>):
// CHECK: %[[SMEM:.+]] = gpu.dynamic_shared_memory
// CHECK: %[[ARING:.+]] = memref.view %[[SMEM]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[BRING:.+]] = memref.view %[[SMEM]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x136xbf16, #gpu.address_space<workgroup>>
// Prologue: two K tiles, 4 + 4 16-byte copies per thread each, zero-filled
// (source size 0) outside the matrices, one group per tile.
// CHECK: %[[SRC:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : index
// CHECK: nvgpu.device_async_copy %[[A]][%{{.+}}, %{{.+}}], %[[ARING]][%{{.+}}, %{{.+}}, %{{.+}}], 8, %[[SRC]] {bypassL1} : memref<1000x1000xbf16> to memref<3x128x40xbf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-3: nvgpu.device_async_copy %[[A]]
// CHECK-COUNT-4: nvgpu.device_async_copy %[[B]][%{{.+}}, %{{.+}}], %[[BRING]]
// CHECK: nvgpu.device_async_create_group
// CHECK-COUNT-8: nvgpu.device_async_copy
// CHECK: %[[T1:.+]] = nvgpu.device_async_create_group
// The K loop: 32 steps of 32; 32 accumulator tiles of 16 x 8 and the last
// group's token carried.
// CHECK: %[[LOOP:.+]]:33 = scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args({{.+}}, %[[TOK:.+]] = %[[T1]]) -> (vector<2x2xf32>, {{.+}}, !nvgpu.device.async.token)
// CHECK-NEXT: nvgpu.device_async_wait %[[TOK]] {numGroups = 1 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-8: nvgpu.device_async_copy
// CHECK: %[[NEXT:.+]] = nvgpu.device_async_create_group
// CHECK: nvgpu.ldmatrix %[[ARING]][%{{.+}}, %{{.+}}, %{{.+}}] {numTiles = 4 : i32, transpose = false} : memref<3x128x40xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-COUNT-3: nvgpu.ldmatrix %[[ARING]]
// CHECK: nvgpu.ldmatrix %[[BRING]][%{{.+}}, %{{.+}}, %{{.+}}] {numTiles = 4 : i32, transpose = true} : memref<3x32x136xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK-COUNT-3: nvgpu.ldmatrix %[[BRING]]
// bf16 goes to NVVM's mma.sync directly (see the pass description).
// CHECK: nvvm.mma.sync A[{{.+}}, {{.+}}, {{.+}}, {{.+}}] B[{{.+}}, {{.+}}] C[{{.+}}, {{.+}}, {{.+}}, {{.+}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-COUNT-63: nvvm.mma.sync
// CHECK-NOT: nvvm.mma.sync
// CHECK: scf.yield {{.+}}, %[[NEXT]] : vector<2x2xf32>, {{.+}}, !nvgpu.device.async.token
// CHECK: nvgpu.device_async_wait %[[LOOP]]#32 {numGroups = 0 : i32}
// Epilogue: 4 x 2 rows times 8 column pairs per thread, each masked and
// stored as 2 bf16.
// CHECK-COUNT-64: scf.if
// CHECK-NOT: scf.if
// CHECK-NOT: tile.dot
// CHECK: return
func.func @ragged(%arg0: memref<1000x1000xbf16>, %arg1: memref<1000x1032xbf16>, %arg2: memref<1000x1032xbf16>) {
  tile.kernel @ragged_0 grid [16, 17] threads 256(%arg0, %arg1, %arg2) : memref<1000x1000xbf16>, memref<1000x1032xbf16>, memref<1000x1032xbf16> {
  ^bb0(%a: memref<1000x1000xbf16>, %b: memref<1000x1032xbf16>, %c: memref<1000x1032xbf16>):
    %pm = tile.program_id 0
    %c64 = arith.constant 64 : index
    %m0 = arith.muli %pm, %c64 : index
    %pn = tile.program_id 1
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant 0.000000e+00 : f32
    %init = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %ck = arith.constant 1000 : index
    %c16 = arith.constant 16 : index
    %acc = scf.for %k = %c0 to %ck step %c16 iter_args(%it = %init) -> (!tile.tile<64x64xf32>) {
      %x = tile.load %a[%m0, %k] : memref<1000x1000xbf16> -> !tile.tile<64x16xbf16>
      %y = tile.load %b[%k, %n0] : memref<1000x1032xbf16> -> !tile.tile<16x64xbf16>
      %d = tile.dot %x, %y, %it : !tile.tile<64x16xbf16>, !tile.tile<16x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %o = tile.cast %acc : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<1000x1032xbf16>
  }
  return
}

// block-n=256: 8 warps (2 x 4), 8 x 5 programs, B rows of 264 elements;
// per K tile, 2 copies of A and 4 of B per thread.
// WIDE-LABEL: func @ragged
// WIDE: tile.kernel @ragged_0 grid [40] threads 256({{.+}}) : {{.+}} attributes {dynamic_shared_memory = 81408 : i64}
// WIDE: memref<3x128x40xbf16, #gpu.address_space<workgroup>>
// WIDE: memref<3x32x264xbf16, #gpu.address_space<workgroup>>
// WIDE-COUNT-2: nvgpu.device_async_copy %{{.+}}, %{{.+}}, 8, %{{.+}} {bypassL1} : memref<1000x1000xbf16>
// WIDE-COUNT-4: nvgpu.device_async_copy %{{.+}}, %{{.+}}, 8, %{{.+}} {bypassL1} : memref<1000x1032xbf16>
// WIDE-NEXT: nvgpu.device_async_create_group

// STAGES4-LABEL: func @ragged
// STAGES4: attributes {dynamic_shared_memory = 75776 : i64}
// STAGES4: memref<4x128x40xbf16, #gpu.address_space<workgroup>>
// STAGES4: memref<4x32x136xbf16, #gpu.address_space<workgroup>>
// STAGES4-COUNT-3: nvgpu.device_async_create_group
// STAGES4: scf.for
// STAGES4-NEXT: nvgpu.device_async_wait %{{.+}} {numGroups = 2 : i32}

// -----

// f16 takes upstream's nvgpu.mma.sync; a fused epilogue (bias by row, add,
// cast) runs on each thread's 2 accumulators of a row: the bias element is
// one scalar load, broadcast.
// CHECK-LABEL: func @fused_f16
// CHECK: tile.kernel @fused_f16_0 grid [6] threads 128(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}) : memref<300x520xf16>, memref<520x200xf16>, memref<300x200xf16>, memref<300xf32>
// CHECK-NEXT: ^bb0(%{{.+}}: memref<300x520xf16>, %{{.+}}: memref<520x200xf16>, %[[OUT:.+]]: memref<300x200xf16>, %[[BIAS:.+]]: memref<300xf32>):
// CHECK: scf.for
// CHECK: %[[BF:.+]] = nvgpu.ldmatrix %{{.+}} {numTiles = 4 : i32, transpose = true} : memref<3x32x136xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: %[[LEFT:.+]] = vector.shuffle %[[BF]], %[[BF]] [0, 1] : vector<4x2xf16>, vector<4x2xf16>
// CHECK: nvgpu.mma.sync(%{{.+}}, %[[LEFT]], %{{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK: %[[RIGHT:.+]] = vector.shuffle %[[BF]], %[[BF]] [2, 3] : vector<4x2xf16>, vector<4x2xf16>
// CHECK: nvgpu.mma.sync(%{{.+}}, %[[RIGHT]], %{{.+}})
// CHECK: scf.yield
// CHECK: nvgpu.device_async_wait %{{.+}} {numGroups = 0 : i32}
// CHECK: %[[ROWOK:.+]] = arith.cmpi ult, %[[ROW:.+]], %{{.+}} : index
// CHECK: %[[COLOK:.+]] = arith.cmpi ult, %[[COL:.+]], %{{.+}} : index
// CHECK: %[[OK:.+]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: %[[PAIR:.+]] = vector.extract %{{.+}}[0] : vector<2xf32> from vector<2x2xf32>
// CHECK-NEXT: %[[B:.+]] = memref.load %[[BIAS]][%[[ROW]]] : memref<300xf32>
// CHECK-NEXT: %[[BB:.+]] = vector.broadcast %[[B]] : f32 to vector<2xf32>
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[PAIR]], %[[BB]] : vector<2xf32>
// CHECK-NEXT: %[[H:.+]] = arith.truncf %[[SUM]] : vector<2xf32> to vector<2xf16>
// CHECK-NEXT: vector.store %[[H]], %[[OUT]][%[[ROW]], %[[COL]]] {alignment = 4 : i64} : memref<300x200xf16>, vector<2xf16>
func.func @fused_f16(%arg0: memref<300x520xf16>, %arg1: memref<520x200xf16>, %arg2: memref<300xf32>, %arg3: memref<300x200xf16>) {
  tile.kernel @fused_f16_0 grid [5, 4] threads 256(%arg0, %arg1, %arg2, %arg3) : memref<300x520xf16>, memref<520x200xf16>, memref<300xf32>, memref<300x200xf16> {
  ^bb0(%a: memref<300x520xf16>, %b: memref<520x200xf16>, %bias: memref<300xf32>, %c: memref<300x200xf16>):
    %pm = tile.program_id 0
    %c64 = arith.constant 64 : index
    %m0 = arith.muli %pm, %c64 : index
    %pn = tile.program_id 1
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant 0.000000e+00 : f32
    %init = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %ck = arith.constant 520 : index
    %c16 = arith.constant 16 : index
    %acc = scf.for %k = %c0 to %ck step %c16 iter_args(%it = %init) -> (!tile.tile<64x64xf32>) {
      %x = tile.load %a[%m0, %k] : memref<300x520xf16> -> !tile.tile<64x16xf16>
      %y = tile.load %b[%k, %n0] : memref<520x200xf16> -> !tile.tile<16x64xf16>
      %d = tile.dot %x, %y, %it : !tile.tile<64x16xf16>, !tile.tile<16x64xf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %v = tile.load %bias[%m0] : memref<300xf32> -> !tile.tile<64xf32>
    %vb = tile.broadcast %v [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %s = tile.map(%acc, %vb) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      tile.yield %r : f32
    }
    %o = tile.cast %s : !tile.tile<64x64xf32> -> !tile.tile<64x64xf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xf16>, memref<300x200xf16>
  }
  return
}

// -----

// A column-vector bias (indexed by N) is a 2-wide vector load at the pair's
// column; the scale constant is cloned into the epilogue.
// CHECK-LABEL: func @bias_by_column
// CHECK: scf.if
// CHECK-NEXT: %[[PAIR:.+]] = vector.extract %{{.+}}[0] : vector<2xf32> from vector<2x2xf32>
// CHECK-NEXT: %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[B:.+]] = vector.load %{{.+}}[%{{.+}}] {alignment = 8 : i64} : memref<136xf32>, vector<2xf32>
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[PAIR]], %[[B]] : vector<2xf32>
// CHECK-NEXT: %[[HV:.+]] = vector.broadcast %[[HALF]] : f32 to vector<2xf32>
// CHECK-NEXT: %[[MUL:.+]] = arith.mulf %[[SUM]], %[[HV]] : vector<2xf32>
// CHECK-NEXT: %[[T:.+]] = arith.truncf %[[MUL]] : vector<2xf32> to vector<2xbf16>
// CHECK-NEXT: vector.store %[[T]], %{{.+}} {alignment = 4 : i64} : memref<257x136xbf16>, vector<2xbf16>
func.func @bias_by_column(%arg0: memref<257x296xbf16>, %arg1: memref<296x136xbf16>, %arg2: memref<136xf32>, %arg3: memref<257x136xbf16>) {
  tile.kernel @bias_by_column_0 grid [5, 3] threads 256(%arg0, %arg1, %arg2, %arg3) : memref<257x296xbf16>, memref<296x136xbf16>, memref<136xf32>, memref<257x136xbf16> {
  ^bb0(%a: memref<257x296xbf16>, %b: memref<296x136xbf16>, %bias: memref<136xf32>, %c: memref<257x136xbf16>):
    %pm = tile.program_id 0
    %c64 = arith.constant 64 : index
    %m0 = arith.muli %pm, %c64 : index
    %pn = tile.program_id 1
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant 0.000000e+00 : f32
    %init = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %ck = arith.constant 296 : index
    %c16 = arith.constant 16 : index
    %acc = scf.for %k = %c0 to %ck step %c16 iter_args(%it = %init) -> (!tile.tile<64x64xf32>) {
      %x = tile.load %a[%m0, %k] : memref<257x296xbf16> -> !tile.tile<64x16xbf16>
      %y = tile.load %b[%k, %n0] : memref<296x136xbf16> -> !tile.tile<16x64xbf16>
      %d = tile.dot %x, %y, %it : !tile.tile<64x16xbf16>, !tile.tile<16x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %half = arith.constant 5.000000e-01 : f32
    %v = tile.load %bias[%n0] : memref<136xf32> -> !tile.tile<64xf32>
    %vb = tile.broadcast %v [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %s = tile.map(%acc, %vb) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %r = arith.addf %p, %q : f32
      %h = arith.mulf %r, %half : f32
      tile.yield %h : f32
    }
    %o = tile.cast %s : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<257x136xbf16>
  }
  return
}

// -----

// K = 300 bf16 makes 600-byte rows of A: 16-byte copies cannot read them,
// so the kernel stays as it is, for the SIMT path.
// CHECK-LABEL: func @unaligned
// CHECK: tile.kernel @unaligned_0 grid [5, 3] threads 256
// CHECK: tile.dot
// CHECK-NOT: nvgpu.
func.func @unaligned(%arg0: memref<257x300xbf16>, %arg1: memref<300x129xbf16>, %arg2: memref<257x129xf32>) {
  // expected-remark @+1 {{matmul stays on the SIMT path: A ('memref<257x300xbf16>') cannot use 16-byte cp.async: its rows are 600 bytes, not a multiple of 16}}
  tile.kernel @unaligned_0 grid [5, 3] threads 256(%arg0, %arg1, %arg2) : memref<257x300xbf16>, memref<300x129xbf16>, memref<257x129xf32> {
  ^bb0(%a: memref<257x300xbf16>, %b: memref<300x129xbf16>, %c: memref<257x129xf32>):
    %pm = tile.program_id 0
    %c64 = arith.constant 64 : index
    %m0 = arith.muli %pm, %c64 : index
    %pn = tile.program_id 1
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant 0.000000e+00 : f32
    %init = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %ck = arith.constant 300 : index
    %c16 = arith.constant 16 : index
    %acc = scf.for %k = %c0 to %ck step %c16 iter_args(%it = %init) -> (!tile.tile<64x64xf32>) {
      %x = tile.load %a[%m0, %k] : memref<257x300xbf16> -> !tile.tile<64x16xbf16>
      %y = tile.load %b[%k, %n0] : memref<300x129xbf16> -> !tile.tile<16x64xbf16>
      %d = tile.dot %x, %y, %it : !tile.tile<64x16xbf16>, !tile.tile<16x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<257x129xf32>
  }
  return
}

// -----

// f32 operands are not for this path (tf32 is not implemented): no match,
// no remark.
// CHECK-LABEL: func @f32_operands
// CHECK: tile.dot
// CHECK-NOT: nvgpu.
func.func @f32_operands(%arg0: memref<256x256xf32>, %arg1: memref<256x256xf32>, %arg2: memref<256x256xf32>) {
  tile.kernel @f32_operands_0 grid [4, 4] threads 256(%arg0, %arg1, %arg2) : memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32> {
  ^bb0(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>):
    %pm = tile.program_id 0
    %c64 = arith.constant 64 : index
    %m0 = arith.muli %pm, %c64 : index
    %pn = tile.program_id 1
    %n0 = arith.muli %pn, %c64 : index
    %zero = arith.constant 0.000000e+00 : f32
    %init = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %c0 = arith.constant 0 : index
    %ck = arith.constant 256 : index
    %c16 = arith.constant 16 : index
    %acc = scf.for %k = %c0 to %ck step %c16 iter_args(%it = %init) -> (!tile.tile<64x64xf32>) {
      %x = tile.load %a[%m0, %k] : memref<256x256xf32> -> !tile.tile<64x16xf32>
      %y = tile.load %b[%k, %n0] : memref<256x256xf32> -> !tile.tile<16x64xf32>
      %d = tile.dot %x, %y, %it : !tile.tile<64x16xf32>, !tile.tile<16x64xf32> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}
