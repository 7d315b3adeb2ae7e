// RUN: tile-opt %s --tile-packed-dequant --split-input-file | FileCheck %s

// tile.unpack's signed nibbles of two words times a bf16 scale: pair
// vector p is (words >> 4p) & 0x000F000F xor 0x4308 in each half (136 + q
// as bf16; one lop3.b32 a word, table 0x6a), minus 136; lanes back in
// order by a shuffle; the multiply in bf16.
// CHECK-LABEL: func @signed_int4_bf16_scale
// CHECK-SAME: (%[[W:.+]]: vector<2xi32>, %[[S:.+]]: vector<16xbf16>)
// CHECK-DAG: %[[BIAS:.+]] = arith.constant dense<1.360000e+02> : vector<4xbf16>
// CHECK-DAG: %[[FOUR:.+]] = arith.constant dense<4> : vector<2xi32>
// CHECK: %[[W0:.+]] = vector.extract %[[W]][0] : i32 from vector<2xi32>
// CHECK: %[[L0:.+]] = llvm.inline_asm "lop3.b32 $0, $1, 0x000f000f, 0x43084308, 0x6a;", "=r,r" %[[W0]] : (i32) -> i32
// CHECK: %[[W1:.+]] = vector.extract %[[W]][1] : i32 from vector<2xi32>
// CHECK: %[[L1:.+]] = llvm.inline_asm "lop3.b32 $0, $1, 0x000f000f, 0x43084308, 0x6a;", "=r,r" %[[W1]] : (i32) -> i32
// CHECK: %[[B0:.+]] = vector.from_elements %[[L0]], %[[L1]] : vector<2xi32>
// CHECK: %[[H0:.+]] = vector.bitcast %[[B0]] : vector<2xi32> to vector<4xbf16>
// CHECK: %[[P0:.+]] = arith.subf %[[H0]], %[[BIAS]] : vector<4xbf16>
// CHECK: %[[S1:.+]] = arith.shrui %[[W]], %[[FOUR]] : vector<2xi32>
// CHECK: vector.extract %[[S1]][0]
// CHECK: llvm.inline_asm "lop3.b32
// CHECK: vector.extract %[[S1]][1]
// CHECK: llvm.inline_asm "lop3.b32
// CHECK: %[[P1:.+]] = arith.subf
// CHECK: %[[P01:.+]] = vector.shuffle %[[P0]], %[[P1]] [0, 1, 2, 3, 4, 5, 6, 7]
// CHECK: arith.shrui %[[W]], %{{.+}} : vector<2xi32>
// CHECK: arith.shrui %[[W]], %{{.+}} : vector<2xi32>
// CHECK: %[[ALL:.+]] = vector.shuffle %{{.+}}, %{{.+}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// Lane e (word e / 8, field e % 8) is pair vector e % 4, word, half (e % 8) / 4.
// CHECK: %[[Q:.+]] = vector.shuffle %[[ALL]], %[[ALL]] [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15] : vector<16xbf16>, vector<16xbf16>
// CHECK: %[[R:.+]] = arith.mulf %[[Q]], %[[S]] : vector<16xbf16>
// CHECK-NOT: arith.truncf
// CHECK: return %[[R]]
func.func @signed_int4_bf16_scale(%w: vector<2xi32>, %s: vector<16xbf16>) -> vector<16xbf16> {
  %spread = vector.shuffle %w, %w [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1] : vector<2xi32>, vector<2xi32>
  %up = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0, 28, 24, 20, 16, 12, 8, 4, 0]> : vector<16xi32>
  %c28 = arith.constant dense<28> : vector<16xi32>
  %top = arith.shli %spread, %up : vector<16xi32>
  %field = arith.shrsi %top, %c28 : vector<16xi32>
  %q = arith.trunci %field : vector<16xi32> to vector<16xi8>
  %f = arith.sitofp %q : vector<16xi8> to vector<16xf32>
  %sf = arith.extf %s : vector<16xbf16> to vector<16xf32>
  %v = arith.mulf %f, %sf : vector<16xf32>
  %h = arith.truncf %v : vector<16xf32> to vector<16xbf16>
  return %h : vector<16xbf16>
}

// -----

// Unsigned fields to f16 (1024.0 is 0x6400, ulp 1), only the low word
// half used (fields 0 and 1 of one word: pair vectors 0 and 1, half 0);
// and-then-or: lop3's table 0xea.
// CHECK-LABEL: func @unsigned_f16_low_fields
// CHECK-DAG: arith.constant dense<1.024000e+03> : vector<2xf16>
// CHECK: llvm.inline_asm "lop3.b32 $0, $1, 0x000f000f, 0x64006400, 0xea;"
// CHECK: arith.shrui
// CHECK: llvm.inline_asm "lop3.b32 $0, $1, 0x000f000f, 0x64006400, 0xea;"
// CHECK-NOT: arith.shrui
// CHECK: vector.shuffle %{{.+}}, %{{.+}} [0, 2] : vector<4xf16>, vector<4xf16>
// CHECK-NOT: arith.uitofp
func.func @unsigned_f16_low_fields(%w: vector<1xi32>) -> vector<2xf16> {
  %spread = vector.shuffle %w, %w [0, 0] : vector<1xi32>, vector<1xi32>
  %up = arith.constant dense<[28, 24]> : vector<2xi32>
  %c28 = arith.constant dense<28> : vector<2xi32>
  %top = arith.shli %spread, %up : vector<2xi32>
  %field = arith.shrui %top, %c28 : vector<2xi32>
  %f = arith.uitofp %field : vector<2xi32> to vector<2xf16>
  return %f : vector<2xf16>
}

// -----

// Bytes (int8) times a bf16 scale: the multiply in bf16; the bytes to
// bf16 through f32 (exact), for tile-small-int-to-float.
// CHECK-LABEL: func @int8_bf16_scale
// CHECK-SAME: (%[[Q:.+]]: vector<4xi8>, %[[S:.+]]: vector<4xbf16>)
// CHECK: %[[F:.+]] = arith.sitofp %[[Q]] : vector<4xi8> to vector<4xf32>
// CHECK: %[[B:.+]] = arith.truncf %[[F]] : vector<4xf32> to vector<4xbf16>
// CHECK: %[[R:.+]] = arith.mulf %[[S]], %[[B]] : vector<4xbf16>
// CHECK: return %[[R]]
func.func @int8_bf16_scale(%q: vector<4xi8>, %s: vector<4xbf16>) -> vector<4xbf16> {
  %f = arith.sitofp %q : vector<4xi8> to vector<4xf32>
  %sf = arith.extf %s : vector<4xbf16> to vector<4xf32>
  %v = arith.mulf %sf, %f : vector<4xf32>
  %h = arith.truncf %v : vector<4xf32> to vector<4xbf16>
  return %h : vector<4xbf16>
}

// -----

// Left in f32, where one rounding in bf16 would not be the same value:
// an f32 scale, a 16-bit integer, two widened factors (an f32 subnormal
// product is rounded twice), a scale of another type, and truncation
// toward zero.
// CHECK-LABEL: func @not_exact
// CHECK-COUNT-5: arith.mulf %{{.+}}, %{{.+}} : f32
// CHECK-NOT: arith.mulf %{{.+}}, %{{.+}} : bf16
func.func @not_exact(%q: i8, %w: i16, %s: f32, %b: bf16, %c: bf16, %h: f16)
    -> (bf16, bf16, bf16, bf16, bf16) {
  %f = arith.sitofp %q : i8 to f32
  %g = arith.sitofp %w : i16 to f32
  %bf = arith.extf %b : bf16 to f32
  %cf = arith.extf %c : bf16 to f32
  %hf = arith.extf %h : f16 to f32
  %v0 = arith.mulf %f, %s : f32
  %v1 = arith.mulf %g, %bf : f32
  %v2 = arith.mulf %bf, %cf : f32
  %v3 = arith.mulf %f, %hf : f32
  %v4 = arith.mulf %f, %bf : f32
  %r0 = arith.truncf %v0 : f32 to bf16
  %r1 = arith.truncf %v1 : f32 to bf16
  %r2 = arith.truncf %v2 : f32 to bf16
  %r3 = arith.truncf %v3 : f32 to bf16
  %r4 = arith.truncf %v4 toward_zero : f32 to bf16
  return %r0, %r1, %r2, %r3, %r4 : bf16, bf16, bf16, bf16, bf16
}

// -----

// Fields not on 4-bit boundaries are not nibbles, and a 32-bit integer
// is not exact in f32: left alone.
// CHECK-LABEL: func @not_nibbles
// CHECK: arith.sitofp %{{.+}} : vector<2xi32> to vector<2xbf16>
func.func @not_nibbles(%w: vector<1xi32>) -> vector<2xbf16> {
  %spread = vector.shuffle %w, %w [0, 0] : vector<1xi32>, vector<1xi32>
  %up = arith.constant dense<[28, 26]> : vector<2xi32>
  %c28 = arith.constant dense<28> : vector<2xi32>
  %top = arith.shli %spread, %up : vector<2xi32>
  %field = arith.shrsi %top, %c28 : vector<2xi32>
  %f = arith.sitofp %field : vector<2xi32> to vector<2xbf16>
  return %f : vector<2xbf16>
}
