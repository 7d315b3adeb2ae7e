// tile-configure's split-K line and its two knobs. The table cuts K into
// ranges of 2048 or more, or of 1024 or more where the kernel adds the
// partials (up to 16 rows) or where longer ranges leave the grid under
// half the SMs (bench/RESULTS.md, 2026-12-03):
// - 64 x 1024 x 4096: ranges of 2048 make 32 programs of 64 x 64, so four
//   ranges of 1024 (64 programs), added in a cluster of the four (above
//   16 rows and up to 64, distributed shared memory);
// - 64 x 4096 x 4096: two ranges already make 128 programs: kept, added
//   in clusters of two;
// - 16 x 4096 x 4096: partials added in the kernel, so four ranges of 1024
//   and blocks of 128 columns (128 programs).
// least-split-k=2048 puts back one line for all (two ranges at
// 64 x 1024 x 4096), and most-rows-split-k-in-kernel=128 has the kernel
// add the partials of 64 rows too.
// RUN: tile-opt %s --tile-configure=chip=sm_90a | FileCheck %s --check-prefix=TABLE
// RUN: tile-opt %s --tile-configure="chip=sm_90a least-split-k=2048 most-rows-split-k-in-kernel=128" | FileCheck %s --check-prefix=KNOBS
// RUN: tile-opt %s --tile-configure="chip=sm_90a most-rows-split-k-in-kernel=128" | FileCheck %s --check-prefix=ROWS
// RUN: not tile-opt %s --tile-configure="chip=sm_90a least-split-k=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not tile-opt %s --tile-configure="chip=sm_90a most-rows-split-k-in-kernel=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// TABLE-LABEL: func.func @short_grid
// TABLE: tile.matmul {{.+}}block = [64, 64, 64]{{.+}}split_k = 4, cluster = [1, 1, 4], uniform_warp = true>
// TABLE-LABEL: func.func @full_grid
// TABLE: tile.matmul {{.+}}block = [64, 64, 64]{{.+}}split_k = 2, cluster = [1, 1, 2], uniform_warp = true>
// TABLE-LABEL: func.func @partials_in_kernel
// TABLE: tile.matmul {{.+}}block = [64, 128, 64]{{.+}}split_k = 4, split_k_in_kernel = true, uniform_warp = true>
// KNOBS-LABEL: func.func @short_grid
// KNOBS: tile.matmul {{.+}}block = [64, 64, 64]{{.+}}split_k = 2, split_k_in_kernel = true, uniform_warp = true>
// KNOBS-LABEL: func.func @full_grid
// KNOBS: tile.matmul {{.+}}block = [64, 64, 64]{{.+}}split_k = 2, split_k_in_kernel = true, uniform_warp = true>
// KNOBS-LABEL: func.func @partials_in_kernel
// KNOBS: tile.matmul {{.+}}block = [64, 64, 64]{{.+}}split_k = 2, split_k_in_kernel = true, uniform_warp = true>
// most-rows-split-k-in-kernel=128 alone: the partials of 64 rows are
// added in the kernel too, so their ranges may be as short as 1024 (the
// table's line follows the in-kernel sums): 64 x 128 blocks in four
// ranges at 64 x 4096 x 4096 as at 16 rows.
// ROWS-LABEL: func.func @short_grid
// ROWS: tile.matmul {{.+}}block = [64, 64, 64]{{.+}}split_k = 4, split_k_in_kernel = true, uniform_warp = true>
// ROWS-LABEL: func.func @full_grid
// ROWS: tile.matmul {{.+}}block = [64, 128, 64]{{.+}}split_k = 4, split_k_in_kernel = true, uniform_warp = true>
// ROWS-LABEL: func.func @partials_in_kernel
// ROWS: tile.matmul {{.+}}block = [64, 128, 64]{{.+}}split_k = 4, split_k_in_kernel = true, uniform_warp = true>
// NEGATIVE: error: tile-configure: least-split-k and most-rows-split-k-in-kernel must not be negative
func.func @short_grid(%a: tensor<64x4096xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<64x1024xf32> {
  %c = tile.matmul %a, %b : (tensor<64x4096xbf16>, tensor<4096x1024xbf16>) -> tensor<64x1024xf32>
  return %c : tensor<64x1024xf32>
}
func.func @full_grid(%a: tensor<64x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<64x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<64x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<64x4096xf32>
  return %c : tensor<64x4096xf32>
}
func.func @partials_in_kernel(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xf32>
  return %c : tensor<16x4096xf32>
}
