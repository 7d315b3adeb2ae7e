// tile.cast lowers to arith per element: f16 <-> bf16 through f32 (the
// widening is exact, so the result is the direct cast's one rounding),
// booleans as torch has them: true is 1 (uitofp / extui, not the signed
// i1's -1), and a value becomes true when it is not zero (cmpf une /
// cmpi ne).
// RUN: tile-opt %s --pass-pipeline='builtin.module(convert-tile-kernel-to-gpu,convert-tile-to-simt)' | FileCheck %s

// CHECK-LABEL: func @casts
// CHECK: [[W:%.+]] = arith.extf %{{.+}} : vector<{{[0-9]+}}xf16> to vector<{{[0-9]+}}xf32>
// CHECK: arith.truncf [[W]] : vector<{{[0-9]+}}xf32> to vector<{{[0-9]+}}xbf16>
// CHECK: arith.cmpf une, %{{.+}}, %{{.+}} : vector<{{[0-9]+}}xf32>
// CHECK: arith.uitofp %{{.+}} : vector<{{[0-9]+}}xi1> to vector<{{[0-9]+}}xf32>
// CHECK: arith.cmpi ne, %{{.+}}, %{{.+}} : vector<{{[0-9]+}}xi32>
// CHECK: arith.extui %{{.+}} : vector<{{[0-9]+}}xi1> to vector<{{[0-9]+}}xi32>
// CHECK-NOT: arith.sitofp
// CHECK-NOT: arith.extsi
func.func @casts(%x: memref<256xf16>, %y: memref<256xbf16>, %f: memref<256xf32>, %i: memref<256xi32>, %fo: memref<256xf32>, %io: memref<256xi32>) {
  tile.kernel @casts grid [1] threads 128 (%x, %y, %f, %i, %fo, %io) : memref<256xf16>, memref<256xbf16>, memref<256xf32>, memref<256xi32>, memref<256xf32>, memref<256xi32> {
  ^bb0(%a: memref<256xf16>, %b: memref<256xbf16>, %c: memref<256xf32>, %d: memref<256xi32>, %e: memref<256xf32>, %g: memref<256xi32>):
    %c0 = arith.constant 0 : index
    %h = tile.load %a[%c0] : memref<256xf16> -> !tile.tile<256xf16>
    %bf = tile.cast %h : !tile.tile<256xf16> -> !tile.tile<256xbf16>
    tile.store %bf, %b[%c0] : !tile.tile<256xbf16>, memref<256xbf16>
    %v = tile.load %c[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    %vb = tile.cast %v : !tile.tile<256xf32> -> !tile.tile<256xi1>
    %vf = tile.cast %vb : !tile.tile<256xi1> -> !tile.tile<256xf32>
    tile.store %vf, %e[%c0] : !tile.tile<256xf32>, memref<256xf32>
    %n = tile.load %d[%c0] : memref<256xi32> -> !tile.tile<256xi32>
    %nb = tile.cast %n : !tile.tile<256xi32> -> !tile.tile<256xi1>
    %ni = tile.cast %nb : !tile.tile<256xi1> -> !tile.tile<256xi32>
    tile.store %ni, %g[%c0] : !tile.tile<256xi32>, memref<256xi32>
  }
  return
}
