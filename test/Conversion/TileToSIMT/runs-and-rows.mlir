// RUN: tile-opt %s --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s

// A bf16 row of 4096 over 256 threads: runs of 8 (16 bytes) per thread,
// loaded and stored as single vector accesses where in bounds; the row sum
// folds in registers, then across lanes with butterfly shuffles, then
// across warps in shared memory; the 1-element result broadcasts without
// shared memory.
// CHECK-LABEL: func @row
// CHECK: scf.if
// CHECK:   vector.load %{{.*}} : memref<64x4096xbf16>, vector<8xbf16>
// CHECK: vector.shuffle
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK: gpu.barrier
// CHECK: vector.broadcast
// CHECK: vector.store %{{.*}} : memref<64x4096xbf16>, vector<8xbf16>
func.func @row(%X: memref<64x4096xbf16>, %Y: memref<64x4096xbf16>) {
  tile.kernel @row_0 grid [64] threads 256 (%X, %Y) : memref<64x4096xbf16>, memref<64x4096xbf16> {
  ^bb0(%x: memref<64x4096xbf16>, %y: memref<64x4096xbf16>):
    %r = tile.program_id 0
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %t = tile.load %x[%r, %c0] : memref<64x4096xbf16> -> !tile.tile<1x4096xbf16>
    %f = tile.cast %t : !tile.tile<1x4096xbf16> -> !tile.tile<1x4096xf32>
    %s = tile.reduce %f, %zero dim = 1 : !tile.tile<1x4096xf32>, f32 -> !tile.tile<1xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.addf %a, %b : f32
      tile.yield %q : f32
    }
    %sb = tile.broadcast %s [1] : !tile.tile<1xf32> -> !tile.tile<1x4096xf32>
    %d = tile.map (%f, %sb) : (!tile.tile<1x4096xf32>, !tile.tile<1x4096xf32>) -> !tile.tile<1x4096xf32> {
    ^bb0(%v: f32, %w: f32):
      %q = arith.divf %v, %w : f32
      tile.yield %q : f32
    }
    %o = tile.cast %d : !tile.tile<1x4096xf32> -> !tile.tile<1x4096xbf16>
    tile.store %o, %y[%r, %c0] : !tile.tile<1x4096xbf16>, memref<64x4096xbf16>
  }
  return
}

// One row of 1001 bf16 through views at a dynamic offset (tile-tile's wide
// rows shifted to run boundaries): runs still move as 16-byte accesses
// where the run is whole inside the row and aligned counting the view's
// offset; a run partly inside (the row's first and last) moves element by
// element, a gather or scatter of its 8 elements with the ones outside
// masked off. The mask keeps the columns in [-col, 1001 - col) clamped to
// the tile, once per tile, so a negative column (before the row) is masked
// too; the one row is a scalar test, the columns a 32-bit compare per slot.
// CHECK-LABEL: func @shifted_row
// CHECK: %{{.+}}, %[[OFFSET:.+]], %{{.+}}, %{{.+}} = memref.extract_strided_metadata %{{.+}} : memref<1x1001xbf16, strided<[1001, 1], offset: ?>>
// CHECK: %[[START:.+]] = arith.addi %{{.+}}, %[[OFFSET]] : index
// CHECK: %[[MOD:.+]] = arith.remui %[[START]], %c8
// CHECK: %[[ALIGNED:.+]] = arith.cmpi eq, %[[MOD]], %c0
// CHECK: arith.cmpi ult, %{{.+}}, %c994 : index
// CHECK: scf.if %{{.+}} -> (vector<8xbf16>) {
// CHECK:   vector.load %{{.+}} : memref<1x1001xbf16, strided<[1001, 1], offset: ?>>, vector<8xbf16>
// CHECK: } else {
// CHECK:   memref.collapse_shape %{{.+}} {{\[}}[0, 1]] : memref<1x1001xbf16, strided<[1001, 1], offset: ?>> into memref<1001xbf16, strided<[1], offset: ?>>
// CHECK:   vector.gather %{{.+}} : memref<1001xbf16, strided<[1], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xbf16> into vector<8xbf16>
// CHECK: }
// CHECK: %[[ROWKEPT:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : index
// CHECK: vector.broadcast %[[ROWKEPT]] : i1 to vector<8xi1>
// CHECK: %[[NEG:.+]] = arith.subi %c0{{.*}}, %[[COL:.+]] : index
// CHECK: %[[LO0:.+]] = arith.minsi %[[NEG]], %c256{{.*}} : index
// CHECK: %[[LO:.+]] = arith.maxsi %[[LO0]], %c0{{.*}} : index
// CHECK: %[[END:.+]] = arith.subi %c1001{{.*}}, %[[COL]] : index
// CHECK: %[[HI0:.+]] = arith.minsi %[[END]], %c256{{.*}} : index
// CHECK: %[[HI:.+]] = arith.maxsi %[[HI0]], %c0{{.*}} : index
// CHECK: %[[POS:.+]] = arith.index_cast %{{.+}} : vector<8xindex> to vector<8xi32>
// CHECK: %[[LO32:.+]] = arith.index_cast %[[LO]] : index to i32
// CHECK: %[[HI32:.+]] = arith.index_cast %[[HI]] : index to i32
// CHECK: %[[WIDTH:.+]] = arith.subi %[[HI32]], %[[LO32]] : i32
// CHECK: arith.cmpi ult, %{{.+}}, %{{.+}} : vector<8xi32>
// CHECK: arith.select
// CHECK: scf.if %{{.+}} {
// CHECK:   vector.store %{{.+}} : memref<1x1001xbf16, strided<[1001, 1], offset: ?>>, vector<8xbf16>
// CHECK: } else {
// CHECK:   vector.scatter %{{.+}} : memref<1001xbf16, strided<[1], offset: ?>>, vector<8xindex>, vector<8xi1>, vector<8xbf16>
// CHECK: }
func.func @shifted_row(%X: memref<16x1001xbf16>, %Y: memref<16x1001xbf16>) {
  tile.kernel @shifted_row_0 grid [16] threads 32 (%X, %Y) : memref<16x1001xbf16>, memref<16x1001xbf16> {
  ^bb0(%x: memref<16x1001xbf16>, %y: memref<16x1001xbf16>):
    %r = tile.program_id 0
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 1001 : index
    %zero = arith.constant 0.0 : bf16
    %xv = memref.subview %x[%r, 0] [1, 1001] [1, 1] : memref<16x1001xbf16> to memref<1x1001xbf16, strided<[1001, 1], offset: ?>>
    %yv = memref.subview %y[%r, 0] [1, 1001] [1, 1] : memref<16x1001xbf16> to memref<1x1001xbf16, strided<[1001, 1], offset: ?>>
    %flat = arith.muli %r, %n : index
    %shift = arith.remui %flat, %c8 : index
    %col = arith.subi %c0, %shift : index
    %t = tile.load %xv[%c0, %col] : memref<1x1001xbf16, strided<[1001, 1], offset: ?>> -> !tile.tile<1x256xbf16>
    %m = tile.mask %t, %zero bounds [%c1, %n] at [%c0, %col] : !tile.tile<1x256xbf16>, bf16
    tile.store %m, %yv[%c0, %col] : !tile.tile<1x256xbf16>, memref<1x1001xbf16, strided<[1001, 1], offset: ?>>
  }
  return
}

// A view whose length is whole runs but whose offset is dynamic: aligned
// runs may still start off the view's run boundaries (offset r + 3, column
// 5), so a run is moved whole only if its last element is inside too
// (column < 1024 - 8 + 1); the others go element by element.
// CHECK-LABEL: func @offset_view
// CHECK: memref.extract_strided_metadata
// CHECK: arith.cmpi ult, %{{.+}}, %c1017 : index
// CHECK-NOT: arith.cmpi ult, %{{.+}}, %c1024 : index
// CHECK: vector.gather
// CHECK: vector.scatter
func.func @offset_view(%X: memref<4096xbf16>, %Y: memref<4096xbf16>) {
  tile.kernel @offset_view_0 grid [1] threads 32 (%X, %Y) : memref<4096xbf16>, memref<4096xbf16> {
  ^bb0(%x: memref<4096xbf16>, %y: memref<4096xbf16>):
    %r = tile.program_id 0
    %c3 = arith.constant 3 : index
    %o = arith.addi %r, %c3 : index
    %xv = memref.subview %x[%o] [1024] [1] : memref<4096xbf16> to memref<1024xbf16, strided<[1], offset: ?>>
    %yv = memref.subview %y[%o] [1024] [1] : memref<4096xbf16> to memref<1024xbf16, strided<[1], offset: ?>>
    %c5 = arith.constant 5 : index
    %t = tile.load %xv[%c5] : memref<1024xbf16, strided<[1], offset: ?>> -> !tile.tile<1024xbf16>
    tile.store %t, %yv[%c5] : !tile.tile<1024xbf16>, memref<1024xbf16, strided<[1], offset: ?>>
  }
  return
}

// The same shifted row, read and written in_bounds at column 8 - shift
// (tile-tile's interior chunks): each run checks only its alignment (the
// view's offset plus the column, modulo 8), not the row's end (1001 - 8 +
// 1 = 994) or the row index.
// CHECK-LABEL: func @in_bounds_row
// CHECK: memref.extract_strided_metadata
// CHECK: arith.remui %{{.+}}, %c8{{.*}} : index
// CHECK-NOT: arith.cmpi ult, %{{.+}}, %c{{[0-9_]+}} : index
// CHECK: vector.load %{{.+}} : memref<1x1001xbf16, strided<[1001, 1], offset: ?>>, vector<8xbf16>
// CHECK-NOT: arith.cmpi ult, %{{.+}}, %c{{[0-9_]+}} : index
// CHECK: vector.store %{{.+}} : memref<1x1001xbf16, strided<[1001, 1], offset: ?>>, vector<8xbf16>
// CHECK-NOT: %c994
// CHECK: return
func.func @in_bounds_row(%X: memref<16x1001xbf16>, %Y: memref<16x1001xbf16>) {
  tile.kernel @in_bounds_row_0 grid [16] threads 32 (%X, %Y) : memref<16x1001xbf16>, memref<16x1001xbf16> {
  ^bb0(%x: memref<16x1001xbf16>, %y: memref<16x1001xbf16>):
    %r = tile.program_id 0
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %n = arith.constant 1001 : index
    %xv = memref.subview %x[%r, 0] [1, 1001] [1, 1] : memref<16x1001xbf16> to memref<1x1001xbf16, strided<[1001, 1], offset: ?>>
    %yv = memref.subview %y[%r, 0] [1, 1001] [1, 1] : memref<16x1001xbf16> to memref<1x1001xbf16, strided<[1001, 1], offset: ?>>
    %flat = arith.muli %r, %n : index
    %shift = arith.remui %flat, %c8 : index
    %col = arith.subi %c8, %shift : index
    %t = tile.load %xv[%c0, %col] {in_bounds} : memref<1x1001xbf16, strided<[1001, 1], offset: ?>> -> !tile.tile<1x256xbf16>
    tile.store %t, %yv[%c0, %col] {in_bounds} : !tile.tile<1x256xbf16>, memref<1x1001xbf16, strided<[1001, 1], offset: ?>>
  }
  return
}

// Rows of whole runs read and written at column 3: the column is not a
// multiple of the run (8), so a run that is not aligned moves element by
// element. (It was taken for a run wholly outside the memref: the load
// read padding and the store wrote nothing.)
// CHECK-LABEL: func @misaligned_column
// CHECK: scf.if %{{.+}} -> (vector<8xbf16>) {
// CHECK:   vector.load %{{.+}} : memref<16x1008xbf16>, vector<8xbf16>
// CHECK: } else {
// CHECK:   vector.gather %{{.+}} : memref<16128xbf16>
// CHECK: scf.if %{{.+}} {
// CHECK:   vector.store %{{.+}} : memref<16x1008xbf16>, vector<8xbf16>
// CHECK: } else {
// CHECK:   vector.scatter %{{.+}} : memref<16128xbf16>
func.func @misaligned_column(%X: memref<16x1008xbf16>, %Y: memref<16x1008xbf16>) {
  tile.kernel @misaligned_column_0 grid [16] threads 32 (%X, %Y) : memref<16x1008xbf16>, memref<16x1008xbf16> {
  ^bb0(%x: memref<16x1008xbf16>, %y: memref<16x1008xbf16>):
    %r = tile.program_id 0
    %c3 = arith.constant 3 : index
    %t = tile.load %x[%r, %c3] : memref<16x1008xbf16> -> !tile.tile<1x256xbf16>
    tile.store %t, %y[%r, %c3] : !tile.tile<1x256xbf16>, memref<16x1008xbf16>
  }
  return
}

// An in_bounds load whose runs cannot be 16-byte loads (rows of 60001
// bf16: odd, so runs are not aligned): a gather of each thread's slots
// under an all-true mask, no bounds compare (the masks computed for the
// slots are dead, removed by later passes).
// CHECK-LABEL: func @in_bounds_gather
// CHECK: %[[ALL:.+]] = arith.constant dense<true> : vector<16xi1>
// CHECK: vector.gather %{{.+}}[%{{.+}}] [%{{.+}}], %[[ALL]], %{{.+}} : memref<18000300xbf16>
func.func @in_bounds_gather(%X: memref<300x60001xbf16>, %Y: memref<300x4096xbf16>) {
  tile.kernel @in_bounds_gather_0 grid [300] threads 256 (%X, %Y) : memref<300x60001xbf16>, memref<300x4096xbf16> {
  ^bb0(%x: memref<300x60001xbf16>, %y: memref<300x4096xbf16>):
    %r = tile.program_id 0
    %c0 = arith.constant 0 : index
    %c4096 = arith.constant 4096 : index
    %col = arith.muli %r, %c4096 : index
    %t = tile.load %x[%r, %col] {in_bounds} : memref<300x60001xbf16> -> !tile.tile<1x4096xbf16>
    tile.store %t, %y[%r, %c0] : !tile.tile<1x4096xbf16>, memref<300x4096xbf16>
  }
  return
}
