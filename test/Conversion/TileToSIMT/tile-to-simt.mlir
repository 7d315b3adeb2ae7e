// convert-tile-to-simt gives each thread of a launch of T threads a
// vector<P x elt> per tile of E elements (P = max(1, E/T), slot k of thread
// t holds element ((k/V)*T + t)*V + k%V mod E, in runs of V = 16 bytes of the
// narrowest loaded type where the tile splits into them); memory goes
// through 16-byte vector accesses where rows allow it, else gathers/scatters, and
// cross-thread exchanges through dynamic shared memory.
// RUN: tile-opt %s -split-input-file --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu,convert-tile-to-simt)' | FileCheck %s

// An 8x256 f32 tile over 256 threads is vector<8xf32>. Rows of 301 f32
// cannot be read 16 bytes at a time (301 % 4 != 0), so the launch keeps
// runs of 1: slot k of thread t is element k*256 + t (coalesced gathers),
// and the load is a masked gather from the flattened memref (bounds 100 and 301),
// the map body is recreated on vectors (the captured scalar broadcast), the
// store a masked scatter. No shared memory is needed.
// CHECK-LABEL: func @map
// CHECK: gpu.launch
// CHECK-NOT: dynamic_shared_memory_size
// CHECK-SAME: threads([[TID:%[0-9a-z_]+]], {{%[0-9a-z_]+}}, {{%[0-9a-z_]+}})
// CHECK: [[BASES:%.+]] = arith.constant dense<[0, 256, 512, 768, 1024, 1280, 1536, 1792]> : vector<8xindex>
// CHECK: [[FIRST:%.+]] = arith.muli [[TID]], %{{.+}} : index
// CHECK: [[FIRSTV:%.+]] = vector.broadcast [[FIRST]] : index to vector<8xindex>
// CHECK: [[POS:%.+]] = arith.addi [[BASES]], [[FIRSTV]] : vector<8xindex>
// CHECK: [[ROW:%.+]] = arith.divui [[POS]], %{{.+}} : vector<8xindex>
// CHECK: [[COL:%.+]] = arith.remui [[POS]], %{{.+}} : vector<8xindex>
// CHECK: [[GROW:%.+]] = arith.addi [[ROW]], %{{.+}} : vector<8xindex>
// CHECK: [[C100:%.+]] = arith.constant dense<100> : vector<8xindex>
// CHECK: [[INROW:%.+]] = arith.cmpi ult, [[GROW]], [[C100]] : vector<8xindex>
// CHECK: [[GCOL:%.+]] = arith.addi [[COL]], %{{.+}} : vector<8xindex>
// CHECK: [[C301:%.+]] = arith.constant dense<301> : vector<8xindex>
// CHECK: [[INCOL:%.+]] = arith.cmpi ult, [[GCOL]], [[C301]] : vector<8xindex>
// CHECK: [[MASK:%.+]] = arith.andi [[INROW]], [[INCOL]] : vector<8xi1>
// CHECK: [[LIN:%.+]] = arith.addi %{{.+}}, %{{.+}} : vector<8xindex>
// CHECK: [[PAD:%.+]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK: [[FLAT:%.+]] = memref.collapse_shape %{{.+}} {{\[\[}}0, 1]] : memref<100x301xf32> into memref<30100xf32>
// CHECK: [[X:%.+]] = vector.gather [[FLAT]][%{{.+}}] [[[LIN]]], [[MASK]], [[PAD]] : memref<30100xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK: [[TWO:%.+]] = arith.constant 2.000000e+00 : f32
// CHECK: [[TWOV:%.+]] = vector.broadcast [[TWO]] : f32 to vector<8xf32>
// CHECK: [[M:%.+]] = arith.mulf [[X]], [[TWOV]] : vector<8xf32>
// CHECK: [[E:%.+]] = math.exp [[M]] : vector<8xf32>
// CHECK: [[SMASK:%.+]] = arith.andi %{{.+}}, %{{.+}} : vector<8xi1>
// CHECK: [[SLIN:%.+]] = arith.addi %{{.+}}, %{{.+}} : vector<8xindex>
// CHECK: [[OUT:%.+]] = memref.collapse_shape
// CHECK: vector.scatter [[OUT]][%{{.+}}] [[[SLIN]]], [[SMASK]], [[E]] : memref<30100xf32>, vector<8xindex>, vector<8xi1>, vector<8xf32>
// CHECK-NEXT: gpu.terminator
// CHECK-NOT: tile.
func.func @map(%in: memref<100x301xf32>, %out: memref<100x301xf32>) {
  tile.kernel @map_0 grid [13, 2] threads 256 (%in, %out) : memref<100x301xf32>, memref<100x301xf32> {
  ^bb0(%a: memref<100x301xf32>, %b: memref<100x301xf32>):
    %p = tile.program_id 0
    %q = tile.program_id 1
    %t = tile.load %a[%p, %q] : memref<100x301xf32> -> !tile.tile<8x256xf32>
    %two = arith.constant 2.0 : f32
    %y = tile.map (%t) : (!tile.tile<8x256xf32>) -> !tile.tile<8x256xf32> {
    ^bb0(%x: f32):
      %m = arith.mulf %x, %two : f32
      %e = math.exp %m : f32
      tile.yield %e : f32
    }
    tile.store %y, %b[%p, %q] : !tile.tile<8x256xf32>, memref<100x301xf32>
  }
  return
}

// -----

// A 32-element tile over 256 threads is vector<1xf32>, replicated: thread
// t holds element t % 32. The load needs no owner mask; the store ANDs the
// bounds mask with "t < 32" so each element is written once.
// CHECK-LABEL: func @replicated
// CHECK: gpu.launch
// CHECK-SAME: threads([[TID:%[0-9a-z_]+]],
// CHECK: [[POS:%.+]] = arith.addi %{{.+}}, %{{.+}} : vector<1xindex>
// CHECK: [[E:%.+]] = arith.constant dense<32> : vector<1xindex>
// CHECK: [[WRAP:%.+]] = arith.remui [[POS]], [[E]] : vector<1xindex>
// CHECK: [[G:%.+]] = arith.addi [[WRAP]], %{{.+}} : vector<1xindex>
// CHECK: [[BOUND:%.+]] = arith.constant dense<20> : vector<1xindex>
// CHECK: [[INB:%.+]] = arith.cmpi ult, [[G]], [[BOUND]] : vector<1xindex>
// CHECK: [[V:%.+]] = vector.gather %{{.+}}[%{{.+}}] [%{{.+}}], [[INB]], %{{.+}} : memref<20xf32>, vector<1xindex>, vector<1xi1>, vector<1xf32> into vector<1xf32>
// CHECK: [[SINB:%.+]] = arith.cmpi ult, %{{.+}}, %{{.+}} : vector<1xindex>
// CHECK: [[RAW:%.+]] = arith.addi %{{.+}}, %{{.+}} : vector<1xindex>
// CHECK: [[E2:%.+]] = arith.constant dense<32> : vector<1xindex>
// CHECK: [[OWNER:%.+]] = arith.cmpi ult, [[RAW]], [[E2]] : vector<1xindex>
// CHECK: [[SMASK:%.+]] = arith.andi [[SINB]], [[OWNER]] : vector<1xi1>
// CHECK: vector.scatter %{{.+}}[%{{.+}}] [%{{.+}}], [[SMASK]], [[V]] : memref<20xf32>, vector<1xindex>, vector<1xi1>, vector<1xf32>
func.func @replicated(%in: memref<20xf32>, %out: memref<20xf32>) {
  tile.kernel @small_0 grid [1] threads 256 (%in, %out) : memref<20xf32>, memref<20xf32> {
  ^bb0(%a: memref<20xf32>, %b: memref<20xf32>):
    %p = tile.program_id 0
    %t = tile.load %a[%p] : memref<20xf32> -> !tile.tile<32xf32>
    tile.store %t, %b[%p] : !tile.tile<32xf32>, memref<20xf32>
  }
  return
}

// -----

// A row reduction of an 8x64 tile over 256 threads: the input (vector<2xf32>)
// goes to a 512-element shared view, a barrier, then each slot of the
// output (vector<1xf32>, element t % 8) folds its row with 64 gathers from
// shared memory through the vectorized combiner, and a final barrier. The
// launch gets 8 * 64 * 4 = 2048 bytes of dynamic shared memory. The load
// pads with the given padding.
// CHECK-LABEL: func @reduce
// CHECK: [[SMEM:%.+]] = arith.constant 2048 : i32
// CHECK: gpu.launch
// CHECK-SAME: dynamic_shared_memory_size [[SMEM]]
// CHECK: [[PAD:%.+]] = arith.constant dense<-1.000000e+00> : vector<2xf32>
// CHECK: [[IN:%.+]] = vector.gather {{.+}} [[PAD]] : memref<4096xf32>, vector<2xindex>, vector<2xi1>, vector<2xf32> into vector<2xf32>
// CHECK: [[INIT:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK: [[BASE:%.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: [[VIEW:%.+]] = memref.view [[BASE]][%{{.+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
// CHECK: vector.scatter [[VIEW]][%{{.+}}] [%{{.+}}], %{{.+}}, [[IN]] : memref<512xf32, #gpu.address_space<workgroup>>, vector<2xindex>, vector<2xi1>, vector<2xf32>
// CHECK-NEXT: gpu.barrier
// CHECK: [[ROWS:%.+]] = arith.constant dense<8> : vector<1xindex>
// CHECK: [[KEPT:%.+]] = arith.remui %{{.+}}, [[ROWS]] : vector<1xindex>
// CHECK: [[ACC0:%.+]] = vector.broadcast [[INIT]] : f32 to vector<1xf32>
// CHECK: [[N:%.+]] = arith.constant 64 : index
// CHECK: [[SUM:%.+]] = scf.for [[J:%[0-9a-z_]+]] = %{{.+}} to [[N]] step %{{.+}} iter_args([[ACC:%.+]] = [[ACC0]]) -> (vector<1xf32>) {
// CHECK: [[JV:%.+]] = vector.broadcast [[J]] : index to vector<1xindex>
// CHECK: [[ROWBASE:%.+]] = arith.muli [[KEPT]], %{{.+}} : vector<1xindex>
// CHECK: [[SRC:%.+]] = arith.addi [[ROWBASE]], [[JV]] : vector<1xindex>
// CHECK: [[V:%.+]] = vector.gather [[VIEW]][%{{.+}}] [[[SRC]]], %{{.+}}, %{{.+}} : memref<512xf32, #gpu.address_space<workgroup>>, vector<1xindex>, vector<1xi1>, vector<1xf32> into vector<1xf32>
// CHECK: [[NEXT:%.+]] = arith.addf [[ACC]], [[V]] : vector<1xf32>
// CHECK: scf.yield [[NEXT]] : vector<1xf32>
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK: vector.scatter {{.+}}, [[SUM]] : memref<64xf32>, vector<1xindex>, vector<1xi1>, vector<1xf32>
func.func @reduce(%in: memref<64x64xf32>, %out: memref<64xf32>) {
  tile.kernel @reduce_0 grid [8] threads 256 (%in, %out) : memref<64x64xf32>, memref<64xf32> {
  ^bb0(%a: memref<64x64xf32>, %b: memref<64xf32>):
    %p = tile.program_id 0
    %t = tile.load %a[%p, %p] {padding = -1.0 : f32} : memref<64x64xf32> -> !tile.tile<8x64xf32>
    %zero = arith.constant 0.0 : f32
    %r = tile.reduce %t, %zero dim = 1 : !tile.tile<8x64xf32>, f32 -> !tile.tile<8xf32> {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      tile.yield %s : f32
    }
    tile.store %r, %b[%p] : !tile.tile<8xf32>, memref<64xf32>
  }
  return
}

// -----

// A column reduction (dim = 0) reads element j * cols + kept.
// CHECK-LABEL: func @reduce_columns
// CHECK: scf.for [[J:%[0-9a-z_]+]] = {{.+}} -> (vector<1xf32>) {
// CHECK: [[JV:%.+]] = vector.broadcast [[J]] : index to vector<1xindex>
// CHECK: [[COLS:%.+]] = arith.constant dense<8> : vector<1xindex>
// CHECK: [[ROWBASE:%.+]] = arith.muli [[JV]], [[COLS]] : vector<1xindex>
// CHECK: [[SRC:%.+]] = arith.addi [[ROWBASE]], %{{.+}} : vector<1xindex>
// CHECK: vector.gather %{{.+}}[%{{.+}}] [[[SRC]]]
// CHECK: arith.maximumf
func.func @reduce_columns(%in: memref<64x64xf32>, %out: memref<64xf32>) {
  tile.kernel @reduce_columns_0 grid [8] threads 128 (%in, %out) : memref<64x64xf32>, memref<64xf32> {
  ^bb0(%a: memref<64x64xf32>, %b: memref<64xf32>):
    %p = tile.program_id 0
    %t = tile.load %a[%p, %p] : memref<64x64xf32> -> !tile.tile<64x8xf32>
    %ninf = arith.constant 0xFF800000 : f32
    %r = tile.reduce %t, %ninf dim = 0 : !tile.tile<64x8xf32>, f32 -> !tile.tile<8xf32> {
    ^bb0(%x: f32, %y: f32):
      %s = arith.maximumf %x, %y : f32
      tile.yield %s : f32
    }
    tile.store %r, %b[%p] : !tile.tile<8xf32>, memref<64xf32>
  }
  return
}

// -----

// A broadcast of a 64-element row to 8x64 over 128 threads: the row
// (vector<1xf32>, replicated) is written to shared memory by its owners, a
// barrier, each of the 4 output slots gathers the element at its column,
// another barrier. 64 * 4 = 256 bytes of shared memory.
// CHECK-LABEL: func @broadcast
// CHECK: [[SMEM:%.+]] = arith.constant 256 : i32
// CHECK: gpu.launch
// CHECK-SAME: dynamic_shared_memory_size [[SMEM]]
// CHECK: [[ROW:%.+]] = vector.gather {{.+}} : memref<64xf32>, vector<1xindex>, vector<1xi1>, vector<1xf32> into vector<1xf32>
// CHECK: [[VIEW:%.+]] = memref.view {{.+}} to memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: [[OWNER:%.+]] = arith.cmpi ult, %{{.+}}, %{{.+}} : vector<1xindex>
// CHECK: vector.scatter [[VIEW]][%{{.+}}] [%{{.+}}], [[OWNER]], [[ROW]]
// CHECK-NEXT: gpu.barrier
// CHECK: [[COL:%.+]] = arith.remui %{{.+}}, %{{.+}} : vector<4xindex>
// CHECK: [[ALL:%.+]] = arith.constant dense<true> : vector<4xi1>
// CHECK: [[B:%.+]] = vector.gather [[VIEW]][%{{.+}}] [[[COL]]], [[ALL]], %{{.+}} : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// CHECK-NEXT: gpu.barrier
// CHECK: vector.shuffle [[B]], [[B]] [0, 1, 2, 3]
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 16 : i64} : memref<64x64xf32>, vector<4xf32>
func.func @broadcast(%in: memref<64xf32>, %out: memref<64x64xf32>) {
  tile.kernel @broadcast_0 grid [8] threads 128 (%in, %out) : memref<64xf32>, memref<64x64xf32> {
  ^bb0(%a: memref<64xf32>, %b: memref<64x64xf32>):
    %p = tile.program_id 0
    %t = tile.load %a[%p] : memref<64xf32> -> !tile.tile<64xf32>
    %y = tile.broadcast %t [0] : !tile.tile<64xf32> -> !tile.tile<8x64xf32>
    tile.store %y, %b[%p, %p] : !tile.tile<8x64xf32>, memref<64x64xf32>
  }
  return
}

// -----

// A bf16 32x16 * 16x32 dot over 256 threads: the accumulator splat is
// vector<4xf32>; A and B go to shared views at bytes 0 and 1024 (2048 in
// all), a barrier, then a K loop of two gathers, extf to f32 and math.fma.
// CHECK-LABEL: func @dot
// CHECK: [[SMEM:%.+]] = arith.constant 2048 : i32
// CHECK: gpu.launch
// CHECK-SAME: dynamic_shared_memory_size [[SMEM]]
// CHECK: [[ZERO:%.+]] = arith.constant 0.000000e+00 : f32
// CHECK: [[ACC0:%.+]] = vector.broadcast [[ZERO]] : f32 to vector<4xf32>
// CHECK: [[TA:%.+]] = vector.gather {{.+}} : memref<4096xbf16>, vector<2xindex>, vector<2xi1>, vector<2xbf16> into vector<2xbf16>
// CHECK: [[TB:%.+]] = vector.gather {{.+}} : memref<4096xbf16>, vector<2xindex>, vector<2xi1>, vector<2xbf16> into vector<2xbf16>
// CHECK: [[C0:%.+]] = arith.constant 0 : index
// CHECK: [[VA:%.+]] = memref.view %{{.+}}[[[C0]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<512xbf16, #gpu.address_space<workgroup>>
// CHECK: [[C1024:%.+]] = arith.constant 1024 : index
// CHECK: [[VB:%.+]] = memref.view %{{.+}}[[[C1024]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<512xbf16, #gpu.address_space<workgroup>>
// CHECK: vector.scatter [[VA]]{{.+}}, [[TA]]
// CHECK: vector.scatter [[VB]]{{.+}}, [[TB]]
// CHECK-NEXT: gpu.barrier
// CHECK: [[K:%.+]] = arith.constant 16 : index
// CHECK: [[D:%.+]] = scf.for %{{.+}} = %{{.+}} to [[K]] step %{{.+}} iter_args([[ACC:%.+]] = [[ACC0]]) -> (vector<4xf32>) {
// CHECK: [[A:%.+]] = vector.gather [[VA]]{{.+}} into vector<4xbf16>
// CHECK: [[AF:%.+]] = arith.extf [[A]] : vector<4xbf16> to vector<4xf32>
// CHECK: [[B:%.+]] = vector.gather [[VB]]{{.+}} into vector<4xbf16>
// CHECK: [[BF:%.+]] = arith.extf [[B]] : vector<4xbf16> to vector<4xf32>
// CHECK: [[FMA:%.+]] = math.fma [[AF]], [[BF]], [[ACC]] : vector<4xf32>
// CHECK: scf.yield [[FMA]] : vector<4xf32>
// CHECK: }
// CHECK-NEXT: gpu.barrier
// CHECK: vector.scatter {{.+}}, [[D]] : memref<4096xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
func.func @dot(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>) {
  tile.kernel @dot_0 grid [2, 2] threads 256 (%a, %b, %c) : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32> {
  ^bb0(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xf32>):
    %p = tile.program_id 0
    %q = tile.program_id 1
    %zero = arith.constant 0.0 : f32
    %acc = tile.splat %zero : f32 -> !tile.tile<32x32xf32>
    %ta = tile.load %A[%p, %q] : memref<64x64xbf16> -> !tile.tile<32x16xbf16>
    %tb = tile.load %B[%q, %p] : memref<64x64xbf16> -> !tile.tile<16x32xbf16>
    %d = tile.dot %ta, %tb, %acc : !tile.tile<32x16xbf16>, !tile.tile<16x32xbf16> -> !tile.tile<32x32xf32>
    tile.store %d, %C[%p, %q] : !tile.tile<32x32xf32>, memref<64x64xf32>
  }
  return
}

// -----

// Tiles carried by scf.for become vectors; tile.mask is a select against
// per-slot coordinates: per dimension, the kept interval [lo, hi) is
// clamped to the tile once (here [0, min(4, 16)) rows and [0, min(64, 32))
// columns), and each slot compares its 32-bit coordinate with it as
// (c - lo) < (hi - lo), unsigned; tile.cast is a vector truncf.
// CHECK-LABEL: func @loop_mask_cast
// CHECK: [[INIT:%.+]] = vector.broadcast %{{.+}} : f32 to vector<4xf32>
// CHECK: [[SUM:%.+]] = scf.for {{.+}} iter_args([[ACC:%.+]] = [[INIT]]) -> (vector<4xf32>) {
// CHECK: [[T:%.+]] = vector.gather {{.+}} into vector<4xf32>
// CHECK: [[S:%.+]] = arith.addf [[ACC]], [[T]] : vector<4xf32>
// CHECK: scf.yield [[S]] : vector<4xf32>
// CHECK: [[ROW:%.+]] = arith.divui %{{.+}}, %{{.+}} : vector<4xindex>
// CHECK: [[COL:%.+]] = arith.remui %{{.+}}, %{{.+}} : vector<4xindex>
// CHECK: [[RLO0:%.+]] = arith.minsi %{{.+}}, %c16{{.*}} : index
// CHECK: [[RLO:%.+]] = arith.maxsi [[RLO0]], %c0{{.*}} : index
// CHECK: [[RHI0:%.+]] = arith.minsi %{{.+}}, %c16{{.*}} : index
// CHECK: [[RHI:%.+]] = arith.maxsi [[RHI0]], %c0{{.*}} : index
// CHECK: [[ROW32:%.+]] = arith.index_cast [[ROW]] : vector<4xindex> to vector<4xi32>
// CHECK: [[RLO32:%.+]] = arith.index_cast [[RLO]] : index to i32
// CHECK: [[RHI32:%.+]] = arith.index_cast [[RHI]] : index to i32
// CHECK: [[RW:%.+]] = arith.subi [[RHI32]], [[RLO32]] : i32
// CHECK: [[RLOV:%.+]] = vector.broadcast [[RLO32]] : i32 to vector<4xi32>
// CHECK: [[RREL:%.+]] = arith.subi [[ROW32]], [[RLOV]] : vector<4xi32>
// CHECK: [[RWV:%.+]] = vector.broadcast [[RW]] : i32 to vector<4xi32>
// CHECK: [[RIN:%.+]] = arith.cmpi ult, [[RREL]], [[RWV]] : vector<4xi32>
// CHECK: arith.minsi %{{.+}}, %c32{{.*}} : index
// CHECK: [[COL32:%.+]] = arith.index_cast [[COL]] : vector<4xindex> to vector<4xi32>
// CHECK: [[CIN:%.+]] = arith.cmpi ult, %{{.+}}, %{{.+}} : vector<4xi32>
// CHECK: [[KEEP:%.+]] = arith.andi [[RIN]], [[CIN]] : vector<4xi1>
// CHECK: [[FILL:%.+]] = vector.broadcast %{{.+}} : f32 to vector<4xf32>
// CHECK: [[M:%.+]] = arith.select [[KEEP]], [[SUM]], [[FILL]] : vector<4xi1>, vector<4xf32>
// CHECK: [[H:%.+]] = arith.truncf [[M]] : vector<4xf32> to vector<4xbf16>
// CHECK: vector.scatter {{.+}}, [[H]] : memref<4096xbf16>, vector<4xindex>, vector<4xi1>, vector<4xbf16>
func.func @loop_mask_cast(%in: memref<64x64xf32>, %out: memref<64x64xbf16>) {
  tile.kernel @k grid [1] threads 128 (%in, %out) : memref<64x64xf32>, memref<64x64xbf16> {
  ^bb0(%a: memref<64x64xf32>, %b: memref<64x64xbf16>):
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %acc0 = tile.splat %zero : f32 -> !tile.tile<16x32xf32>
    %acc = scf.for %k = %c0 to %c64 step %c4 iter_args(%x = %acc0) -> (!tile.tile<16x32xf32>) {
      %t = tile.load %a[%k, %c0] : memref<64x64xf32> -> !tile.tile<16x32xf32>
      %s = tile.map (%x, %t) : (!tile.tile<16x32xf32>, !tile.tile<16x32xf32>) -> !tile.tile<16x32xf32> {
      ^bb0(%p: f32, %q: f32):
        %r = arith.addf %p, %q : f32
        tile.yield %r : f32
      }
      scf.yield %s : !tile.tile<16x32xf32>
    }
    %m = tile.mask %acc, %zero bounds [%c4, %c64] : !tile.tile<16x32xf32>, f32
    %h = tile.cast %m : !tile.tile<16x32xf32> -> !tile.tile<16x32xbf16>
    tile.store %h, %b[%c0, %c0] : !tile.tile<16x32xbf16>, memref<64x64xbf16>
  }
  return
}

// -----

// A 1-D view across rows (a column: a block scale per row): its elements
// from a contiguous view of the span it covers, from its first (the
// view's offset), each at its index times the stride.
// CHECK-LABEL: func @column_view
// CHECK: %[[BASE:.+]], %[[OFFSET:.+]], %{{.+}}, %{{.+}} = memref.extract_strided_metadata %{{.+}} : memref<256xf32, strided<[4], offset: ?>>
// CHECK: %[[FLAT:.+]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFFSET]]], sizes: [1021], strides: [1] : memref<f32> to memref<1021xf32, strided<[1], offset: ?>>
// CHECK: vector.gather %[[FLAT]]
func.func @column_view(%S: memref<256x4xf32>, %O: memref<128xf32>) {
  tile.kernel @column grid [1] threads 128 (%S, %O) : memref<256x4xf32>, memref<128xf32> {
  ^bb0(%s: memref<256x4xf32>, %o: memref<128xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %col = memref.subview %s[0, %c2] [256, 1] [1, 1] : memref<256x4xf32> to memref<256xf32, strided<[4], offset: ?>>
    %t = tile.load %col[%c0] : memref<256xf32, strided<[4], offset: ?>> -> !tile.tile<128xf32>
    tile.store %t, %o[%c0] : !tile.tile<128xf32>, memref<128xf32>
  }
  return
}
