// What tile-tile refuses in a tile.fused group marked tile.attention by
// hand (tile-fuse marks only the blocks matchAttention takes): a group
// with no matmul (tile-configure leaves it without a config; it used to
// crash there), and scores against a K^T made outside the group, where
// the kernel needs K as stored (TMA rows) and its transpose as a view.
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
