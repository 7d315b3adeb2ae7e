// Softmax over the rows of a 1000x4097 matrix (the row does not fill the
// 256-wide tiles evenly), written at the tensor level. Until tile-fuse lands
// each op is its own kernel; the reference pipeline checks every one.
func.func @softmax(%x: tensor<1000x4097xf32>) -> tensor<1000x4097xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = tile.reduce %x, %ninf dim = 1 : tensor<1000x4097xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %b : f32
    tile.yield %m : f32
  }
  %maxb = tile.broadcast %max [1] : tensor<1000xf32> -> tensor<1000x4097xf32>
  %e = tile.map (%x, %maxb) : (tensor<1000x4097xf32>, tensor<1000x4097xf32>) -> tensor<1000x4097xf32> {
  ^bb0(%v: f32, %m: f32):
    %d = arith.subf %v, %m : f32
    %ex = math.exp %d : f32
    tile.yield %ex : f32
  }
  %sum = tile.reduce %e, %zero dim = 1 : tensor<1000x4097xf32>, f32 -> tensor<1000xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  %sumb = tile.broadcast %sum [1] : tensor<1000xf32> -> tensor<1000x4097xf32>
  %y = tile.map (%e, %sumb) : (tensor<1000x4097xf32>, tensor<1000x4097xf32>) -> tensor<1000x4097xf32> {
  ^bb0(%v: f32, %s: f32):
    %q = arith.divf %v, %s : f32
    tile.yield %q : f32
  }
  return %y : tensor<1000x4097xf32>
}
