// tile-compile rejects, when it writes the bundle, a buffer that the bundle
// format cannot describe: an element type without a bundle dtype (i16).
// (Sizes it cannot hold are the tile-level host check's: tile-level-errors.mlir.)
// REQUIRES: ptxas
// RUN: split-file %s %t
// RUN: not tile-compile %t/dtype.mlir --level=tile -o %t/dtype.tilebundle 2>&1 | FileCheck %s --check-prefix=DTYPE

// DTYPE: dtype.mlir:1:39: error: no bundle dtype for 'i16'

//--- dtype.mlir
func.func @scale(%x: memref<256xf32>, %flags: memref<256xi16>) {
  tile.kernel @scale_k grid [1] threads 256 (%x) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  return
}
