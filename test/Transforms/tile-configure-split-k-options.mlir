// tile-configure's two split-K knobs, for timing a heuristic change beside
// the table's (bench/RESULTS.md, session 20: four K ranges added in the
// kernel beat the table's choice on 8 of 13 decode and small-batch
// shapes). At 64 x 1024 x 4096 the table keeps ranges of 2048 or more and
// adds partials in the kernel only up to 16 rows: two ranges, summed by a
// second kernel. least-split-k=1024 allows ranges of 1024, and
// most-rows-split-k-in-kernel=128 has the kernel add them: four ranges
// in the kernel.
// RUN: tile-opt %s --tile-configure=chip=sm_90a | FileCheck %s --check-prefix=TABLE
// RUN: tile-opt %s --tile-configure="chip=sm_90a least-split-k=1024 most-rows-split-k-in-kernel=128" | FileCheck %s --check-prefix=KNOBS
// RUN: not tile-opt %s --tile-configure="chip=sm_90a least-split-k=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not tile-opt %s --tile-configure="chip=sm_90a most-rows-split-k-in-kernel=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// TABLE: tile.matmul {{.+}}block = [64, 64, 64]{{.+}}split_k = 2>
// KNOBS: tile.matmul {{.+}}block = [64, 64, 64]{{.+}}split_k = 4, split_k_in_kernel = true>
// NEGATIVE: error: tile-configure: least-split-k and most-rows-split-k-in-kernel must not be negative
func.func @decode(%a: tensor<64x4096xbf16>, %b: tensor<4096x1024xbf16>) -> tensor<64x1024xf32> {
  %c = tile.matmul %a, %b : (tensor<64x4096xbf16>, tensor<4096x1024xbf16>) -> tensor<64x1024xf32>
  return %c : tensor<64x1024xf32>
}
