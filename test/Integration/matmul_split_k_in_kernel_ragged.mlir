// Split-K added in the kernel at more rows than tile-configure would give
// it (M = 37, ragged M, N and K, a bias and a relu): the last of each
// tile's two programs adds the partials 16 rows at a time, three chunks
// for the 37 rows (the last one masked), and runs the epilogue on each.
// The config is the user's: tile-configure keeps it.
// REQUIRES: cuda-device
// TILE-CHIPS: sm_90a
// RUN: tile-compile %s --chip=sm_90a --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE: memref.alloc() {tile.zeroed} : memref<16xi32>
// TILE: tile.kernel @split_k_in_kernel_0_split_k grid [1, 16, 2] threads 128
// TILE: tile.last_arrival %{{.+}} of 2
// TILE: scf.for %{{.+}} = %c0{{.*}} to %c48{{.*}} step %c16
// TILE-NOT: tile.kernel
// CHECK: RESULT split_k_in_kernel status=PASS

func.func @split_k_in_kernel(%a: tensor<37x5000xbf16>, %b: tensor<5000x1000xbf16>, %bias: tensor<1000xbf16>) -> tensor<37x1000xbf16> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 8, persistent = true, group_rows = 8, warp_specialize = true, split_k = 2, split_k_in_kernel = true>} : (tensor<37x5000xbf16>, tensor<5000x1000xbf16>) -> tensor<37x1000xf32>
  %zero = arith.constant 0.0 : f32
  %bb = tile.broadcast %bias [0] : tensor<1000xbf16> -> tensor<37x1000xbf16>
  %y = tile.map (%c, %bb) : (tensor<37x1000xf32>, tensor<37x1000xbf16>) -> tensor<37x1000xbf16> {
  ^bb0(%acc: f32, %bv: bf16):
    %bf = arith.extf %bv : bf16 to f32
    %x = arith.addf %acc, %bf : f32
    %r = arith.maximumf %x, %zero : f32
    %o = arith.truncf %r : f32 to bf16
    tile.yield %o : bf16
  }
  return %y : tensor<37x1000xbf16>
}
