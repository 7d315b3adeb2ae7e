// tile-packed-dequant with fold-restore: MXFP4's 2^126 restore multiplied
// into the e8m0 scale where every byte that passes a guard allows it. The
// scale's decode is evaluated on all 256 bytes; the guard is the byte mask
// of fewest bits whose passing bytes all give a finite scale * 2^126,
// affine in the byte. A thread whose scale bytes all pass multiplies each
// pair once (scf.if's then side), the others as before (else).
// RUN: tile-opt %s --tile-packed-dequant=fold-restore=true --cse --split-input-file | FileCheck %s
// RUN: tile-opt %s --tile-packed-dequant --split-input-file | FileCheck %s --check-prefix=OFF

// bench/compile-quant.sh's clamped scale 2^((e & 15) - 7): times 2^126 it
// is finite for e & 15 <= 8, so the guard is bit 3 (e & 15 <= 7) and the
// folded scale's bits are ((e & 7) << 7) + (246 << 7), two a word.
// CHECK-LABEL: func @clamped_scale
// CHECK-SAME: (%[[W:.+]]: vector<2xi32>, %[[WORDS:.+]]: vector<2xi64>)
// CHECK-DAG: %[[FOLDED:.+]] = arith.constant dense<2063629056> : vector<2xi32>
// CHECK-DAG: %[[RESTORE:.+]] = arith.constant dense<8.507050e+37> : vector<4xbf16>
// CHECK: %[[ANY:.+]] = vector.reduction <or>, %[[WORDS]] : vector<2xi64> into i64
// CHECK: %[[GUARD:.+]] = arith.constant 8 : i64
// CHECK: %[[HIT:.+]] = arith.andi %[[ANY]], %[[GUARD]] : i64
// CHECK: %[[OK:.+]] = arith.cmpi eq, %[[HIT]], %{{.+}} : i64
// CHECK: %[[R:.+]] = scf.if %[[OK]] -> (vector<16xbf16>) {
// CHECK-NOT: %[[RESTORE]]
// CHECK: lop3.b32 $0, $1, 0x00070007, 0x00000000, 0xea;
// CHECK: %[[F:.+]] = arith.addi %{{.+}}, %[[FOLDED]] : vector<2xi32>
// CHECK: %[[FH:.+]] = vector.bitcast %[[F]] : vector<2xi32> to vector<4xbf16>
// CHECK: %[[FS:.+]] = vector.shuffle %[[FH]], %[[FH]] [0, 2]
// CHECK: %[[FL:.+]] = vector.shuffle %[[FS]], %[[FS]] [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1]
// CHECK: %[[ONCE:.+]] = arith.mulf %{{.+}}, %[[FL]] : vector<16xbf16>
// CHECK-NEXT: scf.yield %[[ONCE]]
// CHECK-NEXT: } else {
// CHECK: lop3.b32 $0, $1, 0x000f000f, 0x00000000, 0xea;
// CHECK-COUNT-4: arith.mulf %{{.+}}, %[[RESTORE]] : vector<4xbf16>
// CHECK: %[[TWICE:.+]] = arith.mulf %{{.+}}, %{{.+}} : vector<16xbf16>
// CHECK-NEXT: scf.yield %[[TWICE]]
// CHECK: return %[[R]]
// OFF-LABEL: func @clamped_scale
// OFF-NOT: scf.if
// OFF: return
func.func @clamped_scale(%w: vector<2xi32>, %words: vector<2xi64>) -> vector<16xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrui %top, %c28 : vector<16xi32>
  %c = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c8 = arith.constant dense<8> : vector<16xi32>
  %c22 = arith.constant dense<22> : vector<16xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<16xf32>
  %u = arith.extui %c : vector<16xi8> to vector<16xi32>
  %low = arith.andi %u, %c7 : vector<16xi32>
  %mag = arith.shli %low, %c22 : vector<16xi32>
  %sign = arith.andi %u, %c8 : vector<16xi32>
  %sbit = arith.shli %sign, %c28 : vector<16xi32>
  %bits = arith.ori %mag, %sbit : vector<16xi32>
  %raw = arith.bitcast %bits : vector<16xi32> to vector<16xf32>
  %v = arith.mulf %raw, %two126 : vector<16xf32>
  %b = arith.trunci %words : vector<2xi64> to vector<2xi8>
  %smask = arith.constant dense<15> : vector<2xi32>
  %bias = arith.constant dense<120> : vector<2xi32>
  %c23 = arith.constant dense<23> : vector<2xi32>
  %c16 = arith.constant dense<16> : vector<2xi32>
  %e32 = arith.extui %b : vector<2xi8> to vector<2xi32>
  %el = arith.andi %e32, %smask : vector<2xi32>
  %e = arith.addi %el, %bias : vector<2xi32>
  %sb = arith.shli %e, %c23 : vector<2xi32>
  %hi = arith.shrui %sb, %c16 : vector<2xi32>
  %h16 = arith.trunci %hi : vector<2xi32> to vector<2xi16>
  %sh16 = arith.bitcast %h16 : vector<2xi16> to vector<2xbf16>
  %wide = vector.shuffle %sh16, %sh16 [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
  %scale = arith.extf %wide : vector<16xbf16> to vector<16xf32>
  %ws = arith.mulf %v, %scale : vector<16xf32>
  %h = arith.truncf %ws : vector<16xf32> to vector<16xbf16>
  return %h : vector<16xbf16>
}

// -----

// Scales 2^((e & 15) - 27): finite times 2^126 for every byte, so no
// guard: one multiply by ((e & 15) << 7) + (226 << 7).
// CHECK-LABEL: func @always_folds
// CHECK-NOT: scf.if
// CHECK-NOT: 8.507050e+37
// CHECK: arith.constant dense<1895854336> : vector<2xi32>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : vector<16xbf16>
// CHECK-NOT: arith.mulf
// CHECK: return
func.func @always_folds(%w: vector<2xi32>, %words: vector<2xi64>) -> vector<16xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrui %top, %c28 : vector<16xi32>
  %c = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c8 = arith.constant dense<8> : vector<16xi32>
  %c22 = arith.constant dense<22> : vector<16xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<16xf32>
  %u = arith.extui %c : vector<16xi8> to vector<16xi32>
  %low = arith.andi %u, %c7 : vector<16xi32>
  %mag = arith.shli %low, %c22 : vector<16xi32>
  %sign = arith.andi %u, %c8 : vector<16xi32>
  %sbit = arith.shli %sign, %c28 : vector<16xi32>
  %bits = arith.ori %mag, %sbit : vector<16xi32>
  %raw = arith.bitcast %bits : vector<16xi32> to vector<16xf32>
  %v = arith.mulf %raw, %two126 : vector<16xf32>
  %b = arith.trunci %words : vector<2xi64> to vector<2xi8>
  %smask = arith.constant dense<15> : vector<2xi32>
  %bias = arith.constant dense<100> : vector<2xi32>
  %c23 = arith.constant dense<23> : vector<2xi32>
  %c16 = arith.constant dense<16> : vector<2xi32>
  %e32 = arith.extui %b : vector<2xi8> to vector<2xi32>
  %el = arith.andi %e32, %smask : vector<2xi32>
  %e = arith.addi %el, %bias : vector<2xi32>
  %sb = arith.shli %e, %c23 : vector<2xi32>
  %hi = arith.shrui %sb, %c16 : vector<2xi32>
  %h16 = arith.trunci %hi : vector<2xi32> to vector<2xi16>
  %sh16 = arith.bitcast %h16 : vector<2xi16> to vector<2xbf16>
  %wide = vector.shuffle %sh16, %sh16 [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
  %scale = arith.extf %wide : vector<16xbf16> to vector<16xf32>
  %ws = arith.mulf %v, %scale : vector<16xf32>
  %h = arith.truncf %ws : vector<16xf32> to vector<16xbf16>
  return %h : vector<16xbf16>
}

// -----

// Scales 2^((e & 15) + 3): never finite times 2^126, so the decode stays
// as it was (2^126, then the scale).
// CHECK-LABEL: func @never_folds
// CHECK-NOT: scf.if
// CHECK-COUNT-4: arith.mulf %{{.+}}, %{{.+}} : vector<4xbf16>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : vector<16xbf16>
// CHECK: return
func.func @never_folds(%w: vector<2xi32>, %words: vector<2xi64>) -> vector<16xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrui %top, %c28 : vector<16xi32>
  %c = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c8 = arith.constant dense<8> : vector<16xi32>
  %c22 = arith.constant dense<22> : vector<16xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<16xf32>
  %u = arith.extui %c : vector<16xi8> to vector<16xi32>
  %low = arith.andi %u, %c7 : vector<16xi32>
  %mag = arith.shli %low, %c22 : vector<16xi32>
  %sign = arith.andi %u, %c8 : vector<16xi32>
  %sbit = arith.shli %sign, %c28 : vector<16xi32>
  %bits = arith.ori %mag, %sbit : vector<16xi32>
  %raw = arith.bitcast %bits : vector<16xi32> to vector<16xf32>
  %v = arith.mulf %raw, %two126 : vector<16xf32>
  %b = arith.trunci %words : vector<2xi64> to vector<2xi8>
  %smask = arith.constant dense<15> : vector<2xi32>
  %bias = arith.constant dense<130> : vector<2xi32>
  %c23 = arith.constant dense<23> : vector<2xi32>
  %c16 = arith.constant dense<16> : vector<2xi32>
  %e32 = arith.extui %b : vector<2xi8> to vector<2xi32>
  %el = arith.andi %e32, %smask : vector<2xi32>
  %e = arith.addi %el, %bias : vector<2xi32>
  %sb = arith.shli %e, %c23 : vector<2xi32>
  %hi = arith.shrui %sb, %c16 : vector<2xi32>
  %h16 = arith.trunci %hi : vector<2xi32> to vector<2xi16>
  %sh16 = arith.bitcast %h16 : vector<2xi16> to vector<2xbf16>
  %wide = vector.shuffle %sh16, %sh16 [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
  %scale = arith.extf %wide : vector<16xbf16> to vector<16xf32>
  %ws = arith.mulf %v, %scale : vector<16xf32>
  %h = arith.truncf %ws : vector<16xf32> to vector<16xbf16>
  return %h : vector<16xbf16>
}

// -----

// Two decodes of bytes 0 and 1 of the same words, their results used
// after both: one scf.if, its guard one test of the words (bits 3 and
// 11), each side with both products.
// CHECK-LABEL: func @one_branch
// CHECK: %[[ANY:.+]] = vector.reduction <or>, %{{.+}} : vector<2xi64> into i64
// CHECK: %[[GUARD:.+]] = arith.constant 2056 : i64
// CHECK: arith.andi %[[ANY]], %[[GUARD]] : i64
// CHECK-NOT: vector.reduction
// CHECK: %[[R:.+]]:2 = scf.if %{{.+}} -> (vector<16xbf16>, vector<16xbf16>) {
// CHECK-COUNT-2: arith.mulf %{{.+}}, %{{.+}} : vector<16xbf16>
// CHECK: scf.yield
// CHECK: } else {
// CHECK: scf.yield
// CHECK-NOT: scf.if
// CHECK: arith.addf %[[R]]#0, %[[R]]#1
func.func @one_branch(%w: vector<2xi32>, %words: vector<2xi64>) -> vector<16xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrui %top, %c28 : vector<16xi32>
  %c = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c8 = arith.constant dense<8> : vector<16xi32>
  %c22 = arith.constant dense<22> : vector<16xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<16xf32>
  %u = arith.extui %c : vector<16xi8> to vector<16xi32>
  %low = arith.andi %u, %c7 : vector<16xi32>
  %mag = arith.shli %low, %c22 : vector<16xi32>
  %sign = arith.andi %u, %c8 : vector<16xi32>
  %sbit = arith.shli %sign, %c28 : vector<16xi32>
  %bits = arith.ori %mag, %sbit : vector<16xi32>
  %raw = arith.bitcast %bits : vector<16xi32> to vector<16xf32>
  %v = arith.mulf %raw, %two126 : vector<16xf32>
  %b0 = arith.trunci %words : vector<2xi64> to vector<2xi8>
  %low0 = arith.constant dense<15> : vector<2xi32>
  %bias0 = arith.constant dense<120> : vector<2xi32>
  %c230 = arith.constant dense<23> : vector<2xi32>
  %c160 = arith.constant dense<16> : vector<2xi32>
  %e320 = arith.extui %b0 : vector<2xi8> to vector<2xi32>
  %el0 = arith.andi %e320, %low0 : vector<2xi32>
  %e0 = arith.addi %el0, %bias0 : vector<2xi32>
  %sb0 = arith.shli %e0, %c230 : vector<2xi32>
  %hi0 = arith.shrui %sb0, %c160 : vector<2xi32>
  %h160 = arith.trunci %hi0 : vector<2xi32> to vector<2xi16>
  %sh160 = arith.bitcast %h160 : vector<2xi16> to vector<2xbf16>
  %wide0 = vector.shuffle %sh160, %sh160 [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
  %scale0 = arith.extf %wide0 : vector<16xbf16> to vector<16xf32>
  %ws0 = arith.mulf %v, %scale0 : vector<16xf32>
  %h0 = arith.truncf %ws0 : vector<16xf32> to vector<16xbf16>
  %sh1 = arith.constant dense<8> : vector<2xi64>
  %d1 = arith.shrui %words, %sh1 : vector<2xi64>
  %b1 = arith.trunci %d1 : vector<2xi64> to vector<2xi8>
  %low1 = arith.constant dense<15> : vector<2xi32>
  %bias1 = arith.constant dense<120> : vector<2xi32>
  %c231 = arith.constant dense<23> : vector<2xi32>
  %c161 = arith.constant dense<16> : vector<2xi32>
  %e321 = arith.extui %b1 : vector<2xi8> to vector<2xi32>
  %el1 = arith.andi %e321, %low1 : vector<2xi32>
  %e1 = arith.addi %el1, %bias1 : vector<2xi32>
  %sb1 = arith.shli %e1, %c231 : vector<2xi32>
  %hi1 = arith.shrui %sb1, %c161 : vector<2xi32>
  %h161 = arith.trunci %hi1 : vector<2xi32> to vector<2xi16>
  %sh161 = arith.bitcast %h161 : vector<2xi16> to vector<2xbf16>
  %wide1 = vector.shuffle %sh161, %sh161 [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
  %scale1 = arith.extf %wide1 : vector<16xbf16> to vector<16xf32>
  %ws1 = arith.mulf %v, %scale1 : vector<16xf32>
  %h1 = arith.truncf %ws1 : vector<16xf32> to vector<16xbf16>
  %sum = arith.addf %h0, %h1 : vector<16xbf16>
  return %sum : vector<16xbf16>
}

// -----

// The first decode's result used before the second's: two branches.
// CHECK-LABEL: func @two_branches
// CHECK: %[[A:.+]] = scf.if
// CHECK: arith.negf %[[A]]
// CHECK: scf.if
func.func @two_branches(%w: vector<2xi32>, %words: vector<2xi64>) -> (vector<16xbf16>, vector<16xbf16>) {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrui %top, %c28 : vector<16xi32>
  %c = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c8 = arith.constant dense<8> : vector<16xi32>
  %c22 = arith.constant dense<22> : vector<16xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<16xf32>
  %u = arith.extui %c : vector<16xi8> to vector<16xi32>
  %low = arith.andi %u, %c7 : vector<16xi32>
  %mag = arith.shli %low, %c22 : vector<16xi32>
  %sign = arith.andi %u, %c8 : vector<16xi32>
  %sbit = arith.shli %sign, %c28 : vector<16xi32>
  %bits = arith.ori %mag, %sbit : vector<16xi32>
  %raw = arith.bitcast %bits : vector<16xi32> to vector<16xf32>
  %v = arith.mulf %raw, %two126 : vector<16xf32>
  %b0 = arith.trunci %words : vector<2xi64> to vector<2xi8>
  %low0 = arith.constant dense<15> : vector<2xi32>
  %bias0 = arith.constant dense<120> : vector<2xi32>
  %c230 = arith.constant dense<23> : vector<2xi32>
  %c160 = arith.constant dense<16> : vector<2xi32>
  %e320 = arith.extui %b0 : vector<2xi8> to vector<2xi32>
  %el0 = arith.andi %e320, %low0 : vector<2xi32>
  %e0 = arith.addi %el0, %bias0 : vector<2xi32>
  %sb0 = arith.shli %e0, %c230 : vector<2xi32>
  %hi0 = arith.shrui %sb0, %c160 : vector<2xi32>
  %h160 = arith.trunci %hi0 : vector<2xi32> to vector<2xi16>
  %sh160 = arith.bitcast %h160 : vector<2xi16> to vector<2xbf16>
  %wide0 = vector.shuffle %sh160, %sh160 [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
  %scale0 = arith.extf %wide0 : vector<16xbf16> to vector<16xf32>
  %ws0 = arith.mulf %v, %scale0 : vector<16xf32>
  %h0 = arith.truncf %ws0 : vector<16xf32> to vector<16xbf16>
  %n = arith.negf %h0 : vector<16xbf16>
  %sh1 = arith.constant dense<8> : vector<2xi64>
  %d1 = arith.shrui %words, %sh1 : vector<2xi64>
  %b1 = arith.trunci %d1 : vector<2xi64> to vector<2xi8>
  %low1 = arith.constant dense<15> : vector<2xi32>
  %bias1 = arith.constant dense<120> : vector<2xi32>
  %c231 = arith.constant dense<23> : vector<2xi32>
  %c161 = arith.constant dense<16> : vector<2xi32>
  %e321 = arith.extui %b1 : vector<2xi8> to vector<2xi32>
  %el1 = arith.andi %e321, %low1 : vector<2xi32>
  %e1 = arith.addi %el1, %bias1 : vector<2xi32>
  %sb1 = arith.shli %e1, %c231 : vector<2xi32>
  %hi1 = arith.shrui %sb1, %c161 : vector<2xi32>
  %h161 = arith.trunci %hi1 : vector<2xi32> to vector<2xi16>
  %sh161 = arith.bitcast %h161 : vector<2xi16> to vector<2xbf16>
  %wide1 = vector.shuffle %sh161, %sh161 [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
  %scale1 = arith.extf %wide1 : vector<16xbf16> to vector<16xf32>
  %ws1 = arith.mulf %v, %scale1 : vector<16xf32>
  %h1 = arith.truncf %ws1 : vector<16xf32> to vector<16xbf16>
  return %n, %h1 : vector<16xbf16>, vector<16xbf16>
}

// -----

// tl.quantized_matmul's e8m0 decode as the OCP spec reads it: 2^(e - 127)
// made as bf16 bits (e << 7, 2^-127 for e = 0 by a max) and NaN for e =
// 255 (s + (s - s)). Times 2^126 it is finite for e <= 128: the guard is
// bit 7, the folded bits (e << 7) + (126 << 7), and the folded side has
// neither the max nor the NaN's adds.
// CHECK-LABEL: func @spec_scale
// CHECK-DAG: %[[BIAS:.+]] = arith.constant dense<16128> : vector<2xi32>
// CHECK-DAG: %[[KEEP:.+]] = arith.constant dense<127> : vector<2xi32>
// CHECK: %[[ANY:.+]] = vector.reduction <or>, %{{.+}} : vector<2xi8> into i8
// CHECK: arith.constant -128 : i8
// CHECK: scf.if
// CHECK-NOT: arith.maxui
// CHECK-NOT: arith.addf
// CHECK: arith.andi %{{.+}}, %[[KEEP]] : vector<2xi32>
// CHECK: arith.addi %{{.+}}, %[[BIAS]] : vector<2xi32>
// CHECK: arith.mulf %{{.+}}, %{{.+}} : vector<16xbf16>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK: arith.maxui
// CHECK: arith.subf
// CHECK: arith.addf
func.func @spec_scale(%w: vector<2xi32>, %s: vector<2xi8>) -> vector<16xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrui %top, %c28 : vector<16xi32>
  %c = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c8 = arith.constant dense<8> : vector<16xi32>
  %c22 = arith.constant dense<22> : vector<16xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<16xf32>
  %u = arith.extui %c : vector<16xi8> to vector<16xi32>
  %low = arith.andi %u, %c7 : vector<16xi32>
  %mag = arith.shli %low, %c22 : vector<16xi32>
  %sign = arith.andi %u, %c8 : vector<16xi32>
  %sbit = arith.shli %sign, %c28 : vector<16xi32>
  %bits = arith.ori %mag, %sbit : vector<16xi32>
  %raw = arith.bitcast %bits : vector<16xi32> to vector<16xf32>
  %v = arith.mulf %raw, %two126 : vector<16xf32>
  %c7s = arith.constant dense<7> : vector<2xi16>
  %tiny = arith.constant dense<64> : vector<2xi16>
  %e16 = arith.extui %s : vector<2xi8> to vector<2xi16>
  %sb = arith.shli %e16, %c7s : vector<2xi16>
  %sz = arith.maxui %sb, %tiny : vector<2xi16>
  %sh = arith.bitcast %sz : vector<2xi16> to vector<2xbf16>
  %nanish = arith.subf %sh, %sh : vector<2xbf16>
  %sn = arith.addf %sh, %nanish : vector<2xbf16>
  %wide = vector.shuffle %sn, %sn [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xbf16>, vector<2xbf16>
  %scale = arith.extf %wide : vector<16xbf16> to vector<16xf32>
  %ws = arith.mulf %v, %scale : vector<16xf32>
  %h = arith.truncf %ws : vector<16xf32> to vector<16xbf16>
  return %h : vector<16xbf16>
}

// -----

// Byte 3 of i32 words (the scale bytes four a word), and the scale's
// bits made as an f32 (e << 23) rather than a bf16, one word a lane: the
// guard tests bit 27 of the words; the folded scale is the same bf16
// bits.
// CHECK-LABEL: func @f32_scale_of_word_byte
// CHECK: %[[ANY:.+]] = vector.reduction <or>, %{{.+}} : vector<16xi32> into i32
// CHECK: arith.constant 134217728 : i32
// CHECK: scf.if
// CHECK: arith.mulf %{{.+}}, %{{.+}} : vector<16xbf16>
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } else {
// CHECK-COUNT-4: arith.mulf %{{.+}}, %{{.+}} : vector<4xbf16>
func.func @f32_scale_of_word_byte(%w: vector<2xi32>, %words: vector<16xi32>) -> vector<16xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrui %top, %c28 : vector<16xi32>
  %c = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c8 = arith.constant dense<8> : vector<16xi32>
  %c22 = arith.constant dense<22> : vector<16xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<16xf32>
  %u = arith.extui %c : vector<16xi8> to vector<16xi32>
  %low = arith.andi %u, %c7 : vector<16xi32>
  %mag = arith.shli %low, %c22 : vector<16xi32>
  %sign = arith.andi %u, %c8 : vector<16xi32>
  %sbit = arith.shli %sign, %c28 : vector<16xi32>
  %bits = arith.ori %mag, %sbit : vector<16xi32>
  %raw = arith.bitcast %bits : vector<16xi32> to vector<16xf32>
  %v = arith.mulf %raw, %two126 : vector<16xf32>
  %c24 = arith.constant dense<24> : vector<16xi32>
  %smask = arith.constant dense<15> : vector<16xi32>
  %bias = arith.constant dense<120> : vector<16xi32>
  %c23 = arith.constant dense<23> : vector<16xi32>
  %top3 = arith.shrui %words, %c24 : vector<16xi32>
  %b = arith.trunci %top3 : vector<16xi32> to vector<16xi8>
  %e32 = arith.extui %b : vector<16xi8> to vector<16xi32>
  %el = arith.andi %e32, %smask : vector<16xi32>
  %e = arith.addi %el, %bias : vector<16xi32>
  %sb = arith.shli %e, %c23 : vector<16xi32>
  %scale = arith.bitcast %sb : vector<16xi32> to vector<16xf32>
  %ws = arith.mulf %v, %scale : vector<16xf32>
  %h = arith.truncf %ws : vector<16xf32> to vector<16xbf16>
  return %h : vector<16xbf16>
}

// -----

// The branching itself, on selects marked by hand: one whose result
// another takes starts a run of its own; a select on a vector of i1 is
// not a branch and stays.
// CHECK-LABEL: func @chained_selects
// CHECK: %[[A:.+]] = scf.if %{{.+}} -> (vector<2xf32>) {
// CHECK-NEXT: %[[X:.+]] = arith.addf
// CHECK-NEXT: scf.yield %[[X]]
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield
// CHECK: %[[B:.+]] = scf.if %{{.+}} -> (vector<2xf32>) {
// CHECK-NEXT: scf.yield %[[A]]
// CHECK: %[[V:.+]] = arith.select %{{.+}}, %[[B]], %{{.+}} {tile.guarded_fold} : vector<2xi1>, vector<2xf32>
// CHECK: return %[[V]]
func.func @chained_selects(%c: i1, %d: i1, %m: vector<2xi1>, %a: vector<2xf32>, %b: vector<2xf32>) -> vector<2xf32> {
  %x = arith.addf %a, %b : vector<2xf32>
  %s1 = arith.select %c, %x, %a {tile.guarded_fold} : vector<2xf32>
  %s2 = arith.select %d, %s1, %b {tile.guarded_fold} : vector<2xf32>
  %s3 = arith.select %m, %s2, %a {tile.guarded_fold} : vector<2xi1>, vector<2xf32>
  return %s3 : vector<2xf32>
}
