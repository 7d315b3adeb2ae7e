// A hand-written kernel that reads what it stored: C = A B tile by tile,
// then D = C E over the program's rows of C. tile-pipeline leaves the
// second loop unringed (a ring would read C ahead of the stores; on sm_90a,
// beside the producer warpgroup that rings the first loop, it is an error:
// tile-pipeline-refusals.mlir), so its loads wait at a barrier behind the
// stores. Checked against the tensor-level reference @ref.
// REQUIRES: cuda-device
// TILE-CHIPS: sm_80
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// CHECK: RESULT chain status=PASS

func.func @chain(%A: memref<128x128xbf16>, %B: memref<128x128xbf16>, %E: memref<128x64xbf16>,
                 %C: memref<128x128xbf16>, %D: memref<128x64xf32>) {
  tile.kernel @chain_0 grid [2] threads 128 (%A, %B, %E, %C, %D) : memref<128x128xbf16>, memref<128x128xbf16>, memref<128x64xbf16>, memref<128x128xbf16>, memref<128x64xf32> {
  ^bb0(%a: memref<128x128xbf16>, %b: memref<128x128xbf16>, %e: memref<128x64xbf16>, %c: memref<128x128xbf16>, %d: memref<128x64xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %m0 = arith.muli %pm, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    // C[m0, n] = A[m0,:] * B[:, n] for n = 0, 64 (first: K loop in an n loop)
    scf.for %n = %c0 to %c128 step %c64 {
      %acc = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
        %ta = tile.load %a[%m0, %k] : memref<128x128xbf16> -> !tile.tile<64x64xbf16>
        %tb = tile.load %b[%k, %n] : memref<128x128xbf16> -> !tile.tile<64x64xbf16>
        %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
        scf.yield %x2 : !tile.tile<64x64xf32>
      }
      %cb = tile.cast %acc : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
      tile.store %cb, %c[%m0, %n] : !tile.tile<64x64xbf16>, memref<128x128xbf16>
    }
    // D[m0, :] = C[m0, :] * E
    %acc2 = scf.for %k = %c0 to %c128 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %tc = tile.load %c[%m0, %k] : memref<128x128xbf16> -> !tile.tile<64x64xbf16>
      %te = tile.load %e[%k, %c0] : memref<128x64xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %tc, %te, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    tile.store %acc2, %d[%m0, %c0] : !tile.tile<64x64xf32>, memref<128x64xf32>
  }
  return
}
func.func @ref(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>, %e: tensor<128x64xbf16>) -> (tensor<128x128xbf16>, tensor<128x64xf32>) {
  %c = tile.matmul %a, %b : (tensor<128x128xbf16>, tensor<128x128xbf16>) -> tensor<128x128xf32>
  %cb = tile.cast %c : tensor<128x128xf32> -> tensor<128x128xbf16>
  %d = tile.matmul %cb, %e : (tensor<128x128xbf16>, tensor<128x64xbf16>) -> tensor<128x64xf32>
  return %cb, %d : tensor<128x128xbf16>, tensor<128x64xf32>
}
