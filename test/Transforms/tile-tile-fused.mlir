// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile="rows-per-program=1" | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile | FileCheck %s --check-prefix=AUTO

// A row group with one row per program: the row is loaded once as a tile
// spanning it (rounded up to a power of two), masked to the reduction's
// identity before each reduction, and stored once.
// By default, rows of whole 16-byte runs under 16 KB (here 400 bytes) go
// 4 to a program, copied ahead into shared memory.
// AUTO-LABEL: func @softmax
// AUTO: tile.kernel @softmax_0 grid [8] threads 128
// AUTO: tile.shared : memref<2x128xf32, #gpu.address_space<workgroup>>
// AUTO-LABEL: func @wide_softmax
// AUTO-NOT: tile.shared
// AUTO-LABEL: func @rows_async
// CHECK-LABEL: func @softmax
// CHECK: tile.kernel @softmax_0 grid [32] threads 128
// CHECK: %[[X:.+]] = tile.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<32x100xf32> -> !tile.tile<1x128xf32>
// CHECK: %[[M:.+]] = tile.mask %[[X]], %{{.*}} bounds
// CHECK: tile.reduce %[[M]], %{{.*}} dim = 1 : !tile.tile<1x128xf32>, f32 -> !tile.tile<1xf32>
// CHECK: tile.broadcast %{{.*}} [1] : !tile.tile<1xf32> -> !tile.tile<1x128xf32>
// CHECK: tile.mask
// CHECK: tile.reduce
// CHECK: tile.store %{{.*}} : !tile.tile<1x128xf32>, memref<32x100xf32>
// CHECK-NOT: tile.kernel
func.func @softmax(%x: tensor<32x100xf32>) -> tensor<32x100xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<32x100xf32>, f32 -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %m [1] : tensor<32xf32> -> tensor<32x100xf32>
  %e = tile.map (%x, %mb) : (tensor<32x100xf32>, tensor<32x100xf32>) -> tensor<32x100xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %s = tile.reduce %e, %zero dim = 1 : tensor<32x100xf32>, f32 -> tensor<32xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<32xf32> -> tensor<32x100xf32>
  %y = tile.map (%e, %sb) : (tensor<32x100xf32>, tensor<32x100xf32>) -> tensor<32x100xf32> {
  ^bb0(%v: f32, %t: f32):
    %q = arith.divf %v, %t : f32
    tile.yield %q : f32
  }
  return %y : tensor<32x100xf32>
}

// -----

// A matmul group: the K loop, then the epilogue on the accumulator tile
// (the bias loaded as a column vector and broadcast), one store.
// CHECK-LABEL: func @matmul_bias
// CHECK: tile.kernel @matmul_bias_0
// CHECK: %[[ACC:.+]] = scf.for
// CHECK:   tile.dot
// CHECK: %[[B:.+]] = tile.load %{{.*}}[%{{.*}}] : memref<16xf32> -> !tile.tile<16xf32>
// CHECK: %[[BB:.+]] = tile.broadcast %[[B]] [0]
// CHECK: %[[S:.+]] = tile.map(%[[ACC]], %[[BB]])
// CHECK: %[[C:.+]] = tile.cast %[[S]] : !tile.tile<64x16xf32> -> !tile.tile<64x16xbf16>
// CHECK: tile.store %[[C]]
func.func @matmul_bias(%a: tensor<64x32xbf16>, %b: tensor<32x16xbf16>, %v: tensor<16xf32>) -> tensor<64x16xbf16> {
  %c = tile.matmul %a, %b : (tensor<64x32xbf16>, tensor<32x16xbf16>) -> tensor<64x16xf32>
  %vb = tile.broadcast %v [0] : tensor<16xf32> -> tensor<64x16xf32>
  %s = tile.map (%c, %vb) : (tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32> {
  ^bb0(%p: f32, %q: f32):
    %r = arith.addf %p, %q : f32
    tile.yield %r : f32
  }
  %o = tile.cast %s : tensor<64x16xf32> -> tensor<64x16xbf16>
  return %o : tensor<64x16xbf16>
}

// -----

// A row too wide for registers (40001 f32 would be 64 per thread at 1024
// threads) is walked in chunks: per reduction, loops fold each chunk into
// a chunk-shaped accumulator with the reduction's combiner (no
// cross-thread work per chunk) and one row reduction finishes it; last,
// loops recompute the elementwise ops from the input and store. These
// rows are not 16-byte multiples, but every operand has the same rows, so
// each program reads and writes its row through one-row views, and the
// chunks start (row * 40001) % 8 columns before the row, on a 16-byte
// boundary: 512 threads x 2 runs of 8. Each pass is two loops: one over
// the edge chunks (the first, from before the row, and those past the
// last whole chunk), masked (the mask drops the columns before and after
// the row alike) and one run per thread wide (4096), and one over the
// interior chunks (8192, from 4096), unmasked. Each loop folds into its own
// accumulator; two row reductions and the combiner finish. The interior
// loops of the reductions load each chunk one iteration ahead (a first
// chunk before the edge loop, then the next one where there is one); the
// storing pass loads its chunk in the iteration. Interior loads and stores
// are in_bounds. The kernel asks for 2 programs per SM (a register cap).
// CHECK-LABEL: func @wide_softmax
// CHECK: tile.kernel @wide_softmax_0 grid [8] threads 512
// CHECK-SAME: min_programs_per_sm = 2
// CHECK: %[[ROW:.+]] = arith.muli %{{.+}}, %c1
// CHECK: %[[IN:.+]] = memref.subview %{{.+}}[%[[ROW]], 0] [1, 40001] [1, 1] : memref<8x40001xbf16> to memref<1x40001xbf16, strided<[40001, 1], offset: ?>>
// CHECK: %[[OUT:.+]] = memref.subview %{{.+}}[%[[ROW]], 0] [1, 40001] [1, 1]
// CHECK: %[[FLAT:.+]] = arith.muli %[[ROW]], %c40001
// CHECK: %[[SHIFT:.+]] = arith.remui %[[FLAT]], %c8
// CHECK: %[[END:.+]] = arith.addi %{{.+}}, %[[SHIFT]]
// CHECK: %[[ATLEAST:.+]] = arith.maxui %[[END]], %c4096
// CHECK: %[[AFTER:.+]] = arith.subi %[[ATLEAST]], %c4096
// CHECK: %[[WHOLE:.+]] = arith.divui %[[AFTER]], %c8192
// CHECK: %[[WIDTH:.+]] = arith.muli %[[WHOLE]], %c8192
// CHECK: %[[TAIL:.+]] = arith.addi %c4096, %[[WIDTH]]
// CHECK: %[[PAST:.+]] = arith.maxui %[[END]], %[[TAIL]]
// CHECK: %[[LEFT:.+]] = arith.subi %[[PAST]], %[[TAIL]]
// CHECK: %[[TAILS:.+]] = arith.ceildivui %[[LEFT]], %c4096
// CHECK: %[[EDGES:.+]] = arith.addi %c1{{.*}}, %[[TAILS]]
// CHECK: %[[NINF:.+]] = tile.splat %{{.+}} : f32 -> !tile.tile<1x4096xf32>
// CHECK: %[[NINF2:.+]] = tile.splat %{{.+}} : f32 -> !tile.tile<1x8192xf32>
// CHECK: %[[COL1:.+]] = arith.subi %c4096{{.*}}, %[[SHIFT]]
// CHECK: %[[CHUNK1:.+]] = tile.load %[[IN]][%{{.+}}, %[[COL1]]] : {{.+}} -> !tile.tile<1x8192xbf16>
// CHECK: %[[EDGEMAX:.+]] = scf.for %[[J:.+]] = %c0{{.*}} to %[[EDGES]] step %c1{{.*}} iter_args(%[[ACC:.+]] = %[[NINF]])
// CHECK-DAG:   %[[J1:.+]] = arith.subi %[[J]], %c1
// CHECK-DAG:   %[[STEPS:.+]] = arith.muli %[[J1]], %c4096
// CHECK-DAG:   %[[AT:.+]] = arith.addi %[[TAIL]], %[[STEPS]]
// CHECK-DAG:   %[[FIRST:.+]] = arith.cmpi eq, %[[J]], %c0
// CHECK:   %[[K:.+]] = arith.select %[[FIRST]], %c0{{.*}}, %[[AT]]
// CHECK:   %[[COL:.+]] = arith.subi %[[K]], %[[SHIFT]]
// CHECK:   tile.load %[[IN]][%{{.+}}, %[[COL]]] : memref<1x40001xbf16, strided<[40001, 1], offset: ?>> -> !tile.tile<1x4096xbf16>
// CHECK:   %[[MASKED:.+]] = tile.mask %{{.+}}, %{{.+}} bounds[%{{.+}}, %{{.+}}] at[%{{.+}}, %[[COL]]]
// CHECK:   %[[NEXT:.+]] = tile.map(%[[ACC]], %[[MASKED]])
// CHECK:     arith.maximumf
// CHECK:   scf.yield %[[NEXT]]
// CHECK: %[[ACCMAX:.+]]:2 = scf.for %[[K2:.+]] = %c4096{{.*}} to %[[TAIL]] step %c8192 iter_args(%[[ACC2:.+]] = %[[NINF2]], %[[CUR:.+]] = %[[CHUNK1]])
// CHECK:   %[[K3:.+]] = arith.addi %[[K2]], %c8192
// CHECK:   %[[HASNEXT:.+]] = arith.cmpi ult, %[[K3]], %[[TAIL]]
// CHECK:   scf.if %[[HASNEXT]] -> (!tile.tile<1x8192xbf16>)
// CHECK:     %[[COL3:.+]] = arith.subi %[[K3]], %[[SHIFT]]
// CHECK:     tile.load %[[IN]][%{{.+}}, %[[COL3]]] {in_bounds}
// CHECK:   } else {
// CHECK:     scf.yield %[[CUR]]
// CHECK:   %[[XF:.+]] = tile.cast %[[CUR]]
// CHECK-NOT: tile.mask
// CHECK:   tile.map(%[[ACC2]], %[[XF]])
// CHECK: %[[EDGEROW:.+]] = tile.reduce %[[EDGEMAX]], %{{.+}} dim = 1 : !tile.tile<1x4096xf32>, f32 -> !tile.tile<1xf32>
// CHECK:   arith.maximumf
// CHECK: %[[MIDROW:.+]] = tile.reduce %[[ACCMAX]]#0, %{{.+}} dim = 1 : !tile.tile<1x8192xf32>, f32 -> !tile.tile<1xf32>
// CHECK:   arith.maximumf
// CHECK: %[[MAX:.+]] = tile.map(%[[EDGEROW]], %[[MIDROW]])
// CHECK:   arith.maximumf
// CHECK: scf.for
// CHECK:   tile.broadcast %[[MAX]] [1]
// CHECK:   math.exp
// CHECK:   tile.mask
// CHECK:   arith.addf
// CHECK: scf.for
// CHECK:   math.exp
// CHECK-NOT: tile.mask
// CHECK:   arith.addf
// CHECK: tile.reduce
// CHECK: tile.reduce
// CHECK: %[[SUM:.+]] = tile.map
// CHECK: scf.for
// CHECK:   tile.load %[[IN]]
// CHECK:   tile.broadcast %[[MAX]] [1]
// CHECK:   math.exp
// CHECK:   tile.broadcast %[[SUM]] [1]
// CHECK:   arith.divf
// CHECK:   tile.store %{{.+}}, %[[OUT]][%{{.+}}, %{{.+}}] : !tile.tile<1x4096xbf16>, memref<1x40001xbf16, strided<[40001, 1], offset: ?>>
// CHECK: scf.for %{{.+}} = %c4096{{.*}} to %[[TAIL]] step %c8192 {
// CHECK-NOT: scf.if
// CHECK:   tile.load %[[IN]]{{.+}} {in_bounds} : {{.+}} -> !tile.tile<1x8192xbf16>
// CHECK:   tile.store %{{.+}}, %[[OUT]]{{.+}} {in_bounds} : !tile.tile<1x8192xbf16>
func.func @wide_softmax(%x: tensor<8x40001xbf16>) -> tensor<8x40001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<8x40001xbf16> -> tensor<8x40001xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<8x40001xf32>, f32 -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<8xf32> -> tensor<8x40001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<8x40001xf32>, tensor<8x40001xf32>) -> tensor<8x40001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<8x40001xf32>, f32 -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<8xf32> -> tensor<8x40001xf32>
  %y = tile.map (%e, %sumb) : (tensor<8x40001xf32>, tensor<8x40001xf32>) -> tensor<8x40001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<8x40001xbf16>
}

// -----

// Weights broadcast along the rows are read by column, so rows cannot be
// shifted to run boundaries: rows that are not 16-byte multiples then move
// element by element, 8 elements for each of 512 threads, at [row, col].
// CHECK-LABEL: func @wide_weighted
// CHECK: tile.kernel @wide_weighted_0 grid [4] threads 512
// CHECK-NOT: memref.subview
// CHECK: scf.for
// CHECK:   tile.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<4x40001xbf16> -> !tile.tile<1x4096xbf16>
// CHECK: scf.for %[[C:.+]] = %c4096{{.*}} to %{{.+}} step %c4096
// CHECK:   %[[C2:.+]] = arith.addi %[[C]], %c4096
// CHECK:   tile.load %{{.+}}[%{{.+}}, %[[C2]]] {in_bounds} : memref<4x40001xbf16> -> !tile.tile<1x4096xbf16>
// CHECK: tile.store %{{.+}} : !tile.tile<1x4096xbf16>, memref<4x40001xbf16>
func.func @wide_weighted(%x: tensor<4x40001xbf16>, %g: tensor<40001xbf16>) -> tensor<4x40001xbf16> {
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<4x40001xbf16> -> tensor<4x40001xf32>
  %s = tile.reduce %xf, %zero dim = 1 : tensor<4x40001xf32>, f32 -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<4xf32> -> tensor<4x40001xf32>
  %gb = tile.broadcast %g [0] : tensor<40001xbf16> -> tensor<4x40001xbf16>
  %y = tile.map (%xf, %sb, %gb) : (tensor<4x40001xf32>, tensor<4x40001xf32>, tensor<4x40001xbf16>) -> tensor<4x40001xbf16> {
  ^bb0(%v: f32, %t: f32, %w: bf16):
    %wf = arith.extf %w : bf16 to f32
    %q = arith.divf %v, %t : f32
    %p = arith.mulf %q, %wf : f32
    %h = arith.truncf %p : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<4x40001xbf16>
}

// -----

// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile="rows-per-program=4" | FileCheck %s --check-prefix=ROWS
// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile="rows-per-program=4 row-stages=3" | FileCheck %s --check-prefix=STAGES3
// With rows-per-program=4, each program walks 4 rows (the last program of
// 10 rows gets 2). Rows of 512 bf16 are whole 16-byte runs, so rows are
// copied ahead into a ring of shared-memory slots (row-stages, default 2:
// one row ahead); the current row, once waited for, is read from its slot
// by each phase (one per reduction, one for the result), so that no row
// values stay in registers across a reduction. Rows past the program's
// last are copied from row 10, past the end: they read nothing.
// ROWS-LABEL: func @rows_async
// ROWS: tile.kernel @rows_async_0 grid [3] threads 32
// ROWS: %[[COUNT:.+]] = arith.minui %c4{{.*}}, %{{.+}}
// ROWS: %[[BUF:.+]] = tile.shared : memref<2x512xbf16, #gpu.address_space<workgroup>>
// ROWS: tile.copy_async %{{.+}}, %[[BUF]][%c0{{.*}}, %c0] shape [1, 512]
// ROWS: scf.for %[[I:.+]] = %c0 to %[[COUNT]] step %c1 {
// ROWS:   %[[AHEAD:.+]] = arith.addi %[[I]], %c1
// ROWS:   %[[MORE:.+]] = arith.cmpi ult, %[[AHEAD]], %[[COUNT]]
// ROWS:   %[[SRC:.+]] = arith.select %[[MORE]], %{{.+}}, %c10
// ROWS:   %[[NEXT:.+]] = arith.remui %[[AHEAD]], %c2
// ROWS:   tile.copy_async %{{.+}}[%[[SRC]], %c0], %[[BUF]][%[[NEXT]], %c0] shape [1, 512]
// ROWS:   tile.wait_async 1
// ROWS:   %[[SLOT:.+]] = arith.remui %[[I]], %c2
// ROWS:   tile.load %[[BUF]][%[[SLOT]], %c0] : memref<2x512xbf16, #gpu.address_space<workgroup>> -> !tile.tile<1x512xbf16>
// The row tile is the whole row and the loop stops at the last row, so the
// reduction reads it unmasked (a mask is a compare and a select per
// element, and it cost layernorm 16384x5120 a third of its speed).
// ROWS-NOT: tile.mask
// ROWS:   tile.reduce
// ROWS:   tile.load %[[BUF]][%[[SLOT]], %c0]
// ROWS:   tile.store
// ROWS: }
// ROWS: tile.wait_async 0
// STAGES3-LABEL: func @rows_async
// STAGES3: %[[BUF:.+]] = tile.shared : memref<3x512xbf16, #gpu.address_space<workgroup>>
// STAGES3: tile.copy_async %{{.+}}, %[[BUF]][%c0{{.*}}, %c0] shape [1, 512]
// STAGES3: tile.copy_async %{{.+}}, %[[BUF]][%c1{{.*}}, %c0] shape [1, 512]
// STAGES3: scf.for
// STAGES3:   arith.addi %{{.+}}, %c2
// STAGES3:   tile.copy_async
// STAGES3:   tile.wait_async 2
func.func @rows_async(%x: tensor<10x512xbf16>) -> tensor<10x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<10x512xbf16> -> tensor<10x512xf32>
  %s = tile.reduce %xf, %zero dim = 1 : tensor<10x512xf32>, f32 -> tensor<10xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<10xf32> -> tensor<10x512xf32>
  %y = tile.map (%xf, %sb) : (tensor<10x512xf32>, tensor<10x512xf32>) -> tensor<10x512xbf16> {
  ^bb0(%v: f32, %t: f32):
    %q = arith.divf %v, %t : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<10x512xbf16>
}

// -----

// Rows of 1001 bf16 are not whole runs: the next row is loaded into
// registers, carried by the loop.
// ROWS-LABEL: func @rows_registers
// ROWS-NOT: tile.shared
// ROWS: %[[FIRST:.+]] = tile.load %{{.+}} : memref<10x1001xbf16> -> !tile.tile<1x1024xbf16>
// ROWS: scf.for %{{.+}} = %c0 to %{{.+}} step %c1 iter_args(%[[CUR:.+]] = %[[FIRST]]) -> (!tile.tile<1x1024xbf16>) {
// ROWS:   %[[NEXT:.+]] = tile.load %{{.+}} : memref<10x1001xbf16> -> !tile.tile<1x1024xbf16>
// ROWS:   %[[CAST:.+]] = tile.cast %[[CUR]]
// The tile (1024) runs past the row (1001): the reduction masks the rest.
// ROWS:   tile.mask %[[CAST]]
// ROWS:   tile.reduce
// ROWS:   scf.yield %[[NEXT]]
func.func @rows_registers(%x: tensor<10x1001xbf16>) -> tensor<10x1001xbf16> {
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<10x1001xbf16> -> tensor<10x1001xf32>
  %s = tile.reduce %xf, %zero dim = 1 : tensor<10x1001xf32>, f32 -> tensor<10xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<10xf32> -> tensor<10x1001xf32>
  %y = tile.map (%xf, %sb) : (tensor<10x1001xf32>, tensor<10x1001xf32>) -> tensor<10x1001xbf16> {
  ^bb0(%v: f32, %t: f32):
    %q = arith.divf %v, %t : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<10x1001xbf16>
}

// -----

// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile | FileCheck %s --check-prefix=PADBIAS
// A matmul + bias group on rows that are not whole runs (N = 100 bf16):
// A, B and the bias (rows of N) are copied into padded scratch, the
// kernel's epilogue reads the padded bias, and C comes back from a padded
// buffer.
// PADBIAS-LABEL: func @matmul_bias_padded
// PADBIAS: tile.kernel @matmul_bias_padded_0_pad_a
// PADBIAS: tile.kernel @matmul_bias_padded_0_pad_b
// PADBIAS: %[[BIAS:.+]] = memref.alloc() : memref<104xbf16>
// PADBIAS: tile.kernel @matmul_bias_padded_0_pad_2 grid [1] threads 256(%arg2, %[[BIAS]]) : memref<100xbf16>, memref<104xbf16>
// PADBIAS: tile.kernel @matmul_bias_padded_0 grid [1, 2] threads 256(%{{.+}}, %{{.+}}, %[[BIAS]], %{{.+}}) : memref<64x40xbf16>, memref<40x104xbf16>, memref<104xbf16>, memref<64x104xbf16>
// PADBIAS: tile.load %{{.+}} : memref<104xbf16> -> !tile.tile<64xbf16>
// PADBIAS: tile.kernel @matmul_bias_padded_0_unpad_c
// PADBIAS: memref.dealloc %[[BIAS]]
func.func @matmul_bias_padded(%a: tensor<64x36xbf16>, %b: tensor<36x100xbf16>, %v: tensor<100xbf16>) -> tensor<64x100xbf16> {
  %c = tile.matmul %a, %b : (tensor<64x36xbf16>, tensor<36x100xbf16>) -> tensor<64x100xf32>
  %vb = tile.broadcast %v [0] : tensor<100xbf16> -> tensor<64x100xbf16>
  %s = tile.map (%c, %vb) : (tensor<64x100xf32>, tensor<64x100xbf16>) -> tensor<64x100xbf16> {
  ^bb0(%p: f32, %q: bf16):
    %qf = arith.extf %q : bf16 to f32
    %r = arith.addf %p, %qf : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %s : tensor<64x100xbf16>
}

// -----

// RUN: tile-opt %s -split-input-file --tile-fuse --tile-tile | FileCheck %s --check-prefix=OWNA
// An epilogue that reads the matmul's own A again (a residual x W^T + x,
// N = K = 100, rows not whole runs): the epilogue reads A's padded copy,
// the one the K loop reads (before, the kernel lacked the buffer the
// epilogue looked up and tile-tile crashed).
// OWNA-LABEL: func @residual_of_a_padded
// OWNA: %[[AP:.+]] = memref.alloc() : memref<37x104xbf16>
// OWNA: tile.kernel @residual_of_a_padded_0_pad_a grid [5, 1] threads 256(%arg0, %[[AP]])
// OWNA: tile.kernel @residual_of_a_padded_0_pad_b
// OWNA-NOT: tile.kernel @residual_of_a_padded_0_pad_1
// OWNA: tile.kernel @residual_of_a_padded_0 grid [1, 2] threads 256(%{{.+}}, %[[AP]], %arg2) : memref<100x104xbf16>, memref<37x104xbf16>, memref<37x100xf32>
// OWNA: ^bb0(%{{.+}}: memref<100x104xbf16>, %[[A:.+]]: memref<37x104xbf16>, %{{.+}}: memref<37x100xf32>):
// OWNA: scf.for
// OWNA: tile.load %[[A]][%{{.+}}, %{{.+}}] : memref<37x104xbf16> -> !tile.tile<64x16xbf16>
// OWNA: scf.yield
// OWNA: tile.load %[[A]][%{{.+}}, %{{.+}}] : memref<37x104xbf16> -> !tile.tile<64x64xbf16>
// OWNA: tile.map
func.func @residual_of_a_padded(%x: tensor<37x100xbf16>, %w: tensor<100x100xbf16>) -> tensor<37x100xf32> {
  %wt = tile.transpose %w : tensor<100x100xbf16> -> tensor<100x100xbf16>
  %c = tile.matmul %x, %wt : (tensor<37x100xbf16>, tensor<100x100xbf16>) -> tensor<37x100xf32>
  %y = tile.map (%c, %x) : (tensor<37x100xf32>, tensor<37x100xbf16>) -> tensor<37x100xf32> {
  ^bb0(%a: f32, %b: bf16):
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %a, %bf : f32
    tile.yield %s : f32
  }
  return %y : tensor<37x100xf32>
}

// -----

// Split-K (a hand-written config, as tile-configure writes for skinny
// problems): the first kernel takes the config, its programs (i, j, s) run
// the K loop over the s-th 384 of K (6 steps of 64, from s * 384: K = 1000
// in 3 ranges, the last one past K reads zeros) and store f32 partial sums
// at row s * 128 of a workspace of whole tiles; the second kernel adds the
// 3 partials in order and runs the epilogue (bias, cast) over its own
// 16 x 256 tiles.
// CHECK-LABEL: func @split_k
// CHECK: %[[WS:.+]] = memref.alloc() : memref<384x1024xf32>
// CHECK: tile.kernel @split_k_0_split_k grid [2, 8, 3] threads 128(%{{.+}}, %{{.+}}, %[[WS]]) {{.+}} attributes {tile.config = #tile.config<{{.+}}split_k = 3>}
// CHECK: %[[S:.+]] = tile.program_id 2
// CHECK: %[[K0:.+]] = arith.muli %[[S]], %c384
// CHECK: scf.for %[[KK:.+]] = %c0{{.*}} to %c384{{.*}} step %c64
// CHECK: %[[K:.+]] = arith.addi %[[K0]], %[[KK]]
// CHECK: tile.load %{{.+}}[%{{.+}}, %[[K]]] : memref<100x1000xbf16> -> !tile.tile<64x64xbf16>
// CHECK: tile.dot
// CHECK: %[[ROW0:.+]] = arith.muli %[[S]], %c128
// CHECK: %[[ROW:.+]] = arith.addi %[[ROW0]],
// CHECK: tile.store %{{.+}}, %{{.+}}[%[[ROW]], %{{.+}}] : !tile.tile<64x128xf32>, memref<384x1024xf32>
// CHECK: tile.kernel @split_k_0 grid [7, 4] threads 256(
// CHECK-NOT: tile.config
// CHECK-COUNT-3: tile.load %{{.+}} : memref<384x1024xf32> -> !tile.tile<16x256xf32>
// CHECK: tile.load %{{.+}} : memref<1000xf32>
// CHECK: tile.cast
// CHECK: tile.store %{{.+}} : !tile.tile<16x256xbf16>, memref<100x1000xbf16>
// CHECK: memref.dealloc %[[WS]]
func.func @split_k(%a: tensor<100x1000xbf16>, %b: tensor<1000x1000xbf16>, %bias: tensor<1000xf32>) -> tensor<100x1000xbf16> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 128, 64], threads = 128, mma = wgmma, instr = [64, 128, 16], warps = [4, 1], stages = 6, split_k = 3>} : (tensor<100x1000xbf16>, tensor<1000x1000xbf16>) -> tensor<100x1000xf32>
  %bb = tile.broadcast %bias [0] : tensor<1000xf32> -> tensor<100x1000xf32>
  %s = tile.map (%c, %bb) : (tensor<100x1000xf32>, tensor<100x1000xf32>) -> tensor<100x1000xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  %o = tile.cast %s : tensor<100x1000xf32> -> tensor<100x1000xbf16>
  return %o : tensor<100x1000xbf16>
}

// -----

// The same split with split_k_in_kernel: one kernel. After its partial,
// each program arrives on its output tile's counter (a zeroed buffer of
// one i32 per tile); the last of the tile's 3 programs adds the partials
// in split order, 16 rows at a time over the 64 rows of its tile, and runs
// the epilogue on each chunk. No second kernel.
// CHECK-LABEL: func @split_k_in_kernel
// CHECK: %[[WS:.+]] = memref.alloc() : memref<384x1024xf32>
// CHECK: %[[COUNT:.+]] = memref.alloc() {tile.zeroed} : memref<16xi32>
// CHECK: tile.kernel @split_k_in_kernel_0_split_k grid [2, 8, 3] threads 128(%{{.+}}, %{{.+}}, %[[WS]], %[[COUNT]], {{.+}} attributes {tile.config = #tile.config<{{.+}}split_k = 3, split_k_in_kernel = true>}
// CHECK: tile.dot
// CHECK: tile.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : !tile.tile<64x128xf32>, memref<384x1024xf32>
// CHECK: %[[TM:.+]] = tile.program_id 0
// CHECK: %[[TN:.+]] = tile.program_id 1
// CHECK: %[[BASE:.+]] = arith.muli %[[TM]], %c8
// CHECK: %[[INDEX:.+]] = arith.addi %[[BASE]], %[[TN]]
// CHECK: %[[LAST:.+]] = tile.last_arrival %{{.+}}[%[[INDEX]]] of 3 : memref<16xi32>
// CHECK: scf.if %[[LAST]] {
// CHECK: scf.for %{{.+}} = %c0{{.*}} to %c64{{.*}} step %c16
// CHECK-COUNT-3: tile.load %{{.+}} : memref<384x1024xf32> -> !tile.tile<16x128xf32>
// CHECK: tile.load %{{.+}} : memref<1000xf32>
// CHECK: tile.cast
// CHECK: tile.store %{{.+}} : !tile.tile<16x128xbf16>, memref<100x1000xbf16>
// CHECK-NOT: tile.kernel
// CHECK: memref.dealloc %[[WS]]
// CHECK: memref.dealloc %[[COUNT]]
func.func @split_k_in_kernel(%a: tensor<100x1000xbf16>, %b: tensor<1000x1000xbf16>, %bias: tensor<1000xf32>) -> tensor<100x1000xbf16> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 128, 64], threads = 128, mma = wgmma, instr = [64, 128, 16], warps = [4, 1], stages = 6, split_k = 3, split_k_in_kernel = true>} : (tensor<100x1000xbf16>, tensor<1000x1000xbf16>) -> tensor<100x1000xf32>
  %bb = tile.broadcast %bias [0] : tensor<1000xf32> -> tensor<100x1000xf32>
  %s = tile.map (%c, %bb) : (tensor<100x1000xf32>, tensor<100x1000xf32>) -> tensor<100x1000xf32> {
  ^bb0(%x: f32, %y: f32):
    %r = arith.addf %x, %y : f32
    tile.yield %r : f32
  }
  %o = tile.cast %s : tensor<100x1000xf32> -> tensor<100x1000xbf16>
  return %o : tensor<100x1000xbf16>
}

// -----

// A matmul group whose B is the transpose of W [N, K]: each K step loads
// W's tile as stored ([BN, BK] at (n0, k)) and transposes it, which
// tile-promote makes a K-major view of the stored tile (no copy).
// CHECK-LABEL: func @linear
// CHECK: tile.kernel @linear_0
// (The SIMT block here: 64 x 64 x 16.)
// CHECK: scf.for %[[K:[^ ]+]] =
// CHECK: %[[XT:.+]] = tile.load %{{.+}}[%{{.+}}, %[[K]]] : memref<64x32xbf16> -> !tile.tile<64x16xbf16>
// CHECK: %[[WS:.+]] = tile.load %{{.+}}[%{{.+}}, %[[K]]] : memref<48x32xbf16> -> !tile.tile<64x16xbf16>
// CHECK: %[[WT:.+]] = tile.transpose %[[WS]] : !tile.tile<64x16xbf16> -> !tile.tile<16x64xbf16>
// CHECK: tile.dot %[[XT]], %[[WT]]
func.func @linear(%x: tensor<64x32xbf16>, %w: tensor<48x32xbf16>) -> tensor<64x48xf32> {
  %wt = tile.transpose %w : tensor<48x32xbf16> -> tensor<32x48xbf16>
  %c = tile.matmul %x, %wt : (tensor<64x32xbf16>, tensor<32x48xbf16>) -> tensor<64x48xf32>
  return %c : tensor<64x48xf32>
}

// -----

// A per-tensor scale (a 0-d tensor) broadcast in an epilogue: one scalar
// load per program, splat to the tile.
// CHECK-LABEL: func @scalar_scale
// CHECK: tile.kernel @scalar_scale_0
// CHECK: tile.dot
// CHECK: %[[S:.+]] = memref.load %{{.+}}[] : memref<f32>
// CHECK: %[[T:.+]] = tile.splat %[[S]] : f32 -> !tile.tile<64x64xf32>
// CHECK: tile.map(%{{.+}}, %[[T]])
func.func @scalar_scale(%a: tensor<64x32xbf16>, %b: tensor<32x64xbf16>, %s: tensor<f32>) -> tensor<64x64xf32> {
  %c = tile.matmul %a, %b : (tensor<64x32xbf16>, tensor<32x64xbf16>) -> tensor<64x64xf32>
  %sb = tile.broadcast %s [0, 1] : tensor<f32> -> tensor<64x64xf32>
  %y = tile.map (%c, %sb) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%x: f32, %z: f32):
    %r = arith.mulf %x, %z : f32
    tile.yield %r : f32
  }
  return %y : tensor<64x64xf32>
}

// -----

// The same scale as a one-element tensor ([1], as torch passes a
// per-tensor scale): its element 0, splat.
// CHECK-LABEL: func @one_element_scale
// CHECK: tile.kernel @one_element_scale_0
// CHECK: tile.dot
// CHECK: %[[S:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<1xf32>
// CHECK: tile.splat %[[S]] : f32 -> !tile.tile<64x64xf32>
func.func @one_element_scale(%a: tensor<64x32xbf16>, %b: tensor<32x64xbf16>, %s: tensor<1xf32>) -> tensor<64x64xf32> {
  %c = tile.matmul %a, %b : (tensor<64x32xbf16>, tensor<32x64xbf16>) -> tensor<64x64xf32>
  %sb = tile.broadcast %s [0, 1] : tensor<1xf32> -> tensor<64x64xf32>
  %y = tile.map (%c, %sb) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%x: f32, %z: f32):
    %r = arith.mulf %x, %z : f32
    tile.yield %r : f32
  }
  return %y : tensor<64x64xf32>
}
