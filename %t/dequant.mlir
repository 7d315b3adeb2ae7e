func.func @dequant(%x: tensor<16x8192xbf16>, %qw: tensor<4096x4096xi8>, %s: tensor<64x4096xf32>) -> tensor<16x4096xf32> {
  %q = tile.unpack %qw signed : tensor<4096x4096xi8> -> tensor<4096x8192xi8>
  %st = tile.transpose %s : tensor<64x4096xf32> -> tensor<4096x64xf32>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<4096x64xf32> -> tensor<4096x8192xf32>
  %w = tile.map (%q, %sr) : (tensor<4096x8192xi8>, tensor<4096x8192xf32>) -> tensor<4096x8192xbf16> {
  ^bb0(%qi: i8, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<4096x8192xbf16> -> tensor<8192x4096xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x8192xbf16>, tensor<8192x4096xbf16>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}

