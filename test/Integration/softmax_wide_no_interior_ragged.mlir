// Fused softmax on 64 rows of 1100 bf16 with 32 threads per row (tile.config on the max): a wide row with a configured thread count, walked in chunks of 512 (2 runs per thread) with edge chunks of 256, shifted to 16-byte boundaries, two programs per SM asked of the backend. (Written for a row with no interior chunk, which 4 runs per thread allowed; with 2, every wide row has one.) Checked against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_wide_no_interior_ragged status=PASS

func.func @softmax_wide_no_interior_ragged(%x: tensor<64x1100xbf16>) -> tensor<64x1100xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<64x1100xbf16> -> tensor<64x1100xf32>
  %max = tile.reduce %xf, %ninf dim = 1 {tile.config = #tile.config<block = [1, 1100], threads = 32>} : tensor<64x1100xf32>, f32 -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<64xf32> -> tensor<64x1100xf32>
  %e = tile.map (%xf, %maxb) : (tensor<64x1100xf32>, tensor<64x1100xf32>) -> tensor<64x1100xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<64x1100xf32>, f32 -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<64xf32> -> tensor<64x1100xf32>
  %y = tile.map (%e, %sumb) : (tensor<64x1100xf32>, tensor<64x1100xf32>) -> tensor<64x1100xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<64x1100xbf16>
}
