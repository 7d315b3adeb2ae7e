// Two schedules an audit found without a GPU test (configs given by hand):
// - odd_ring: a persistent kernel with a ring of 5 slots (not a power of
//   two: tile-pipeline carries the slot and the round's parity) over K
//   = 448 (7 steps, so a tile's run ends mid-ring), with ragged M and N;
//   with sms=1 one program runs all 20 tiles, carrying the ring position
//   from each tile to the next;
// - split_past_k: K = 330 in 4 ranges of 2 steps of 64, so the last range
//   ([384, 512)) lies wholly past K (zeros), its partials added in the
//   kernel with the others'.
// Checked against the reference of the same math.
// REQUIRES: cuda-device
// TILE-CHIPS: sm_90a
// RUN: tile-compile %s --chip=sm_90a --function=odd_ring -o %t.ring.tilebundle
// RUN: tile-run %t.ring.tilebundle --repeats 3 | FileCheck %s --check-prefix=RING
// RUN: tile-compile %s --chip=sm_90a --function=odd_ring --pipeline-options=sms=1 -o %t.one.tilebundle
// RUN: tile-run %t.one.tilebundle --repeats 3 | FileCheck %s --check-prefix=RING
// RUN: tile-compile %s --chip=sm_90a --function=split_past_k -o %t.split.tilebundle
// RUN: tile-run %t.split.tilebundle --repeats 3 | FileCheck %s --check-prefix=SPLIT
// TILE-COMPILE-FLAGS: --function=odd_ring
// RING: RESULT odd_ring status=PASS
// SPLIT: RESULT split_past_k status=PASS

func.func @odd_ring(%a: tensor<200x448xbf16>, %b: tensor<448x300xbf16>) -> tensor<200x300xbf16> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 5, persistent = true, group_rows = 8, warp_specialize = true>} : (tensor<200x448xbf16>, tensor<448x300xbf16>) -> tensor<200x300xf32>
  %o = tile.cast %c : tensor<200x300xf32> -> tensor<200x300xbf16>
  return %o : tensor<200x300xbf16>
}

func.func @split_past_k(%a: tensor<37x330xbf16>, %b: tensor<330x200xbf16>) -> tensor<37x200xf32> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 3, split_k = 4, split_k_in_kernel = true>} : (tensor<37x330xbf16>, tensor<330x200xbf16>) -> tensor<37x200xf32>
  return %c : tensor<37x200xf32>
}
