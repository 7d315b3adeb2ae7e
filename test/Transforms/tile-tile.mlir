// tile-tile turns each tensor-level op into one tile.kernel whose programs
// compute one output tile each; the host function moves to memrefs.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(tile-tile{pad-matmul-rows=0})' | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-tile="matmul-block=32,32,8 threads=128 pad-matmul-rows=0" | FileCheck %s --check-prefix=OPT
// RUN: tile-opt %s -split-input-file --tile-tile | FileCheck %s --check-prefix=PAD

// A rank-2 map on a ragged shape: 8x256 tiles over a 125x12 grid, one load
// per input at (pid0 * 8, pid1 * 256), the body cloned, an unpadded store.
// CHECK-LABEL: func @map_rank2
// CHECK-SAME: (%[[A:.+]]: memref<1000x3001xf32>, %[[B:.+]]: memref<1000x3001xf32>, %[[OUT:.+]]: memref<1000x3001xf32>)
// CHECK-NOT: tensor
// CHECK: tile.kernel @map_rank2_0 grid [125, 12] threads 256(%[[A]], %[[B]], %[[OUT]])
// CHECK-NEXT: ^bb0(%[[KA:.+]]: memref<1000x3001xf32>, %[[KB:.+]]: memref<1000x3001xf32>, %[[KOUT:.+]]: memref<1000x3001xf32>):
// CHECK: [[PID0:%.+]] = tile.program_id 0
// CHECK: [[C8:%.+]] = arith.constant 8 : index
// CHECK: [[ROW:%.+]] = arith.muli [[PID0]], [[C8]] : index
// CHECK: [[PID1:%.+]] = tile.program_id 1
// CHECK: [[C256:%.+]] = arith.constant 256 : index
// CHECK: [[COL:%.+]] = arith.muli [[PID1]], [[C256]] : index
// CHECK: [[TA:%.+]] = tile.load %[[KA]][[[ROW]], [[COL]]] : memref<1000x3001xf32> -> !tile.tile<8x256xf32>
// CHECK: [[TB:%.+]] = tile.load %[[KB]][[[ROW]], [[COL]]] : memref<1000x3001xf32> -> !tile.tile<8x256xf32>
// CHECK: [[SUM:%.+]] = tile.map([[TA]], [[TB]]) : (!tile.tile<8x256xf32>, !tile.tile<8x256xf32>) -> !tile.tile<8x256xf32>
// CHECK: arith.addf
// CHECK: tile.store [[SUM]], %[[KOUT]][[[ROW]], [[COL]]] : !tile.tile<8x256xf32>, memref<1000x3001xf32>
// CHECK: return
// CHECK-NOT: memref.alloc
func.func @map_rank2(%a: tensor<1000x3001xf32>, %b: tensor<1000x3001xf32>) -> tensor<1000x3001xf32> {
  %y = tile.map (%a, %b) : (tensor<1000x3001xf32>, tensor<1000x3001xf32>) -> tensor<1000x3001xf32> {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    tile.yield %s : f32
  }
  return %y : tensor<1000x3001xf32>
}

// -----

// A rank-1 map takes the last block size (256) on a 1-D grid; the captured
// constant is cloned into the kernel, before the map.
// CHECK-LABEL: func @map_rank1
// CHECK-SAME: (%{{.+}}: memref<5000xf32>, %{{.+}}: memref<5000xf32>)
// CHECK: tile.kernel @map_rank1_0 grid [20] threads 256
// CHECK: [[PID:%.+]] = tile.program_id 0
// CHECK: [[OFF:%.+]] = arith.muli [[PID]], %{{.+}} : index
// CHECK: [[T:%.+]] = tile.load %{{.+}}[[[OFF]]] : memref<5000xf32> -> !tile.tile<256xf32>
// CHECK: [[TWO:%.+]] = arith.constant 2.000000e+00 : f32
// CHECK: [[Y:%.+]] = tile.map([[T]]) : (!tile.tile<256xf32>) -> !tile.tile<256xf32> {
// CHECK: ^bb0([[X:%.+]]: f32):
// CHECK: [[P:%.+]] = arith.mulf [[X]], [[TWO]] : f32
// CHECK: tile.yield [[P]] : f32
// CHECK: tile.store [[Y]], %{{.+}}[[[OFF]]] : !tile.tile<256xf32>, memref<5000xf32>
// CHECK: }
// CHECK-NEXT: return
func.func @map_rank1(%a: tensor<5000xf32>) -> tensor<5000xf32> {
  %c = arith.constant 2.0 : f32
  %y = tile.map (%a) : (tensor<5000xf32>) -> tensor<5000xf32> {
  ^bb0(%x: f32):
    %s = arith.mulf %x, %c : f32
    tile.yield %s : f32
  }
  return %y : tensor<5000xf32>
}

// -----

// A cast is an elementwise kernel around tile.cast.
// CHECK-LABEL: func @cast
// CHECK: tile.kernel @cast_0 grid [13, 2] threads 256
// CHECK: [[T:%.+]] = tile.load %{{.+}} : memref<100x300xf32> -> !tile.tile<8x256xf32>
// CHECK: [[C:%.+]] = tile.cast [[T]] : !tile.tile<8x256xf32> -> !tile.tile<8x256xbf16>
// CHECK: tile.store [[C]], %{{.+}} : !tile.tile<8x256xbf16>, memref<100x300xbf16>
func.func @cast(%a: tensor<100x300xf32>) -> tensor<100x300xbf16> {
  %o = tile.cast %a : tensor<100x300xf32> -> tensor<100x300xbf16>
  return %o : tensor<100x300xbf16>
}

// -----

// A broadcast loads the input tile along the kept result dimension only.
// CHECK-LABEL: func @broadcast_rows
// CHECK: tile.kernel @broadcast_rows_0 grid [33, 1] threads 256
// CHECK: [[ROW:%.+]] = arith.muli
// CHECK: [[COL:%.+]] = arith.muli
// CHECK: [[T:%.+]] = tile.load %{{.+}}[[[COL]]] : memref<129xf32> -> !tile.tile<256xf32>
// CHECK: [[B:%.+]] = tile.broadcast [[T]] [0] : !tile.tile<256xf32> -> !tile.tile<8x256xf32>
// CHECK: tile.store [[B]], %{{.+}}[[[ROW]], [[COL]]] : !tile.tile<8x256xf32>, memref<257x129xf32>
func.func @broadcast_rows(%v: tensor<129xf32>) -> tensor<257x129xf32> {
  %b = tile.broadcast %v [0] : tensor<129xf32> -> tensor<257x129xf32>
  return %b : tensor<257x129xf32>
}

// CHECK-LABEL: func @broadcast_cols
// CHECK: [[ROW:%.+]] = arith.muli
// CHECK: [[COL:%.+]] = arith.muli
// CHECK: [[T:%.+]] = tile.load %{{.+}}[[[ROW]]] : memref<257xf32> -> !tile.tile<8xf32>
// CHECK: tile.broadcast [[T]] [1] : !tile.tile<8xf32> -> !tile.tile<8x256xf32>
func.func @broadcast_cols(%v: tensor<257xf32>) -> tensor<257x129xf32> {
  %b = tile.broadcast %v [1] : tensor<257xf32> -> tensor<257x129xf32>
  return %b : tensor<257x129xf32>
}

// -----

// A row reduction: 8 rows per program, a loop over 256-column chunks whose
// loads are padded with the init (-inf, the identity of max), a partial
// tile.reduce and a tile.map folding it into the accumulator.
// CHECK-LABEL: func @row_max
// CHECK-SAME: (%{{.+}}: memref<1001x4097xf32>, %{{.+}}: memref<1001xf32>)
// CHECK: tile.kernel @row_max_0 grid [126] threads 256(
// CHECK-NEXT: ^bb0(%[[IN:.+]]: memref<1001x4097xf32>, %[[OUT:.+]]: memref<1001xf32>):
// CHECK: [[INIT:%.+]] = arith.constant 0xFF800000 : f32
// CHECK: [[ROW:%.+]] = arith.muli
// CHECK: [[ACC0:%.+]] = tile.splat [[INIT]] : f32 -> !tile.tile<8xf32>
// CHECK-DAG: [[C0:%.+]] = arith.constant 0 : index
// CHECK-DAG: [[N:%.+]] = arith.constant 4097 : index
// CHECK-DAG: [[STEP:%.+]] = arith.constant 256 : index
// CHECK: [[RES:%.+]] = scf.for [[K:%[0-9a-z_]+]] = [[C0]] to [[N]] step [[STEP]] iter_args([[ACC:%.+]] = [[ACC0]]) -> (!tile.tile<8xf32>) {
// CHECK: [[CHUNK:%.+]] = tile.load %[[IN]][[[ROW]], [[K]]] {padding = 0xFF800000 : f32} : memref<1001x4097xf32> -> !tile.tile<8x256xf32>
// CHECK: [[PART:%.+]] = tile.reduce [[CHUNK]], [[INIT]] dim = 1 : !tile.tile<8x256xf32>, f32 -> !tile.tile<8xf32>
// CHECK: arith.maximumf
// CHECK: [[NEXT:%.+]] = tile.map([[ACC]], [[PART]]) : (!tile.tile<8xf32>, !tile.tile<8xf32>) -> !tile.tile<8xf32>
// CHECK: arith.maximumf
// CHECK: scf.yield [[NEXT]] : !tile.tile<8xf32>
// CHECK: tile.store [[RES]], %[[OUT]][[[ROW]]] : !tile.tile<8xf32>, memref<1001xf32>
func.func @row_max(%x: tensor<1001x4097xf32>) -> tensor<1001xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<1001x4097xf32>, f32 -> tensor<1001xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  return %m : tensor<1001xf32>
}

// -----

// A column reduction: 8 columns per program, a loop over 256-row chunks
// (loaded as 256x8 at (k, col), padded with 0, the init of the sum).
// CHECK-LABEL: func @col_sum
// CHECK: tile.kernel @col_sum_0 grid [129] threads 256(
// CHECK-NEXT: ^bb0(%[[IN:.+]]: memref<777x1031xf32>, %[[OUT:.+]]: memref<1031xf32>):
// CHECK: [[INIT:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK: [[COL:%.+]] = arith.muli
// CHECK: [[ACC0:%.+]] = tile.splat [[INIT]] : f32 -> !tile.tile<8xf32>
// CHECK: [[N:%.+]] = arith.constant 777 : index
// CHECK: [[RES:%.+]] = scf.for [[K:%[0-9a-z_]+]] = %{{.+}} to [[N]] step %{{.+}} iter_args([[ACC:%.+]] = [[ACC0]]) -> (!tile.tile<8xf32>) {
// CHECK: [[CHUNK:%.+]] = tile.load %[[IN]][[[K]], [[COL]]] {padding = 0.000000e+00 : f32} : memref<777x1031xf32> -> !tile.tile<256x8xf32>
// CHECK: [[PART:%.+]] = tile.reduce [[CHUNK]], [[INIT]] dim = 0 : !tile.tile<256x8xf32>, f32 -> !tile.tile<8xf32>
// CHECK: [[NEXT:%.+]] = tile.map([[ACC]], [[PART]])
// CHECK: arith.addf
// CHECK: scf.yield [[NEXT]]
// CHECK: tile.store [[RES]], %[[OUT]][[[COL]]] : !tile.tile<8xf32>, memref<1031xf32>
func.func @col_sum(%x: tensor<777x1031xf32>) -> tensor<1031xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %x, %zero dim = 0 : tensor<777x1031xf32>, f32 -> tensor<1031xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  return %s : tensor<1031xf32>
}

// -----

// A matmul: a grid over 64x64 tiles of C, a loop over K in steps of 16
// loading zero-padded A and B tiles (no padding attribute), tile.dot into
// an f32 accumulator that starts as a splat of 0.
// By default (pad-matmul-rows), bf16 rows that are not whole 16-byte runs
// (K = 300, N = 129) are first copied into zero-padded scratch buffers
// (rows of 304 and 136; B's 300 rows to 304), the kernel runs on those and
// writes a padded f32 C (129 f32 rows are not whole runs either), which a
// last kernel copies back; then the scratch is freed.
// PAD-LABEL: func @matmul
// PAD: %[[AP:.+]] = memref.alloc() : memref<257x304xbf16>
// PAD: tile.kernel @matmul_0_pad_a grid [33, 2] threads 256(%arg0, %[[AP]]) : memref<257x300xbf16>, memref<257x304xbf16>
// PAD: tile.load %{{.+}} : memref<257x300xbf16> -> !tile.tile<8x256xbf16>
// PAD: tile.store %{{.+}} : !tile.tile<8x256xbf16>, memref<257x304xbf16>
// PAD: %[[BP:.+]] = memref.alloc() : memref<304x136xbf16>
// PAD: tile.kernel @matmul_0_pad_b grid [38, 1] threads 256(%arg1, %[[BP]])
// PAD: %[[CP:.+]] = memref.alloc() : memref<257x136xf32>
// PAD: tile.kernel @matmul_0 grid [5, 3] threads 256(%[[AP]], %[[BP]], %[[CP]])
// PAD: arith.constant 304 : index
// PAD: tile.dot
// PAD: tile.kernel @matmul_0_unpad_c grid [33, 1] threads 256(%[[CP]], %arg2) : memref<257x136xf32>, memref<257x129xf32>
// PAD: memref.dealloc %[[AP]]
// PAD: memref.dealloc %[[BP]]
// PAD: memref.dealloc %[[CP]]
// CHECK-LABEL: func @matmul
// CHECK: tile.kernel @matmul_0 grid [5, 3] threads 256(
// CHECK-NEXT: ^bb0(%[[A:.+]]: memref<257x300xbf16>, %[[B:.+]]: memref<300x129xbf16>, %[[C:.+]]: memref<257x129xf32>):
// CHECK: [[M0:%.+]] = arith.muli
// CHECK: [[N0:%.+]] = arith.muli
// CHECK: [[ZERO:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK: [[ACC0:%.+]] = tile.splat [[ZERO]] : f32 -> !tile.tile<64x64xf32>
// CHECK-DAG: [[K:%.+]] = arith.constant 300 : index
// CHECK-DAG: [[TK:%.+]] = arith.constant 16 : index
// CHECK: [[RES:%.+]] = scf.for [[KK:%[0-9a-z_]+]] = %{{.+}} to [[K]] step [[TK]] iter_args([[ACC:%.+]] = [[ACC0]]) -> (!tile.tile<64x64xf32>) {
// CHECK: [[TA:%.+]] = tile.load %[[A]][[[M0]], [[KK]]] : memref<257x300xbf16> -> !tile.tile<64x16xbf16>
// CHECK: [[TB:%.+]] = tile.load %[[B]][[[KK]], [[N0]]] : memref<300x129xbf16> -> !tile.tile<16x64xbf16>
// CHECK: [[D:%.+]] = tile.dot [[TA]], [[TB]], [[ACC]] : !tile.tile<64x16xbf16>, !tile.tile<16x64xbf16> -> !tile.tile<64x64xf32>
// CHECK: scf.yield [[D]]
// CHECK: tile.store [[RES]], %[[C]][[[M0]], [[N0]]] : !tile.tile<64x64xf32>, memref<257x129xf32>

// With matmul-block=32,32,8 threads=128 on the command line:
// OPT-LABEL: func @matmul
// OPT: tile.kernel @matmul_0 grid [9, 5] threads 128(
// OPT: tile.splat %{{.+}} : f32 -> !tile.tile<32x32xf32>
// OPT: arith.constant 8 : index
// OPT: tile.load {{.+}} -> !tile.tile<32x8xbf16>
// OPT: tile.load {{.+}} -> !tile.tile<8x32xbf16>
// OPT: tile.dot {{.+}} : !tile.tile<32x8xbf16>, !tile.tile<8x32xbf16> -> !tile.tile<32x32xf32>
func.func @matmul(%a: tensor<257x300xbf16>, %b: tensor<300x129xbf16>) -> tensor<257x129xf32> {
  %c = tile.matmul %a, %b : (tensor<257x300xbf16>, tensor<300x129xbf16>) -> tensor<257x129xf32>
  return %c : tensor<257x129xf32>
}

// -----

// Dimensions smaller than the block get the next power of two: 3x5 -> 4x8
// tiles, one program; a 20x12x6 matmul gets 32x16x8 tiles.
// CHECK-LABEL: func @small_map
// CHECK: tile.kernel @small_map_0 grid [1, 1] threads 256
// CHECK: arith.constant 4 : index
// CHECK: arith.constant 8 : index
// CHECK: tile.load {{.+}} : memref<3x5xf32> -> !tile.tile<4x8xf32>
// CHECK: tile.store {{.+}} : !tile.tile<4x8xf32>, memref<3x5xf32>
func.func @small_map(%a: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %y = tile.map (%a) : (tensor<3x5xf32>) -> tensor<3x5xf32> {
  ^bb0(%x: f32):
    %s = arith.negf %x : f32
    tile.yield %s : f32
  }
  return %y : tensor<3x5xf32>
}

// CHECK-LABEL: func @small_matmul
// CHECK: tile.kernel @small_matmul_0 grid [1, 1] threads 256
// CHECK: tile.load {{.+}} -> !tile.tile<32x8xf32>
// CHECK: tile.load {{.+}} -> !tile.tile<8x16xf32>
// CHECK: tile.dot {{.+}} -> !tile.tile<32x16xf32>
func.func @small_matmul(%a: tensor<20x6xf32>, %b: tensor<6x12xf32>) -> tensor<20x12xf32> {
  %c = tile.matmul %a, %b : (tensor<20x6xf32>, tensor<6x12xf32>) -> tensor<20x12xf32>
  return %c : tensor<20x12xf32>
}

// CHECK-LABEL: func @small_reduce
// CHECK: tile.kernel @small_reduce_0 grid [1] threads 256
// CHECK: tile.splat {{.+}} -> !tile.tile<4xf32>
// CHECK: scf.for {{.+}} step
// CHECK: tile.load {{.+}} {padding = 0.000000e+00 : f32} : memref<3x100xf32> -> !tile.tile<4x128xf32>
func.func @small_reduce(%x: tensor<3x100xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %x, %zero dim = 1 : tensor<3x100xf32>, f32 -> tensor<3xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  return %s : tensor<3xf32>
}

// -----

// tile.config on the op wins over the options (and the defaults): the
// config's block and threads are used by both RUN lines.
// CHECK-LABEL: func @config_overrides
// CHECK: tile.kernel @config_overrides_0 grid [8, 4] threads 64
// CHECK: tile.load {{.+}} -> !tile.tile<16x32xf32>
// CHECK: tile.load {{.+}} -> !tile.tile<32x32xf32>
// CHECK: tile.dot {{.+}} -> !tile.tile<16x32xf32>
// OPT-LABEL: func @config_overrides
// OPT: tile.kernel @config_overrides_0 grid [8, 4] threads 64
// OPT: tile.dot {{.+}} -> !tile.tile<16x32xf32>
func.func @config_overrides(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [16, 32, 32], threads = 64>}
      : (tensor<128x64xf32>, tensor<64x128xf32>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// A reduction's config gives [kept, reduced].
// CHECK-LABEL: func @config_reduce
// CHECK: tile.kernel @config_reduce_0 grid [4] threads 32
// CHECK: tile.load {{.+}} -> !tile.tile<16x64xf32>
func.func @config_reduce(%x: tensor<64x1000xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %x, %zero dim = 1 {tile.config = #tile.config<block = [16, 64], threads = 32>} : tensor<64x1000xf32>, f32 -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  return %s : tensor<64xf32>
}

// -----

// Several ops: one kernel each, in order, named <func>_<i>; intermediates
// live in memref.alloc buffers freed before the return; the last op writes
// the output argument directly.
// CHECK-LABEL: func @multi
// CHECK-SAME: (%[[A:.+]]: memref<257x300xbf16>, %[[B:.+]]: memref<300x129xbf16>, %[[BIAS:.+]]: memref<129xf32>, %[[OUT:.+]]: memref<257x129xbf16>)
// CHECK: [[MM:%.+]] = memref.alloc() : memref<257x129xf32>
// CHECK: tile.kernel @multi_0 grid [5, 3] threads 256(%[[A]], %[[B]], [[MM]])
// CHECK: tile.dot
// CHECK: [[BB:%.+]] = memref.alloc() : memref<257x129xf32>
// CHECK: tile.kernel @multi_1 grid [33, 1] threads 256(%[[BIAS]], [[BB]])
// CHECK: tile.broadcast
// CHECK: [[SUM:%.+]] = memref.alloc() : memref<257x129xf32>
// CHECK: tile.kernel @multi_2 grid [33, 1] threads 256([[MM]], [[BB]], [[SUM]])
// CHECK: tile.map
// CHECK-NOT: memref.alloc
// CHECK: tile.kernel @multi_3 grid [33, 1] threads 256([[SUM]], %[[OUT]])
// CHECK: tile.cast
// CHECK: memref.dealloc [[MM]] : memref<257x129xf32>
// CHECK-NEXT: memref.dealloc [[BB]] : memref<257x129xf32>
// CHECK-NEXT: memref.dealloc [[SUM]] : memref<257x129xf32>
// CHECK-NEXT: return
// CHECK-NOT: tensor<
func.func @multi(%a: tensor<257x300xbf16>, %b: tensor<300x129xbf16>, %bias: tensor<129xf32>) -> tensor<257x129xbf16> {
  %c = tile.matmul %a, %b : (tensor<257x300xbf16>, tensor<300x129xbf16>) -> tensor<257x129xf32>
  %bb = tile.broadcast %bias [0] : tensor<129xf32> -> tensor<257x129xf32>
  %y = tile.map (%c, %bb) : (tensor<257x129xf32>, tensor<257x129xf32>) -> tensor<257x129xf32> {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    tile.yield %s : f32
  }
  %o = tile.cast %y : tensor<257x129xf32> -> tensor<257x129xbf16>
  return %o : tensor<257x129xbf16>
}

// -----

// Constants captured by map bodies and combiners are cloned into the
// kernels, right before each region that uses them (the combiner is cloned
// twice, so is its constant); the host keeps none.
// CHECK-LABEL: func @captured_constants
// CHECK-NOT: arith.constant
// CHECK: tile.kernel @captured_constants_0
// CHECK: [[H:%.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: tile.map
// CHECK: arith.mulf %{{.+}}, [[H]] : f32
// CHECK: tile.kernel @captured_constants_1
// CHECK: [[INIT:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK: scf.for
// CHECK: [[H1:%.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: tile.reduce %{{.+}}, [[INIT]] dim = 1
// CHECK: arith.mulf %{{.+}}, [[H1]] : f32
// CHECK: [[H2:%.+]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: tile.map
// CHECK: arith.mulf %{{.+}}, [[H2]] : f32
// CHECK: return
func.func @captured_constants(%a: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16xf32>) {
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %y = tile.map (%a) : (tensor<16x16xf32>) -> tensor<16x16xf32> {
  ^bb0(%x: f32):
    %s = arith.mulf %x, %half : f32
    tile.yield %s : f32
  }
  %r = tile.reduce %a, %zero dim = 1 : tensor<16x16xf32>, f32 -> tensor<16xf32> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.mulf %s, %half : f32
    tile.yield %t : f32
  }
  return %y, %r : tensor<16x16xf32>, tensor<16xf32>
}

// -----

// A transpose: each program loads the operand tile at its own offsets
// swapped (rows 8 j, columns 256 i here: a 256x8 tile) and stores its
// tile.transpose.
// CHECK-LABEL: func.func @transpose
// CHECK: tile.kernel @transpose_0 grid [2, 4]
// CHECK: %[[I:.+]] = tile.program_id 0
// CHECK: %[[R:.+]] = arith.muli %[[I]], %c8
// CHECK: %[[J:.+]] = tile.program_id 1
// CHECK: %[[C:.+]] = arith.muli %[[J]], %c256
// CHECK: %[[T:.+]] = tile.load %{{.+}}[%[[C]], %[[R]]] : memref<1000x16xbf16> -> !tile.tile<256x8xbf16>
// CHECK: %[[X:.+]] = tile.transpose %[[T]] : !tile.tile<256x8xbf16> -> !tile.tile<8x256xbf16>
// CHECK: tile.store %[[X]], %{{.+}}[%[[R]], %[[C]]] : !tile.tile<8x256xbf16>, memref<16x1000xbf16>
func.func @transpose(%a: tensor<1000x16xbf16>) -> tensor<16x1000xbf16> {
  %t = tile.transpose %a : tensor<1000x16xbf16> -> tensor<16x1000xbf16>
  return %t : tensor<16x1000xbf16>
}

// -----

// An iota: each program's tile.iota plus its tile's offset along the
// dimension.
// CHECK-LABEL: func.func @iota
// CHECK: tile.kernel @iota_0
// CHECK: %[[L:.+]] = tile.iota dim = 1 : !tile.tile<8x256xi32>
// CHECK: %[[J:.+]] = tile.program_id 1
// CHECK: %[[C:.+]] = arith.muli %[[J]], %c256
// CHECK: %[[O:.+]] = arith.index_cast %[[C]] : index to i32
// CHECK: %[[G:.+]] = tile.map(%[[L]])
// CHECK: arith.addi %{{.+}}, %[[O]] : i32
// CHECK: tile.store %[[G]]
func.func @iota() -> tensor<16x1000xi32> {
  %t = tile.iota dim = 1 : tensor<16x1000xi32>
  return %t : tensor<16x1000xi32>
}

// -----

// A tensor op nothing reads gets no kernel (tensor ops are pure): here
// the transpose the frontend emits for w.mT when a matrix-vector product
// reads w as stored.
// CHECK-LABEL: func.func @dead_transpose
// CHECK-NOT: tile.transpose
// CHECK: tile.kernel @dead_transpose_0
// CHECK-NOT: tile.kernel
func.func @dead_transpose(%w: tensor<64x32xbf16>) -> tensor<64x32xbf16> {
  %t = tile.transpose %w : tensor<64x32xbf16> -> tensor<32x64xbf16>
  %y = tile.cast %w : tensor<64x32xbf16> -> tensor<64x32xbf16>
  return %y : tensor<64x32xbf16>
}
