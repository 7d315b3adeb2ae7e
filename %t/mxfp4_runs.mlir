func.func @mxfp4_runs(%x: tensor<16x8192xbf16>, %qw: tensor<8192x4096xi8>, %e: tensor<8192x256xi8>) -> tensor<16x8192xf32> {
  %q = tile.unpack %qw interleaved : tensor<8192x4096xi8> -> tensor<8192x8192xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<8192x256xi8> -> tensor<8192x8192xi8>
  %w = tile.map (%q, %er) : (tensor<8192x8192xi8>, tensor<8192x8192xi8>) -> tensor<8192x8192xbf16> {
  ^bb0(%u: i8, %ei: i8):
    %u32 = arith.extui %u : i8 to i32
    %e32 = arith.extui %ei : i8 to i32
    %c23 = arith.constant 23 : i32
    %sbits = arith.shli %e32, %c23 : i32
    %scale = arith.bitcast %sbits : i32 to f32
    %v = arith.uitofp %u32 : i32 to f32
    %ws = arith.mulf %v, %scale : f32
    %h = arith.truncf %ws : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
  %y = tile.matmul %x, %wt k_runs = 8 : (tensor<16x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<16x8192xf32>
  return %y : tensor<16x8192xf32>
}

