// Hand-written kernels whose dots take the tensor cores though they are not
// a plain C = A * B: the accumulator starts from a buffer (D = C + A * B,
// f32), a bias + relu epilogue, and a K loop that does not start at 0 (its
// first step peeled before it). Checked against a tensor-level statement
// of the same math; mma.sync on sm_80, wgmma on sm_90a. Ragged shapes.
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// CHECK: RESULT kernels status=PASS

func.func @kernels(%A: memref<130x200xbf16>, %B: memref<200x136xbf16>, %C: memref<130x136xf32>, %bias: memref<136xbf16>,
                   %D: memref<130x136xf32>, %Y: memref<130x136xbf16>, %P: memref<130x136xbf16>) {
  // D = C + A * B: the accumulator starts from C.
  tile.kernel @accumulate grid [3, 3] threads 128 (%A, %B, %C, %D) : memref<130x200xbf16>, memref<200x136xbf16>, memref<130x136xf32>, memref<130x136xf32> {
  ^bb0(%a: memref<130x200xbf16>, %b: memref<200x136xbf16>, %c: memref<130x136xf32>, %d: memref<130x136xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c200 = arith.constant 200 : index
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %start = tile.load %c[%m0, %n0] : memref<130x136xf32> -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c200 step %c64 iter_args(%x = %start) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<130x200xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<200x136xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    tile.store %acc, %d[%m0, %n0] : !tile.tile<64x64xf32>, memref<130x136xf32>
  }
  // Y = relu(A * B + bias).
  tile.kernel @bias_relu grid [3, 3] threads 128 (%A, %B, %bias, %Y) : memref<130x200xbf16>, memref<200x136xbf16>, memref<136xbf16>, memref<130x136xbf16> {
  ^bb0(%a: memref<130x200xbf16>, %b: memref<200x136xbf16>, %v: memref<136xbf16>, %y: memref<130x136xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c200 = arith.constant 200 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c200 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<130x200xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<200x136xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    %tv = tile.load %v[%n0] : memref<136xbf16> -> !tile.tile<64xbf16>
    %bv = tile.broadcast %tv [0] : !tile.tile<64xbf16> -> !tile.tile<64x64xbf16>
    %out = tile.map (%acc, %bv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xbf16>) -> !tile.tile<64x64xbf16> {
    ^bb0(%p: f32, %q: bf16):
      %qf = arith.extf %q : bf16 to f32
      %s = arith.addf %p, %qf : f32
      %r = arith.maximumf %s, %zero : f32
      %h = arith.truncf %r : f32 to bf16
      tile.yield %h : bf16
    }
    tile.store %out, %y[%m0, %n0] : !tile.tile<64x64xbf16>, memref<130x136xbf16>
  }
  // P = A * B with the first K step before a loop that starts at 64.
  tile.kernel @peeled grid [3, 3] threads 128 (%A, %B, %P) : memref<130x200xbf16>, memref<200x136xbf16>, memref<130x136xbf16> {
  ^bb0(%a: memref<130x200xbf16>, %b: memref<200x136xbf16>, %p: memref<130x136xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c200 = arith.constant 200 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %fa = tile.load %a[%m0, %c0] : memref<130x200xbf16> -> !tile.tile<64x64xbf16>
    %fb = tile.load %b[%c0, %n0] : memref<200x136xbf16> -> !tile.tile<64x64xbf16>
    %first = tile.dot %fa, %fb, %z : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c64 to %c200 step %c64 iter_args(%x = %first) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<130x200xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<200x136xbf16> -> !tile.tile<64x64xbf16>
      %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    %out = tile.cast %acc : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %out, %p[%m0, %n0] : !tile.tile<64x64xbf16>, memref<130x136xbf16>
  }
  return
}

func.func @ref(%a: tensor<130x200xbf16>, %b: tensor<200x136xbf16>, %c: tensor<130x136xf32>, %v: tensor<136xbf16>)
    -> (tensor<130x136xf32>, tensor<130x136xbf16>, tensor<130x136xbf16>) {
  %zero = arith.constant 0.0 : f32
  %ab = tile.matmul %a, %b : (tensor<130x200xbf16>, tensor<200x136xbf16>) -> tensor<130x136xf32>
  %d = tile.map (%ab, %c) : (tensor<130x136xf32>, tensor<130x136xf32>) -> tensor<130x136xf32> {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    tile.yield %s : f32
  }
  %bv = tile.broadcast %v [0] : tensor<136xbf16> -> tensor<130x136xbf16>
  %y = tile.map (%ab, %bv) : (tensor<130x136xf32>, tensor<130x136xbf16>) -> tensor<130x136xbf16> {
  ^bb0(%p: f32, %q: bf16):
    %qf = arith.extf %q : bf16 to f32
    %s = arith.addf %p, %qf : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  %pb = tile.cast %ab : tensor<130x136xf32> -> tensor<130x136xbf16>
  return %d, %y, %pb : tensor<130x136xf32>, tensor<130x136xbf16>, tensor<130x136xbf16>
}
