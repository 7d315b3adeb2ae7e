// A matrix-vector product written out (what the frontend emits for x @ w.mT
// with x [1, K], decode's shape): the rows of W [N, K] times the broadcast
// x, summed along K in f32, as one row group that reads W once; bf16 out.
// N = 300, K = 60001 (ragged; wide rows: chunked, the result stored once per row).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT gemv_wide_ragged status=PASS

func.func @gemv_wide_ragged(%x: tensor<60001xbf16>, %w: tensor<300x60001xbf16>) -> tensor<300xbf16> {
  %xb = tile.broadcast %x [0] : tensor<60001xbf16> -> tensor<300x60001xbf16>
  %p = tile.map (%w, %xb) : (tensor<300x60001xbf16>, tensor<300x60001xbf16>) -> tensor<300x60001xf32> {
  ^bb0(%a: bf16, %b: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %r = arith.mulf %af, %bf : f32
    tile.yield %r : f32
  }
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %p, %zero dim = 1 : tensor<300x60001xf32>, f32 -> tensor<300xf32> {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.yield %t : f32
  }
  %y = tile.cast %s : tensor<300xf32> -> tensor<300xbf16>
  return %y : tensor<300xbf16>
}
