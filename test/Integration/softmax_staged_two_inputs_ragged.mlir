// Fused softmax of x + r on 19 rows of 25001 bf16 each: a wide row group with two row inputs, which on sm_90a are both staged in shared memory (2 x 50016 bytes, under half of 228 KB less 3 KB), each copied with cp.async at the 16-byte boundary before the row, partial first and last runs element by element; on sm_80 (164 KB) they do not fit and the rows are walked through L2. Checked against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_staged_two_inputs_ragged status=PASS

func.func @softmax_staged_two_inputs_ragged(%x: tensor<19x25001xbf16>, %r: tensor<19x25001xbf16>) -> tensor<19x25001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.map (%x, %r) : (tensor<19x25001xbf16>, tensor<19x25001xbf16>) -> tensor<19x25001xf32> {
  ^bb0(%v: bf16, %w: bf16):
    %vf = arith.extf %v : bf16 to f32
    %wf = arith.extf %w : bf16 to f32
    %s = arith.addf %vf, %wf : f32
    tile.yield %s : f32
  }
  %max = tile.reduce %xf, %ninf dim = 1 : tensor<19x25001xf32>, f32 -> tensor<19xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    tile.yield %m : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<19xf32> -> tensor<19x25001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<19x25001xf32>, tensor<19x25001xf32>) -> tensor<19x25001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<19x25001xf32>, f32 -> tensor<19xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<19xf32> -> tensor<19x25001xf32>
  %y = tile.map (%e, %sumb) : (tensor<19x25001xf32>, tensor<19x25001xf32>) -> tensor<19x25001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<19x25001xbf16>
}
