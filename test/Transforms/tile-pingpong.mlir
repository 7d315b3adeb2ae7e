// tile-pingpong on the attention kernel of attention_fused_d128.mlir (its
// config asks for pingpong, after tile-overlap): the consumers' part
// starts with tile.turn_start, and each group of wgmma issues up to the
// next wait is one turn: block 0's scores before the loop; in the loop,
// block j + 1's scores and block j's P V together (K's wait before the
// turn, V's inside it), the wait for the scores after it; the last P V
// after the loop. The producer's part has no turns.
// RUN: tile-opt %S/../Integration/attention_fused_d128.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-pingpong --tile-warp-specialize | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-pingpong -verify-diagnostics | FileCheck %s --check-prefix=ORDER
// In a persistent kernel (attention_fused_d128_persistent.mlir: 80
// programs walking its 160 query blocks, two rounds), the consumers start their
// turns once, before the tile loop, and every tile takes its turns inside
// it: block 0's scores, then the key loop's turns, then the last P V.
// RUN: tile-opt %S/../Integration/attention_fused_d128_persistent.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-pingpong --tile-warp-specialize | FileCheck %s --check-prefix=PERSISTENT
// PERSISTENT: tile.warp_specialize threads [128, 256]
// PERSISTENT-NOT: tile.turn_
// PERSISTENT: }, {
// PERSISTENT-NEXT: tile.turn_start
// PERSISTENT-NOT: tile.turn_
// PERSISTENT: scf.for %{{.+}} = %{{.+}} to %c160{{.*}} step %c80
// PERSISTENT-NOT: tile.turn_
// PERSISTENT: tile.turn_begin
// PERSISTENT-NEXT: tile.wgmma
// PERSISTENT-NEXT: tile.turn_end
// PERSISTENT: scf.for
// PERSISTENT: tile.turn_begin
// PERSISTENT: tile.turn_end
// PERSISTENT: scf.yield
// PERSISTENT: tile.turn_begin
// PERSISTENT-NEXT: tile.wgmma
// PERSISTENT-NEXT: tile.turn_end
// PERSISTENT-NOT: tile.turn_start

// CHECK: tile.warp_specialize threads [128, 256]
// CHECK-NOT: tile.turn_
// CHECK: }, {
// CHECK-NEXT: tile.turn_start
// CHECK-NOT: tile.turn_
// CHECK: tile.turn_begin
// CHECK-NEXT: %[[S0:.+]] = tile.wgmma
// CHECK-NEXT: tile.turn_end
// CHECK-NEXT: tile.wgmma_wait %[[S0]] {pending = 0 : i64}
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: tile.turn_
// CHECK: tile.turn_begin
// CHECK-NEXT: %[[S:.+]] = tile.wgmma
// CHECK-NOT: tile.turn_
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: tile.turn_
// CHECK: %[[PV:.+]] = tile.wgmma
// CHECK-NEXT: tile.turn_end
// CHECK-NEXT: tile.wgmma_wait %[[S]] {pending = 1 : i64}
// CHECK-NOT: tile.turn_
// CHECK: tile.wgmma_wait %[[PV]] {pending = 0 : i64}
// CHECK: scf.yield
// CHECK: tile.turn_begin
// CHECK-NEXT: %[[LAST:.+]] = tile.wgmma
// CHECK-NEXT: tile.turn_end
// CHECK-NEXT: tile.wgmma_wait %[[LAST]] {pending = 0 : i64}
// CHECK-NOT: tile.turn_

// -----

// Hand-written kernels: tile.turn_start after the constants; two issues
// with no wait between them are one turn. A kernel with the same config
// and no wgmma is left as it is, with a remark; one without pingpong gets
// no turns.
!s = !tile.tile<128x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!b = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<128x64xf32, layout = #tile.mma<wgmma, warps = [8, 1], instr = [64, 64, 16]>>
func.func @turns(%x: memref<128x64xbf16>, %y: memref<128x64xbf16>) {
  tile.kernel @turns grid [1] threads 256 (%x, %y) : memref<128x64xbf16>, memref<128x64xbf16> attributes {tile.config = #tile.config<block = [128, 64, 64], threads = 256, mma = wgmma, instr = [64, 64, 16], warps = [8, 1], stages = 2, pingpong = true>} {
  ^bb0(%a: memref<128x64xbf16>, %b: memref<128x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<128x64xbf16> -> !s
    %u = tile.load %a[%c0, %c0] : memref<128x64xbf16> -> !b
    %p = tile.wgmma %t, %u, %z : !s, !b -> !acc
    %q = tile.wgmma %t, %u, %z : !s, !b -> !acc
    %pd = tile.wgmma_wait %p {pending = 1} : !acc
    %qd = tile.wgmma_wait %q {pending = 0} : !acc
  }
  // A barrier between two issues ends the turn (inside one it would wait
  // for a warpgroup that waits for the turn); so does a loop, whose own
  // issues get their own turn, never a turn inside a turn.
  tile.kernel @split grid [1] threads 256 (%x) : memref<128x64xbf16> attributes {tile.config = #tile.config<block = [128, 64, 64], threads = 256, mma = wgmma, instr = [64, 64, 16], warps = [8, 1], stages = 2, pingpong = true>} {
  ^bb0(%a: memref<128x64xbf16>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<128x64xbf16> -> !s
    %u = tile.load %a[%c0, %c0] : memref<128x64xbf16> -> !b
    %p = tile.wgmma %t, %u, %z : !s, !b -> !acc
    tile.barrier
    %q = tile.wgmma %t, %u, %z : !s, !b -> !acc
    scf.for %i = %c0 to %c2 step %c1 {
      %r = tile.wgmma %t, %u, %z : !s, !b -> !acc
      %rd = tile.wgmma_wait %r {pending = 0} : !acc
    }
    %s = tile.wgmma %t, %u, %z : !s, !b -> !acc
    %pd = tile.wgmma_wait %p {pending = 2} : !acc
    %qd = tile.wgmma_wait %q {pending = 1} : !acc
    %sd = tile.wgmma_wait %s {pending = 0} : !acc
  }
  // expected-remark @+1 {{pingpong: no tile.wgmma to take turns at}}
  tile.kernel @none grid [1] threads 256 (%x) : memref<128x64xbf16> attributes {tile.config = #tile.config<block = [128, 64, 64], threads = 256, mma = wgmma, instr = [64, 64, 16], warps = [8, 1], stages = 2, pingpong = true>} {
  ^bb0(%a: memref<128x64xbf16>):
  }
  tile.kernel @off grid [1] threads 256 (%x) : memref<128x64xbf16> attributes {tile.config = #tile.config<block = [128, 64, 64], threads = 256, mma = wgmma, instr = [64, 64, 16], warps = [8, 1], stages = 2>} {
  ^bb0(%a: memref<128x64xbf16>):
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<128x64xbf16> -> !s
    %u = tile.load %a[%c0, %c0] : memref<128x64xbf16> -> !b
    %p = tile.wgmma %t, %u, %z : !s, !b -> !acc
    %pd = tile.wgmma_wait %p {pending = 0} : !acc
  }
  return
}
// ORDER-LABEL: tile.kernel @turns
// ORDER: arith.constant 0.0
// ORDER-NEXT: tile.turn_start
// ORDER-NEXT: tile.splat
// ORDER-NEXT: tile.load
// ORDER-NEXT: tile.load
// ORDER-NEXT: tile.turn_begin
// ORDER-NEXT: tile.wgmma
// ORDER-NEXT: tile.wgmma
// ORDER-NEXT: tile.turn_end
// ORDER-NEXT: tile.wgmma_wait
// ORDER-LABEL: tile.kernel @split
// ORDER: tile.turn_begin
// ORDER-NEXT: tile.wgmma
// ORDER-NEXT: tile.turn_end
// ORDER-NEXT: tile.barrier
// ORDER-NEXT: tile.turn_begin
// ORDER-NEXT: tile.wgmma
// ORDER-NEXT: tile.turn_end
// ORDER-NEXT: scf.for
// ORDER-NEXT: tile.turn_begin
// ORDER-NEXT: tile.wgmma
// ORDER-NEXT: tile.turn_end
// ORDER-NEXT: tile.wgmma_wait
// ORDER-NEXT: {{^ *[}]$}}
// ORDER-NEXT: tile.turn_begin
// ORDER-NEXT: tile.wgmma
// ORDER-NEXT: tile.turn_end
// ORDER-LABEL: tile.kernel @none
// ORDER-NOT: tile.turn_
// ORDER-LABEL: tile.kernel @off
// ORDER-NOT: tile.turn_
