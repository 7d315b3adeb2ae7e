func.func @linear(%a: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xf32> {
  %b = tile.transpose %w : tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  %c = tile.matmul %a, %b : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xf32>
  return %c : tensor<16x4096xf32>
}

