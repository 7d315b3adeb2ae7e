// tile-reference lowers each tensor-level op to a naive kernel: one thread
// per output element, scalar memref loads, scalar loops, f64 matmul sums.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(tile-reference)' | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-reference="suffix=_ref" | FileCheck %s --check-prefix=SUFFIX

// A map over 257x129 = 33153 elements: 130 programs of 256 threads, the
// linear id bounds-checked, delinearized (column = id % 129, row = id / 129
// % 257), then the body applied to scalar loads.
// CHECK-LABEL: func @map
// CHECK-SAME: (%{{.+}}: memref<257x129xf32>, %{{.+}}: memref<257x129xf32>, %{{.+}}: memref<257x129xf32>)
// CHECK: tile.kernel @map_0 grid [130] threads 256(
// CHECK-NEXT: ^bb0(%[[A:.+]]: memref<257x129xf32>, %[[B:.+]]: memref<257x129xf32>, %[[OUT:.+]]: memref<257x129xf32>):
// CHECK: [[PID:%.+]] = tile.program_id 0
// CHECK: [[TID:%.+]] = gpu.thread_id x
// CHECK: [[C256:%.+]] = arith.constant 256 : index
// CHECK: [[BASE:%.+]] = arith.muli [[PID]], [[C256]] : index
// CHECK: [[ID:%.+]] = arith.addi [[BASE]], [[TID]] : index
// CHECK: [[NUM:%.+]] = arith.constant 33153 : index
// CHECK: [[IN:%.+]] = arith.cmpi ult, [[ID]], [[NUM]] : index
// CHECK: scf.if [[IN]] {
// CHECK: [[C129:%.+]] = arith.constant 129 : index
// CHECK: [[COL:%.+]] = arith.remui [[ID]], [[C129]] : index
// CHECK: [[Q:%.+]] = arith.divui [[ID]], [[C129]] : index
// CHECK: [[ROW:%.+]] = arith.remui [[Q]], %{{.+}} : index
// CHECK: [[X:%.+]] = memref.load %[[A]][[[ROW]], [[COL]]] : memref<257x129xf32>
// CHECK: [[Y:%.+]] = memref.load %[[B]][[[ROW]], [[COL]]] : memref<257x129xf32>
// CHECK: [[S:%.+]] = arith.addf [[X]], [[Y]] : f32
// CHECK: memref.store [[S]], %[[OUT]][[[ROW]], [[COL]]] : memref<257x129xf32>
// CHECK-NOT: tile.load
// CHECK-NOT: tile.store
// CHECK: return
func.func @map(%a: tensor<257x129xf32>, %b: tensor<257x129xf32>) -> tensor<257x129xf32> {
  %y = tile.map (%a, %b) : (tensor<257x129xf32>, tensor<257x129xf32>) -> tensor<257x129xf32> {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    tile.yield %s : f32
  }
  return %y : tensor<257x129xf32>
}

// -----

// A matmul: one thread per element of C, a K loop accumulating
// extf(a) * extf(b) in f64 from 0.0, truncated to f32 at the end.
// CHECK-LABEL: func @matmul
// CHECK: tile.kernel @matmul_0 grid [130] threads 256(
// CHECK-NEXT: ^bb0(%[[A:.+]]: memref<257x300xbf16>, %[[B:.+]]: memref<300x129xbf16>, %[[C:.+]]: memref<257x129xf32>):
// CHECK: scf.if
// CHECK: [[J:%.+]] = arith.remui
// CHECK: [[I:%.+]] = arith.remui
// CHECK: [[ZERO:%.+]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: [[K:%.+]] = arith.constant 300 : index
// CHECK-DAG: [[ONE:%.+]] = arith.constant 1 : index
// CHECK: [[SUM:%.+]] = scf.for [[KK:%[0-9a-z_]+]] = %{{.+}} to [[K]] step [[ONE]] iter_args([[ACC:%.+]] = [[ZERO]]) -> (f64) {
// CHECK: [[AV:%.+]] = memref.load %[[A]][[[I]], [[KK]]] : memref<257x300xbf16>
// CHECK: [[BV:%.+]] = memref.load %[[B]][[[KK]], [[J]]] : memref<300x129xbf16>
// CHECK: [[AW:%.+]] = arith.extf [[AV]] : bf16 to f64
// CHECK: [[BW:%.+]] = arith.extf [[BV]] : bf16 to f64
// CHECK: [[P:%.+]] = arith.mulf [[AW]], [[BW]] : f64
// CHECK: [[NEXT:%.+]] = arith.addf [[ACC]], [[P]] : f64
// CHECK: scf.yield [[NEXT]] : f64
// CHECK: [[R:%.+]] = arith.truncf [[SUM]] : f64 to f32
// CHECK: memref.store [[R]], %[[C]][[[I]], [[J]]] : memref<257x129xf32>
// CHECK-NOT: tile.dot
func.func @matmul(%a: tensor<257x300xbf16>, %b: tensor<300x129xbf16>) -> tensor<257x129xf32> {
  %c = tile.matmul %a, %b : (tensor<257x300xbf16>, tensor<300x129xbf16>) -> tensor<257x129xf32>
  return %c : tensor<257x129xf32>
}

// -----

// A block-scaled matmul: each product times its blocks' scales, SA[i / gm,
// k / gk] and SB[k / gk, j / gn], in f64; an SA without its unit dimension
// (one 128-row block) is viewed as [1, K / 128].
// CHECK-LABEL: func @block_scaled_matmul
// CHECK: tile.kernel @block_scaled_matmul_0 grid [18] threads 256(
// CHECK-NEXT: ^bb0(%[[A:.+]]: memref<100x300xbf16>, %[[B:.+]]: memref<300x45xbf16>, %[[SA:.+]]: memref<3xf32>, %[[SB:.+]]: memref<3x45xf32>, %[[C:.+]]: memref<100x45xf32>):
// CHECK: [[J:%.+]] = arith.remui
// CHECK: [[I:%.+]] = arith.remui
// CHECK: [[SA2:%.+]] = memref.expand_shape %[[SA]] {{\[\[}}0, 1{{\]\]}} output_shape [1, 3] : memref<3xf32> into memref<1x3xf32>
// CHECK: scf.for [[KK:%[0-9a-z_]+]] =
// CHECK: [[P:%.+]] = arith.mulf {{.+}} : f64
// CHECK: [[KB:%.+]] = arith.divui [[KK]], %{{.+}} : index
// CHECK: [[IB:%.+]] = arith.divui [[I]], %{{.+}} : index
// CHECK: [[S1:%.+]] = memref.load [[SA2]][[[IB]], [[KB]]] : memref<1x3xf32>
// CHECK: [[JB:%.+]] = arith.divui [[J]], %{{.+}} : index
// CHECK: [[S2:%.+]] = memref.load %[[SB]][[[KB]], [[JB]]] : memref<3x45xf32>
// CHECK: [[W1:%.+]] = arith.extf [[S1]] : f32 to f64
// CHECK: [[W2:%.+]] = arith.extf [[S2]] : f32 to f64
// CHECK: [[S:%.+]] = arith.mulf [[W1]], [[W2]] : f64
// CHECK: [[PS:%.+]] = arith.mulf [[P]], [[S]] : f64
// CHECK: arith.addf %{{.+}}, [[PS]] : f64
func.func @block_scaled_matmul(%a: tensor<100x300xbf16>, %b: tensor<300x45xbf16>, %sa: tensor<3xf32>, %sb: tensor<3x45xf32>) -> tensor<100x45xf32> {
  %c = tile.matmul %a, %b scales(%sa, %sb) block [128, 128, 1] : (tensor<100x300xbf16>, tensor<300x45xbf16>, tensor<3xf32>, tensor<3x45xf32>) -> tensor<100x45xf32>
  return %c : tensor<100x45xf32>
}

// -----

// A row reduction: one thread per row, a scalar loop over all 4097 columns
// starting from the init; a column reduction loops over rows instead.
// CHECK-LABEL: func @row_max
// CHECK: tile.kernel @row_max_0 grid [4] threads 256(
// CHECK-NEXT: ^bb0(%[[IN:.+]]: memref<1001x4097xf32>, %[[OUT:.+]]: memref<1001xf32>):
// CHECK: [[ROW:%.+]] = arith.remui
// CHECK: [[INIT:%.+]] = arith.constant 0xFF800000 : f32
// CHECK: [[N:%.+]] = arith.constant 4097 : index
// CHECK: [[M:%.+]] = scf.for [[K:%[0-9a-z_]+]] = %{{.+}} to [[N]] step %{{.+}} iter_args([[ACC:%.+]] = [[INIT]]) -> (f32) {
// CHECK: [[V:%.+]] = memref.load %[[IN]][[[ROW]], [[K]]] : memref<1001x4097xf32>
// CHECK: [[NEXT:%.+]] = arith.maximumf [[ACC]], [[V]] : f32
// CHECK: scf.yield [[NEXT]] : f32
// CHECK: memref.store [[M]], %[[OUT]][[[ROW]]] : memref<1001xf32>
func.func @row_max(%x: tensor<1001x4097xf32>) -> tensor<1001xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<1001x4097xf32>, f32 -> tensor<1001xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  return %m : tensor<1001xf32>
}

// CHECK-LABEL: func @col_sum
// CHECK: tile.kernel @col_sum_0 grid [5] threads 256(
// CHECK-NEXT: ^bb0(%[[IN:.+]]: memref<777x1031xf32>, %[[OUT:.+]]: memref<1031xf32>):
// CHECK: [[COL:%.+]] = arith.remui
// CHECK: [[N:%.+]] = arith.constant 777 : index
// CHECK: scf.for [[K:%[0-9a-z_]+]] = %{{.+}} to [[N]]
// CHECK: memref.load %[[IN]][[[K]], [[COL]]] : memref<777x1031xf32>
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

// Broadcast reads the input at the kept index; cast is a scalar extf/truncf.
// CHECK-LABEL: func @broadcast_cast
// CHECK: tile.kernel @broadcast_cast_0 grid [130] threads 256
// CHECK: [[COL:%.+]] = arith.remui
// CHECK: [[ROW:%.+]] = arith.remui
// CHECK: [[V:%.+]] = memref.load %{{.+}}[[[COL]]] : memref<129xf32>
// CHECK: memref.store [[V]], %{{.+}}[[[ROW]], [[COL]]] : memref<257x129xf32>
// CHECK: tile.kernel @broadcast_cast_1 grid [130] threads 256
// CHECK: [[X:%.+]] = memref.load
// CHECK: [[H:%.+]] = arith.truncf [[X]] : f32 to bf16
// CHECK: memref.store [[H]]
func.func @broadcast_cast(%v: tensor<129xf32>) -> tensor<257x129xbf16> {
  %b = tile.broadcast %v [0] : tensor<129xf32> -> tensor<257x129xf32>
  %c = tile.cast %b : tensor<257x129xf32> -> tensor<257x129xbf16>
  return %c : tensor<257x129xbf16>
}

// -----

// suffix=_ref renames the function and hence its kernels; the default
// keeps the names.
// CHECK-LABEL: func @named(
// CHECK: tile.kernel @named_0 grid [1] threads 256
// SUFFIX-LABEL: func @named_ref(
// SUFFIX: tile.kernel @named_ref_0 grid [1] threads 256
// SUFFIX: tile.kernel @named_ref_1 grid [1] threads 256
// SUFFIX-NOT: @named_0
// SUFFIX-LABEL: func @not_tensor_level(
func.func @named(%a: tensor<16xf32>) -> tensor<16xf32> {
  %b = tile.cast %a : tensor<16xf32> -> tensor<16xf16>
  %c = tile.cast %b : tensor<16xf16> -> tensor<16xf32>
  return %c : tensor<16xf32>
}

// Functions without tensor-level ops are left alone, name included.
func.func @not_tensor_level() {
  return
}

// -----

// A repeat reads its input at the repeated index divided by times.
// CHECK-LABEL: func @repeat
// CHECK: tile.kernel @repeat_0 grid [2] threads 256(
// CHECK: [[COL:%.+]] = arith.remui
// CHECK: [[ROW:%.+]] = arith.remui
// CHECK: [[C4:%.+]] = arith.constant 4 : index
// CHECK: [[SRC:%.+]] = arith.divui [[ROW]], [[C4]] : index
// CHECK: memref.load %{{.+}}[[[SRC]], [[COL]]] : memref<2x64xbf16>
func.func @repeat(%k: tensor<2x64xbf16>) -> tensor<8x64xbf16> {
  %r = tile.repeat %k dim = 0 times = 4 : tensor<2x64xbf16> -> tensor<8x64xbf16>
  return %r : tensor<8x64xbf16>
}

// -----

// An unpack: element (r, c) reads byte (r, c / 2) and moves nibble c % 2
// to the top (a shift by 4 - 4 (c % 2)), then back down: arithmetically
// for `signed`, logically without.
// CHECK-LABEL: func @unpack
// CHECK: %[[HALF:.+]] = arith.divui %{{.+}}, %c2 : index
// CHECK: %[[BYTE:.+]] = memref.load %{{.+}}[%{{.+}}, %[[HALF]]] : memref<3x5xi8>
// CHECK: %[[TOP:.+]] = arith.shli %[[BYTE]], %{{.+}} : i8
// CHECK: arith.shrsi %[[TOP]], %c4_i8 : i8
func.func @unpack(%p: tensor<3x5xi8>) -> tensor<3x10xi8> {
  %u = tile.unpack %p signed : tensor<3x5xi8> -> tensor<3x10xi8>
  return %u : tensor<3x10xi8>
}

// -----

// A matmul whose B is stored in fragment runs (k_runs = 32): B's row kk
// meets A's column perm(kk) = 128 (kk / 128) + 16 t + 8 h + 2 c + e for
// kk = 128 block + 32 c + 4 t + 2 h + e; and an unpack in AWQ's nibble
// order (interleaved): value v = 2 q + r of word w (kk / 8) is byte
// 4 w + q / 2 + 2 r, nibble q % 2.
// CHECK-LABEL: func @k_runs_matmul
// CHECK: scf.for [[KK:%[0-9a-z_]+]] =
// CHECK: [[BLOCK:%.+]] = arith.divui [[KK]], %c128
// CHECK: arith.muli [[BLOCK]], %c128
// CHECK: arith.divui [[KK]], %c32
// CHECK: arith.divui [[KK]], %c4
// CHECK-NOT: memref.load %{{.+}}[%{{.+}}, [[KK]]] : memref<16x256xbf16>
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<16x256xbf16>
// CHECK-NEXT: memref.load %{{.+}}[[[KK]], %{{.+}}] : memref<256x24xbf16>
func.func @k_runs_matmul(%a: tensor<16x256xbf16>, %b: tensor<256x24xbf16>) -> tensor<16x24xf32> {
  %c = tile.matmul %a, %b k_runs = 32 : (tensor<16x256xbf16>, tensor<256x24xbf16>) -> tensor<16x24xf32>
  return %c : tensor<16x24xf32>
}

// -----

// CHECK-LABEL: func @interleaved_unpack
// CHECK: [[WORD:%.+]] = arith.divui [[J:%.+]], %c8
// CHECK: [[Q:%.+]] = arith.remui %{{.+}}, %c4
// CHECK: [[R:%.+]] = arith.remui [[J]], %c2
// CHECK: arith.muli [[WORD]], %c4
// CHECK: arith.muli [[R]], %c2
// CHECK: [[HALF:%.+]] = arith.remui [[Q]], %c2
// CHECK: [[BYTE:%.+]] = memref.load
// CHECK: arith.index_cast [[HALF]]
func.func @interleaved_unpack(%p: tensor<4x8xi8>) -> tensor<4x16xi8> {
  %q = tile.unpack %p signed interleaved : tensor<4x8xi8> -> tensor<4x16xi8>
  return %q : tensor<4x16xi8>
}

// -----

// An unpack in bits' order (MXFP4's layout="mma"): value v = j % 8 of word
// j / 8 takes bit b from word bit bits[4 v + b] (a select over the eight
// values), byte 4 (j / 8) + that / 8, bit that % 8, or-ed in at bit b;
// `signed` moves the value to the top and arithmetically back.
// CHECK-LABEL: func @bits_unpack
// CHECK: [[WORD:%.+]] = arith.divui [[J:%.+]], %c8
// CHECK: [[V:%.+]] = arith.remui [[J]], %c8
// CHECK: [[START:%.+]] = arith.muli [[WORD]], %c4
// CHECK: arith.cmpi eq, [[V]], %c1
// CHECK: [[AT0:%.+]] = arith.select %{{.+}}, %c30, %{{.+}} : index
// CHECK: [[OFF0:%.+]] = arith.divui [[AT0]], %c8
// CHECK: [[BYTE0:%.+]] = arith.addi [[START]], [[OFF0]]
// CHECK: [[IN0:%.+]] = arith.remui [[AT0]], %c8
// CHECK: [[SHIFT0:%.+]] = arith.index_cast [[IN0]] : index to i8
// CHECK: [[B0:%.+]] = memref.load %{{.+}}[%{{.+}}, [[BYTE0]]] : memref<4x8xi8>
// CHECK: arith.shrui [[B0]], [[SHIFT0]] : i8
// CHECK-COUNT-3: memref.load %{{.+}} : memref<4x8xi8>
// CHECK-NOT: memref.load
// CHECK: [[TOP:%.+]] = arith.shli %{{.+}}, %c4_i8 : i8
// CHECK: arith.shrsi [[TOP]], %c4_i8 : i8
func.func @bits_unpack(%p: tensor<4x8xi8>) -> tensor<4x16xi8> {
  %q = tile.unpack %p signed bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<4x8xi8> -> tensor<4x16xi8>
  return %q : tensor<4x16xi8>
}
