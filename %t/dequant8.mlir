func.func @dequant8(%x: tensor<16x8192xbf16>, %qw: tensor<8192x8192xi8>, %s: tensor<64x8192xf32>) -> tensor<16x8192xf32> {
  %st = tile.transpose %s : tensor<64x8192xf32> -> tensor<8192x64xf32>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<8192x64xf32> -> tensor<8192x8192xf32>
  %w = tile.map (%qw, %sr) : (tensor<8192x8192xi8>, tensor<8192x8192xf32>) -> tensor<8192x8192xbf16> {
  ^bb0(%qi: i8, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<16x8192xf32>
  return %y : tensor<16x8192xf32>
}

