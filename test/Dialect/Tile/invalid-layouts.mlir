// The verifiers of the target, the configuration, the layouts and the ops
// the tensor-core passes make.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected a chip like sm_80 or sm_90a but got 'gfx90a'}}
func.func @target() attributes {t = #tile.target<"gfx90a">}

// -----

// expected-error @+1 {{warps [2, 2] are 128 threads but threads = 64}}
func.func @config_warps() attributes {c = #tile.config<block = [64, 64, 16], threads = 64, warps = [2, 2]>}

// -----

// expected-error @+1 {{mma = wgmma needs instr and warps}}
func.func @config_mma() attributes {c = #tile.config<block = [64, 64, 16], threads = 128, mma = wgmma>}

// -----

// expected-error @+1 {{stages must be in [1, 16] but is 17}}
func.func @config_stages() attributes {c = #tile.config<block = [64], threads = 32, stages = 17>}

// -----

// expected-error @+1 {{overlap needs a ring (stages >= 2) but stages = 1}}
func.func @config_overlap_ring() attributes {c = #tile.config<block = [128, 128, 64], threads = 384, mma = wgmma, instr = [64, 128, 16], warps = [12, 1], stages = 1, warp_specialize = true, overlap = true>}

// -----

// expected-error @+1 {{pingpong needs mma = wgmma on two or more whole warpgroups but threads = 128 with mma = wgmma}}
func.func @config_pingpong_one_warpgroup() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, pingpong = true>}

// -----

// expected-error @+1 {{pingpong needs mma = wgmma on two or more whole warpgroups but threads = 256 with mma = mma_sync}}
func.func @config_pingpong_mma_sync() attributes {c = #tile.config<block = [128, 128, 32], threads = 256, mma = mma_sync, instr = [16, 8, 16], warps = [4, 2], stages = 4, pingpong = true>}

// -----

// expected-error @+1 {{split_k_in_kernel needs split_k >= 2 but split_k = 1}}
func.func @config_split_k_in_kernel() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 8, split_k_in_kernel = true>}

// -----

// The transposed product is a wgmma schedule of whole K ranges.
// expected-error @+1 {{transposed (the weight as wgmma's register A) needs mma = wgmma and split_k = 1}}
func.func @config_transposed_mma_sync() attributes {c = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], transposed = true>}

// -----

// expected-error @+1 {{prefetch needs stages >= 2 (a ring) but stages = 1}}
func.func @config_prefetch() attributes {c = #tile.config<block = [16, 64, 128], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], prefetch = true>}

// -----

// expected-error @+1 {{overlap needs warp_specialize = true (a producer warpgroup issues the ring's loads)}}
func.func @config_overlap_producer() attributes {c = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, overlap = true>}

// -----

// expected-error @+1 {{mirror_rows orders the tiles itself, so group_rows must be 1 but is 8}}
func.func @config_mirror_rows_grouped() attributes {c = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, persistent = true, group_rows = 8, mirror_rows = true>}

// -----

// expected-error @+1 {{mirror_rows needs persistent = true}}
func.func @config_mirror_rows() attributes {c = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, mirror_rows = true>}

// -----

// expected-error @+1 {{k_warpgroups must be at least 1 but is 0}}
func.func @config_k_warpgroups_zero() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, warp_specialize = true, k_warpgroups = 0>}

// -----

// Warpgroups taking turns at K share a producer's ring.
// expected-error @+1 {{k_warpgroups needs mma = wgmma, warp_specialize = true and threads a multiple of 128}}
func.func @config_k_warpgroups_no_producer() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, k_warpgroups = 2>}

// -----

// The warpgroups share one producer's ring.
// expected-error @+1 {{k_warpgroups needs a ring (stages >= 2) but stages = 1}}
func.func @config_k_warpgroups_no_ring() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 1, warp_specialize = true, k_warpgroups = 2>}

// -----

// A ring that is no power of two is fine (slots by a remainder), one the
// warpgroups do not divide is not.
// expected-error @+1 {{k_warpgroups (2) must divide stages (3): each warpgroup waits on the slots of its own steps}}
func.func @config_k_warpgroups_odd_ring() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 3, warp_specialize = true, k_warpgroups = 2>}

// -----

// Step i's slot was step i - 4's: three warpgroups would wait on slots
// the others used last (a parity tells only one round from the next).
// expected-error @+1 {{k_warpgroups (3) must divide stages (4): each warpgroup waits on the slots of its own steps}}
func.func @config_k_warpgroups_not_dividing() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, warp_specialize = true, k_warpgroups = 3>}

// -----

// The partial sums are handed over once: one output tile per program.
// expected-error @+1 {{k_warpgroups takes no persistent, overlap, pingpong or cluster along K}}
func.func @config_k_warpgroups_persistent() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, persistent = true, warp_specialize = true, k_warpgroups = 2>}

// -----

// expected-error @+1 {{fma_exp2 must be 0 (none) or positive but got -1}}
func.func @config_fma_exp2() attributes {c = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, fma_exp2 = -1>}

// -----

// expected-error @+1 {{unknown #tile.config key 'bogus'}}
func.func @config_key() attributes {c = #tile.config<block = [64], threads = 32, bogus = 1>}

// -----

// expected-error @+1 {{wgmma accumulators need whole warpgroups (4 warps) along M but got 2}}
func.func @mma_warps(%a: !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [2, 1], instr = [64, 64, 16]>>)

// -----

// (Found by the fuzzer: 16 rows a warp times 2^62 warps wrapped to 0.)
// expected-error @+1 {{warps [4611686018427387904, 1] are more than a program's 32}}
func.func @mma_too_many_warps(%a: !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4611686018427387904, 1], instr = [64, 64, 16]>>)

// -----

// expected-error @+1 {{warps [8, 8] are more than a program's 32}}
func.func @mma_sync_too_many_warps(%a: !tile.tile<64x64xf32, layout = #tile.mma<mma_sync, warps = [8, 8], instr = [16, 8, 16]>>)

// -----

// expected-error @+1 {{a tile of 32x64 does not split into the mma layout's 64x64 (16 rows x instr N per warp, warps [4, 1]) in powers of two}}
func.func @mma_shape(%a: !tile.tile<32x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>)

// -----

// An instruction N that is not a power of two (m64n192) is one instruction
// per warp: no repetitions along N ...
// expected-error @+1 {{a tile of 128x384 is not one instruction of N = 192 (not a power of two) per warp: 128x192 with warps [8, 1]}}
func.func @mma_n192_wide(%a: !tile.tile<128x384xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 192, 16]>>)

// -----

// ... or along M.
// expected-error @+1 {{a tile of 256x192 is not one instruction of N = 192 (not a power of two) per warp: 128x192 with warps [8, 1]}}
func.func @mma_n192_tall(%a: !tile.tile<256x192xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 192, 16]>>)

// -----

// A tile that is not a power of two takes an instruction N that is not one.
// expected-error @+1 {{a tile of 128x192 does not split into the mma layout's 128x64 (16 rows x instr N per warp, warps [8, 1]) in powers of two}}
func.func @mma_n192_by_64(%a: !tile.tile<128x192xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 64, 16]>>)

// -----

// expected-error @+1 {{a #tile.shared layout needs memory_space = #gpu.address_space<workgroup>}}
func.func @shared_space(%a: !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>>)

// -----

// expected-error @+1 {{a tile in #tile.shared<row_xor = 128> needs rows of a multiple of 256 bytes but has rows of 128 bytes}}
func.func @row_xor_rows(%a: !tile.tile<16x64xbf16, layout = #tile.shared<row_xor = 128>, memory_space = #gpu.address_space<workgroup>>)

// -----

// expected-error @+1 {{row_xor is 0 or a power of two of 64 bytes or more but got 96}}
func.func @row_xor_size(%a: !tile.tile<16x384xbf16, layout = #tile.shared<row_xor = 96>, memory_space = #gpu.address_space<workgroup>>)

// -----

// expected-error @+1 {{row_xor is for row-major layouts (or their transposed views) without swizzle}}
func.func @row_xor_swizzled(%a: !tile.tile<16x128xbf16, layout = #tile.shared<swizzle = 128, row_xor = 128>, memory_space = #gpu.address_space<workgroup>>)

// -----

// expected-error @+1 {{a tile in #tile.shared<swizzle = 128> needs rows of a multiple of 128 bytes and a multiple of 8 rows but has 64 rows of 64 bytes}}
func.func @shared_rows(%a: !tile.tile<64x32xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>)

// -----

// A transposed view's stored rows are its columns: 4 here.
// expected-error @+1 {{a tile in #tile.shared<swizzle = 128> needs rows of a multiple of 128 bytes and a multiple of 8 rows but has 4 rows of 128 bytes}}
func.func @shared_rows_transposed(%a: !tile.tile<64x4xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>)

// -----

// expected-error @+1 {{a tile in shared memory needs a #tile.shared layout}}
func.func @shared_layout(%a: !tile.tile<64x32xbf16, memory_space = #gpu.address_space<workgroup>>)

// -----

// A slice of a blocked layout names the parent's extent along the
// removed dimension (its map depends on the whole shape).
// expected-error @+1 {{a slice of a blocked layout needs the parent's extent along the removed dimension (a power of two) but got 0}}
func.func @slice(%a: !tile.tile<64xf32, layout = #tile.slice<0, #tile.blocked<threads = 128, run = 1>>>)

// -----

// expected-error @+1 {{a slice's parent is an mma, dot operand or blocked layout but got #tile.shared<>}}
func.func @slice_parent(%a: !tile.tile<64xf32, layout = #tile.slice<0, #tile.shared<>>>)

// -----

// expected-error @+1 {{a slice of an mma or dot operand layout takes no extent}}
func.func @slice_extent(%a: !tile.tile<64xf32, layout = #tile.slice<1, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, extent = 64>>)

// -----

#mma = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>
func.func @map_layouts(%a: !tile.tile<64x64xf32, layout = #mma>, %b: !tile.tile<64x64xf32, layout = #tile.blocked<threads = 128, run = 4>>) {
  // expected-error @+1 {{expected operand #1 in the result's layout}}
  %c = tile.map (%a, %b) : (!tile.tile<64x64xf32, layout = #mma>, !tile.tile<64x64xf32, layout = #tile.blocked<threads = 128, run = 4>>) -> !tile.tile<64x64xf32, layout = #mma> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tile.yield %s : f32
  }
  return
}

// -----

#mma = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>
func.func @reduce_layout(%a: !tile.tile<64x64xf32, layout = #mma>, %z: f32) {
  // expected-error @+1 {{expected the result in layout #tile.slice<1, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>> (the input's, reduced along dimension 1)}}
  %m = tile.reduce %a, %z dim = 1 : !tile.tile<64x64xf32, layout = #mma>, f32 -> !tile.tile<64xf32, layout = #tile.slice<0, #mma>> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    tile.yield %s : f32
  }
  return
}

// -----

!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @shared_to_shared(%a: !s) {
  // expected-error @+1 {{cannot move a tile from shared memory to shared memory}}
  %b = tile.convert_layout %a : !s -> !s
  return
}

// -----

!s = !tile.tile<64x64xf32, layout = #tile.shared<padding = 4>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<64x64xf32, layout = #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>
func.func @shared_to_accumulator(%a: !s) {
  // expected-error @+1 {{reads a tile in shared memory into mma.sync operands (#tile.dot_operand) or #tile.blocked registers only, not #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>}}
  %b = tile.convert_layout %a : !s -> !acc
  return
}

// -----

!s = !tile.tile<64x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
func.func @wgmma_padded(%a: !s, %c: !acc) {
  // expected-error @+1 {{expected lhs in shared memory with a #tile.shared<swizzle = ...> layout}}
  %d = tile.wgmma %a, %a, %c : !s, !s -> !acc
  return
}

// -----

func.func @partitions(%x: memref<4xf32>) {
  tile.kernel @k grid [1] threads 512 (%x) : memref<4xf32> {
  ^bb0(%a: memref<4xf32>):
    // expected-error @+1 {{partitions hold 384 threads but the kernel has 512}}
    tile.warp_specialize threads [128, 256] registers [40, 232] {
    }, {
    }
  }
  return
}

// -----

func.func @warpgroups(%x: memref<4xf32>) {
  tile.kernel @k grid [1] threads 192 (%x) : memref<4xf32> {
  ^bb0(%a: memref<4xf32>):
    // expected-error @+1 {{expected partitions of whole warpgroups (a multiple of 128 threads) but got 64}}
    tile.warp_specialize threads [128, 64] registers [40, 232] {
    }, {
    }
  }
  return
}

// -----

func.func @replica_counts(%x: memref<4xf32>) {
  tile.kernel @k grid [1] threads 640 (%x) : memref<4xf32> {
  ^bb0(%a: memref<4xf32>):
    // expected-error @+1 {{expected one replica count per partition but got 1 for 2 partitions}}
    tile.warp_specialize threads [128, 128] registers [32, 112] attributes {replicas = array<i64: 4>} {
    }, {
    }
  }
  return
}

// -----

func.func @replica_zero(%x: memref<4xf32>) {
  tile.kernel @k grid [1] threads 128 (%x) : memref<4xf32> {
  ^bb0(%a: memref<4xf32>):
    // expected-error @+1 {{expected replica counts of at least 1 but got 0}}
    tile.warp_specialize threads [128, 128] registers [32, 112] attributes {replicas = array<i64: 1, 0>} {
    }, {
    }
  }
  return
}

// -----

// Replicas count in the kernel's threads: 128 + 4 x 128.
func.func @replica_threads(%x: memref<4xf32>) {
  tile.kernel @k grid [1] threads 256 (%x) : memref<4xf32> {
  ^bb0(%a: memref<4xf32>):
    // expected-error @+1 {{partitions hold 640 threads but the kernel has 256}}
    tile.warp_specialize threads [128, 128] registers [32, 112] attributes {replicas = array<i64: 1, 4>} {
    }, {
    }
  }
  return
}

// -----

// ... and in the registers they ask for: 4 x 128 x 128 beside 128 x 32 is
// more than 640 threads of 96 hold.
func.func @replica_registers(%x: memref<4xf32>) {
  tile.kernel @k grid [1] threads 640 (%x) : memref<4xf32> {
  ^bb0(%a: memref<4xf32>):
    // expected-error @+1 {{partitions ask for 69632 registers but a launch of 640 threads holds 61440 (96 a thread)}}
    tile.warp_specialize threads [128, 128] registers [32, 128] attributes {replicas = array<i64: 1, 4>} {
    }, {
    }
  }
  return
}

// -----

func.func @replica_outside() -> index {
  // expected-error @+1 {{expected to be inside a tile.warp_specialize partition}}
  %r = tile.replica
  return %r : index
}

// -----

func.func @view(%x: memref<4x64x64xbf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected the buffer of a tile.shared}}
  %v = tile.view %x[%c0] : memref<4x64x64xbf16, #gpu.address_space<workgroup>> -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
  return
}

// -----

// wgmma's A in registers must be in its accumulator's dot operand layout.
#mma = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>
#other = #tile.mma<wgmma, warps = [4, 1], instr = [64, 128, 16]>
!shared = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
func.func @wgmma_register_a(%a: !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #other>>, %b: !shared, %acc: !tile.tile<64x64xf32, layout = #mma>) {
  // expected-error @+1 {{expected lhs in registers in #tile.dot_operand<0, the accumulator's layout> but got}}
  %d = tile.wgmma %a, %b, %acc : !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #other>>, !shared -> !tile.tile<64x64xf32, layout = #mma>
  return
}

// -----

// k_width is a power of two, and only mma.sync operands and wgmma's A permute K.
// expected-error @+1 {{k_width is a power of two in [2, 64] but got 12}}
func.func @k_width_pow2(%a: !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 12>>)

// -----

// wgmma's B is never in registers; its A takes runs (lhs_k_runs).
// expected-error @+1 {{k_width other than 2 is for mma.sync operands and wgmma's A only, not #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>}}
func.func @k_width_wgmma(%a: !tile.tile<64x64xbf16, layout = #tile.dot_operand<1, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>, k_width = 8>>)

// -----

// A K tile shorter than one block of 4 k_width.
// expected-error @+1 {{an A operand of 16x32 does not split into 16x128 blocks in powers of two}}
func.func @k_width_block(%a: !tile.tile<16x32xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 32>>)

// -----

// The two operands of an mma.sync dot take K in one order.
#mma = #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>
func.func @k_width_mismatch(%a: !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #mma, k_width = 32>>, %b: !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #mma, k_width = 16>>, %acc: !tile.tile<16x64xf32, layout = #mma>) {
  // expected-error @+1 {{expected operands of one k_width (their K order) but got 32 and 16}}
  %d = tile.dot %a, %b, %acc : !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #mma, k_width = 32>>, !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #mma, k_width = 16>> -> !tile.tile<16x64xf32, layout = #mma>
  return
}

// -----

// Under k_runs = W, B is read in runs of W and A in its own order.
#mma = #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>
func.func @k_runs_widths(%a: !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #mma, k_width = 32>>, %b: !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #mma, k_width = 32>>, %acc: !tile.tile<16x64xf32, layout = #mma>) {
  // expected-error @+1 {{expected k_width 2 for A and 32 for B under k_runs = 32 but got 32 and 32}}
  %d = tile.dot %a, %b, %acc k_runs = 32 : !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #mma, k_width = 32>>, !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #mma, k_width = 32>> -> !tile.tile<16x64xf32, layout = #mma>
  return
}

// -----

// A dot operand of k_width > 2 is read in runs from a padded row-major
// tile (tile-promote's layout for mma.sync): A not from a transposed view
// (B from one only: the [N, K] tile it transposes).
func.func @k_width_from_transposed(%t: !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8, transposed = true>, memory_space = #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{reads a dot operand of k_width > 2 from a padded row-major or (A) swizzled tile in shared memory (B: its transposed view) only, not #tile.shared<padding = 8, transposed = true>}}
  %r = tile.convert_layout %t : !tile.tile<16x128xbf16, layout = #tile.shared<padding = 8, transposed = true>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<16x128xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 32>>
  return
}

// -----

// A swizzled tile holds A's runs (a packed weight's TMA box, read without
// bank conflicts), not B's: no kernel reads B's runs so, and none has run
// on a GPU.
func.func @k_width_b_from_swizzled(%t: !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{reads a dot operand of k_width > 2 from a padded row-major or (A) swizzled tile in shared memory (B: its transposed view) only, not #tile.shared<swizzle = 128, transposed = true>}}
  %r = tile.convert_layout %t : !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>> -> !tile.tile<128x64xbf16, layout = #tile.dot_operand<1, #tile.mma<mma_sync, warps = [1, 4], instr = [16, 8, 16]>, k_width = 32>>
  return
}

// -----

// wgmma reads B from shared memory only.
// expected-error @+1 {{wgmma reads only its A operand from registers}}
func.func @wgmma_register_b(%a: !tile.tile<64x64xbf16, layout = #tile.dot_operand<1, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>>)

// -----

// A dot operand is a matrix: a rank-1 tile has no place in its fragments.
// expected-error @+1 {{a dot operand layout needs a rank-2 tile}}
func.func @dot_operand_rank(%a: !tile.tile<64xbf16, layout = #tile.dot_operand<0, #tile.mma<mma_sync, warps = [1, 1], instr = [16, 8, 16]>>>)

// -----

// Adding a unit dimension keeps every element where it is: the layouts must
// be the same (a blocked input of other runs is only taken where the
// broadcast moves elements through shared memory).
func.func @broadcast_unit_dim_other_runs(%v: !tile.tile<1024xf32, layout = #tile.blocked<threads = 128, run = 1>>) {
  // expected-error @+1 {{expected the input in layout #tile.blocked<threads = 128, run = 8>}}
  %b = tile.broadcast %v [0] : !tile.tile<1024xf32, layout = #tile.blocked<threads = 128, run = 1>> -> !tile.tile<1x1024xf32, layout = #tile.blocked<threads = 128, run = 8>>
  return
}
