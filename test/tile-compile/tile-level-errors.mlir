// tile-compile --level=tile rejects host functions it cannot take as they
// are: two functions with kernels and no --function, a function with
// results, a host op other than tile.kernel, memref.alloc / dealloc and
// constants, and buffers (arguments or allocations) that a bundle cannot
// hold: a dynamic size, a dimension of 0, more than 1e15 bytes. Each error
// is located and exits non-zero.
// RUN: split-file %s %t
// RUN: not tile-compile %t/two.mlir --level=tile --emit=tile 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not tile-compile %t/results.mlir --level=tile --emit=tile 2>&1 | FileCheck %s --check-prefix=RESULTS
// RUN: not tile-compile %t/host-op.mlir --level=tile --emit=tile 2>&1 | FileCheck %s --check-prefix=HOSTOP
// RUN: not tile-compile %t/dynamic-alloc.mlir --level=tile --emit=tile 2>&1 | FileCheck %s --check-prefix=DYNALLOC
// RUN: not tile-compile %t/dynamic-arg.mlir --level=tile --emit=tile 2>&1 | FileCheck %s --check-prefix=DYNARG
// RUN: not tile-compile %t/empty-arg.mlir --level=tile --emit=tile 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not tile-compile %t/huge-alloc.mlir --level=tile --emit=tile 2>&1 | FileCheck %s --check-prefix=HUGE

// The error points at the second function with kernels.
// TWO: two.mlir:10:1: error: more than one function holds tile.kernel ops; choose one with --function
// RESULTS: results.mlir:1:1: error: a tile-level function returns nothing (its kernels write their outputs into memref arguments) but 'scale' has 1 results
// HOSTOP: host-op.mlir:3:3: error: 'memref.copy' op cannot be in a tile-level host function, which holds only tile.kernel, memref.alloc / dealloc and constants
// DYNALLOC: dynamic-alloc.mlir:3:8: error: expected a static, row-major memref of rank >= 1 as allocation of a tile-level function but got 'memref<?xf32>'
// DYNARG: dynamic-arg.mlir:1:39: error: expected a static, row-major memref of rank >= 1 as argument #1 of a tile-level function but got 'memref<?xf32>'
// EMPTY: empty-arg.mlir:1:39: error: expected every dimension of argument #1 of a tile-level function to be at least 1 but got 'memref<0x4xf32>'
// HUGE: huge-alloc.mlir:2:8: error: allocation of a tile-level function, 'memref<1000000000x1000000xf32>', is larger than a bundle buffer's 1e15 bytes

//--- two.mlir
func.func @first(%x: memref<256xf32>) {
  tile.kernel @first_k grid [1] threads 256 (%x) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  return
}
func.func @second(%x: memref<256xf32>) {
  tile.kernel @second_k grid [1] threads 256 (%x) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  return
}
//--- results.mlir
func.func @scale(%x: memref<256xf32>) -> memref<256xf32> {
  tile.kernel @scale_k grid [1] threads 256 (%x) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  return %x : memref<256xf32>
}
//--- host-op.mlir
func.func @scale(%x: memref<256xf32>) {
  %y = memref.alloc() : memref<256xf32>
  memref.copy %x, %y : memref<256xf32> to memref<256xf32>
  tile.kernel @scale_k grid [1] threads 256 (%y) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  memref.dealloc %y : memref<256xf32>
  return
}
//--- dynamic-alloc.mlir
func.func @scale(%x: memref<256xf32>) {
  %c16 = arith.constant 16 : index
  %d = memref.alloc(%c16) : memref<?xf32>
  tile.kernel @scale_k grid [1] threads 256 (%x) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  return
}
//--- dynamic-arg.mlir
func.func @scale(%x: memref<256xf32>, %y: memref<?xf32>) {
  tile.kernel @scale_k grid [1] threads 256 (%x) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  return
}
//--- empty-arg.mlir
func.func @scale(%x: memref<256xf32>, %y: memref<0x4xf32>) {
  tile.kernel @scale_k grid [1] threads 256 (%x) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  return
}
//--- huge-alloc.mlir
func.func @scale(%x: memref<256xf32>) {
  %d = memref.alloc() : memref<1000000000x1000000xf32>
  tile.kernel @scale_k grid [1] threads 256 (%x) : memref<256xf32> {
  ^bb0(%a: memref<256xf32>):
    %c0 = arith.constant 0 : index
    %t = tile.load %a[%c0] : memref<256xf32> -> !tile.tile<256xf32>
    tile.store %t, %a[%c0] : !tile.tile<256xf32>, memref<256xf32>
  }
  return
}
