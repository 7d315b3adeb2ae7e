// tile-assign-layouts: a per-row scale decoded before its broadcast (the
// map tile-hoist-broadcast-math makes over the loaded scale line) keeps
// the slice layout of the weight's runs, as the loaded line alone does:
// each thread loads and decodes the rows its runs are in, with no
// exchange through shared memory. MXFP4 in runs of 8 at 16 rows, on
// mma.sync (sm_80: on sm_90a it takes the transposed product).
// RUN: tile-opt %s --tile-configure=chip=sm_80 --tile-fuse --tile-tile --tile-configure=chip=sm_80 --tile-hoist-broadcast-math --tile-assign-layouts | FileCheck %s

// (The step's two groups' bytes are one i16 a row, each product's byte
// shifted out of it: tile-tile-step-group-loads.mlir.)
// CHECK: %[[WIDE:.+]] = tile.load {{.+}} -> !tile.tile<64xi16, layout = #tile.slice<1, #tile.blocked<threads = 128, run = 8>, extent = 32>>
// CHECK: %[[LINE:.+]] = tile.map(%[[WIDE]]) : (!tile.tile<64xi16, layout = #tile.slice<1, #tile.blocked<threads = 128, run = 8>, extent = 32>>) -> !tile.tile<64xi8, layout = #tile.slice<1, #tile.blocked<threads = 128, run = 8>, extent = 32>>
// CHECK: %[[DEC:.+]] = tile.map(%[[LINE]]) : (!tile.tile<64xi8, layout = #tile.slice<1, #tile.blocked<threads = 128, run = 8>, extent = 32>>) -> !tile.tile<64xbf16, layout = #tile.slice<1, #tile.blocked<threads = 128, run = 8>, extent = 32>>
// CHECK: tile.broadcast %[[DEC]] [1] : !tile.tile<64xbf16, layout = #tile.slice<1, #tile.blocked<threads = 128, run = 8>, extent = 32>> -> !tile.tile<64x32xbf16, layout = #tile.blocked<threads = 128, run = 8>>
// CHECK-NOT: tile.convert_layout %[[DEC]]
func.func @mxfp4_runs(%x: tensor<16x1024xbf16>, %qw: tensor<256x512xi8>, %e: tensor<256x32xi8>) -> tensor<16x256xf32> {
  %q = tile.unpack %qw interleaved : tensor<256x512xi8> -> tensor<256x1024xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<256x32xi8> -> tensor<256x1024xi8>
  %w = tile.map (%q, %er) : (tensor<256x1024xi8>, tensor<256x1024xi8>) -> tensor<256x1024xbf16> {
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
  %wt = tile.transpose %w : tensor<256x1024xbf16> -> tensor<1024x256xbf16>
  %y = tile.matmul %x, %wt k_runs = 8 : (tensor<16x1024xbf16>, tensor<1024x256xbf16>) -> tensor<16x256xf32>
  return %y : tensor<16x256xf32>
}
