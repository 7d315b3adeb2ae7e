// tile-mma's chain-products: a product whose only use is the accumulator
// of the next product in its block is not waited for; the next issues on
// it in flight and one wait ends both. A product whose sum something else
// reads (the epilogue's second use) keeps its wait, as does every product
// without the option (DEFAULT).
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma=chain-products=1 | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma | FileCheck %s --check-prefix=DEFAULT

// CHECK-LABEL: tile.kernel @two_products
// CHECK: scf.for
// CHECK: [[P:%.+]] = tile.wgmma %{{.+}}, %{{.+}}, %{{.+}} :
// CHECK-NOT: tile.wgmma_wait
// CHECK: [[Q:%.+]] = tile.wgmma %{{.+}}, %{{.+}}, [[P]] :
// CHECK: [[D:%.+]] = tile.wgmma_wait [[Q]] {pending = 0 : i64}
// CHECK: scf.yield [[D]]

// DEFAULT-LABEL: tile.kernel @two_products
// DEFAULT: [[P:%.+]] = tile.wgmma
// DEFAULT: [[W:%.+]] = tile.wgmma_wait [[P]] {pending = 0 : i64}
// DEFAULT: tile.wgmma %{{.+}}, %{{.+}}, [[W]] :
// DEFAULT: tile.wgmma_wait
func.func @two_products(%A: memref<64x512xbf16>, %B: memref<512x64xbf16>, %C: memref<64x64xf32>) {
  tile.kernel @two_products grid [1] threads 128 (%A, %B, %C) : memref<64x512xbf16>, memref<512x64xbf16>, memref<64x64xf32> {
  ^bb0(%a: memref<64x512xbf16>, %b: memref<512x64xbf16>, %c: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c128 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %k1 = arith.addi %k, %c64 : index
      %ta = tile.load %a[%c0, %k] : memref<64x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %c0] : memref<512x64xbf16> -> !tile.tile<64x64xbf16>
      %ua = tile.load %a[%c0, %k1] : memref<64x512xbf16> -> !tile.tile<64x64xbf16>
      %ub = tile.load %b[%k1, %c0] : memref<512x64xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      %e = tile.dot %ua, %ub, %d : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %e : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
    tile.return
  }
  return
}

// CHECK-LABEL: tile.kernel @sum_read
// CHECK: [[P:%.+]] = tile.wgmma
// CHECK: [[W:%.+]] = tile.wgmma_wait [[P]] {pending = 0 : i64}
// CHECK: tile.wgmma %{{.+}}, %{{.+}}, [[W]] :
// CHECK: tile.wgmma_wait
// CHECK: tile.store [[W]]
func.func @sum_read(%A: memref<64x128xbf16>, %B: memref<128x64xbf16>, %C: memref<64x64xf32>, %D: memref<64x64xf32>) {
  tile.kernel @sum_read grid [1] threads 128 (%A, %B, %C, %D) : memref<64x128xbf16>, memref<128x64xbf16>, memref<64x64xf32>, memref<64x64xf32> {
  ^bb0(%a: memref<64x128xbf16>, %b: memref<128x64xbf16>, %c: memref<64x64xf32>, %dd: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %ta = tile.load %a[%c0, %c0] : memref<64x128xbf16> -> !tile.tile<64x64xbf16>
    %tb = tile.load %b[%c0, %c0] : memref<128x64xbf16> -> !tile.tile<64x64xbf16>
    %ua = tile.load %a[%c0, %c64] : memref<64x128xbf16> -> !tile.tile<64x64xbf16>
    %ub = tile.load %b[%c64, %c0] : memref<128x64xbf16> -> !tile.tile<64x64xbf16>
    %d = tile.dot %ta, %tb, %z : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
    %e = tile.dot %ua, %ub, %d : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
    tile.store %d, %dd[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
    tile.store %e, %c[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
    tile.return
  }
  return
}
