// A hand-written transposed product, y^T = W x^T, whose weight W is
// computed in registers (stored bf16 values times a per-row scale) with
// its columns in fragment-run order (tile.dot's lhs_k_runs = 32: the
// weight-only GEMM's packing, docs/quantization.md): wgmma takes that A
// from registers in k_width 32 and x^T as B from shared memory (K-major);
// the second kernel is the same on SIMT (its config's). Ragged: 200 rows
// of W (a partial last block), 13 rows of x (masked to zeros in the
// 16-wide B), three blocks of 128 along K. Checked against the
// tensor-level statement of the same math (tile.matmul's k_runs on B).
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// TILE-CHIPS: sm_90a
// CHECK: RESULT kernels status=PASS

func.func @kernels(%W: memref<200x384xbf16>, %S: memref<200xbf16>, %X: memref<13x384xbf16>, %Y: memref<200x13xf32>, %Z: memref<200x13xf32>) {
  tile.kernel @transposed grid [4] threads 128 (%W, %S, %X, %Y) : memref<200x384xbf16>, memref<200xbf16>, memref<13x384xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1]>} {
  ^bb0(%w: memref<200x384xbf16>, %s: memref<200xbf16>, %x: memref<13x384xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %ts = tile.load %s[%n0] : memref<200xbf16> -> !tile.tile<64xbf16>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %tw = tile.load %w[%n0, %k] : memref<200x384xbf16> -> !tile.tile<64x128xbf16>
      %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
      %wd = tile.map (%tw, %bs) : (!tile.tile<64x128xbf16>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
      ^bb0(%p: bf16, %q: bf16):
        %pf = arith.extf %p : bf16 to f32
        %qf = arith.extf %q : bf16 to f32
        %r = arith.mulf %pf, %qf : f32
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
  tile.kernel @transposed_simt grid [4] threads 128 (%W, %S, %X, %Z) : memref<200x384xbf16>, memref<200xbf16>, memref<13x384xbf16>, memref<200x13xf32> attributes {tile.config = #tile.config<block = [64, 16, 128], threads = 128, mma = simt>} {
  ^bb0(%w: memref<200x384xbf16>, %s: memref<200xbf16>, %x: memref<13x384xbf16>, %y: memref<200x13xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c384 = arith.constant 384 : index
    %zero = arith.constant 0.0 : f32
    %pn = tile.program_id 0
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x16xf32>
    %ts = tile.load %s[%n0] : memref<200xbf16> -> !tile.tile<64xbf16>
    %acc = scf.for %k = %c0 to %c384 step %c128 iter_args(%a = %z) -> (!tile.tile<64x16xf32>) {
      %tw = tile.load %w[%n0, %k] : memref<200x384xbf16> -> !tile.tile<64x128xbf16>
      %bs = tile.broadcast %ts [1] : !tile.tile<64xbf16> -> !tile.tile<64x128xbf16>
      %wd = tile.map (%tw, %bs) : (!tile.tile<64x128xbf16>, !tile.tile<64x128xbf16>) -> !tile.tile<64x128xbf16> {
      ^bb0(%p: bf16, %q: bf16):
        %pf = arith.extf %p : bf16 to f32
        %qf = arith.extf %q : bf16 to f32
        %r = arith.mulf %pf, %qf : f32
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

// y = (x (W s)^T)^T with W's stored columns in fragment-run order: the
// same sum as tile.matmul's k_runs on B = (W s)^T.
func.func @ref(%w: tensor<200x384xbf16>, %s: tensor<200xbf16>, %x: tensor<13x384xbf16>) -> (tensor<200x13xf32>, tensor<200x13xf32>) {
  %bs = tile.broadcast %s [1] : tensor<200xbf16> -> tensor<200x384xbf16>
  %wd = tile.map (%w, %bs) : (tensor<200x384xbf16>, tensor<200x384xbf16>) -> tensor<200x384xbf16> {
  ^bb0(%p: bf16, %q: bf16):
    %pf = arith.extf %p : bf16 to f32
    %qf = arith.extf %q : bf16 to f32
    %r = arith.mulf %pf, %qf : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  %wt = tile.transpose %wd : tensor<200x384xbf16> -> tensor<384x200xbf16>
  %yt = tile.matmul %x, %wt k_runs = 32 : (tensor<13x384xbf16>, tensor<384x200xbf16>) -> tensor<13x200xf32>
  %y = tile.transpose %yt : tensor<13x200xf32> -> tensor<200x13xf32>
  %y2 = tile.transpose %yt : tensor<13x200xf32> -> tensor<200x13xf32>
  return %y, %y2 : tensor<200x13xf32>, tensor<200x13xf32>
}
