// tile-assign-layouts on an attention step: scores [64, 128] (instr N
// 128), their row max rescaling an output accumulator [64, 64]. The row
// statistic's broadcast over 64 columns takes the scores' layout with
// instr N narrowed to 64 (same rows per thread), the output's own; the
// slice layouts of instr N 128 and 64 meet in one tile.convert_layout,
// which moves nothing (tile-to-simt: wgmma-register-a.mlir).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts | FileCheck %s

// CHECK-LABEL: tile.kernel @attention_step
// CHECK: tile.dot {{.+}} -> !tile.tile<64x128xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 128, 16]>>
// CHECK: [[MAX:%.+]] = tile.reduce {{.+}} -> !tile.tile<64xf32, layout = #tile.slice<1, #tile.mma<wgmma, warps = [4, 1], instr = [64, 128, 16]>>>
// CHECK: [[M64:%.+]] = tile.convert_layout [[MAX]] : {{.+}} -> !tile.tile<64xf32, layout = #tile.slice<1, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>>
// CHECK: tile.broadcast [[M64]] [1] : {{.+}} -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
// CHECK: tile.dot {{.+}} -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
func.func @attention_step(%Q: memref<64x64xbf16>, %K: memref<64x128xbf16>, %V: memref<128x64xbf16>, %O: memref<64x64xf32>) {
  tile.kernel @attention_step grid [1] threads 128 (%Q, %K, %V, %O) : memref<64x64xbf16>, memref<64x128xbf16>, memref<128x64xbf16>, memref<64x64xf32> {
  ^bb0(%q: memref<64x64xbf16>, %k: memref<64x128xbf16>, %v: memref<128x64xbf16>, %o: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %zs = tile.splat %zero : f32 -> !tile.tile<64x128xf32>
    %acc = tile.load %o[%c0, %c0] : memref<64x64xf32> -> !tile.tile<64x64xf32>
    %tq = tile.load %q[%c0, %c0] : memref<64x64xbf16> -> !tile.tile<64x64xbf16>
    %tk = tile.load %k[%c0, %c0] : memref<64x128xbf16> -> !tile.tile<64x128xbf16>
    %s = tile.dot %tq, %tk, %zs : !tile.tile<64x64xbf16>, !tile.tile<64x128xbf16> -> !tile.tile<64x128xf32>
    %mx = tile.reduce %s, %ninf dim = 1 : !tile.tile<64x128xf32>, f32 -> !tile.tile<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.maximumf %a, %b : f32
      tile.yield %r : f32
    }
    %mb = tile.broadcast %mx [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %scaled = tile.map (%acc, %mb) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.mulf %a, %b : f32
      tile.yield %r : f32
    }
    %p = tile.cast %s : !tile.tile<64x128xf32> -> !tile.tile<64x128xbf16>
    %tv = tile.load %v[%c0, %c0] : memref<128x64xbf16> -> !tile.tile<128x64xbf16>
    %out = tile.dot %p, %tv, %scaled : !tile.tile<64x128xbf16>, !tile.tile<128x64xbf16> -> !tile.tile<64x64xf32>
    tile.store %out, %o[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  }
  return
}
