// tile-promote: a tensor-core dot's operand loads load into shared memory,
// in the layout the instructions read: 128-byte swizzle for wgmma (64 bf16
// per row; a 32-column operand gets 64 bytes), rows padded by 16 bytes for
// mma.sync; an operand that is not a load is stored there
// (tile.convert_layout).
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-configure=chip=sm_80 --tile-assign-layouts --tile-promote | FileCheck %s --check-prefix=SYNC

// CHECK-LABEL: tile.kernel @k
// CHECK: [[A:%.+]] = tile.load {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// CHECK: [[B:%.+]] = tile.load {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// CHECK: tile.dot [[A]], [[B]]
// SYNC-LABEL: tile.kernel @k
// SYNC: tile.load {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
func.func @gemm_bias(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %bias: memref<256xf32>, %C: memref<256x256xbf16>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %bias, %C) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256xf32>, memref<256x256xbf16> {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %v: memref<256xf32>, %c: memref<256x256xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %tv = tile.load %v[%n0] : memref<256xf32> -> !tile.tile<64xf32>
    %bv = tile.broadcast %tv [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %sum = tile.map (%acc, %bv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    // The same vector along the other dimension: a second layout.
    %rv = tile.broadcast %tv [1] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %y = tile.map (%sum, %rv) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.mulf %p, %q : f32
      tile.yield %s : f32
    }
    %m = tile.reduce %y, %zero dim = 1 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s = arith.addf %p, %q : f32
      tile.yield %s : f32
    }
    %o = tile.cast %y : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xbf16>, memref<256x256xbf16>
    tile.store %m, %v[%m0] : !tile.tile<64xf32>, memref<256xf32>
  }
  return
}

// -----

// A K step of 32 bf16 (64-byte rows for A), and an operand computed in
// registers (A scaled by 2), which goes to shared memory by a conversion.
// CHECK-LABEL: tile.kernel @narrow
// CHECK: [[A:%.+]] = tile.load {{.+}} -> !tile.tile<64x32xbf16, layout = #tile.blocked<threads = 128, run = 8>>
// CHECK: [[S:%.+]] = tile.map([[A]])
// CHECK: [[B:%.+]] = tile.load {{.+}} -> !tile.tile<32x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// CHECK: [[SA:%.+]] = tile.convert_layout [[S]] : !tile.tile<64x32xbf16, layout = #tile.blocked<threads = 128, run = 8>> -> !tile.tile<64x32xbf16, layout = #tile.shared<swizzle = 64>, memory_space = #gpu.address_space<workgroup>>
// CHECK: tile.dot [[SA]], [[B]]
func.func @narrow(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xf32>) {
  tile.kernel @narrow grid [1] threads 128 (%A, %B, %C) : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x64xf32> {
  ^bb0(%a: memref<64x64xbf16>, %b: memref<64x64xbf16>, %c: memref<64x64xf32>):
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : bf16
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c64 step %c32 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%c0, %k] : memref<64x64xbf16> -> !tile.tile<64x32xbf16>
      %s = tile.map (%ta) : (!tile.tile<64x32xbf16>) -> !tile.tile<64x32xbf16> {
      ^bb0(%p: bf16):
        %r = arith.mulf %p, %two : bf16
        tile.yield %r : bf16
      }
      %tb = tile.load %b[%k, %c0] : memref<64x64xbf16> -> !tile.tile<32x64xbf16>
      %d = tile.dot %s, %tb, %x : !tile.tile<64x32xbf16>, !tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    tile.store %acc, %c[%c0, %c0] : !tile.tile<64x64xf32>, memref<64x64xf32>
  }
  return
}

// -----

// An attention kernel's second dot: its A operand is the first dot's
// accumulator cast to bf16. On sm_90a it stays in registers, converted to
// #tile.dot_operand<0, the second accumulator's layout> (the same map:
// the SIMT lowering moves nothing), and wgmma reads it there; the loads
// still go to shared memory. On sm_80 it goes to shared memory.
// CHECK-LABEL: tile.kernel @probabilities
// CHECK: [[S:%.+]] = tile.dot {{.+}} -> !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
// CHECK: [[P:%.+]] = tile.cast [[S]] : {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
// CHECK: [[V:%.+]] = tile.load {{.+}} -> !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// CHECK: [[PA:%.+]] = tile.convert_layout [[P]] : {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 128, 16]>>>
// CHECK: tile.dot [[PA]], [[V]]
// SYNC-LABEL: tile.kernel @probabilities
// SYNC: tile.convert_layout {{.+}} -> !tile.tile<64x64xbf16, layout = #tile.shared<padding = 8>, memory_space = #gpu.address_space<workgroup>>
func.func @probabilities(%Q: memref<64x64xbf16>, %K: memref<64x64xbf16>, %V: memref<64x128xbf16>, %O: memref<64x128xf32>) {
  tile.kernel @probabilities grid [1] threads 128 (%Q, %K, %V, %O) : memref<64x64xbf16>, memref<64x64xbf16>, memref<64x128xbf16>, memref<64x128xf32> {
  ^bb0(%q: memref<64x64xbf16>, %k: memref<64x64xbf16>, %v: memref<64x128xbf16>, %o: memref<64x128xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %zs = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %zo = tile.splat %zero : f32 -> !tile.tile<64x128xf32>
    %tq = tile.load %q[%c0, %c0] : memref<64x64xbf16> -> !tile.tile<64x64xbf16>
    %tk = tile.load %k[%c0, %c0] : memref<64x64xbf16> -> !tile.tile<64x64xbf16>
    %s = tile.dot %tq, %tk, %zs : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
    %p = tile.cast %s : !tile.tile<64x64xf32> -> !tile.tile<64x64xbf16>
    %tv = tile.load %v[%c0, %c0] : memref<64x128xbf16> -> !tile.tile<64x128xbf16>
    %out = tile.dot %p, %tv, %zo : !tile.tile<64x64xbf16>, !tile.tile<64x128xbf16> -> !tile.tile<64x128xf32>
    tile.store %out, %o[%c0, %c0] : !tile.tile<64x128xf32>, memref<64x128xf32>
  }
  return
}

// -----

// S = Q K^T with K loaded as stored: the load goes to shared memory in the
// usual layout and the transpose becomes a view of it (`transposed`), the
// K-major B that wgmma and ldmatrix read without a copy.
// CHECK-LABEL: tile.kernel @k_transposed
// CHECK: [[K:%.+]] = tile.load {{.+}} -> !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
// CHECK: [[KT:%.+]] = tile.transpose [[K]] : {{.+}} -> !tile.tile<64x128xbf16, layout = #tile.shared<swizzle = 128, transposed = true>, memory_space = #gpu.address_space<workgroup>>
// CHECK: tile.dot %{{.+}}, [[KT]]
// SYNC-LABEL: tile.kernel @k_transposed
// SYNC: tile.transpose {{.+}} -> !tile.tile<64x128xbf16, layout = #tile.shared<padding = 8, transposed = true>, memory_space = #gpu.address_space<workgroup>>
func.func @k_transposed(%Q: memref<64x64xbf16>, %K: memref<128x64xbf16>, %S: memref<64x128xf32>) {
  tile.kernel @k_transposed grid [1] threads 128 (%Q, %K, %S) : memref<64x64xbf16>, memref<128x64xbf16>, memref<64x128xf32> {
  ^bb0(%q: memref<64x64xbf16>, %k: memref<128x64xbf16>, %s: memref<64x128xf32>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !tile.tile<64x128xf32>
    %tq = tile.load %q[%c0, %c0] : memref<64x64xbf16> -> !tile.tile<64x64xbf16>
    %tk = tile.load %k[%c0, %c0] : memref<128x64xbf16> -> !tile.tile<128x64xbf16>
    %kt = tile.transpose %tk : !tile.tile<128x64xbf16> -> !tile.tile<64x128xbf16>
    %d = tile.dot %tq, %kt, %z : !tile.tile<64x64xbf16>, !tile.tile<64x128xbf16> -> !tile.tile<64x128xf32>
    tile.store %d, %s[%c0, %c0] : !tile.tile<64x128xf32>, memref<64x128xf32>
  }
  return
}
