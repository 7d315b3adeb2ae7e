// tile-configure's tuning knobs: the ranked candidates of a matmul
// (list-candidates; candidate=N picks the N-th, 0 is the heuristic's), and
// a tuning database whose entry for the matmul's key wins (docs/tuning.md).
// RUN: split-file %s %t
// RUN: tile-opt %t/mm.mlir --tile-configure="chip=sm_90a list-candidates" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: tile-opt %t/mm.mlir --tile-configure="chip=sm_90a candidate=14" | FileCheck %s --check-prefix=UNSPLIT
// RUN: not tile-opt %t/mm.mlir --tile-configure="chip=sm_90a candidate=23" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: tile-opt %t/mm.mlir --tile-configure="chip=sm_90a tuning-db=%t/db.jsonl" | FileCheck %s --check-prefix=TUNED
// RUN: tile-opt %t/mm.mlir --tile-configure="chip=sm_90a sms=60 tuning-db=%t/db.jsonl" | FileCheck %s --check-prefix=OTHER
// RUN: tile-opt %t/mm.mlir --tile-configure="chip=sm_90a tuning-db=%t/old.jsonl" 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: not tile-opt %t/mm.mlir --tile-configure="chip=sm_90a tuning-db=%t/bad.jsonl" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not tile-opt %t/mm.mlir --tile-configure="chip=sm_90a tuning-db=%t/fields.jsonl" 2>&1 | FileCheck %s --check-prefix=FIELDS
// RUN: not tile-opt %t/mm.mlir --tile-configure="chip=sm_90a tuning-db=%t/notconfig.jsonl" 2>&1 | FileCheck %s --check-prefix=NOTCONFIG
// RUN: not tile-opt %t/mm.mlir --tile-configure="chip=sm_90a tuning-db=%t/missing.jsonl" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: tile-opt %t/scaled.mlir --tile-configure="chip=sm_90a list-candidates tuning-db=%t/db.jsonl" 2>&1 | FileCheck %s --check-prefix=SCALED
// RUN: tile-opt %t/dequant.mlir --tile-configure="chip=sm_90a list-candidates" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEQUANT
// RUN: tile-opt %t/dequant.mlir --tile-configure="chip=sm_90a candidate=2" | FileCheck %s --check-prefix=DEQUANT-THIRD
// RUN: tile-opt %t/dequant.mlir --tile-configure="chip=sm_90a tuning-db=%t/db.jsonl" | FileCheck %s --check-prefix=DEQUANT-TUNED
// RUN: tile-opt %t/dequant8.mlir --tile-configure="chip=sm_90a list-candidates" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEQUANT8
// RUN: tile-opt %t/runs.mlir --tile-configure="chip=sm_90a list-candidates" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RUNS
// RUN: tile-opt %t/mxfp4.mlir --tile-configure="chip=sm_90a list-candidates" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MXFP4
// RUN: tile-opt %t/mxfp4_runs.mlir --tile-configure="chip=sm_90a list-candidates" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MXFP4-RUNS
// RUN: tile-opt %t/two_groups.mlir --tile-fuse --tile-configure="chip=sm_90a list-candidates" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TWO-GROUPS
// RUN: tile-opt %t/linear.mlir --tile-fuse --tile-configure="chip=sm_90a list-candidates" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINEAR
// RUN: tile-opt %t/linear.mlir --tile-configure="chip=sm_90a tuning-db=%t/db.jsonl" | FileCheck %s --check-prefix=LINEAR-UNTUNED

// M = 16 of a 4096 x 4096 weight: 23 candidates, best first, each split
// block with its partials added in the kernel (preferred at M <= 16), by
// a second kernel and, where rank 0 can hold the other partials beside a
// ring of 4 or more, in a cluster of the tile's programs; the last ones split K into ranges shorter than 1024
// (the shortest the heuristic picks where the kernel adds the partials;
// for the tuner only), then the 64-row blocks of up to 128 columns again
// with K steps of 128 (a ring of 4 or more; for the tuner only).
// LIST: remark: 23 candidate configs for tuning key 'tile.matmul sm_90a sms=132 16x4096x4096 bf16,bf16->f32':
// LIST-NEXT: candidate 0: #tile.config<block = [64, 128, 64], {{.+}} split_k = 4, split_k_in_kernel = true, uniform_warp = true>
// LIST-NEXT: candidate 1: #tile.config<block = [64, 128, 64], {{.+}} split_k = 4, uniform_warp = true>
// LIST-NEXT: candidate 2: #tile.config<block = [64, 128, 64], {{.+}} stages = 4, warp_specialize = true, split_k = 4, cluster = [1, 1, 4], uniform_warp = true>
// LIST-NEXT: candidate 3: #tile.config<block = [64, 64, 64], {{.+}} split_k = 2, split_k_in_kernel = true, uniform_warp = true>
// LIST: candidate 17: #tile.config<block = [64, 256, 64], {{.+}} split_k = 8, uniform_warp = true>
// LIST-NEXT: candidate 18: #tile.config<block = [64, 128, 128], {{.+}} stages = 4, {{.+}} split_k = 4, split_k_in_kernel = true, uniform_warp = true>
// LIST-NEXT: candidate 19: #tile.config<block = [64, 64, 128], {{.+}} stages = 6, {{.+}} split_k = 2, split_k_in_kernel = true, uniform_warp = true>
// LIST: candidate 22: #tile.config<block = [64, 128, 128], {{.+}} stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true, tma_store = true>
// LIST-NOT: candidate 23

// UNSPLIT: tile.config = #tile.config<block = [64, 128, 64], threads = 128, mma = wgmma, instr = [64, 128, 16], warps = [4, 1], stages = 8, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true, tma_store = true>

// RANGE: error: 'tile.matmul' op has 23 candidate configs; candidate=23 is not one of them

// The entry for this key (the last one of two) wins; another SM count is
// another key, so the heuristic's candidate 0 (on 60 SMs, 32 blocks of
// 64 x 128 fill half of them with no split).
// TUNED: tile.config = #tile.config<block = [64, 256, 64], threads = 128, mma = wgmma, instr = [64, 256, 16], warps = [4, 1], stages = 5, persistent = true, group_rows = 8, warp_specialize = true, split_k = 4>
// OTHER: tile.config = #tile.config<block = [64, 128, 64], {{.+}} warp_specialize = true, uniform_warp = true, tma_store = true>

// OLD: warning: {{.+}}old.jsonl:1: the entry for tile.matmul sm_90a sms=132 16x4096x4096 bf16,bf16->f32 was tuned for schedule version 0, this compiler's is 1: ignored (tune again)
// OLD: tile.config = #tile.config<block = [64, 128, 64], {{.+}} split_k = 4, split_k_in_kernel = true, uniform_warp = true>

// BAD: error: {{.+}}bad.jsonl:2: not JSON
// FIELDS: error: {{.+}}fields.jsonl:1: an entry needs op, chip, sms, m, n, k, lhs, rhs, result, schedule and config
// NOTCONFIG: error: 'tile.matmul' op has a tuning database entry ({{.+}}notconfig.jsonl:1) whose config is not a #tile.config: #tile.target<"sm_80">
// MISSING: error: cannot read the tuning database {{.+}}missing.jsonl

//--- mm.mlir
func.func @mm(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xf32>
  return %c : tensor<16x4096xf32>
}

// The same shape with block scales is another key: the unscaled entry
// does not apply.
// SCALED: remark: {{[0-9]+}} candidate configs for tuning key 'tile.matmul.scaled.1x128x1 sm_90a sms=132 16x4096x4096 bf16,bf16->f32':
// SCALED-NOT: block = [64, 256, 64]{{.+}}split_k = 4>} :

//--- scaled.mlir
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
// first (the ring's stages by the bytes it holds, prefetch: the scale
// lines through the ring; four consumer warpgroups taking turns at K up
// to 32 rows); then the
// mma.sync kernel's steps of two blocks of 4 runs (256, read as two
// sub-steps of 128) with half the ring's stages, for the tuner steps of
// one block and a ring of 4, then the transposed product with one
// consumer warpgroup (persistent) and two.
// RUNS: remark: 6 candidate configs for tuning key 'tile.matmul.dequant.i4s.g256.kr32 sm_90a sms=132 16x4096x8192 bf16,bf16->f32':
// RUNS-NEXT: candidate 0: #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 4, uniform_warp = true, l2_fetch = 128>
// RUNS-NEXT: candidate 1: #tile.config<block = [16, 64, 256], threads = 256, mma = mma_sync, {{.+}} stages = 2, {{.+}} split_k = 8, split_k_in_kernel = true, prefetch = true>
// RUNS-NEXT: candidate 2: #tile.config<block = [16, 128, 256], {{.+}} stages = 2,
// RUNS-NEXT: candidate 3: #tile.config<block = [16, 64, 128], {{.+}} stages = 4,
// RUNS-NEXT: candidate 4: #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 8, persistent = true, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, uniform_warp = true, l2_fetch = 128>
// RUNS-NEXT: candidate 5: #tile.config<{{.+}} stages = 8, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = 2, uniform_warp = true, l2_fetch = 128>

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
// MXFP4-RUNS-NEXT: candidate 0: #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, {{.+}} stages = 8, {{.+}} transposed = true, k_warpgroups = 4, uniform_warp = true, l2_fetch = 128>
// MXFP4-RUNS-NEXT: candidate 1: #tile.config<block = [16, 64, 64], threads = 128, {{.+}} stages = 2,
// MXFP4-RUNS: candidate 5: #tile.config<block = [16, 64, 32], threads = 128, {{.+}} stages = 4,
// MXFP4-RUNS-NEXT: candidate 6: #tile.config<block = [16, 64, 128], threads = 256, {{.+}} stages = 2,
// MXFP4-RUNS-NEXT: candidate 7: #tile.config<block = [16, 64, 256], threads = 256, {{.+}} stages = 2,
// MXFP4-RUNS-NEXT: candidate 8: #tile.config<block = [16, 64, 256], threads = 128, mma = wgmma, {{.+}} persistent = true, {{.+}} transposed = true, uniform_warp = true, l2_fetch = 128>
// MXFP4-RUNS-NEXT: candidate 9: #tile.config<{{.+}} transposed = true, k_warpgroups = 2, uniform_warp = true, l2_fetch = 128>

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
// LINEAR-UNTUNED: tile.matmul {{.+}} {tile.config = #tile.config<block = [64, 128, 64], {{.+}} split_k = 4, split_k_in_kernel = true, uniform_warp = true>}

//--- linear.mlir
func.func @linear(%a: tensor<16x4096xbf16>, %w: tensor<4096x4096xbf16>) -> tensor<16x4096xf32> {
  %b = tile.transpose %w : tensor<4096x4096xbf16> -> tensor<4096x4096xbf16>
  %c = tile.matmul %a, %b : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xf32>
  return %c : tensor<16x4096xf32>
}

//--- two_groups.mlir
func.func @two_groups(%x: tensor<16x384xbf16>, %qw: tensor<64x192xi8>, %s: tensor<64x12xbf16>, %z: tensor<64x8xbf16>) -> tensor<16x64xf32> {
  %q = tile.unpack %qw signed : tensor<64x192xi8> -> tensor<64x384xi8>
  %sr = tile.repeat %s dim = 1 times = 32 : tensor<64x12xbf16> -> tensor<64x384xbf16>
  %zr = tile.repeat %z dim = 1 times = 48 : tensor<64x8xbf16> -> tensor<64x384xbf16>
  %w = tile.map (%q, %sr, %zr) : (tensor<64x384xi8>, tensor<64x384xbf16>, tensor<64x384xbf16>) -> tensor<64x384xbf16> {
  ^bb0(%qi: i8, %si: bf16, %zi: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %zf = arith.extf %zi : bf16 to f32
    %d = arith.subf %f, %zf : f32
    %v = arith.mulf %d, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<64x384xbf16> -> tensor<384x64xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x384xbf16>, tensor<384x64xbf16>) -> tensor<16x64xf32>
  return %y : tensor<16x64xf32>
}

//--- mxfp4.mlir
func.func @mxfp4(%x: tensor<16x8192xbf16>, %qw: tensor<8192x4096xi8>, %e: tensor<8192x256xi8>) -> tensor<16x8192xf32> {
  %q = tile.unpack %qw : tensor<8192x4096xi8> -> tensor<8192x8192xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<8192x256xi8> -> tensor<8192x8192xi8>
  %w = tile.map (%q, %er) : (tensor<8192x8192xi8>, tensor<8192x8192xi8>) -> tensor<8192x8192xbf16> {
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
  %wt = tile.transpose %w : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<16x8192xf32>
  return %y : tensor<16x8192xf32>
}

//--- mxfp4_runs.mlir
func.func @mxfp4_runs(%x: tensor<16x8192xbf16>, %qw: tensor<8192x4096xi8>, %e: tensor<8192x256xi8>) -> tensor<16x8192xf32> {
  %q = tile.unpack %qw interleaved : tensor<8192x4096xi8> -> tensor<8192x8192xi8>
  %er = tile.repeat %e dim = 1 times = 32 : tensor<8192x256xi8> -> tensor<8192x8192xi8>
  %w = tile.map (%q, %er) : (tensor<8192x8192xi8>, tensor<8192x8192xi8>) -> tensor<8192x8192xbf16> {
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
  %wt = tile.transpose %w : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
  %y = tile.matmul %x, %wt k_runs = 8 : (tensor<16x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<16x8192xf32>
  return %y : tensor<16x8192xf32>
}

//--- runs.mlir
func.func @runs(%x: tensor<16x8192xbf16>, %qw: tensor<4096x4096xi8>, %s: tensor<32x4096xbf16>) -> tensor<16x4096xf32> {
  %q = tile.unpack %qw signed interleaved : tensor<4096x4096xi8> -> tensor<4096x8192xi8>
  %st = tile.transpose %s : tensor<32x4096xbf16> -> tensor<4096x32xbf16>
  %sr = tile.repeat %st dim = 1 times = 256 : tensor<4096x32xbf16> -> tensor<4096x8192xbf16>
  %w = tile.map (%q, %sr) : (tensor<4096x8192xi8>, tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16> {
  ^bb0(%qi: i8, %si: bf16):
    %f = arith.sitofp %qi : i8 to f32
    %sf = arith.extf %si : bf16 to f32
    %v = arith.mulf %f, %sf : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<4096x8192xbf16> -> tensor<8192x4096xbf16>
  %y = tile.matmul %x, %wt k_runs = 32 : (tensor<16x8192xbf16>, tensor<8192x4096xbf16>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}

//--- dequant8.mlir
func.func @dequant8(%x: tensor<16x8192xbf16>, %qw: tensor<8192x8192xi8>, %s: tensor<64x8192xf32>) -> tensor<16x8192xf32> {
  %st = tile.transpose %s : tensor<64x8192xf32> -> tensor<8192x64xf32>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<8192x64xf32> -> tensor<8192x8192xf32>
  %w = tile.map (%qw, %sr) : (tensor<8192x8192xi8>, tensor<8192x8192xf32>) -> tensor<8192x8192xbf16> {
  ^bb0(%qi: i8, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<8192x8192xbf16> -> tensor<8192x8192xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<16x8192xf32>
  return %y : tensor<16x8192xf32>
}

//--- dequant.mlir
func.func @dequant(%x: tensor<16x8192xbf16>, %qw: tensor<4096x4096xi8>, %s: tensor<64x4096xf32>) -> tensor<16x4096xf32> {
  %q = tile.unpack %qw signed : tensor<4096x4096xi8> -> tensor<4096x8192xi8>
  %st = tile.transpose %s : tensor<64x4096xf32> -> tensor<4096x64xf32>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<4096x64xf32> -> tensor<4096x8192xf32>
  %w = tile.map (%q, %sr) : (tensor<4096x8192xi8>, tensor<4096x8192xf32>) -> tensor<4096x8192xbf16> {
  ^bb0(%qi: i8, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<4096x8192xbf16> -> tensor<8192x4096xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x8192xbf16>, tensor<8192x4096xbf16>) -> tensor<16x4096xf32>
  return %y : tensor<16x4096xf32>
}

//--- db.jsonl
# tuned on the H200
{"tile_tuning": 1, "schedule": 1, "op": "tile.matmul", "chip": "sm_90a", "sms": 132, "m": 16, "n": 4096, "k": 4096, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 8, persistent = true, group_rows = 8, warp_specialize = true, split_k = 4>", "time_us": 20.7}
{"tile_tuning": 1, "schedule": 1, "op": "tile.matmul", "chip": "sm_90a", "sms": 132, "m": 16, "n": 4096, "k": 4096, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.config<block = [64, 256, 64], threads = 128, mma = wgmma, instr = [64, 256, 16], warps = [4, 1], stages = 5, persistent = true, group_rows = 8, warp_specialize = true, split_k = 4>"}
{"tile_tuning": 1, "schedule": 1, "op": "tile.matmul.dequant.i4s.g128", "chip": "sm_90a", "sms": 132, "m": 16, "n": 4096, "k": 8192, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.config<block = [16, 128, 128], threads = 256, mma = mma_sync, instr = [16, 8, 16], warps = [1, 8], stages = 3, group_rows = 8, split_k = 4, split_k_in_kernel = true>"}
{"tile_tuning": 1, "schedule": 1, "op": "tile.matmul", "chip": "sm_90a", "sms": 132, "m": 16, "n": 4096, "k": 8192, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.config<block = [64, 64, 64], threads = 128>"}

//--- old.jsonl
{"tile_tuning": 1, "schedule": 0, "op": "tile.matmul", "chip": "sm_90a", "sms": 132, "m": 16, "n": 4096, "k": 4096, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.config<block = [64, 128, 64], threads = 128>"}

//--- bad.jsonl
{"tile_tuning": 1, "schedule": 1, "op": "tile.matmul", "chip": "sm_90a", "sms": 132, "m": 1, "n": 1, "k": 1, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.config<block = [64, 128, 64], threads = 128>"}
{"tile_tuning": 1,

//--- fields.jsonl
{"tile_tuning": 1, "schedule": 1, "op": "tile.matmul", "chip": "sm_90a"}

//--- notconfig.jsonl
{"tile_tuning": 1, "schedule": 1, "op": "tile.matmul", "chip": "sm_90a", "sms": 132, "m": 16, "n": 4096, "k": 4096, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.target<\"sm_80\">"}
