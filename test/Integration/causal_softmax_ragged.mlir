// A causal mask from index comparisons: scores [1000, 1000] keep the
// element (i, j) where j <= i (tile.iota for both positions, a tile.map
// of cmpi and select) and -inf elsewhere, then the row softmax; checked
// against the naive reference kernels on ragged rows.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT causal_softmax_ragged status=PASS

func.func @causal_softmax_ragged(%s: tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %rows = tile.iota dim = 0 : tensor<1000x1000xi32>
  %cols = tile.iota dim = 1 : tensor<1000x1000xi32>
  %masked = tile.map (%s, %rows, %cols) : (tensor<1000x1000xf32>, tensor<1000x1000xi32>, tensor<1000x1000xi32>) -> tensor<1000x1000xf32> {
  ^bb0(%x: f32, %i: i32, %j: i32):
    %keep = arith.cmpi sle, %j, %i : i32
    %r = arith.select %keep, %x, %ninf : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %masked, %ninf dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %e = tile.map (%masked, %maxb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %p = tile.map (%e, %sumb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  ^bb0(%v: f32, %sv: f32):
    %r = arith.divf %v, %sv : f32
    tile.yield %r : f32
  }
  return %p : tensor<1000x1000xf32>
}
