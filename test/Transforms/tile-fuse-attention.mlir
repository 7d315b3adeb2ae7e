// tile-fuse's attention blocks (AttentionPattern.h): softmax(S) V with
// S = Q transpose(K), through score maps (a scale, a causal mask of
// tile.iota positions), the row softmax written out and the probabilities
// cast to bf16, is one tile.fused op marked tile.attention with the cast
// after it; the row group and the epilogue groups claim none of it.
// A softmax feeding a matmul that does not fit stays unfused, and
// explain-attention says why.
// RUN: tile-opt %s -split-input-file --tile-fuse="explain-attention=1" 2>/dev/null | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-fuse="explain-attention=1" 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// CHECK-LABEL: func.func @attention
// CHECK: %[[O:.+]] = tile.fused(%{{.+}}, %{{.+}}, %{{.+}}) {tile.attention} : (tensor<1000x64xbf16>, tensor<1000x64xbf16>, tensor<1000x64xbf16>) -> tensor<1000x64xbf16>
// CHECK: tile.transpose
// CHECK: tile.matmul
// CHECK: tile.iota dim = 0
// CHECK: tile.iota dim = 1
// CHECK: tile.map
// CHECK: arith.select
// CHECK: tile.reduce
// CHECK: math.exp
// CHECK: tile.reduce
// CHECK: arith.divf
// CHECK: tile.matmul
// CHECK: tile.cast
// CHECK: tile.yield
// CHECK-NOT: tile.fused
// CHECK: return %[[O]]
func.func @attention(%q: tensor<1000x64xbf16>, %k: tensor<1000x64xbf16>, %v: tensor<1000x64xbf16>) -> tensor<1000x64xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %kt = tile.transpose %k : tensor<1000x64xbf16> -> tensor<64x1000xbf16>
  %s = tile.matmul %q, %kt : (tensor<1000x64xbf16>, tensor<64x1000xbf16>) -> tensor<1000x1000xf32>
  %rows = tile.iota dim = 0 : tensor<1000x1000xi32>
  %cols = tile.iota dim = 1 : tensor<1000x1000xi32>
  %ss = tile.map (%s, %rows, %cols) : (tensor<1000x1000xf32>, tensor<1000x1000xi32>, tensor<1000x1000xi32>) -> tensor<1000x1000xf32> {
  ^bb0(%a: f32, %i: i32, %j: i32):
    %r = arith.mulf %a, %scale : f32
    %keep = arith.cmpi sle, %j, %i : i32
    %m = arith.select %keep, %r, %ninf : f32
    tile.yield %m : f32
  }
  %max = tile.reduce %ss, %ninf dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %e = tile.map (%ss, %mb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<1000x1000xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [1] : tensor<1000xf32> -> tensor<1000x1000xf32>
  %p = tile.map (%e, %sb) : (tensor<1000x1000xf32>, tensor<1000x1000xf32>) -> tensor<1000x1000xbf16> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }
  %o = tile.matmul %p, %v : (tensor<1000x1000xbf16>, tensor<1000x64xbf16>) -> tensor<1000x64xf32>
  %ob = tile.cast %o : tensor<1000x64xf32> -> tensor<1000x64xbf16>
  return %ob : tensor<1000x64xbf16>
}

// -----

// REMARK: remark: not fused as attention: the probabilities are used outside the block, so they are materialized
// CHECK-LABEL: func.func @probabilities_returned
// CHECK-NOT: tile.attention
func.func @probabilities_returned(%q: tensor<128x64xbf16>, %k: tensor<128x64xbf16>, %v: tensor<128x64xbf16>) -> (tensor<128x64xf32>, tensor<128x128xbf16>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %kt = tile.transpose %k : tensor<128x64xbf16> -> tensor<64x128xbf16>
  %s = tile.matmul %q, %kt : (tensor<128x64xbf16>, tensor<64x128xbf16>) -> tensor<128x128xf32>
  %max = tile.reduce %s, %ninf dim = 1 : tensor<128x128xf32>, f32 -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<128xf32> -> tensor<128x128xf32>
  %e = tile.map (%s, %mb) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<128x128xf32>, f32 -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [1] : tensor<128xf32> -> tensor<128x128xf32>
  %p = tile.map (%e, %sb) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xbf16> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }
  %o = tile.matmul %p, %v : (tensor<128x128xbf16>, tensor<128x64xbf16>) -> tensor<128x64xf32>
  return %o, %p : tensor<128x64xf32>, tensor<128x128xbf16>
}

// -----

// REMARK: remark: not fused as attention: the numerator is not exp(x - m) (a tile.map of arith.subf then math.exp, or math.exp of such a subtraction)
// CHECK-LABEL: func.func @log_softmax_shift
// CHECK-NOT: tile.attention
func.func @log_softmax_shift(%q: tensor<128x64xbf16>, %k: tensor<128x64xbf16>, %v: tensor<128x64xbf16>) -> tensor<128x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %kt = tile.transpose %k : tensor<128x64xbf16> -> tensor<64x128xbf16>
  %s = tile.matmul %q, %kt : (tensor<128x64xbf16>, tensor<64x128xbf16>) -> tensor<128x128xf32>
  %max = tile.reduce %s, %ninf dim = 1 : tensor<128x128xf32>, f32 -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [1] : tensor<128xf32> -> tensor<128x128xf32>
  %e = tile.map (%s, %mb) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp2 %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<128x128xf32>, f32 -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [1] : tensor<128xf32> -> tensor<128x128xf32>
  %p = tile.map (%e, %sb) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xbf16> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.divf %a, %b : f32
    %x = arith.truncf %d : f32 to bf16
    tile.yield %x : bf16
  }
  %o = tile.matmul %p, %v : (tensor<128x128xbf16>, tensor<128x64xbf16>) -> tensor<128x64xf32>
  return %o : tensor<128x64xf32>
}

// -----

// K's heads repeated 4 times but V's twice: not one grouped-query factor.
// REMARK: remark: not fused as attention: K and V do not share their heads by one factor (grouped-query attention repeats both, tile.repeat along the head dimension)
// CHECK-LABEL: func.func @gqa_factors_differ
// CHECK-NOT: tile.attention
func.func @gqa_factors_differ(%q: tensor<8x128x64xbf16>, %k2: tensor<2x128x64xbf16>, %v4: tensor<4x128x64xbf16>) -> tensor<8x128x64xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %k = tile.repeat %k2 dim = 0 times = 4 : tensor<2x128x64xbf16> -> tensor<8x128x64xbf16>
  %v = tile.repeat %v4 dim = 0 times = 2 : tensor<4x128x64xbf16> -> tensor<8x128x64xbf16>
  %kt = tile.transpose %k : tensor<8x128x64xbf16> -> tensor<8x64x128xbf16>
  %s0 = tile.matmul %q, %kt : (tensor<8x128x64xbf16>, tensor<8x64x128xbf16>) -> tensor<8x128x128xf32>
  %s = tile.map (%s0) : (tensor<8x128x128xf32>) -> tensor<8x128x128xf32> {
  ^bb0(%a: f32):
    %c = arith.constant 0.125 : f32
    %r = arith.mulf %a, %c : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %s, %ninf dim = 2 : tensor<8x128x128xf32>, f32 -> tensor<8x128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.maximumf %a, %b : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [2] : tensor<8x128xf32> -> tensor<8x128x128xf32>
  %e = tile.map (%s, %mb) : (tensor<8x128x128xf32>, tensor<8x128x128xf32>) -> tensor<8x128x128xf32> {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %x = math.exp %d : f32
    tile.yield %x : f32
  }
  %sum = tile.reduce %e, %zero dim = 2 : tensor<8x128x128xf32>, f32 -> tensor<8x128xf32> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [2] : tensor<8x128xf32> -> tensor<8x128x128xf32>
  %p = tile.map (%e, %sb) : (tensor<8x128x128xf32>, tensor<8x128x128xf32>) -> tensor<8x128x128xbf16> {
  ^bb0(%a: f32, %b: f32):
    %r = arith.divf %a, %b : f32
    %t = arith.truncf %r : f32 to bf16
    tile.yield %t : bf16
  }
  %o = tile.matmul %p, %v : (tensor<8x128x128xbf16>, tensor<8x128x64xbf16>) -> tensor<8x128x64xf32>
  return %o : tensor<8x128x64xf32>
}
