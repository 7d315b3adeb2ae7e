// Fused softmax, 4 rows per program on rows of 1001 bf16 (no 16-byte runs, so the next row is loaded into registers while the current one is computed); 777 rows leave the last program one row. Against the unfused reference.
// REQUIRES: cuda-device
// TILE-COMPILE-FLAGS: --tile-options=rows-per-program=4
// RUN: tile-compile %s --chip=sm_80 --tile-options=rows-per-program=4 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a --tile-options=rows-per-program=4 -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_rows_prefetch_ragged status=PASS

func.func @softmax_rows_prefetch_ragged(%x: tensor<777x1001xbf16>) -> tensor<777x1001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<777x1001xbf16> -> tensor<777x1001xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<777x1001xf32>, f32 -> tensor<777xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<777xf32> -> tensor<777x1001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<777x1001xf32>, tensor<777x1001xf32>) -> tensor<777x1001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<777x1001xf32>, f32 -> tensor<777xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<777xf32> -> tensor<777x1001xf32>
  %y = tile.map (%e, %sumb) : (tensor<777x1001xf32>, tensor<777x1001xf32>) -> tensor<777x1001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<777x1001xbf16>
}
