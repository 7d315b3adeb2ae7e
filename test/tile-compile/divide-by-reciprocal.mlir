// In the exact pipeline, softmax's division by the row sum goes through
// tile-divide-by-reciprocal: one correctly rounded reciprocal per row
// (rcp.rn), a multiply and two FMAs per element, and div.rn only on the
// branch for vectors out of range. With --fast-math the division is
// div.approx and the pass leaves it alone.
// RUN: tile-compile %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=EXACT
// RUN: tile-compile %s --chip=sm_90a --fast-math --emit=ptx | FileCheck %s --check-prefix=FAST
// EXACT-LABEL: // module row_softmax_0
// EXACT-DAG: rcp.rn.f32
// EXACT-DAG: min.NaN.f32
// EXACT-DAG: max.NaN.f32
// EXACT-DAG: fma.rn.f32
// EXACT-DAG: div.rn.f32
// EXACT-LABEL: // module row_softmax_ref_0
// FAST-LABEL: // module row_softmax_0
// FAST-NOT: rcp.rn.f32
// FAST: div.approx.f32
// FAST-NOT: div.rn.f32
// FAST-LABEL: // module row_softmax_ref_0
func.func @row_softmax(%x: tensor<64x1024xf32>) -> tensor<64x1024xbf16> {
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %x, %zero dim = 1 : tensor<64x1024xf32>, f32 -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<64xf32> -> tensor<64x1024xf32>
  %y = tile.map (%x, %sb) : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<64x1024xbf16> {
  ^bb0(%v: f32, %t: f32):
    %q = arith.divf %v, %t : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<64x1024xbf16>
}
