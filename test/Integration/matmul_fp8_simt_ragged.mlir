// An e4m3 x e5m2 matmul with f32 accumulation and a bf16 output, ragged M,
// N and K, against the f64 reference on the same fp8 values (both decode
// them exactly). On the SIMT path for now (fp8 wgmma is not built yet);
// sm_90a only (fp8 conversions need sm_89).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// TILE-CHIPS: sm_90a
// CHECK: RESULT matmul_fp8_simt_ragged status=PASS

func.func @matmul_fp8_simt_ragged(%a: tensor<250x200xf8E4M3FN>, %b: tensor<200x130xf8E5M2>) -> tensor<250x130xbf16> {
  %c = tile.matmul %a, %b : (tensor<250x200xf8E4M3FN>, tensor<200x130xf8E5M2>) -> tensor<250x130xf32>
  %y = tile.cast %c : tensor<250x130xf32> -> tensor<250x130xbf16>
  return %y : tensor<250x130xbf16>
}
