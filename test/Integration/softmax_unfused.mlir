// Softmax as five kernels (max, subtract-exp, sum, divide), each checked
// against the naive reference; the fused single kernel is tile-fuse's job.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT softmax_unfused status=PASS

func.func @softmax_unfused(%x: tensor<333x1000xf32>) -> tensor<333x1000xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = tile.reduce %x, %ninf dim = 1 : tensor<333x1000xf32>, f32 -> tensor<333xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %m [1] : tensor<333xf32> -> tensor<333x1000xf32>
  %e = tile.map (%x, %mb) : (tensor<333x1000xf32>, tensor<333x1000xf32>) -> tensor<333x1000xf32> {
  ^bb0(%v: f32, %mv: f32):
    %d = arith.subf %v, %mv : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %s = tile.reduce %e, %zero dim = 1 : tensor<333x1000xf32>, f32 -> tensor<333xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %s [1] : tensor<333xf32> -> tensor<333x1000xf32>
  %y = tile.map (%e, %sb) : (tensor<333x1000xf32>, tensor<333x1000xf32>) -> tensor<333x1000xf32> {
  ^bb0(%v: f32, %t: f32):
    %q = arith.divf %v, %t : f32
    tile.yield %q : f32
  }
  return %y : tensor<333x1000xf32>
}
