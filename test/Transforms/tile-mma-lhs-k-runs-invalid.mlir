// tile-mma alone on a dot whose A is stored in fragment runs (lhs_k_runs)
// with an mma.sync accumulator (tile-configure refuses such a config
// first: tile-mma-invalid.mlir): mma.sync takes a weight as B only.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --tile-mma

func.func @lhs_k_runs_mma_sync(%a: !tile.tile<16x128xbf16>, %b: !tile.tile<128x8xbf16>, %c: !tile.tile<16x8xf32, layout = #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>>) -> !tile.tile<16x8xf32, layout = #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>> {
  // expected-error @+1 {{takes lhs_k_runs on wgmma only (its A in registers; mma.sync takes a weight as B, under k_runs)}}
  %d = tile.dot %a, %b, %c lhs_k_runs = 32 : !tile.tile<16x128xbf16>, !tile.tile<128x8xbf16> -> !tile.tile<16x8xf32, layout = #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>>
  return %d : !tile.tile<16x8xf32, layout = #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>>
}
