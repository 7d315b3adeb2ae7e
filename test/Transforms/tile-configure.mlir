// tile-configure writes each matmul's and each tensor-core kernel's
// tile.config from the target and the shapes, keeps a config written by
// hand, and rejects configs that cannot work with a located error.
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a | FileCheck %s --check-prefix=H100
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_80 | FileCheck %s --check-prefix=A100
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_75 | FileCheck %s --check-prefix=T4

// A large bf16 matmul: the measured Hopper schedule (128 x 256 x 64, two
// consumer warpgroups, 4 TMA stages, a producer warpgroup, persistent);
// on sm_80 CUTLASS's 128 x 256 x 32 mma.sync tile (it makes 256 programs or
// more); nothing on sm_75 (no bf16 mma.sync): tile-tile's SIMT defaults.
// H100: module attributes {tile.target = #tile.target<"sm_90a">}
// H100-LABEL: func @big
// H100: tile.matmul {{.+}} {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true, tma_store = true>}
// A100-LABEL: func @big
// A100: tile.matmul {{.+}} {tile.config = #tile.config<block = [128, 256, 32], threads = 256, mma = mma_sync, instr = [16, 8, 16], warps = [2, 4], stages = 4, group_rows = 8>}
// T4-LABEL: func @big
// T4-NOT: tile.config
func.func @big(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<4096x4096xf32>
  return %c : tensor<4096x4096xf32>
}

// -----

// A small one: no block fills half the SMs, so the one with the most
// programs (64 x 64: 2 x 2; K = 99 padded to 104 -> 64, too short to
// split), with one consumer warpgroup and the deepest ring that fits; on
// sm_80 the narrow tile (fewer than 256 programs) with 4 warps.
// H100-LABEL: func @small
// H100: tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 8, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true, tma_store = true>
// T4-LABEL: func @small
// A100-LABEL: func @small
// A100: tile.config = #tile.config<block = [128, 128, 32], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], stages = 4, group_rows = 8>
func.func @small(%a: tensor<100x99xbf16>, %b: tensor<99x90xbf16>) -> tensor<100x90xf32> {
  %c = tile.matmul %a, %b : (tensor<100x99xbf16>, tensor<99x90xbf16>) -> tensor<100x90xf32>
  return %c : tensor<100x90xf32>
}

// -----

// Decode (M = 16 of a 4096 x 4096 weight): 64-row blocks (rows past M
// are not loaded). With M of 16 rows or fewer the last program of each
// tile adds the partials (split_k_in_kernel), so K ranges may be as short
// as 1024: 64 x 128 blocks (32 programs) with K in 4 ranges fill the SMs
// with 128 programs.
// H100-LABEL: func @decode
// H100: tile.config = #tile.config<block = [64, 128, 64], threads = 128, mma = wgmma, instr = [64, 128, 16], warps = [4, 1], stages = 8, persistent = true, group_rows = 8, warp_specialize = true, split_k = 4, split_k_in_kernel = true, uniform_warp = true>
func.func @decode(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xf32> {
  %c = tile.matmul %a, %b : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xf32>
  return %c : tensor<16x4096xf32>
}

// -----

// A long K and a narrow grid (Llama-70B's down projection at M = 16): the
// wide 64 x 256 block (32 programs) with K in 4 ranges of 7168.
// H100-LABEL: func @long_k
// H100: tile.config = #tile.config<block = [64, 256, 64], threads = 128, mma = wgmma, instr = [64, 256, 16], warps = [4, 1], stages = 5, persistent = true, group_rows = 8, warp_specialize = true, split_k = 4, split_k_in_kernel = true, uniform_warp = true>
func.func @long_k(%a: tensor<16x28672xbf16>, %b: tensor<28672x8192xbf16>) -> tensor<16x8192xf32> {
  %c = tile.matmul %a, %b : (tensor<16x28672xbf16>, tensor<28672x8192xbf16>) -> tensor<16x8192xf32>
  return %c : tensor<16x8192xf32>
}

// -----

// Enough 64-row, 128-column blocks to fill half the SMs without a split
// (M = 64, N = 14336: 112 programs): no split-K.
// H100-LABEL: func @wide_n
// H100: tile.config = #tile.config<block = [64, 128, 64], threads = 128, mma = wgmma, instr = [64, 128, 16], warps = [4, 1], stages = 8, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true, tma_store = true>
func.func @wide_n(%a: tensor<64x4096xbf16>, %b: tensor<4096x14336xbf16>) -> tensor<64x14336xf32> {
  %c = tile.matmul %a, %b : (tensor<64x4096xbf16>, tensor<4096x14336xbf16>) -> tensor<64x14336xf32>
  return %c : tensor<64x14336xf32>
}

// -----

// f32 operands have no tensor-core schedule here: tile-tile's defaults.
// H100-LABEL: func @f32
// H100-NOT: tile.config
func.func @f32(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = tile.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// A config written by hand is kept.
// H100-LABEL: func @by_hand
// H100: tile.config = #tile.config<block = [64, 64, 16], threads = 256>
func.func @by_hand(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64, 16], threads = 256>} : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// A hand-written kernel: its own 64 x 64 x 64 tiles and 128 threads, one
// consumer warpgroup (warps [4, 1]), m64n64k16; its operands are kernel
// arguments with 16-byte rows, so TMA and a producer warpgroup; a 2-D grid
// of output tiles, so persistent and grouped. On sm_80: mma.sync over 2 x 2
// warps, a cp.async ring, no persistence.
// H100-LABEL: func @kernel
// H100: tile.kernel @k grid [4, 4] threads 128{{.+}}attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, uniform_warp = true, tma_store = true>}
// A100-LABEL: func @kernel
// A100: tile.kernel @k grid [4, 4] threads 128{{.+}}attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], stages = 3, group_rows = 8>}
func.func @kernel(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32> {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}

// -----

// 32 x 32 tiles on 4 warps: too small for a warpgroup's 64 rows, so
// mma.sync on Hopper too; rows of 200 bytes: no 16-byte copies, no ring.
// H100-LABEL: func @small_tiles
// H100: tile.config = #tile.config<block = [32, 32, 16], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [2, 2], group_rows = 8>
func.func @small_tiles(%A: memref<129x100xbf16>, %B: memref<100x80xbf16>, %C: memref<129x80xf32>) {
  tile.kernel @k grid [5, 3] threads 128 (%A, %B, %C) : memref<129x100xbf16>, memref<100x80xbf16>, memref<129x80xf32> {
  ^bb0(%a: memref<129x100xbf16>, %b: memref<100x80xbf16>, %c: memref<129x80xf32>):
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c100 = arith.constant 100 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c32 : index
    %n0 = arith.muli %pn, %c32 : index
    %z = tile.splat %zero : f32 -> !tile.tile<32x32xf32>
    %acc = scf.for %k = %c0 to %c100 step %c16 iter_args(%x = %z) -> (!tile.tile<32x32xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<129x100xbf16> -> !tile.tile<32x16xbf16>
      %tb = tile.load %b[%k, %n0] : memref<100x80xbf16> -> !tile.tile<16x32xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<32x16xbf16>, !tile.tile<16x32xbf16> -> !tile.tile<32x32xf32>
      scf.yield %d : !tile.tile<32x32xf32>
    }
    tile.store %acc, %c[%m0, %n0] : !tile.tile<32x32xf32>, memref<129x80xf32>
  }
  return
}

// -----

// A weight dequantized in the K loop (int4, scales per 32 values of K):
// mma.sync on both targets, 16 x 64 blocks, K steps of 32 (one scale group
// per step), and K split while the programs fill the SMs less than four
// times (16-row blocks whose threads dequantize 8 bytes a step): 16 output
// tiles, 64 steps in 16 ranges (no more: ranges of at least 4 steps) on
// 132 SMs and on 108; M = 16 adds the partial sums in the kernel.
// H100-LABEL: func @dequantized_weight
// H100: tile.matmul {{.*}}block = [16, 64, 32], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 4, group_rows = 8, split_k = 16, split_k_in_kernel = true
// A100-LABEL: func @dequantized_weight
// A100: tile.matmul {{.*}}block = [16, 64, 32], threads = 128, mma = mma_sync, instr = [16, 8, 16], warps = [1, 4], stages = 4, group_rows = 8, split_k = 16, split_k_in_kernel = true
// T4-LABEL: func @dequantized_weight
// T4-NOT: tile.config
func.func @dequantized_weight(%x: tensor<16x2048xbf16>, %qw: tensor<1024x1024xi8>, %s: tensor<1024x64xf32>) -> tensor<16x1024xf32> {
  %q = tile.unpack %qw signed : tensor<1024x1024xi8> -> tensor<1024x2048xi8>
  %sr = tile.repeat %s dim = 1 times = 32 : tensor<1024x64xf32> -> tensor<1024x2048xf32>
  %w = tile.map (%q, %sr) : (tensor<1024x2048xi8>, tensor<1024x2048xf32>) -> tensor<1024x2048xbf16> {
  ^bb0(%qi: i8, %si: f32):
    %f = arith.sitofp %qi : i8 to f32
    %v = arith.mulf %f, %si : f32
    %h = arith.truncf %v : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %w : tensor<1024x2048xbf16> -> tensor<2048x1024xbf16>
  %y = tile.matmul %x, %wt : (tensor<16x2048xbf16>, tensor<2048x1024xbf16>) -> tensor<16x1024xf32>
  return %y : tensor<16x1024xf32>
}
