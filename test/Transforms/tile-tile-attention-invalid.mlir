// What tile-tile refuses in a tile.fused group marked tile.attention by
// hand (tile-fuse marks only the blocks matchAttention takes): a group
// with no matmul (tile-configure leaves it without a config; it used to
// crash there), scores against a K^T made outside the group, where the
// kernel needs K as stored (TMA rows) and its transpose as a view, a head
// dimension the tensor cores cannot step through, and an epilogue op the
// kernel cannot apply to its output tile.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-configure=chip=sm_90a --tile-tile

func.func @no_matmul(%arg0: tensor<256x64xbf16>, %arg1: tensor<256x64xbf16>, %arg2: tensor<256x64xbf16>) -> tensor<256x64xbf16> {
  // expected-error @+1 {{'tile.fused' op is marked tile.attention but is not an attention block: it holds no tile.matmul}}
  %0 = tile.fused(%arg1, %arg0, %arg2) {tile.attention} : (tensor<256x64xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<256x64xbf16> {
  ^bb0(%arg3: tensor<256x64xbf16>, %arg4: tensor<256x64xbf16>, %arg5: tensor<256x64xbf16>):
    %13 = tile.cast %arg3 : tensor<256x64xbf16> -> tensor<256x64xbf16>
    tile.yield %13 : tensor<256x64xbf16>
  }
  return %0 : tensor<256x64xbf16>
}

// -----

func.func @keys_transposed_outside(%arg0: tensor<256x64xbf16>, %arg1: tensor<256x64xbf16>, %arg2: tensor<256x64xbf16>) -> tensor<256x64xbf16> {
  %cst = arith.constant 0xFF800000 : f32
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cst_1 = arith.constant 0.0883883461 : f32
  %kt = tile.transpose %arg1 : tensor<256x64xbf16> -> tensor<64x256xbf16>
  // expected-error @+1 {{'tile.fused' op expects Q, K and V from outside the group and the scores as Q times tile.transpose(K)}}
  %0 = tile.fused(%kt, %arg0, %arg2) {tile.attention} : (tensor<64x256xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<256x64xbf16> {
  ^bb0(%arg3: tensor<64x256xbf16>, %arg4: tensor<256x64xbf16>, %arg5: tensor<256x64xbf16>):
    %cst_2 = arith.constant 0.0883883461 : f32
    %cst_3 = arith.constant 0xFF800000 : f32
    %cst_4 = arith.constant 0.000000e+00 : f32
    %2 = tile.matmul %arg4, %arg3 : (tensor<256x64xbf16>, tensor<64x256xbf16>) -> tensor<256x256xf32>
    %3 = tile.iota dim = 0 : tensor<256x256xi32>
    %4 = tile.iota dim = 1 : tensor<256x256xi32>
    %5 = tile.map(%2, %3, %4) : (tensor<256x256xf32>, tensor<256x256xi32>, tensor<256x256xi32>) -> tensor<256x256xf32> {
    ^bb0(%arg6: f32, %arg7: i32, %arg8: i32):
      %14 = arith.mulf %arg6, %cst_2 : f32
      %15 = arith.cmpi sle, %arg8, %arg7 : i32
      %16 = arith.select %15, %14, %cst_3 : f32
      tile.yield %14 : f32
    }
    %6 = tile.reduce %5, %cst_3 dim = 1 : tensor<256x256xf32>, f32 -> tensor<256xf32> {
    ^bb0(%arg6: f32, %arg7: f32):
      %14 = arith.maximumf %arg6, %arg7 : f32
      tile.yield %14 : f32
    }
    %7 = tile.broadcast %6 [1] : tensor<256xf32> -> tensor<256x256xf32>
    %8 = tile.map(%5, %7) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32> {
    ^bb0(%arg6: f32, %arg7: f32):
      %14 = arith.subf %arg6, %arg7 : f32
      %15 = math.exp %14 : f32
      tile.yield %15 : f32
    }
    %9 = tile.reduce %8, %cst_4 dim = 1 : tensor<256x256xf32>, f32 -> tensor<256xf32> {
    ^bb0(%arg6: f32, %arg7: f32):
      %14 = arith.addf %arg6, %arg7 : f32
      tile.yield %14 : f32
    }
    %10 = tile.broadcast %9 [1] : tensor<256xf32> -> tensor<256x256xf32>
    %11 = tile.map(%8, %10) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xbf16> {
    ^bb0(%arg6: f32, %arg7: f32):
      %14 = arith.divf %arg6, %arg7 : f32
      %15 = arith.truncf %14 : f32 to bf16
      tile.yield %15 : bf16
    }
    %12 = tile.matmul %11, %arg5 : (tensor<256x256xbf16>, tensor<256x64xbf16>) -> tensor<256x64xf32>
    %13 = tile.cast %12 : tensor<256x64xf32> -> tensor<256x64xbf16>
    tile.yield %13 : tensor<256x64xbf16>
  }
  return %0 : tensor<256x64xbf16>
}

// -----

// A head dimension of 8: the tensor-core products take K in steps of 16.
func.func @head_dim_8(%q: tensor<256x8xbf16>, %k: tensor<256x8xbf16>, %v: tensor<256x8xbf16>) -> tensor<256x8xbf16> {
  // expected-error @+1 {{'tile.fused' op needs head dimensions that are powers of two and multiples of 16, got 8 and 8}}
  %0 = tile.fused(%k, %q, %v) {tile.attention} : (tensor<256x8xbf16>, tensor<256x8xbf16>, tensor<256x8xbf16>) -> tensor<256x8xbf16> {
  ^bb0(%ak: tensor<256x8xbf16>, %aq: tensor<256x8xbf16>, %av: tensor<256x8xbf16>):
    %scale = arith.constant 0.125 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %kt = tile.transpose %ak : tensor<256x8xbf16> -> tensor<8x256xbf16>
    %s = tile.matmul %aq, %kt : (tensor<256x8xbf16>, tensor<8x256xbf16>) -> tensor<256x256xf32>
    %ss = tile.map(%s) : (tensor<256x256xf32>) -> tensor<256x256xf32> {
    ^bb0(%x: f32):
      %r = arith.mulf %x, %scale : f32
      tile.yield %r : f32
    }
    %max = tile.reduce %ss, %ninf dim = 1 : tensor<256x256xf32>, f32 -> tensor<256xf32> {
    ^bb0(%x: f32, %y: f32):
      %r = arith.maximumf %x, %y : f32
      tile.yield %r : f32
    }
    %mb = tile.broadcast %max [1] : tensor<256xf32> -> tensor<256x256xf32>
    %e = tile.map(%ss, %mb) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32> {
    ^bb0(%x: f32, %y: f32):
      %d = arith.subf %x, %y : f32
      %r = math.exp %d : f32
      tile.yield %r : f32
    }
    %sum = tile.reduce %e, %zero dim = 1 : tensor<256x256xf32>, f32 -> tensor<256xf32> {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      tile.yield %r : f32
    }
    %sb = tile.broadcast %sum [1] : tensor<256xf32> -> tensor<256x256xf32>
    %p = tile.map(%e, %sb) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xbf16> {
    ^bb0(%x: f32, %y: f32):
      %d = arith.divf %x, %y : f32
      %r = arith.truncf %d : f32 to bf16
      tile.yield %r : bf16
    }
    %o = tile.matmul %p, %av : (tensor<256x256xbf16>, tensor<256x8xbf16>) -> tensor<256x8xf32>
    %ob = tile.cast %o : tensor<256x8xf32> -> tensor<256x8xbf16>
    tile.yield %ob : tensor<256x8xbf16>
  }
  return %0 : tensor<256x8xbf16>
}

// -----

// An epilogue op other than a cast or a tile.map after the output matmul.
func.func @transposed_output(%q: tensor<256x64xbf16>, %k: tensor<256x64xbf16>, %v: tensor<256x64xbf16>) -> tensor<64x256xbf16> {
  %0 = tile.fused(%k, %q, %v) {tile.attention} : (tensor<256x64xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<64x256xbf16> {
  ^bb0(%ak: tensor<256x64xbf16>, %aq: tensor<256x64xbf16>, %av: tensor<256x64xbf16>):
    %scale = arith.constant 0.125 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %kt = tile.transpose %ak : tensor<256x64xbf16> -> tensor<64x256xbf16>
    %s = tile.matmul %aq, %kt : (tensor<256x64xbf16>, tensor<64x256xbf16>) -> tensor<256x256xf32>
    %ss = tile.map(%s) : (tensor<256x256xf32>) -> tensor<256x256xf32> {
    ^bb0(%x: f32):
      %r = arith.mulf %x, %scale : f32
      tile.yield %r : f32
    }
    %max = tile.reduce %ss, %ninf dim = 1 : tensor<256x256xf32>, f32 -> tensor<256xf32> {
    ^bb0(%x: f32, %y: f32):
      %r = arith.maximumf %x, %y : f32
      tile.yield %r : f32
    }
    %mb = tile.broadcast %max [1] : tensor<256xf32> -> tensor<256x256xf32>
    %e = tile.map(%ss, %mb) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32> {
    ^bb0(%x: f32, %y: f32):
      %d = arith.subf %x, %y : f32
      %r = math.exp %d : f32
      tile.yield %r : f32
    }
    %sum = tile.reduce %e, %zero dim = 1 : tensor<256x256xf32>, f32 -> tensor<256xf32> {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      tile.yield %r : f32
    }
    %sb = tile.broadcast %sum [1] : tensor<256xf32> -> tensor<256x256xf32>
    %p = tile.map(%e, %sb) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xbf16> {
    ^bb0(%x: f32, %y: f32):
      %d = arith.divf %x, %y : f32
      %r = arith.truncf %d : f32 to bf16
      tile.yield %r : bf16
    }
    %o = tile.matmul %p, %av : (tensor<256x256xbf16>, tensor<256x64xbf16>) -> tensor<256x64xf32>
    %ob = tile.cast %o : tensor<256x64xf32> -> tensor<256x64xbf16>
    // expected-error @+1 {{'tile.transpose' op cannot follow an attention block in its kernel}}
    %t = tile.transpose %ob : tensor<256x64xbf16> -> tensor<64x256xbf16>
    tile.yield %t : tensor<64x256xbf16>
  }
  return %0 : tensor<64x256xbf16>
}
