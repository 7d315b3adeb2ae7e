// The transposed product of a weight-only int4 GEMM, written by hand at
// the tile level: y^T = W x^T, W dequantized in registers from packed
// bytes (docs/quantization.md's tensor-core packing: k_runs = 32 and
// AWQ's nibble order, signed) times bf16 scales of groups of 128 along K
// (GPTQ's [K/128, N]), as wgmma's register A (tile.dot's lhs_k_runs = 32);
// each thread unpacks its own 16 bytes of rows g and g + 8 into its 32
// values of each (the bytes in #tile.dot_operand<0, wgmma, k_width = 16>,
// the values in k_width 32). The second kernel runs a ring of 4 K steps
// (cp.async: the bytes' tile is unswizzled, each thread reading its runs
// back with 16-byte loads), the third the same ring filled by a producer
// warpgroup (TMA: the bytes one unswizzled box, x 128-byte-swizzled; the
// scales loaded from global memory); the fourth is the same on SIMT; the
// fifth is the third with two consumer warpgroups taking turns at the K
// steps (k_warpgroups = 2: the first takes steps 0 and 2, the second step
// 1 and hands its sum over) and prefetch (each step's scale line a [1, 64]
// box of the ring: tile-pipeline's ring-register-loads, which is not the
// default).
// Ragged: 200 rows of W, 13 rows of x, three groups along K. Checked
// against the tensor-level statement (tile.matmul's k_runs on B).
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --pipeline-options=ring-register-loads=1 --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref --pipeline-options=ring-register-loads=1
// TILE-CHIPS: sm_90a
// CHECK: RESULT kernels status=PASS

func.func @kernels(%P: memref<200x192xi8>, %S: memref<3x200xbf16>, %X: memref<13x384xbf16>, %Y: memref<200x13xf32>, %R: memref<200x13xf32>, %Q: memref<200x13xf32>, %Z: memref<200x13xf32>, %T: memref<200x13xf32>) {
  tile.kernel @transposed grid [4] threads 128 (%P, %S, %X, %Y) : memref<200x192xi8>, memref<3x200xbf16>, memref<13x384xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1]>} {
  ^bb0(%p: memref<200x192xi8>, %s: memref<3x200xbf16>, %x: memref<13x384xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %kh = arith.divui %k, %c2 : index
      %kb = arith.divui %k, %c128 : index
      %tb = tile.load %p[%n0, %kh] : memref<200x192xi8> -> !tile.tile<64x64xi8>
      %q = tile.unpack %tb signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %line = memref.subview %s[%kb, 0] [1, 200] [1, 1] : memref<3x200xbf16> to memref<200xbf16, strided<[1], offset: ?>>
      %ts = tile.load %line[%n0] : memref<200xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
      %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
      %wd = tile.map (%q, %bs) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8, %g: bf16):
        %vf = arith.sitofp %v : i8 to f32
        %gf = arith.extf %g : bf16 to f32
        %r = arith.mulf %vf, %gf : f32
        %h = arith.truncf %r : f32 to bf16
        tile.yield %h : bf16
      }
      %tx = tile.load %x[%c0, %k] : memref<13x384xbf16> -> !tile.tile<16x128xbf16>
      %xt = tile.transpose %tx : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a2 = tile.dot %wd, %xt, %a lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a2 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  tile.kernel @transposed_ring grid [4] threads 128 (%P, %S, %X, %R) : memref<200x192xi8>, memref<3x200xbf16>, memref<13x384xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 4>} {
  ^bb0(%p: memref<200x192xi8>, %s: memref<3x200xbf16>, %x: memref<13x384xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %kh = arith.divui %k, %c2 : index
      %kb = arith.divui %k, %c128 : index
      %tb = tile.load %p[%n0, %kh] : memref<200x192xi8> -> !tile.tile<64x64xi8>
      %q = tile.unpack %tb signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %line = memref.subview %s[%kb, 0] [1, 200] [1, 1] : memref<3x200xbf16> to memref<200xbf16, strided<[1], offset: ?>>
      %ts = tile.load %line[%n0] : memref<200xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
      %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
      %wd = tile.map (%q, %bs) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8, %g: bf16):
        %vf = arith.sitofp %v : i8 to f32
        %gf = arith.extf %g : bf16 to f32
        %r = arith.mulf %vf, %gf : f32
        %h = arith.truncf %r : f32 to bf16
        tile.yield %h : bf16
      }
      %tx = tile.load %x[%c0, %k] : memref<13x384xbf16> -> !tile.tile<16x128xbf16>
      %xt = tile.transpose %tx : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a2 = tile.dot %wd, %xt, %a lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a2 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  tile.kernel @transposed_producer grid [4] threads 128 (%P, %S, %X, %Q) : memref<200x192xi8>, memref<3x200xbf16>, memref<13x384xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 4, warp_specialize = true>} {
  ^bb0(%p: memref<200x192xi8>, %s: memref<3x200xbf16>, %x: memref<13x384xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %kh = arith.divui %k, %c2 : index
      %kb = arith.divui %k, %c128 : index
      %tb = tile.load %p[%n0, %kh] : memref<200x192xi8> -> !tile.tile<64x64xi8>
      %q = tile.unpack %tb signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %line = memref.subview %s[%kb, 0] [1, 200] [1, 1] : memref<3x200xbf16> to memref<200xbf16, strided<[1], offset: ?>>
      %ts = tile.load %line[%n0] : memref<200xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
      %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
      %wd = tile.map (%q, %bs) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8, %g: bf16):
        %vf = arith.sitofp %v : i8 to f32
        %gf = arith.extf %g : bf16 to f32
        %r = arith.mulf %vf, %gf : f32
        %h = arith.truncf %r : f32 to bf16
        tile.yield %h : bf16
      }
      %tx = tile.load %x[%c0, %k] : memref<13x384xbf16> -> !tile.tile<16x128xbf16>
      %xt = tile.transpose %tx : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a2 = tile.dot %wd, %xt, %a lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a2 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  tile.kernel @transposed_turns grid [4] threads 128 (%P, %S, %X, %T) : memref<200x192xi8>, memref<3x200xbf16>, memref<13x384xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = 4, warp_specialize = true, prefetch = true, k_warpgroups = 2>} {
  ^bb0(%p: memref<200x192xi8>, %s: memref<3x200xbf16>, %x: memref<13x384xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %kh = arith.divui %k, %c2 : index
      %kb = arith.divui %k, %c128 : index
      %tb = tile.load %p[%n0, %kh] : memref<200x192xi8> -> !tile.tile<64x64xi8>
      %q = tile.unpack %tb signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %line = memref.subview %s[%kb, 0] [1, 200] [1, 1] : memref<3x200xbf16> to memref<200xbf16, strided<[1], offset: ?>>
      %ts = tile.load %line[%n0] : memref<200xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
      %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
      %wd = tile.map (%q, %bs) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8, %g: bf16):
        %vf = arith.sitofp %v : i8 to f32
        %gf = arith.extf %g : bf16 to f32
        %r = arith.mulf %vf, %gf : f32
        %h = arith.truncf %r : f32 to bf16
        tile.yield %h : bf16
      }
      %tx = tile.load %x[%c0, %k] : memref<13x384xbf16> -> !tile.tile<16x128xbf16>
      %xt = tile.transpose %tx : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a2 = tile.dot %wd, %xt, %a lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a2 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  tile.kernel @transposed_simt grid [4] threads 128 (%P, %S, %X, %Z) : memref<200x192xi8>, memref<3x200xbf16>, memref<13x384xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = simt>} {
  ^bb0(%p: memref<200x192xi8>, %s: memref<3x200xbf16>, %x: memref<13x384xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %kh = arith.divui %k, %c2 : index
      %kb = arith.divui %k, %c128 : index
      %tb = tile.load %p[%n0, %kh] : memref<200x192xi8> -> !tile.tile<64x64xi8>
      %q = tile.unpack %tb signed interleaved : !tile.tile<64x64xi8> -> !tile.tile<64x128xi8>
      %line = memref.subview %s[%kb, 0] [1, 200] [1, 1] : memref<3x200xbf16> to memref<200xbf16, strided<[1], offset: ?>>
      %ts = tile.load %line[%n0] : memref<200xbf16, strided<[1], offset: ?>> -> !tile.tile<64xbf16>
      %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
      %wd = tile.map (%q, %bs) : (!tile.tile<64x128xi8>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
      ^bb0(%v: i8, %g: bf16):
        %vf = arith.sitofp %v : i8 to f32
        %gf = arith.extf %g : bf16 to f32
        %r = arith.mulf %vf, %gf : f32
        %h = arith.truncf %r : f32 to bf16
        tile.yield %h : bf16
      }
      %tx = tile.load %x[%c0, %k] : memref<13x384xbf16> -> !tile.tile<16x128xbf16>
      %xt = tile.transpose %tx : !tile.tile<16x128xbf16> -> !tile.tile<128x16xbf16>
      %a2 = tile.dot %wd, %xt, %a lhs_k_runs = 32 : !tile.tile<64x128xbf16>, !tile.tile<128x16xbf16> -> !tile.tile<64x16xf32>
      scf.yield %a2 : !tile.tile<64x16xf32>
    }
    tile.store %acc, %y[%n0, %c0] : !tile.tile<64x16xf32>, memref<200x13xf32>
  }
  return
}

func.func @ref(%p: tensor<200x192xi8>, %s: tensor<3x200xbf16>, %x: tensor<13x384xbf16>) -> (tensor<200x13xf32>, tensor<200x13xf32>, tensor<200x13xf32>, tensor<200x13xf32>, tensor<200x13xf32>) {
  %q = tile.unpack %p signed interleaved : tensor<200x192xi8> -> tensor<200x384xi8>
  %st = tile.transpose %s : tensor<3x200xbf16> -> tensor<200x3xbf16>
  %sr = tile.repeat %st dim = 1 times = 128 : tensor<200x3xbf16> -> tensor<200x384xbf16>
  %wd = tile.map (%q, %sr) : (tensor<200x384xi8>, tensor<200x384xbf16>) -> tensor<200x384xbf16> {
  ^bb0(%v: i8, %g: bf16):
    %vf = arith.sitofp %v : i8 to f32
    %gf = arith.extf %g : bf16 to f32
    %r = arith.mulf %vf, %gf : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %wd : tensor<200x384xbf16> -> tensor<384x200xbf16>
  %yt = tile.matmul %x, %wt k_runs = 32 : (tensor<13x384xbf16>, tensor<384x200xbf16>) -> tensor<13x200xf32>
  %y = tile.transpose %yt : tensor<13x200xf32> -> tensor<200x13xf32>
  %y2 = tile.transpose %yt : tensor<13x200xf32> -> tensor<200x13xf32>
  %y3 = tile.transpose %yt : tensor<13x200xf32> -> tensor<200x13xf32>
  %y4 = tile.transpose %yt : tensor<13x200xf32> -> tensor<200x13xf32>
  %y5 = tile.transpose %yt : tensor<13x200xf32> -> tensor<200x13xf32>
  return %y, %y2, %y3, %y4, %y5 : tensor<200x13xf32>, tensor<200x13xf32>, tensor<200x13xf32>, tensor<200x13xf32>, tensor<200x13xf32>
}
