// fp8 in and out of a map: bf16 to e4m3 (round to nearest even, saturated)
// and e5m2 inputs widened, scaled and cast back, on ragged rows. fp8 casts
// are PTX's from sm_89 on, so sm_90a only.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// TILE-CHIPS: sm_90a
// CHECK: RESULT fp8_casts_ragged status=PASS

func.func @fp8_casts_ragged(%x: tensor<1000x300xbf16>, %y: tensor<1000x300xf8E5M2>) -> tensor<1000x300xf8E4M3FN> {
  %z = tile.map (%x, %y) : (tensor<1000x300xbf16>, tensor<1000x300xf8E5M2>) -> tensor<1000x300xf8E4M3FN> {
  ^bb0(%a: bf16, %b: f8E5M2):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : f8E5M2 to f32
    %s = arith.mulf %af, %bf : f32
    %t = arith.truncf %s : f32 to f8E4M3FN
    tile.yield %t : f8E4M3FN
  }
  return %z : tensor<1000x300xf8E4M3FN>
}
