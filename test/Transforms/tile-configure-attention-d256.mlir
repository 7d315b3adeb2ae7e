// tile-configure at head dimension 256: 64 keys a step, not 128 (two stages
// of 128-key K and V tiles, 256 KiB, would not fit sm_90a's 227 KiB of
// shared memory per program), with the producer warpgroup and overlap as at
// D = 128, and the output product P V on m64n256k16 (the scores' product
// keeps N = 64: a dot's N is the smaller of instr's and its own); no
// pingpong (measured at D = 128 only).
// RUN: tile-opt %s --tile-fuse --tile-configure="chip=sm_90a" | FileCheck %s
// CHECK: tile.config = #tile.config<block = [128, 64, 256], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 2, warp_specialize = true, overlap = true>

func.func @attention_d256(%q: tensor<2x2x512x256xbf16>, %k: tensor<2x2x512x256xbf16>, %v: tensor<2x2x512x256xbf16>) -> tensor<2x2x512x256xbf16> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.0625 : f32
  %kt = tile.transpose %k : tensor<2x2x512x256xbf16> -> tensor<2x2x256x512xbf16>
  %s = tile.matmul %q, %kt : (tensor<2x2x512x256xbf16>, tensor<2x2x256x512xbf16>) -> tensor<2x2x512x512xf32>
  %x = tile.map (%s) : (tensor<2x2x512x512xf32>) -> tensor<2x2x512x512xf32> {
  ^bb0(%a: f32):
    %r = arith.mulf %a, %scale : f32
    tile.yield %r : f32
  }
  %max = tile.reduce %x, %ninf dim = 3 : tensor<2x2x512x512xf32>, f32 -> tensor<2x2x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    tile.yield %r : f32
  }
  %mb = tile.broadcast %max [3] : tensor<2x2x512xf32> -> tensor<2x2x512x512xf32>
  %e = tile.map (%x, %mb) : (tensor<2x2x512x512xf32>, tensor<2x2x512x512xf32>) -> tensor<2x2x512x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %dd = arith.subf %a, %c : f32
    %r = math.exp %dd : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce %e, %zero dim = 3 : tensor<2x2x512x512xf32>, f32 -> tensor<2x2x512xf32> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    tile.yield %r : f32
  }
  %sb = tile.broadcast %sum [3] : tensor<2x2x512xf32> -> tensor<2x2x512x512xf32>
  %p = tile.map (%e, %sb) : (tensor<2x2x512x512xf32>, tensor<2x2x512x512xf32>) -> tensor<2x2x512x512xbf16> {
  ^bb0(%a: f32, %c: f32):
    %r = arith.divf %a, %c : f32
    %pb = arith.truncf %r : f32 to bf16
    tile.yield %pb : bf16
  }
  %o = tile.matmul %p, %v : (tensor<2x2x512x512xbf16>, tensor<2x2x512x256xbf16>) -> tensor<2x2x512x256xf32>
  %ob = tile.cast %o : tensor<2x2x512x256xf32> -> tensor<2x2x512x256xbf16>
  return %ob : tensor<2x2x512x256xbf16>
}
