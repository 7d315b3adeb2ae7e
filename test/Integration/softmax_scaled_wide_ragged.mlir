// Fused softmax of x * t on 77 rows of 40001 bf16, t a per-row f32 scale (a temperature): a wide row group with a 1-D per-row operand, so each program also reads its t through a one-row view while its chunks are shifted to the 16-byte boundary before the row. Checked against the unfused reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_scaled_wide_ragged status=PASS

func.func @softmax_scaled_wide_ragged(%x: tensor<77x40001xbf16>, %t: tensor<77xf32>) -> tensor<77x40001xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %tb = tile.broadcast %t [1] : tensor<77xf32> -> tensor<77x40001xf32>
  %xs = tile.map (%x, %tb) : (tensor<77x40001xbf16>, tensor<77x40001xf32>) -> tensor<77x40001xf32> {
  ^bb0(%v: bf16, %s: f32):
    %vf = arith.extf %v : bf16 to f32
    %r = arith.mulf %vf, %s : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %xs, %ninf dim = 1 : tensor<77x40001xf32>, f32 -> tensor<77xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<77xf32> -> tensor<77x40001xf32>
  %e = tile.map (%xs, %maxb) : (tensor<77x40001xf32>, tensor<77x40001xf32>) -> tensor<77x40001xf32> {
  ^bb0(%v: f32, %m: f32):
    %d = arith.subf %v, %m : f32
    %r = math.exp %d : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<77x40001xf32>, f32 -> tensor<77xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<77xf32> -> tensor<77x40001xf32>
  %y = tile.map (%e, %sumb) : (tensor<77x40001xf32>, tensor<77x40001xf32>) -> tensor<77x40001xbf16> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    %h = arith.truncf %q : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<77x40001xbf16>
}
