// tile-packed-dequant's e2m1 pairs: an MXFP4 code decoded through f32's
// bits, times 2^126 and an e8m0 scale, rounded to bf16, becomes the code's
// bits placed in bf16 pairs. Pair vector p (fields p and p + 4 of every
// word, non-interleaved nibbles: lane e is field e % 8 of word e / 8) is
// ((m << 6 - 4p) | (m << 12 - 4p)) & 0x81C081C0 with m = words &
// (0x000F000F << 4p): exponent and mantissa at bits 8-6 and the sign at
// 15 of each half, the code's value times 2^-126 as f32's bits were; then
// times 2^126 and times the scale, both in bf16 (the scale, a power of
// two, is exact there).
// RUN: tile-opt %s --tile-packed-dequant --split-input-file | FileCheck %s

// CHECK-LABEL: func @e2m1_times_e8m0
// CHECK-SAME: (%[[W:.+]]: vector<2xi32>, %[[E:.+]]: vector<16xi8>)
// CHECK-DAG: %[[RESTORE:.+]] = arith.constant dense<8.507050e+37> : vector<4xbf16>
// CHECK-DAG: %[[KEEP:.+]] = arith.constant dense<-2118090304> : vector<2xi32>
// CHECK-DAG: %[[M0:.+]] = arith.constant dense<983055> : vector<2xi32>
// CHECK: %[[F0:.+]] = arith.andi %[[W]], %[[M0]] : vector<2xi32>
// CHECK: %[[LO0:.+]] = arith.shli %[[F0]], %{{.+}} : vector<2xi32>
// CHECK: %[[HI0:.+]] = arith.shli %[[F0]], %{{.+}} : vector<2xi32>
// CHECK: %[[OR0:.+]] = arith.ori %[[LO0]], %[[HI0]] : vector<2xi32>
// CHECK: %[[B0:.+]] = arith.andi %[[OR0]], %[[KEEP]] : vector<2xi32>
// CHECK: %[[H0:.+]] = vector.bitcast %[[B0]] : vector<2xi32> to vector<4xbf16>
// CHECK: %[[P0:.+]] = arith.mulf %[[H0]], %[[RESTORE]] : vector<4xbf16>
// p = 2 and 3 shift the field right to bits 6-8: (m >> 2) | (m << 4), m >> 6 | m.
// CHECK: arith.shrui
// CHECK: arith.shrui
// CHECK: %[[ALL:.+]] = vector.shuffle %{{.+}}, %{{.+}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// CHECK: %[[Q:.+]] = vector.shuffle %[[ALL]], %[[ALL]] [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15] : vector<16xbf16>, vector<16xbf16>
// CHECK: %[[S:.+]] = arith.truncf %{{.+}} : vector<16xf32> to vector<16xbf16>
// CHECK: %[[R:.+]] = arith.mulf %[[Q]], %[[S]] : vector<16xbf16>
// CHECK: return %[[R]]
func.func @e2m1_times_e8m0(%w: vector<2xi32>, %e: vector<16xi8>) -> vector<16xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrui %top, %c28 : vector<16xi32>
  %c = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %c7 = arith.constant dense<7> : vector<16xi32>
  %c8 = arith.constant dense<8> : vector<16xi32>
  %c22 = arith.constant dense<22> : vector<16xi32>
  %c23 = arith.constant dense<23> : vector<16xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<16xf32>
  %u = arith.extui %c : vector<16xi8> to vector<16xi32>
  %low = arith.andi %u, %c7 : vector<16xi32>
  %mag = arith.shli %low, %c22 : vector<16xi32>
  %sign = arith.andi %u, %c8 : vector<16xi32>
  %sbit = arith.shli %sign, %c28 : vector<16xi32>
  %bits = arith.ori %mag, %sbit : vector<16xi32>
  %raw = arith.bitcast %bits : vector<16xi32> to vector<16xf32>
  %v = arith.mulf %raw, %two126 : vector<16xf32>
  %e32 = arith.extui %e : vector<16xi8> to vector<16xi32>
  %sb = arith.shli %e32, %c23 : vector<16xi32>
  %scale = arith.bitcast %sb : vector<16xi32> to vector<16xf32>
  %ws = arith.mulf %v, %scale : vector<16xf32>
  %h = arith.truncf %ws : vector<16xf32> to vector<16xbf16>
  return %h : vector<16xbf16>
}

// -----

// A scale that is not exact in bf16 (any f32): the f32 math stays.
// CHECK-LABEL: func @e2m1_times_f32
// CHECK: arith.mulf %{{.+}} : vector<8xf32>
// CHECK: arith.truncf %{{.+}} : vector<8xf32> to vector<8xbf16>
func.func @e2m1_times_f32(%w: vector<1xi32>, %s: vector<8xf32>) -> vector<8xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>, vector<1xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0]> : vector<8xi32>
  %c28 = arith.constant dense<28> : vector<8xi32>
  %top = arith.shli %spread, %up : vector<8xi32>
  %field = arith.shrui %top, %c28 : vector<8xi32>
  %c = arith.trunci %field : vector<8xi32> to vector<8xi8>
  %c7 = arith.constant dense<7> : vector<8xi32>
  %c8 = arith.constant dense<8> : vector<8xi32>
  %c22 = arith.constant dense<22> : vector<8xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<8xf32>
  %u = arith.extui %c : vector<8xi8> to vector<8xi32>
  %low = arith.andi %u, %c7 : vector<8xi32>
  %mag = arith.shli %low, %c22 : vector<8xi32>
  %sign = arith.andi %u, %c8 : vector<8xi32>
  %sbit = arith.shli %sign, %c28 : vector<8xi32>
  %bits = arith.ori %mag, %sbit : vector<8xi32>
  %raw = arith.bitcast %bits : vector<8xi32> to vector<8xf32>
  %v = arith.mulf %raw, %two126 : vector<8xf32>
  %ws = arith.mulf %v, %s : vector<8xf32>
  %h = arith.truncf %ws : vector<8xf32> to vector<8xbf16>
  return %h : vector<8xbf16>
}

// -----

// The bits placed one position off (mantissa at 21): not e2m1's decode.
// CHECK-LABEL: func @not_e2m1
// CHECK: arith.truncf %{{.+}} : vector<8xf32> to vector<8xbf16>
func.func @not_e2m1(%w: vector<1xi32>, %e: vector<8xi8>) -> vector<8xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>, vector<1xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0]> : vector<8xi32>
  %c28 = arith.constant dense<28> : vector<8xi32>
  %top = arith.shli %spread, %up : vector<8xi32>
  %field = arith.shrui %top, %c28 : vector<8xi32>
  %c = arith.trunci %field : vector<8xi32> to vector<8xi8>
  %c7 = arith.constant dense<7> : vector<8xi32>
  %c8 = arith.constant dense<8> : vector<8xi32>
  %c21 = arith.constant dense<21> : vector<8xi32>
  %c23 = arith.constant dense<23> : vector<8xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<8xf32>
  %u = arith.extui %c : vector<8xi8> to vector<8xi32>
  %low = arith.andi %u, %c7 : vector<8xi32>
  %mag = arith.shli %low, %c21 : vector<8xi32>
  %sign = arith.andi %u, %c8 : vector<8xi32>
  %sbit = arith.shli %sign, %c28 : vector<8xi32>
  %bits = arith.ori %mag, %sbit : vector<8xi32>
  %raw = arith.bitcast %bits : vector<8xi32> to vector<8xf32>
  %v = arith.mulf %raw, %two126 : vector<8xf32>
  %e32 = arith.extui %e : vector<8xi8> to vector<8xi32>
  %sb = arith.shli %e32, %c23 : vector<8xi32>
  %scale = arith.bitcast %sb : vector<8xi32> to vector<8xf32>
  %ws = arith.mulf %v, %scale : vector<8xf32>
  %h = arith.truncf %ws : vector<8xf32> to vector<8xbf16>
  return %h : vector<8xbf16>
}

// -----

// AWQ's interleaved nibbles (lane e of a word is field e / 2 + 4 (e % 2):
// lanes 2q and 2q + 1 are pair vector q's halves), the or's and the
// multiplies' operands the other way round, and a bf16 scale widened by
// extf (used as it is).
// CHECK-LABEL: func @e2m1_interleaved
// CHECK-SAME: (%[[W:.+]]: vector<1xi32>, %[[S:.+]]: vector<8xbf16>)
// CHECK: vector.bitcast %{{.+}} : vector<1xi32> to vector<2xbf16>
// CHECK: %[[ALL:.+]] = vector.shuffle %{{.+}}, %{{.+}} [0, 1, 2, 3, 4, 5, 6, 7] : vector<6xbf16>, vector<2xbf16>
// (The lanes already in order: the final shuffle is the identity, folded.)
// CHECK-NOT: arith.truncf
// CHECK: %[[R:.+]] = arith.mulf %[[ALL]], %[[S]] : vector<8xbf16>
// CHECK: return %[[R]]
func.func @e2m1_interleaved(%w: vector<1xi32>, %s: vector<8xbf16>) -> vector<8xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>, vector<1xi32>
  %up = arith.constant dense<[28, 12, 24, 8, 20, 4, 16, 0]> : vector<8xi32>
  %c28 = arith.constant dense<28> : vector<8xi32>
  %top = arith.shli %spread, %up : vector<8xi32>
  %field = arith.shrui %top, %c28 : vector<8xi32>
  %c = arith.trunci %field : vector<8xi32> to vector<8xi8>
  %c7 = arith.constant dense<7> : vector<8xi32>
  %c8 = arith.constant dense<8> : vector<8xi32>
  %c22 = arith.constant dense<22> : vector<8xi32>
  %two126 = arith.constant dense<0x7E800000> : vector<8xf32>
  %u = arith.extui %c : vector<8xi8> to vector<8xi32>
  %low = arith.andi %c7, %u : vector<8xi32>
  %mag = arith.shli %low, %c22 : vector<8xi32>
  %sign = arith.andi %u, %c8 : vector<8xi32>
  %sbit = arith.shli %sign, %c28 : vector<8xi32>
  %bits = arith.ori %sbit, %mag : vector<8xi32>
  %raw = arith.bitcast %bits : vector<8xi32> to vector<8xf32>
  %v = arith.mulf %two126, %raw : vector<8xf32>
  %sf = arith.extf %s : vector<8xbf16> to vector<8xf32>
  %ws = arith.mulf %sf, %v : vector<8xf32>
  %h = arith.truncf %ws : vector<8xf32> to vector<8xbf16>
  return %h : vector<8xbf16>
}
