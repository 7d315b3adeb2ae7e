// tile-packed-dequant's scale bytes in pairs: a bf16 / f16 whose bits are
// integer math on one byte of a word (an e8m0 scale's decode) becomes an
// and, a shift and an add on the whole 32-bit word, where the math,
// evaluated on all 256 bytes, is ((e & m) << s) + b below 2^16: bytes j
// and j + 2 sit 16 bits apart, so one word's math decodes both, and the
// result is byte j's half. Bytes 1 and 3 of a word shift by s - 8.
// Unsigned clamps by constants that end the math apply to both halves as
// 16-bit lanes.
// RUN: tile-opt %s --tile-packed-dequant --cse --split-input-file | FileCheck %s

// bench/compile-quant.sh's clamped decode, 2^((e & 15) - 7) as f32 bits
// taken to bf16: ((e & 15) + 120) << 7 = ((e & 15) << 7) + 0x3C00. Bytes 0
// and 2 of the low word share one computation (CSE); byte 5 is byte 1 of
// the high word.
// With a shift and an add after it, the and is a PTX lop3 a word, which
// LLVM cannot move after the shift: ptxas makes the shift and the add one
// LEA.
// CHECK-LABEL: func @clamped_scales
// CHECK-SAME: (%[[W:.+]]: vector<2xi64>)
// CHECK-DAG: %[[BIAS:.+]] = arith.constant dense<1006648320> : vector<2xi32>
// CHECK-DAG: %[[C7:.+]] = arith.constant dense<7> : vector<2xi32>
// CHECK-DAG: %[[C1:.+]] = arith.constant dense<1> : vector<2xi32>
// CHECK-DAG: %[[C32:.+]] = arith.constant dense<32> : vector<2xi64>
// CHECK: %[[LOW:.+]] = arith.trunci %[[W]] : vector<2xi64> to vector<2xi32>
// CHECK: llvm.inline_asm "lop3.b32 $0, $1, 0x000f000f, 0x00000000, 0xea;"
// CHECK: llvm.inline_asm "lop3.b32 $0, $1, 0x000f000f, 0x00000000, 0xea;"
// CHECK: %[[A:.+]] = vector.from_elements
// CHECK: %[[B:.+]] = arith.shli %[[A]], %[[C7]] : vector<2xi32>
// CHECK: %[[P:.+]] = arith.addi %[[B]], %[[BIAS]] : vector<2xi32>
// CHECK: %[[H:.+]] = vector.bitcast %[[P]] : vector<2xi32> to vector<4xbf16>
// CHECK: %[[S0:.+]] = vector.shuffle %[[H]], %[[H]] [0, 2] : vector<4xbf16>, vector<4xbf16>
// CHECK: %[[S2:.+]] = vector.shuffle %[[H]], %[[H]] [1, 3] : vector<4xbf16>, vector<4xbf16>
// CHECK: %[[UP:.+]] = arith.shrui %[[W]], %[[C32]] : vector<2xi64>
// CHECK: %[[HIGH:.+]] = arith.trunci %[[UP]] : vector<2xi64> to vector<2xi32>
// CHECK: llvm.inline_asm "lop3.b32 $0, $1, 0x0f000f00, 0x00000000, 0xea;"
// CHECK: llvm.inline_asm "lop3.b32 $0, $1, 0x0f000f00, 0x00000000, 0xea;"
// CHECK: %[[A5:.+]] = vector.from_elements
// CHECK: %[[B5:.+]] = arith.shrui %[[A5]], %[[C1]] : vector<2xi32>
// CHECK: %[[P5:.+]] = arith.addi %[[B5]], %[[BIAS]] : vector<2xi32>
// CHECK: %[[H5:.+]] = vector.bitcast %[[P5]] : vector<2xi32> to vector<4xbf16>
// CHECK: %[[S5:.+]] = vector.shuffle %[[H5]], %[[H5]] [0, 2] : vector<4xbf16>, vector<4xbf16>
// CHECK: return %[[S0]], %[[S2]], %[[S5]]
func.func @clamped_scales(%w: vector<2xi64>) -> (vector<2xbf16>, vector<2xbf16>, vector<2xbf16>) {
  %c15 = arith.constant dense<15> : vector<2xi32>
  %c120 = arith.constant dense<120> : vector<2xi32>
  %c23 = arith.constant dense<23> : vector<2xi32>
  %c16 = arith.constant dense<16> : vector<2xi32>
  %by2 = arith.constant dense<16> : vector<2xi64>
  %by5 = arith.constant dense<40> : vector<2xi64>
  %e0 = arith.trunci %w : vector<2xi64> to vector<2xi8>
  %u0 = arith.extui %e0 : vector<2xi8> to vector<2xi32>
  %l0 = arith.andi %u0, %c15 : vector<2xi32>
  %a0 = arith.addi %l0, %c120 : vector<2xi32>
  %f0 = arith.shli %a0, %c23 : vector<2xi32>
  %h0 = arith.shrui %f0, %c16 : vector<2xi32>
  %t0 = arith.trunci %h0 : vector<2xi32> to vector<2xi16>
  %s0 = arith.bitcast %t0 : vector<2xi16> to vector<2xbf16>
  %w2 = arith.shrui %w, %by2 : vector<2xi64>
  %e2 = arith.trunci %w2 : vector<2xi64> to vector<2xi8>
  %u2 = arith.extui %e2 : vector<2xi8> to vector<2xi32>
  %l2 = arith.andi %u2, %c15 : vector<2xi32>
  %a2 = arith.addi %l2, %c120 : vector<2xi32>
  %f2 = arith.shli %a2, %c23 : vector<2xi32>
  %h2 = arith.shrui %f2, %c16 : vector<2xi32>
  %t2 = arith.trunci %h2 : vector<2xi32> to vector<2xi16>
  %s2 = arith.bitcast %t2 : vector<2xi16> to vector<2xbf16>
  %w5 = arith.shrui %w, %by5 : vector<2xi64>
  %e5 = arith.trunci %w5 : vector<2xi64> to vector<2xi8>
  %u5 = arith.extui %e5 : vector<2xi8> to vector<2xi32>
  %l5 = arith.andi %u5, %c15 : vector<2xi32>
  %a5 = arith.addi %l5, %c120 : vector<2xi32>
  %f5 = arith.shli %a5, %c23 : vector<2xi32>
  %h5 = arith.shrui %f5, %c16 : vector<2xi32>
  %t5 = arith.trunci %h5 : vector<2xi32> to vector<2xi16>
  %s5 = arith.bitcast %t5 : vector<2xi16> to vector<2xbf16>
  return %s0, %s2, %s5 : vector<2xbf16>, vector<2xbf16>, vector<2xbf16>
}

// -----

// e8m0 placed in bf16's exponent field in 16-bit math (e << 7, no bias),
// byte 3 of an i32 word: (w & 0xFF00FF00) >> 1, the high half.
// CHECK-LABEL: func @exponent_field
// CHECK-SAME: (%[[W:.+]]: vector<4xi32>)
// CHECK-DAG: %[[KEEP:.+]] = arith.constant dense<-16711936> : vector<4xi32>
// CHECK-DAG: %[[C1:.+]] = arith.constant dense<1> : vector<4xi32>
// CHECK: %[[A:.+]] = arith.andi %[[W]], %[[KEEP]] : vector<4xi32>
// CHECK: %[[P:.+]] = arith.shrui %[[A]], %[[C1]] : vector<4xi32>
// CHECK-NOT: arith.addi
// CHECK: %[[H:.+]] = vector.bitcast %[[P]] : vector<4xi32> to vector<8xbf16>
// CHECK: %[[S:.+]] = vector.shuffle %[[H]], %[[H]] [1, 3, 5, 7] : vector<8xbf16>, vector<8xbf16>
// CHECK: return %[[S]]
func.func @exponent_field(%w: vector<4xi32>) -> vector<4xbf16> {
  %by = arith.constant dense<24> : vector<4xi32>
  %c7 = arith.constant dense<7> : vector<4xi16>
  %w3 = arith.shrui %w, %by : vector<4xi32>
  %e = arith.trunci %w3 : vector<4xi32> to vector<4xi8>
  %u = arith.extui %e : vector<4xi8> to vector<4xi16>
  %s = arith.shli %u, %c7 : vector<4xi16>
  %f = arith.bitcast %s : vector<4xi16> to vector<4xbf16>
  return %f : vector<4xbf16>
}

// -----

// A right shift (e >> 4: the high nibble, mask 0xF0, s = -4) into f16's
// low bits, plus f16 1024.0's bits: byte 1 shifts by -12.
// CHECK-LABEL: func @high_nibble
// CHECK-DAG: %[[C12:.+]] = arith.constant dense<12> : vector<2xi32>
// CHECK-DAG: %[[BIAS:.+]] = arith.constant dense<1677747200> : vector<2xi32>
// CHECK: llvm.inline_asm "lop3.b32 $0, $1, 0xf000f000, 0x00000000, 0xea;"
// CHECK: %[[A:.+]] = vector.from_elements
// CHECK: %[[B:.+]] = arith.shrui %[[A]], %[[C12]] : vector<2xi32>
// CHECK: %[[P:.+]] = arith.addi %[[B]], %[[BIAS]] : vector<2xi32>
// CHECK: %[[H:.+]] = vector.bitcast %[[P]] : vector<2xi32> to vector<4xf16>
// CHECK: vector.shuffle %[[H]], %[[H]] [0, 2]
func.func @high_nibble(%w: vector<2xi32>) -> vector<2xf16> {
  %by = arith.constant dense<8> : vector<2xi32>
  %c4 = arith.constant dense<4> : vector<2xi32>
  %magic = arith.constant dense<25600> : vector<2xi32>
  %w1 = arith.shrui %w, %by : vector<2xi32>
  %e = arith.trunci %w1 : vector<2xi32> to vector<2xi8>
  %u = arith.extui %e : vector<2xi8> to vector<2xi32>
  %n = arith.shrui %u, %c4 : vector<2xi32>
  %o = arith.ori %n, %magic : vector<2xi32>
  %t = arith.trunci %o : vector<2xi32> to vector<2xi16>
  %f = arith.bitcast %t : vector<2xi16> to vector<2xf16>
  return %f : vector<2xf16>
}

// -----

// The frontend's e8m0 decode, max(e << 7, 0x40) (2^-127 for e = 0): the
// unsigned clamp that ends the math applies to both 16-bit lanes at once
// (max.u16x2), after the shift is fitted.
// CHECK-LABEL: func @clamped_exponent
// CHECK-SAME: (%[[W:.+]]: vector<2xi32>)
// CHECK-DAG: %[[KEEP:.+]] = arith.constant dense<16711935> : vector<2xi32>
// CHECK-DAG: %[[C7:.+]] = arith.constant dense<7> : vector<2xi32>
// CHECK-DAG: %[[TINY:.+]] = arith.constant dense<64> : vector<4xi16>
// CHECK: %[[A:.+]] = arith.andi %[[W]], %[[KEEP]] : vector<2xi32>
// CHECK: %[[B:.+]] = arith.shli %[[A]], %[[C7]] : vector<2xi32>
// CHECK: %[[L:.+]] = vector.bitcast %[[B]] : vector<2xi32> to vector<4xi16>
// CHECK: %[[M:.+]] = arith.maxui %[[L]], %[[TINY]] : vector<4xi16>
// CHECK: %[[H:.+]] = vector.bitcast %[[M]] : vector<4xi16> to vector<4xbf16>
// CHECK: %[[S:.+]] = vector.shuffle %[[H]], %[[H]] [1, 3] : vector<4xbf16>, vector<4xbf16>
// CHECK: return %[[S]]
func.func @clamped_exponent(%w: vector<2xi32>) -> vector<2xbf16> {
  %by = arith.constant dense<16> : vector<2xi32>
  %c7 = arith.constant dense<7> : vector<2xi16>
  %tiny = arith.constant dense<64> : vector<2xi16>
  %w2 = arith.shrui %w, %by : vector<2xi32>
  %e = arith.trunci %w2 : vector<2xi32> to vector<2xi8>
  %u = arith.extui %e : vector<2xi8> to vector<2xi16>
  %s = arith.shli %u, %c7 : vector<2xi16>
  %m = arith.maxui %s, %tiny : vector<2xi16>
  %f = arith.bitcast %m : vector<2xi16> to vector<2xbf16>
  return %f : vector<2xbf16>
}

// -----

// Math that is not ((e & m) << s) + b (then clamps) stays: a product (e *
// 257: two copies of each bit), a clamp of a value above 16 bits (e <<
// 9 in i32, clamped, then cut to 16 bits), and a byte that does not start
// at a multiple of 8 bits.
// CHECK-LABEL: func @not_affine
// CHECK: arith.muli
// CHECK: arith.bitcast %{{.+}} : vector<2xi16> to vector<2xbf16>
// CHECK: arith.minui
// CHECK: arith.bitcast %{{.+}} : vector<2xi16> to vector<2xbf16>
// CHECK: arith.trunci %{{.+}} : vector<2xi32> to vector<2xi8>
// CHECK: arith.bitcast %{{.+}} : vector<2xi16> to vector<2xbf16>
// CHECK-NOT: vector.bitcast
func.func @not_affine(%w: vector<2xi32>) -> (vector<2xbf16>, vector<2xbf16>, vector<2xbf16>) {
  %e = arith.trunci %w : vector<2xi32> to vector<2xi8>
  %c257 = arith.constant dense<257> : vector<2xi32>
  %u32 = arith.extui %e : vector<2xi8> to vector<2xi32>
  %p = arith.muli %u32, %c257 : vector<2xi32>
  %pt = arith.trunci %p : vector<2xi32> to vector<2xi16>
  %g = arith.bitcast %pt : vector<2xi16> to vector<2xbf16>
  %c9 = arith.constant dense<9> : vector<2xi32>
  %top = arith.constant dense<32768> : vector<2xi32>
  %big = arith.shli %u32, %c9 : vector<2xi32>
  %low = arith.minui %big, %top : vector<2xi32>
  %lt = arith.trunci %low : vector<2xi32> to vector<2xi16>
  %l = arith.bitcast %lt : vector<2xi16> to vector<2xbf16>
  %c4 = arith.constant dense<4> : vector<2xi32>
  %c7 = arith.constant dense<7> : vector<2xi16>
  %w4 = arith.shrui %w, %c4 : vector<2xi32>
  %e4 = arith.trunci %w4 : vector<2xi32> to vector<2xi8>
  %u4 = arith.extui %e4 : vector<2xi8> to vector<2xi16>
  %s4 = arith.shli %u4, %c7 : vector<2xi16>
  %h = arith.bitcast %s4 : vector<2xi16> to vector<2xbf16>
  return %g, %l, %h : vector<2xbf16>, vector<2xbf16>, vector<2xbf16>
}
