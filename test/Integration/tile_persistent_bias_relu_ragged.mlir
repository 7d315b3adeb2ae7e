// A hand-written matmul + bias + relu whose shapes let the TMA load both
// operands (rows of a multiple of 16 bytes): on sm_90a it becomes the
// persistent, warp-specialized wgmma kernel (a TMA producer warpgroup, a
// 4-stage ring, 20 programs for 20 output tiles; sms=1 puts all 20 on one
// program, through the ring again and again). Before the producer ran on
// one thread this hung on the H200 (bench/RESULTS.md, session 7). M and N
// are ragged against the 64 x 64 tiles.
// REQUIRES: cuda-device
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_90a --pipeline-options=sms=1 -o %t.one.tilebundle
// RUN: tile-run %t.one.tilebundle --repeats 5 | FileCheck %s
// RUN: tile-compile %s --level=tile --reference=ref --chip=sm_80 -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 5 | FileCheck %s
// TILE-COMPILE-FLAGS: --level=tile --reference=ref
// CHECK: RESULT kernels status=PASS

func.func @kernels(%A: memref<300x256xbf16>, %B: memref<256x200xbf16>, %bias: memref<200xbf16>, %Y: memref<300x200xbf16>) {
  tile.kernel @bias_relu grid [5, 4] threads 128 (%A, %B, %bias, %Y) : memref<300x256xbf16>, memref<256x200xbf16>, memref<200xbf16>, memref<300x200xbf16> {
  ^bb0(%a: memref<300x256xbf16>, %b: memref<256x200xbf16>, %v: memref<200xbf16>, %y: memref<300x200xbf16>):
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c256 step %c32 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<300x256xbf16> -> !tile.tile<64x32xbf16>
      %tb = tile.load %b[%k, %n0] : memref<256x200xbf16> -> !tile.tile<32x64xbf16>
      %x2 = tile.dot %ta, %tb, %x : !tile.tile<64x32xbf16>, !tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %x2 : !tile.tile<64x64xf32>
    }
    %tv = tile.load %v[%n0] : memref<200xbf16> -> !tile.tile<64xbf16>
    %bv = tile.cast %tv : !tile.tile<64xbf16> -> !tile.tile<64xf32>
    %bb = tile.broadcast %bv [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %out = tile.map (%acc, %bb) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xbf16> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      %r = arith.maximumf %s, %zero : f32
      %h = arith.truncf %r : f32 to bf16
      tile.yield %h : bf16
    }
    tile.store %out, %y[%m0, %n0] : !tile.tile<64x64xbf16>, memref<300x200xbf16>
  }
  return
}

func.func @ref(%a: tensor<300x256xbf16>, %b: tensor<256x200xbf16>, %v: tensor<200xbf16>) -> tensor<300x200xbf16> {
  %zero = arith.constant 0.0 : f32
  %ab = tile.matmul %a, %b : (tensor<300x256xbf16>, tensor<256x200xbf16>) -> tensor<300x200xf32>
  %bv = tile.broadcast %v [0] : tensor<200xbf16> -> tensor<300x200xbf16>
  %y = tile.map (%ab, %bv) : (tensor<300x200xf32>, tensor<300x200xbf16>) -> tensor<300x200xbf16> {
  ^bb0(%p: f32, %q: bf16):
    %qf = arith.extf %q : bf16 to f32
    %s = arith.addf %p, %qf : f32
    %r = arith.maximumf %s, %zero : f32
    %h = arith.truncf %r : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<300x200xbf16>
}
