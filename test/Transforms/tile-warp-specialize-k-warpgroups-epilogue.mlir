// k_warpgroups with epilogue operands made before the K loop (two tiles
// loaded and reduced over rows, read only after the loop): they go with
// the epilogue into copy 0's branch (scf.if tile.replica == 0), so the
// other copy neither loads nor holds them, and the reductions' scratch
// shared memory is copy 0's alone, which the SIMT lowering accepts (a
// reduction every copy ran would share it: invalid-scopes.mlir). What the
// loop reads stays before it.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s --check-prefix=SIMT

// CHECK: tile.warp_specialize threads [128, 128] registers [40, 232] attributes {replicas = array<i64: 1, 2>}
// CHECK: }, {
// CHECK-NOT: tile.reduce
// CHECK: %[[COPY:.+]] = tile.replica
// CHECK-NOT: tile.reduce
// CHECK: scf.for
// CHECK: tile.wgmma
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[COPY]], %{{.+}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: tile.load %{{.+}} : memref<256x256xf32> ->
// CHECK: tile.reduce
// CHECK: tile.load %{{.+}} : memref<256x256xf32> ->
// CHECK: tile.reduce
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: tile.store %{{.+}}, %{{.+}} : {{.+}}, memref<256x256xf32>
// CHECK: } else {
// CHECK-NOT: tile.reduce
// CHECK: tile.arrive
// CHECK: }

// SIMT: gpu.launch
// SIMT: gpu.dynamic_shared_memory
func.func @gemm(%A: memref<256x512xbf16>, %B: memref<512x256xbf16>, %C: memref<256x256xf32>, %R: memref<256x256xf32>, %S: memref<256x256xf32>) {
  tile.kernel @k grid [4, 4] threads 128 (%A, %B, %C, %R, %S) : memref<256x512xbf16>, memref<512x256xbf16>, memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 4, warp_specialize = true, k_warpgroups = 2>} {
  ^bb0(%a: memref<256x512xbf16>, %b: memref<512x256xbf16>, %c: memref<256x256xf32>, %r: memref<256x256xf32>, %s: memref<256x256xf32>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.0 : f32
    %pm = tile.program_id 0
    %pn = tile.program_id 1
    %m0 = arith.muli %pm, %c64 : index
    %n0 = arith.muli %pn, %c64 : index
    %z = tile.splat %zero : f32 -> !tile.tile<64x64xf32>
    %rt = tile.load %r[%m0, %n0] : memref<256x256xf32> -> !tile.tile<64x64xf32>
    %rv = tile.reduce %rt, %zero dim = 0 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s1 = arith.addf %p, %q : f32
      tile.yield %s1 : f32
    }
    %rb = tile.broadcast %rv [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %st = tile.load %s[%m0, %n0] : memref<256x256xf32> -> !tile.tile<64x64xf32>
    %sv = tile.reduce %st, %zero dim = 0 : !tile.tile<64x64xf32>, f32 -> !tile.tile<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %s1 = arith.maximumf %p, %q : f32
      tile.yield %s1 : f32
    }
    %sb = tile.broadcast %sv [0] : !tile.tile<64xf32> -> !tile.tile<64x64xf32>
    %acc = scf.for %k = %c0 to %c512 step %c64 iter_args(%x = %z) -> (!tile.tile<64x64xf32>) {
      %ta = tile.load %a[%m0, %k] : memref<256x512xbf16> -> !tile.tile<64x64xbf16>
      %tb = tile.load %b[%k, %n0] : memref<512x256xbf16> -> !tile.tile<64x64xbf16>
      %d = tile.dot %ta, %tb, %x : !tile.tile<64x64xbf16>, !tile.tile<64x64xbf16> -> !tile.tile<64x64xf32>
      scf.yield %d : !tile.tile<64x64xf32>
    }
    %o = tile.map(%acc, %rb, %sb) : (!tile.tile<64x64xf32>, !tile.tile<64x64xf32>, !tile.tile<64x64xf32>) -> !tile.tile<64x64xf32> {
    ^bb0(%p: f32, %q: f32, %t: f32):
      %u = arith.mulf %p, %q : f32
      %w = arith.addf %u, %t : f32
      tile.yield %w : f32
    }
    tile.store %o, %c[%m0, %n0] : !tile.tile<64x64xf32>, memref<256x256xf32>
  }
  return
}
