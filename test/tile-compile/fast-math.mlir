// --fast-math turns f32 tanh into the hardware's tanh.approx.f32 and lets
// f32 divisions use div.approx.f32, in the real kernels only: the reference keeps libdevice's accurate tanhf, since
// it is what the approximation is checked against. Without the flag,
// nothing is approximated.
// RUN: tile-compile %s --chip=sm_90a --fast-math --emit=ptx | FileCheck %s --check-prefix=FAST
// RUN: tile-compile %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=EXACT
// FAST-LABEL: // module gelu_0
// FAST-DAG: tanh.approx.f32
// FAST-DAG: div.approx.f32
// FAST-LABEL: // module gelu_ref_0
// FAST-NOT: {{tanh|div}}.approx.f32
// EXACT-NOT: {{tanh|div}}.approx.f32
func.func @gelu(%x: tensor<64x64xf32>) -> tensor<64x64xbf16> {
  %y = tile.map (%x) : (tensor<64x64xf32>) -> tensor<64x64xbf16> {
  ^bb0(%v: f32):
    %t = math.tanh %v : f32
    %d = arith.divf %t, %v : f32
    %h = arith.truncf %d : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<64x64xbf16>
}
