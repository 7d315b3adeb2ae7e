// tile.shared buffers take the start of the launch's dynamic shared memory
// (16-byte aligned, in program order), the ops' own scratch comes after
// them; tile.copy_async becomes one 16-byte cp.async per run a thread holds
// (source size 0, from the tile's origin, for runs outside the source; none
// for runs past the destination, here the tile's last 24 columns) and one
// commit group; tile.wait_async waits on the groups.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-to-simt{async-copies=false})' | FileCheck %s --check-prefix=SYNC

// Without cp.async (before sm_80) a copy is a plain load (zeros outside the
// source) and store per run, and there is nothing to wait for.
// SYNC-LABEL: func @row_prefetch
// SYNC-NOT: nvgpu.device_async_copy
// SYNC: scf.if %{{.+}} -> (vector<8xbf16>)
// SYNC:   vector.load %{{.+}} : memref<100x1000xbf16>, vector<8xbf16>
// SYNC: vector.store %{{.+}} : memref<2x1000xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// SYNC-NOT: nvvm.cp.async

// CHECK-LABEL: func @row_prefetch
// CHECK: gpu.launch
// CHECK-SAME: dynamic_shared_memory_size %[[BYTES:.+]]
// CHECK: %[[BASE:.+]] = gpu.dynamic_shared_memory
// CHECK: %[[BUF:.+]] = memref.view %[[BASE]][%c0{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1000xbf16, #gpu.address_space<workgroup>>
// CHECK: %[[BASE2:.+]] = gpu.dynamic_shared_memory
// CHECK: memref.view %[[BASE2]][%c4000{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x16xf32, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK: %[[SIZE:.+]] = arith.select %{{.+}}, %c8{{.*}}, %c0
// CHECK: nvgpu.device_async_copy %{{.+}}[%{{.+}}, %{{.+}}], %[[BUF]][%{{.+}}, %{{.+}}], 8, %[[SIZE]] {bypassL1} : memref<100x1000xbf16> to memref<2x1000xbf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: vector.load %[[BUF]]
func.func @row_prefetch(%x: memref<100x1000xbf16>, %y: memref<2x16xf32, #gpu.address_space<workgroup>>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %c1i = arith.constant 1 : index
    %buf = tile.shared : memref<2x1000xbf16, #gpu.address_space<workgroup>>
    %other = tile.shared : memref<2x16xf32, #gpu.address_space<workgroup>>
    tile.copy_async %x[%bx, %c0], %buf[%c1i, %c0] shape [1, 1024] : memref<100x1000xbf16>, memref<2x1000xbf16, #gpu.address_space<workgroup>>
    tile.wait_async 1
    %t = tile.load %buf[%c1i, %c0] : memref<2x1000xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x1024xbf16>
    tile.store %t, %x[%bx, %c0] : !tile.tile<1x1024xbf16>, memref<100x1000xbf16>
    gpu.terminator
  }
  return
}

// -----

// Rows of 1001 bf16 are not whole runs (the launch's layout is then one
// element per slot): the copy is a plain load and store of the tile, still
// a commit group (empty) so that waits keep their counts.
// CHECK-LABEL: func @copy_unaligned
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: vector.gather %{{.+}} : memref<4004xbf16>
// CHECK: vector.scatter %{{.+}} : memref<1024xbf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.commit.group
func.func @copy_unaligned(%m: memref<4x1001xbf16>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %buf = tile.shared : memref<1x1024xbf16, #gpu.address_space<workgroup>>
    tile.copy_async %m[%c0, %c0], %buf[%c0, %c0] shape [1, 1024] : memref<4x1001xbf16>, memref<1x1024xbf16, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// A row view at a dynamic offset: its runs may be partly inside the row
// or misaligned. A run that is wholly inside and aligned is one 16-byte
// cp.async; any other run of the tile is copied by its thread element by
// element (the elements inside the view loaded, zeros elsewhere) and
// stored to shared memory as one run. Without cp.async, the tile is a
// plain load and store.
// A run is whole and aligned where (col + the view's offset) % 8 == 0 and
// its column is below 1000 - 8 + 1.
// CHECK-LABEL: func @copy_from_view
// CHECK: %[[BUF:.+]] = memref.view
// CHECK: %{{[^,]+}}, %[[OFFSET:[^,]+]], %{{.+}} = memref.extract_strided_metadata
// CHECK: %[[START:.+]] = arith.addi %arg2, %[[OFFSET]]
// CHECK: %[[REM:.+]] = arith.remui %[[START]], %c8
// CHECK: %[[ALIGNED:.+]] = arith.cmpi eq, %[[REM]], %c0
// CHECK: %[[ROWOK:.+]] = arith.andi %[[ALIGNED]]
// CHECK: %[[COL:.+]] = arith.addi %{{.+}}, %arg2
// CHECK: %[[INSIDE:.+]] = arith.cmpi ult, %[[COL]], %c993
// CHECK: %[[WHOLE:.+]] = arith.andi %[[ROWOK]], %[[INSIDE]]
// CHECK: scf.if %{{.+}} {
// CHECK:   scf.if %[[WHOLE]] {
// CHECK:     nvgpu.device_async_copy %{{.+}}[%{{.+}}, %{{.+}}], %[[BUF]][%{{.+}}, %{{.+}}], 8, %c8{{.*}} {bypassL1} : memref<1x1000xbf16, strided<[1000, 1], offset: ?>> to memref<1x1024xbf16, #gpu.address_space<workgroup>>
// CHECK:   } else {
// CHECK:     %[[ELEMENTS:.+]] = vector.gather %{{.+}} : memref<1000xbf16, strided<[1], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
// CHECK:     vector.store %[[ELEMENTS]], %[[BUF]][%{{.+}}, %{{.+}}] : memref<1x1024xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
// CHECK:   }
// CHECK: }
// CHECK: nvvm.cp.async.commit.group
// SYNC-LABEL: func @copy_from_view
// SYNC-NOT: nvgpu.device_async_copy
// SYNC: return
func.func @copy_from_view(%m: memref<4x1000xbf16>, %row: index, %col: index) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %view = memref.subview %m[%row, 0] [1, 1000] [1, 1] : memref<4x1000xbf16> to memref<1x1000xbf16, strided<[1000, 1], offset: ?>>
    %buf = tile.shared : memref<1x1024xbf16, #gpu.address_space<workgroup>>
    tile.copy_async %view[%c0, %col], %buf[%c0, %c0] shape [1, 1024] : memref<1x1000xbf16, strided<[1000, 1], offset: ?>>, memref<1x1024xbf16, #gpu.address_space<workgroup>>
    tile.wait_async 0
    gpu.terminator
  }
  return
}

// -----

// i1 elements take a byte each in memory, but vector<8xi1> loads and
// stores bit-packed: a copy of an i1 tile is the plain load and store, and
// the load gathers element by element (no vector.load of vector<8xi1>).
// CHECK-LABEL: func @copy_i1
// CHECK-NOT: nvgpu.device_async_copy
// CHECK-NOT: vector.load {{.*}}vector<8xi1>
// CHECK: vector.gather %{{.+}} : memref<4096xi1>
// CHECK: nvvm.cp.async.commit.group
func.func @copy_i1(%m: memref<4x1024xi1>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c128, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %buf = tile.shared : memref<1x1024xi1, #gpu.address_space<workgroup>>
    tile.copy_async %m[%c0, %c0], %buf[%c0, %c0] shape [1, 1024] : memref<4x1024xi1>, memref<1x1024xi1, #gpu.address_space<workgroup>>
    tile.wait_async 0
    %t = tile.load %m[%bx, %c0] : memref<4x1024xi1> -> !tile.tile<1x1024xi1>
    tile.store %t, %m[%bx, %c0] : !tile.tile<1x1024xi1>, memref<4x1024xi1>
    gpu.terminator
  }
  return
}
