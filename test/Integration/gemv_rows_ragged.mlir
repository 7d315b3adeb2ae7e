// A matrix-vector product written out (what the frontend emits for x @ w.mT
// with x [1, K], decode's shape): the rows of W [N, K] times the broadcast
// x, summed along K in f32, as one row group that reads W once; bf16 out.
// N = 1030, K = 1000 (ragged).
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --fuse
// CHECK: RESULT gemv_rows_ragged status=PASS

func.func @gemv_rows_ragged(%x: tensor<1000xbf16>, %w: tensor<1030x1000xbf16>) -> tensor<1030xbf16> {
  %xb = tile.broadcast %x [0] : tensor<1000xbf16> -> tensor<1030x1000xbf16>
  %p = tile.map (%w, %xb) : (tensor<1030x1000xbf16>, tensor<1030x1000xbf16>) -> tensor<1030x1000xf32> {
  ^bb0(%a: bf16, %b: bf16):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %r = arith.mulf %af, %bf : f32
    tile.yield %r : f32
  }
  %zero = arith.constant 0.0 : f32
  %s = tile.reduce %p, %zero dim = 1 : tensor<1030x1000xf32>, f32 -> tensor<1030xf32> {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.yield %t : f32
  }
  %y = tile.cast %s : tensor<1030xf32> -> tensor<1030xbf16>
  return %y : tensor<1030xbf16>
}
