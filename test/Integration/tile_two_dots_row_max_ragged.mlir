// A hand-written kernel with two dots in one K loop (sharing A) and a row
// max over the first dot's accumulator, checked against a tensor-level
// statement of the same math: on sm_90a both dots are wgmma (operands by
// TMA, a producer warpgroup), the row max folds the accumulator in
// registers (tile-assign-layouts: #tile.slice of the wgmma layout); on
// sm_80 both are mma.sync. Ragged M and K.
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// CHECK: RESULT two_dots status=PASS

func.func @two_dots(%A: memref<200x328xbf16>, %B: memref<328x64xbf16>, %D: memref<328x64xbf16>,
                    %C: memref<200x64xbf16>, %E: memref<200x64xbf16>, %R: memref<200xf32>) {
  tile.kernel @two_dots_0 grid [4] threads 128 (%A, %B, %D, %C, %E, %R) : memref<200x328xbf16>, memref<328x64xbf16>, memref<328x64xbf16>, memref<200x64xbf16>, memref<200x64xbf16>, memref<200xf32> {
  ^bb0(%a: memref<200x328xbf16>, %b: memref<328x64xbf16>, %d: memref<328x64xbf16>, %c: memref<200x64xbf16>, %e: memref<200x64xbf16>, %r: memref<200xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c328 = arith.constant 328 : index
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %pm = tile.program_id 0
    %m0 = arith.muli %pm, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc:2 = scf.for %k = %c0 to %c328 step %c64 iter_args(%x = %z, %y = %z) -> (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<200x328xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %c0] : memref<328x64xbf16> -> !tile.tile<64x64xbf16>
      %td = tile.load %d[%k, %c0] : memref<328x64xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      %y2 = tile.dot %ta, %td, %y : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2, %y2 : !tile.tile<64x64xf32>, !tile.tile<64x64xf32>
    }
    %max = tile.reduce %acc#0, %ninf dim = 1 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.maximumf %p, %q : f32
      tile.yield %s : f32
    }
    %cb = tile.cast %acc#0 : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    %eb = tile.cast %acc#1 : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %cb, %c[%m0, %c0] : !tile.tile<64x64xbf16>, memref<200x64xbf16>
    tile.store %eb, %e[%m0, %c0] : !tile.tile<64x64xbf16>, memref<200x64xbf16>
    tile.store %max, %r[%m0] : !tile.tile<64xf32>, memref<200xf32>
  }
  return
}

func.func @ref(%a: tensor<200x328xbf16>, %b: tensor<328x64xbf16>, %d: tensor<328x64xbf16>) -> (tensor<200x64xbf16>, tensor<200x64xbf16>, tensor<200xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c = tile.matmul %a, %b : (tensor<200x328xbf16>, tensor<328x64xbf16>) -> tensor<200x64xf32>
  %e = tile.matmul %a, %d : (tensor<200x328xbf16>, tensor<328x64xbf16>) -> tensor<200x64xf32>
  %r = tile.reduce %c, %ninf dim = 1 : tensor<200x64xf32>, f32 -> tensor<200xf32> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.maximumf %p, %q : f32
    tile.yield %s : f32
  }
  %cb = tile.cast %c : tensor<200x64xf32> -> tensor<200x64xbf16>
  %eb = tile.cast %e : tensor<200x64xf32> -> tensor<200x64xbf16>
  return %cb, %eb, %r : tensor<200x64xbf16>, tensor<200x64xbf16>, tensor<200xf32>
}
