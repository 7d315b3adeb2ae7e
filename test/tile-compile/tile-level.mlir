// tile-compile --level=tile lowers a host function of tile.kernel ops as
// it is (no reference kernels); without the flag such a file is not
// tensor-level input, and the error says what to pass. --mma picks the
// matmul strategy.
// RUN: tile-compile %s --level=tile --emit=ptx | FileCheck %s
// RUN: not tile-compile %s -o %t.tilebundle 2>&1 | FileCheck %s --check-prefix=HINT
// RUN: not tile-compile %s --level=tile --mma=bogus -o %t.tilebundle 2>&1 | FileCheck %s --check-prefix=MMA
// RUN: tile-compile %s --level=tile -o %t.tilebundle && grep -a "^launch" %t.tilebundle | FileCheck %s --check-prefix=BUNDLE

// CHECK: // module scale_k
// CHECK: ld.global
// CHECK: {{(mul|add)(\.rn)?}}.f32
// CHECK: st.global
// CHECK-NOT: // module scale_k_ref
// HINT: tile-compile: error: no tensor-level function to compile in {{.+}}tile-level.mlir (it holds tile.kernel ops: tile-level input needs --level=tile)
// MMA: error: unknown matmul strategy 'bogus' (expected auto or simt)
// BUNDLE: launch main scale_k scale_k grid 4 1 1 block 256 1 1
// BUNDLE-NOT: launch reference

func.func @scale(%x: memref<1000xf32>, %y: memref<1000xf32>) {
  tile.kernel @scale_k grid [4] threads 256 (%x, %y) : memref<1000xf32>, memref<1000xf32> {
  ^bb0(%xa: memref<1000xf32>, %ya: memref<1000xf32>):
    %c256 = arith.constant 256 : index
    %p = tile.program_id 0
    %o = arith.muli %p, %c256 : index
    %t = tile.load %xa[%o] : memref<1000xf32> -> !tile.tile<256xf32>
    %d = tile.map (%t) : (!tile.tile<256xf32>) -> !tile.tile<256xf32> {
    ^bb0(%v: f32):
      %two = arith.constant 2.0 : f32
      %r = arith.mulf %v, %two : f32
      tile.yield %r : f32
    }
    tile.store %d, %ya[%o] : !tile.tile<256xf32>, memref<1000xf32>
  }
  return
}
