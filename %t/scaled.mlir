func.func @scaled(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>, %sa: tensor<16x32xf32>, %sb: tensor<32x4096xf32>) -> tensor<16x4096xf32> {
  %c = tile.matmul %a, %b scales(%sa, %sb) block [1, 128, 1] : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>, tensor<16x32xf32>, tensor<32x4096xf32>) -> tensor<16x4096xf32>
  return %c : tensor<16x4096xf32>
}

// A weight dequantized in the K loop (signed int4, group 128) is a key
// of its own too (by storage and group): the heuristic's config (16 bytes
// of weight per thread and step: programs for 4 times the SMs), then twice
// the split, then blocks twice as wide (32 bytes a thread: twice the SMs),
// with and without twice their split; each loads its scales one step
// ahead (prefetch: steps of K 64 or more).
// DEQUANT: remark: 4 candidate configs for tuning key 'tile.matmul.dequant.i4s.g128 sm_90a sms=132 16x4096x8192 bf16,bf16->f32':
// DEQUANT-NEXT: candidate 0: #tile.config<block = [16, 64, 128], threads = 256, mma = mma_sync, instr = [16, 8, 16], warps = [1, 8], stages = 4, group_rows = 8, split_k = 8, split_k_in_kernel = true, prefetch = true>
// DEQUANT-NEXT: candidate 1: #tile.config<block = [16, 64, 128], {{.+}} split_k = 16, split_k_in_kernel = true, prefetch = true>
// DEQUANT-NEXT: candidate 2: #tile.config<block = [16, 128, 128], {{.+}} split_k = 8, split_k_in_kernel = true, prefetch = true>
// DEQUANT-NEXT: candidate 3: #tile.config<block = [16, 128, 128], {{.+}} split_k = 16, split_k_in_kernel = true, prefetch = true>
// DEQUANT-THIRD: tile.config = #tile.config<block = [16, 128, 128], {{.+}} split_k = 8, split_k_in_kernel = true, prefetch = true>
// DEQUANT-TUNED: tile.config = #tile.config<block = [16, 128, 128], threads = 256, mma = mma_sync, instr = [16, 8, 16], warps = [1, 8], stages = 3, group_rows = 8, split_k = 4, split_k_in_kernel = true>

// An int8 weight: programs of 64 columns take 58 KB of shared memory (3
// per SM: 256 programs fill 0.65 of a wave), of 128 columns 2 per SM (256
// programs, 0.97 of a wave): the wider block comes first.
// DEQUANT8: remark: 4 candidate configs for tuning key 'tile.matmul.dequant.i8.g128 sm_90a sms=132 16x8192x8192 bf16,bf16->f32':
// DEQUANT8-NEXT: candidate 0: #tile.config<block = [16, 128, 128], {{.+}} split_k = 4, split_k_in_kernel = true, prefetch = true>
// DEQUANT8-NEXT: candidate 1: #tile.config<block = [16, 128, 128], {{.+}} split_k = 8, split_k_in_kernel = true, prefetch = true>
// DEQUANT8-NEXT: candidate 2: #tile.config<block = [16, 64, 128], {{.+}} split_k = 2, split_k_in_kernel = true, prefetch = true>
// DEQUANT8-NEXT: candidate 3: #tile.config<block = [16, 64, 128], {{.+}} split_k = 4, split_k_in_kernel = true, prefetch = true>

// A weight stored in fragment runs (k_runs = 32; AWQ's nibble order) is
// a key of its own. At most 64 rows on sm_90a, the transposed product
// first (the ring's stages by its packed bytes, scales a step ahead;
// four consumer warpgroups taking turns at K up to 32 rows); then the
// mma.sync kernel's steps of two blocks of 4 runs (256, read as two
// sub-steps of 128) with half the ring's stages, for the tuner steps of
// one block and a ring of 4, then the transposed product with one
// consumer warpgroup (persistent) and two.
// RUNS: remark: 6 candidate configs for tuning key 'tile.matmul.dequant.i4s.g256.kr32 sm_90a sms=132 16x4096x8192 bf16,bf16->f32':
// RUNS-NEXT: candidate 0: #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4>
// RUNS-NEXT: candidate 1: #tile.config<block = [16, 64, 256], threads = 256, mma = mma_sync, {{.+}} stages = 2, {{.+}} split_k = 8, split_k_in_kernel = true, prefetch = true>
// RUNS-NEXT: candidate 2: #tile.config<block = [16, 128, 256], {{.+}} stages = 2,
// RUNS-NEXT: candidate 3: #tile.config<block = [16, 64, 128], {{.+}} stages = 4,
// RUNS-NEXT: candidate 4: #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, persistent = true, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true>
// RUNS-NEXT: candidate 5: #tile.config<{{.+}} stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 2>

// MXFP4's groups of 32: the heuristic's steps are one group; the last two
// candidates, for the tuner, steps of 128 (four products of one group
// each, 128 threads as for one group's product), rings of 4 and of 2.
// MXFP4: remark: 6 candidate configs for tuning key 'tile.matmul.dequant.i4u.g32 sm_90a sms=132 16x8192x8192 bf16,bf16->f32':
// MXFP4-NEXT: candidate 0: #tile.config<block = [16, 64, 32], threads = 128, {{.+}} stages = 4, {{.+}} split_k = 4, split_k_in_kernel = true>
// MXFP4: candidate 4: #tile.config<block = [16, 64, 128], threads = 128, {{.+}} stages = 4, {{.+}} split_k = 4, split_k_in_kernel = true, prefetch = true>
// MXFP4-NEXT: candidate 5: #tile.config<block = [16, 64, 128], threads = 128, {{.+}} stages = 2, {{.+}} split_k = 4, split_k_in_kernel = true, prefetch = true>

// MXFP4 packed in runs of 8 (k_runs = 8: a block of 32, one group, a
// product): the transposed product first, in steps of 256 (eight
// one-group products) with four consumer warpgroups; then the mma.sync
// kernel's steps of 64 at 16 rows, and for the tuner, after the steps of
// one block, steps of 128 and 256 (ring of 2), then the transposed
// product with one and two consumer warpgroups.
// MXFP4-RUNS: remark: 10 candidate configs for tuning key 'tile.matmul.dequant.i4u.g32.kr8 sm_90a sms=132 16x8192x8192 bf16,bf16->f32':
// MXFP4-RUNS-NEXT: candidate 0: #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, {{.+}} stages = 8, {{.+}} transposed = true, k_warpgroups = 4>
// MXFP4-RUNS-NEXT: candidate 1: #tile.config<block = [16, 64, 64], threads = 128, {{.+}} stages = 2,
// MXFP4-RUNS: candidate 5: #tile.config<block = [16, 64, 32], threads = 128, {{.+}} stages = 4,
// MXFP4-RUNS-NEXT: candidate 6: #tile.config<block = [16, 64, 128], threads = 256, {{.+}} stages = 2,
// MXFP4-RUNS-NEXT: candidate 7: #tile.config<block = [16, 64, 256], threads = 256, {{.+}} stages = 2,
// MXFP4-RUNS-NEXT: candidate 8: #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, {{.+}} persistent = true, {{.+}} transposed = true>
// MXFP4-RUNS-NEXT: candidate 9: #tile.config<{{.+}} transposed = true, k_warpgroups = 2>

// Scales per 32 and zero points per 48 along K: each product must lie
// within one group of both, so the key's group is their greatest common
// divisor (16), and so is the heuristic's step (a step of 32 would take
// one zero point across a boundary of 48).
// TWO-GROUPS: remark: 3 candidate configs for tuning key 'tile.matmul.dequant.i4s.g16 sm_90a sms=132 16x64x384 bf16,bf16->f32':
// TWO-GROUPS-NEXT: candidate 0: #tile.config<block = [16, 64, 16],

// B as the transpose of an [N, K] weight (x W^T) has a key of its own, so
// db.jsonl's entry for the plain 16x4096x4096 (B stored [K, N]) is not
// taken: the heuristic's candidate 0 (split 4, summed in the kernel).
// LINEAR: remark: 23 candidate configs for tuning key 'tile.matmul.bt sm_90a sms=132 16x4096x4096 bf16,bf16->f32':
// LINEAR-UNTUNED: tile.matmul {{.+}} {tile.config = #tile.config<block = [64, 128, 64], {{.+}} split_k = 4, split_k_in_kernel = true>}

