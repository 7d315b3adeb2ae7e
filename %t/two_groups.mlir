func.func @two_groups(%x: tensor<16x384xbf16>, %qw: tensor<64x192xi8>, %s: tensor<64x12xbf16>, %z: tensor<64x8xbf16>) -> tensor<16x64xf32> {
  %q = tile.unpack %qw signed : tensor<64x192xi8> -> tensor<64x384xi8>
  %sr = tile.repeat %s dim = 1 times = 32 : tensor<64x12xbf16> -> tensor<64x384xbf16>
  %zr = tile.repeat %z dim = 1 times = 48 : tensor<64x8xbf16> -> tensor<64x384xbf16>
  %w = tile.map (%q, %sr, %zr) : (tensor<64x384xi8>, tensor<64x384xbf16>, tensor<64x384xbf16>) -> tensor<64x384xbf16> {
  ^bb0(%qi: i8, %si: bf16, %zi: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %zf = arith.extf %zi : bf16 to f32
    %d = arith.subf %f, %zf : f32
    %v = arith.mulf %d, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<64x384xbf16> -> tensor<384x64xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x384xbf16>, tensor<384x64xbf16>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

