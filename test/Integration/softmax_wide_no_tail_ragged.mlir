// Fused softmax on 16 rows of 36861 bf16, walked in shifted chunks like softmax_wide_ragged: an edge chunk of 4096 (one run for each of 512 threads), interior chunks of 8192, then edge chunks of 4096 for what is left. Row r starts s = (5 r) % 8 columns past a 16-byte boundary: rows with s = 3 (7 and 15) end exactly at the last interior chunk and have no tail chunk, rows with s > 3 have one, rows with s < 3 two (their interior has one chunk fewer). Checked against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_wide_no_tail_ragged status=PASS

func.func @softmax_wide_no_tail_ragged(%x: tensor<16x36861xbf16>) -> tensor<16x36861xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<16x36861xbf16> -> tensor<16x36861xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<16x36861xf32>, f32 -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<16xf32> -> tensor<16x36861xf32>
  %e = tile.map (%xf, %maxb) : (tensor<16x36861xf32>, tensor<16x36861xf32>) -> tensor<16x36861xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<16x36861xf32>, f32 -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<16xf32> -> tensor<16x36861xf32>
  %y = tile.map (%e, %sumb) : (tensor<16x36861xf32>, tensor<16x36861xf32>) -> tensor<16x36861xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<16x36861xbf16>
}
