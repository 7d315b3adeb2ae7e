// RUN: tile-opt %s -split-input-file --tile-lower-fp8-casts | FileCheck %s

// Three e4m3 lanes to f32: two pairs (the last padded with a zero byte),
// each through cvt to f16x2, then widened.
// CHECK-LABEL: func @extend_vector
// CHECK-SAME: (%[[X:.+]]: vector<3xf8E4M3FN>)
// CHECK: %[[B:.+]] = arith.bitcast %[[X]] : vector<3xf8E4M3FN> to vector<3xi8>
// CHECK: %[[P0:.+]] = vector.from_elements %{{.+}}, %{{.+}} : vector<2xi8>
// CHECK: nvvm.convert.f8x2.to.f16x2 %[[P0]] : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: %[[P1:.+]] = vector.from_elements %{{.+}}, %c0_i8 : vector<2xi8>
// CHECK: nvvm.convert.f8x2.to.f16x2 %[[P1]] : vector<2xi8>(f8E4M3FN) -> vector<2xf16>
// CHECK: %[[H:.+]] = vector.from_elements %{{.+}}, %{{.+}}, %{{.+}} : vector<3xf16>
// CHECK: %[[F:.+]] = arith.extf %[[H]] : vector<3xf16> to vector<3xf32>
// CHECK: return %[[F]]
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  func.func @extend_vector(%x: vector<3xf8E4M3FN>) -> vector<3xf32> {
    %w = arith.extf %x : vector<3xf8E4M3FN> to vector<3xf32>
    return %w : vector<3xf32>
  }
}

// -----

// e5m2 to bf16: through f16 and f32 (each step exact).
// CHECK-LABEL: func @extend_scalar_bf16
// CHECK: nvvm.convert.f8x2.to.f16x2 %{{.+}} : vector<2xi8>(f8E5M2) -> vector<2xf16>
// CHECK: %[[H:.+]] = vector.extract %{{.+}}[0] : f16 from vector<2xf16>
// CHECK: %[[F:.+]] = arith.extf %[[H]] : f16 to f32
// CHECK: arith.truncf %[[F]] : f32 to bf16
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  func.func @extend_scalar_bf16(%x: f8E5M2) -> bf16 {
    %w = arith.extf %x : f8E5M2 to bf16
    return %w : bf16
  }
}

// -----

// bf16 pairs to e4m3: widened to f32, then one satfinite cvt per pair
// (a to the high byte: the second lane), the bytes back as fp8.
// CHECK-LABEL: func @truncate_vector
// CHECK-SAME: (%[[X:.+]]: vector<2xbf16>)
// CHECK: %[[F:.+]] = arith.extf %[[X]] : vector<2xbf16> to vector<2xf32>
// CHECK: %[[L0:.+]] = vector.extract %[[F]][0]
// CHECK: %[[L1:.+]] = vector.extract %[[F]][1]
// CHECK: %[[P:.+]] = nvvm.convert.f32x2.to.f8x2 %[[L1]], %[[L0]] {rnd = #nvvm.fp_rnd_mode<rn>, sat = #nvvm.sat_mode<satfinite>} : vector<2xi8>(f8E4M3FN)
// CHECK: %[[B0:.+]] = vector.extract %[[P]][0]
// CHECK: %[[B1:.+]] = vector.extract %[[P]][1]
// CHECK: %[[BYTES:.+]] = vector.from_elements %[[B0]], %[[B1]] : vector<2xi8>
// CHECK: arith.bitcast %[[BYTES]] : vector<2xi8> to vector<2xf8E4M3FN>
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  func.func @truncate_vector(%x: vector<2xbf16>) -> vector<2xf8E4M3FN> {
    %t = arith.truncf %x : vector<2xbf16> to vector<2xf8E4M3FN>
    return %t : vector<2xf8E4M3FN>
  }
}

