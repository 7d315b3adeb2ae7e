// tile-configure's attention-block option on an attention group whose K and
// V rows (D = 20: 40 bytes) are not 16-byte multiples: 256 query rows need
// the producer warpgroup, which reads K and V by TMA, so it is an error at
// the group (located at its last op); 128 rows are configured without one.
// RUN: not tile-opt %s --tile-fuse --tile-configure="chip=sm_90a attention-block=256,64" 2>&1 | FileCheck %s
// RUN: tile-opt %s --tile-fuse --tile-configure="chip=sm_90a attention-block=128,64" | FileCheck %s --check-prefix=ROWS128
// CHECK: tile-configure-attention-block.mlir:[[@LINE+39]]:9: error: attention-block of 256 query rows needs TMA-readable K and V rows (16-byte multiples) for its producer warpgroup
// ROWS128: tile.config = #tile.config<block = [128, 64, 20], threads = 256, mma = wgmma, instr = [64, 64, 16], warps = [8, 1], stages = 2>

func.func @attention(%q: tensor<1x2x256x20xbf16>, %k: tensor<1x2x256x20xbf16>, %v: tensor<1x2x256x20xbf16>) -> tensor<1x2x256x20xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.22360679774997896 : f32
  %kt = tile.transpose %k : tensor<1x2x256x20xbf16> -> tensor<1x2x20x256xbf16>
  %s = tile.matmul %q, %kt : (tensor<1x2x256x20xbf16>, tensor<1x2x20x256xbf16>) -> tensor<1x2x256x256xf32>
  %x = tile.map (%s) : (tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32> {
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<1x2x256x256xf32>, f32 -> tensor<1x2x256xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<1x2x256xf32> -> tensor<1x2x256x256xf32>
  %e = tile.map (%x, %mb) : (tensor<1x2x256x256xf32>, tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<1x2x256x256xf32>, f32 -> tensor<1x2x256xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<1x2x256xf32> -> tensor<1x2x256x256xf32>
  %p = tile.map (%e, %sb) : (tensor<1x2x256x256xf32>, tensor<1x2x256x256xf32>) -> tensor<1x2x256x256xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<1x2x256x256xbf16>, tensor<1x2x256x20xbf16>) -> tensor<1x2x256x20xf32>
  %ob = tile.cast %o : tensor<1x2x256x20xf32> -> tensor<1x2x256x20xbf16>
  return %ob : tensor<1x2x256x20xbf16>
}
