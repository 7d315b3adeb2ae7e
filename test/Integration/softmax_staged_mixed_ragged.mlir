// Fused softmax of x + r on 23 rows of 9001, x bf16 and r f32, with 64 threads per row (tile.config on the max), which makes the rows wide: both inputs are staged in shared memory on sm_80 and sm_90a (18016 + 36032 bytes), the f32 runs of 8 (32 bytes) as two cp.async each, partial runs element by element. Checked against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_staged_mixed_ragged status=PASS

func.func @softmax_staged_mixed_ragged(%x: tensor<23x9001xbf16>, %r: tensor<23x9001xf32>) -> tensor<23x9001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %xf = tile.map (%x, %r) : (tensor<23x9001xbf16>, tensor<23x9001xf32>) -> tensor<23x9001xf32> {
  ^bb0(%v: bf16, %w: f32):
    %vf = arith.extf %v : bf16 to f32
    %s = arith.addf %vf, %w : f32
    tile.yield %s : f32
  }
  %max = tile.reduce %xf, %ninf dim = 1 {tile.config = #tile.config<block = [1, 9001], threads = 64>} : tensor<23x9001xf32>, f32 -> tensor<23xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    tile.yield %m : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<23xf32> -> tensor<23x9001xf32>
  %e = tile.map (%xf, %maxb) : (tensor<23x9001xf32>, tensor<23x9001xf32>) -> tensor<23x9001xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<23x9001xf32>, f32 -> tensor<23xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<23xf32> -> tensor<23x9001xf32>
  %y = tile.map (%e, %sumb) : (tensor<23x9001xf32>, tensor<23x9001xf32>) -> tensor<23x9001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<23x9001xbf16>
}
