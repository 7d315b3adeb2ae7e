// Fused softmax on 333 rows of 40001 bf16: too wide for registers, so each program walks its row in chunks, once per reduction and once to store. Rows are not 16-byte multiples, so each program reads and writes one-row views with its chunks shifted to the 16-byte boundary before the row: runs inside the row move whole, the row's first and last run (and the buffer's last, 333 * 40001 is not a multiple of 8) element by element. Checked against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_wide_ragged status=PASS

func.func @softmax_wide_ragged(%x: tensor<333x40001xbf16>) -> tensor<333x40001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.cast %x : tensor<333x40001xbf16> -> tensor<333x40001xf32>
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<333x40001xf32>, f32 -> tensor<333xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<333xf32> -> tensor<333x40001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<333x40001xf32>, tensor<333x40001xf32>) -> tensor<333x40001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<333x40001xf32>, f32 -> tensor<333xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<333xf32> -> tensor<333x40001xf32>
  %y = tile.map (%e, %sumb) : (tensor<333x40001xf32>, tensor<333x40001xf32>) -> tensor<333x40001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<333x40001xbf16>
}
