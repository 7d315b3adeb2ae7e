func.func @mm(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xf32>
  return %c : tensor<16x4096xf32>
}

// The same shape with block scales is another key: the unscaled entry
// does not apply.
// SCALED: remark: {{[0-9]+}} candidate configs for tuning key 'tile.matmul.scaled.1x128x1 sm_90a sms=132 16x4096x4096 bf16,bf16->f32':
// SCALED-NOT: block = [64, 256, 64]{{.+}}split_k = 4>} :

