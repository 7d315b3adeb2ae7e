// tile-configure's tma-store: a warp-specialized wgmma matmul whose ring
// leaves room for two staging blocks (128 rows x 128 bytes each: 32 KB
// beside 8192^3 FP8's 4 stages of 48 KB) gets tma_store. Not: with
// stream-k (its fix-ups store partials), a split K (decode shapes), a
// kernel on mma.sync (sm_80). Without the option none.
// RUN: tile-opt %s -split-input-file "--tile-configure=chip=sm_90a tma-store" | FileCheck %s
// RUN: tile-opt %s -split-input-file "--tile-configure=chip=sm_90a tma-store stream-k" | FileCheck %s --check-prefix=STREAMK
// RUN: tile-opt %s -split-input-file "--tile-configure=chip=sm_80 tma-store" | FileCheck %s --check-prefix=SM80
// RUN: tile-opt %s -split-input-file "--tile-configure=chip=sm_90a tma-store=0" | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func @fp8
// CHECK: tile.config = #tile.config<block = [128, 256, 128], {{.+}}, stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true, tma_store = true>
// STREAMK-LABEL: func @fp8
// STREAMK: stream_k = true
// STREAMK-NOT: tma_store
// SM80-LABEL: func @fp8
// SM80-NOT: tma_store
// OFF-LABEL: func @fp8
// OFF-NOT: tma_store
func.func @fp8(%a: tensor<8192x8192xf8E4M3FN>, %w: tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf32> {
  %wt = tile.transpose %w : tensor<8192x8192xf8E4M3FN> -> tensor<8192x8192xf8E4M3FN>
  %c = tile.matmul %a, %wt : (tensor<8192x8192xf8E4M3FN>, tensor<8192x8192xf8E4M3FN>) -> tensor<8192x8192xf32>
  return %c : tensor<8192x8192xf32>
}

// -----

// CHECK-LABEL: func @bf16
// CHECK: tile.config = #tile.config<block = [128, 256, 64], {{.+}}, warp_specialize = true, uniform_warp = true, tma_store = true>
func.func @bf16(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// CHECK-LABEL: func @decode
// CHECK: split_k
// CHECK-NOT: tma_store
func.func @decode(%a: tensor<16x8192xbf16>, %b: tensor<8192x8192xbf16>) -> tensor<16x8192xf32> {
  %c = tile.matmul %a, %b : (tensor<16x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<16x8192xf32>
  return %c : tensor<16x8192xf32>
}
