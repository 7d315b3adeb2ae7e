// The parser and verifier errors of the tile attributes (#tile.config and
// the layouts) and of a tile type's layout and memory space.
// RUN: tile-opt %s -split-input-file -verify-diagnostics

// A memory space other than shared memory.
// expected-error @+1 {{a tile's memory space is #gpu.address_space<workgroup> or none (registers) but got #gpu.address_space<global>}}
func.func @memory_space(%a: !tile.tile<64x64xf32, memory_space = #gpu.address_space<global>>)

// -----

// 128 elements over 128 threads cannot be read in runs of 2.
// expected-error @+1 {{a #tile.blocked run of 2 needs a multiple of 256 elements but the tile has 128}}
func.func @blocked_run_elements(%a: !tile.tile<128xf32, layout = #tile.blocked<threads = 128, run = 2>>)

// -----

// A run whose product with the threads passes int64 (it wrapped to 0, a
// division by zero; found by scripts/fuzz.py --seed 33).
// expected-error @+1 {{a #tile.blocked run of 4611686018427387904 needs a multiple of 128 x 4611686018427387904 elements but the tile has 256}}
func.func @blocked_run_past_int64(%a: !tile.tile<256xf32, layout = #tile.blocked<threads = 128, run = 4611686018427387904>>)

// -----

// A tile of more elements than int64 counts.
// expected-error @+1 {{a #tile.blocked tile of more than 2^63 elements cannot be spread over threads}}
func.func @blocked_elements_past_int64(%a: !tile.tile<4611686018427387904x4xf32, layout = #tile.blocked<threads = 128, run = 1>>)

// -----

// An attribute that is not a layout.
// expected-error @+1 {{expected a tile layout (#tile.blocked, #tile.mma, #tile.dot_operand, #tile.slice, #tile.shared) but got #tile.target<"sm_90a">}}
func.func @not_a_layout(%a: !tile.tile<64x64xf32, layout = #tile.target<"sm_90a">>)

// -----

// expected-error @+1 {{expected true or false}}
func.func @config_bool() attributes {c = #tile.config<block = [64], threads = 32, persistent = yes>}

// -----

// expected-error @+1 {{expected simt, mma_sync or wgmma but got 'hmma'}}
func.func @config_mma_kind() attributes {c = #tile.config<block = [64], threads = 32, mma = hmma>}

// -----

// expected-error @+1 {{#tile.config needs block and threads}}
func.func @config_no_block() attributes {c = #tile.config<threads = 32>}

// -----

// expected-error @+1 {{instr is [M, N, K] but has 2 sizes}}
func.func @config_instr() attributes {c = #tile.config<block = [64, 64, 16], threads = 128, instr = [64, 64]>}

// -----

// expected-error @+1 {{warps is [along M, along N] but has 1 sizes}}
func.func @config_warps_rank() attributes {c = #tile.config<block = [64, 64, 16], threads = 128, warps = [4]>}

// -----

// expected-error @+1 {{group_rows must be at least 1 but is 0}}
func.func @config_group_rows() attributes {c = #tile.config<block = [64], threads = 32, group_rows = 0>}

// -----

// expected-error @+1 {{split_k must be at least 1 but is 0}}
func.func @config_split_k() attributes {c = #tile.config<block = [64], threads = 32, split_k = 0>}

// -----

// expected-error @+1 {{cluster is [along M, along N] or [along M, along N, along the K ranges] but has 1 sizes}}
func.func @config_cluster() attributes {c = #tile.config<block = [64], threads = 32, cluster = [2]>}

// -----

// expected-error @+1 {{run must be a power of two but is 3}}
func.func @blocked_run(%a: !tile.tile<384xf32, layout = #tile.blocked<threads = 128, run = 3>>)

// -----

// expected-error @+1 {{an mma layout is mma_sync's or wgmma's}}
func.func @mma_simt(%a: !tile.tile<64x64xf32, layout = #tile.mma<simt, warps = [1, 1], instr = [16, 8, 16]>>)

// -----

// expected-error @+1 {{expected warps = [M, N] and instr = [M, N, K]}}
func.func @mma_rank(%a: !tile.tile<64x64xf32, layout = #tile.mma<mma_sync, warps = [4], instr = [16, 8, 16]>>)

// -----

// expected-error @+1 {{warps must be powers of two but got 3}}
func.func @mma_warps_pow2(%a: !tile.tile<64x64xf32, layout = #tile.mma<mma_sync, warps = [3, 1], instr = [16, 8, 16]>>)

// -----

// expected-error @+1 {{mma_sync instructions are 16x8x16 (or 16x8x8) but got 16x16x16}}
func.func @mma_sync_instr(%a: !tile.tile<64x64xf32, layout = #tile.mma<mma_sync, warps = [2, 2], instr = [16, 16, 16]>>)

// -----

// expected-error @+1 {{wgmma instructions are m64nNk16 with N a multiple of 8 in [8, 256] but got 64x20x16}}
func.func @wgmma_instr(%a: !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 20, 16]>>)

// -----

// expected-error @+1 {{wgmma instructions are m64nNk16 with N a multiple of 8 in [8, 256] but got 64x264x16}}
func.func @wgmma_instr_wide(%a: !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 264, 16]>>)

// -----

// expected-error @+1 {{a dot operand is 0 (A) or 1 (B) but got 2}}
func.func @dot_operand_index(%a: !tile.tile<64x64xbf16, layout = #tile.dot_operand<2, #tile.mma<mma_sync, warps = [2, 2], instr = [16, 8, 16]>>>)

// -----

// expected-error @+1 {{a slice removes dimension 0 or 1 but got 2}}
func.func @slice_dim(%a: !tile.tile<64xf32, layout = #tile.slice<2, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>>)

// -----

// expected-error @+1 {{swizzle is 0, 32, 64 or 128 bytes but got 16}}
func.func @shared_swizzle(%a: !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 16>, memory_space = #gpu.address_space<workgroup>>)

// -----

// expected-error @+1 {{padding must not be negative but is -8}}
func.func @shared_padding(%a: !tile.tile<64x64xbf16, layout = #tile.shared<padding = -8>, memory_space = #gpu.address_space<workgroup>>)

// -----

// A swizzled tile's padding makes its rows a column block's (128 bytes).
// expected-error @+1 {{a tile in #tile.shared<swizzle = 128, padding = 8> needs rows and padding of 128 bytes together and a multiple of 8 rows but has 64 rows of 128 bytes and 16 bytes of padding}}
func.func @shared_swizzle_padding(%a: !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128, padding = 8>, memory_space = #gpu.address_space<workgroup>>)

// -----

// A cluster along the K ranges holds all of them.
// expected-error @+1 {{a cluster along the K ranges (cluster[2] = 2) must hold all of them (split_k = 4), at most 8}}
func.func @config_cluster_split() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], split_k = 4, cluster = [1, 1, 2]>}

// -----

// On the grid as tile-tile builds it: one program per K range of a tile.
// expected-error @+1 {{a cluster along the K ranges runs on the grid as it is: no split_k_in_kernel, persistent or group_rows}}
func.func @config_cluster_persistent() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], persistent = true, split_k = 2, cluster = [1, 1, 2]>}

// -----

// Only the wgmma kernels sum in clusters.
// expected-error @+1 {{a cluster along the K ranges needs mma = wgmma but mma = simt}}
func.func @config_cluster_simt() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, split_k = 2, cluster = [1, 1, 2]>}

// -----

// expected-error @+1 {{cluster sizes must be positive but got 0}}
func.func @config_cluster_zero() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, cluster = [1, 0]>}

// -----

// Clusters along M only ([C, 1]: its programs share B tiles).
// expected-error @+1 {{a cluster along N, or along M and another dimension, is not built (only [C, 1])}}
func.func @config_cluster_along_n() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, cluster = [1, 2]>}

// -----

// expected-error @+1 {{a cluster along M holds 2, 4 or 8 programs but cluster[0] = 3}}
func.func @config_cluster_three() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, cluster = [3, 1]>}

// -----

// A cluster along M shares B through a TMA ring.
// expected-error @+1 {{a cluster along M shares wgmma's B tiles through a TMA ring: it needs mma = wgmma, stages >= 2, split_k = 1, and no transposed or mirror_rows}}
func.func @config_cluster_no_ring() attributes {c = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], cluster = [2, 1]>}
