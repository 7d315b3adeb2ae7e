// tile-configure's cluster-along-m: a wgmma matmul whose B is K-major in
// 128-byte K steps (a B slot's rows one after the other), persistent and
// warp-specialized, with an even number of block-rows and no split, gets a
// cluster of two programs along M (tile-pipeline then copies each B tile
// half by each program into both). Not: an odd number of block-rows (M =
// 3968: 31 of 128), B stored [K, N] (its bf16 slots are four column blocks
// wide), a split K. Without the option no cluster.
// RUN: tile-opt %s -split-input-file "--tile-configure=chip=sm_90a cluster-along-m" | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: func @fp8_k_major
// CHECK: tile.config = #tile.config<block = [128, 256, 128], {{.+}}, persistent = true, group_rows = 8, warp_specialize = true, cluster = [2, 1], uniform_warp = true, tma_store = true>
// OFF-LABEL: func @fp8_k_major
// OFF-NOT: cluster
func.func @fp8_k_major(%a: tensor<4096x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf32> {
  %wt = tile.transpose %w : tensor<4096x4096xf8E4M3FN> -> tensor<4096x4096xf8E4M3FN>
  %c = tile.matmul %a, %wt : (tensor<4096x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// CHECK-LABEL: func @bf16_k_major
// CHECK: tile.config = #tile.config<block = [128, 256, 64], {{.+}}, cluster = [2, 1], uniform_warp = true, tma_store = true>
func.func @bf16_k_major(%a: tensor<4096x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %wt = tile.transpose %w : tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  %c = tile.matmul %a, %wt : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// CHECK-LABEL: func @odd_block_rows
// CHECK-NOT: cluster
func.func @odd_block_rows(%a: tensor<3968x4096xf8E4M3FN>, %w: tensor<4096x4096xf8E4M3FN>) -> tensor<3968x4096xf32> {
  %wt = tile.transpose %w : tensor<4096x4096xf8E4M3FN> -> tensor<4096x4096xf8E4M3FN>
  %c = tile.matmul %a, %wt : (tensor<3968x4096xf8E4M3FN>, tensor<4096x4096xf8E4M3FN>) -> tensor<3968x4096xf32>
  return %c : tensor<3968x4096xf32>
}

// -----

// CHECK-LABEL: func @bf16_n_major
// CHECK-NOT: cluster
func.func @bf16_n_major(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// CHECK-LABEL: func @split_k
// CHECK: split_k
// CHECK-NOT: cluster = [2
func.func @split_k(%a: tensor<128x8192xf8E4M3FN>, %w: tensor<256x8192xf8E4M3FN>) -> tensor<128x256xf32> {
  %wt = tile.transpose %w : tensor<256x8192xf8E4M3FN> -> tensor<8192x256xf8E4M3FN>
  %c = tile.matmul %a, %wt : (tensor<128x8192xf8E4M3FN>, tensor<8192x256xf8E4M3FN>) -> tensor<128x256xf32>
  return %c : tensor<128x256xf32>
}
