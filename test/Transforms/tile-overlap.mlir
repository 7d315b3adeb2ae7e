// tile-overlap on the attention kernel of attention_fused_d128.mlir (its
// config asks for overlap): tile-pipeline gives K and V their own barriers
// (a full one of 1 arrival and an empty one of 8 consumer warps each), and
// the key loop is pipelined over two stages. Before the loop: block 0's
// scores and softmax. In the loop: block j + 1's scores issued, block j's
// output rescaled and its P V issued, the scores' wait leaving P V in
// flight (pending = 1) and K's slot given back, block j + 1's softmax
// under P V, then P V's wait and V's slot. After it: the last block's P V.
// RUN: tile-opt %S/../Integration/attention_fused_d128.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap | FileCheck %s
// RUN: tile-opt %s -split-input-file --tile-overlap -verify-diagnostics | FileCheck %s --check-prefix=KEEP

// CHECK: %[[KFULL:.+]] = tile.barrier_group arrivals 1
// CHECK: %[[KEMPTY:.+]] = tile.barrier_group arrivals 8
// CHECK: %[[VFULL:.+]] = tile.barrier_group arrivals 1
// CHECK: %[[VEMPTY:.+]] = tile.barrier_group arrivals 8
// CHECK: nvgpu.mbarrier.try_wait.parity %[[KFULL]]
// CHECK: %[[S0:.+]] = tile.wgmma
// CHECK: tile.wgmma_wait %[[S0]] {pending = 0 : i64}
// CHECK: tile.arrive %[[KEMPTY]]
// CHECK: math.exp
// CHECK: scf.for {{.+}} iter_args(%[[O:[^ ]+]] = {{.+}}, %[[P:[^ ]+]] = {{[^)]+}})
// CHECK: nvgpu.mbarrier.try_wait.parity %[[KFULL]]
// CHECK: %[[S:.+]] = tile.wgmma {{.+}} : !tile.tile<128x128xbf16, layout = #tile.shared
// CHECK: %[[RESCALED:.+]] = tile.map(%[[O]],
// CHECK: nvgpu.mbarrier.try_wait.parity %[[VFULL]]
// CHECK: %[[PV:.+]] = tile.wgmma %[[P]], %{{.+}}, %[[RESCALED]]
// CHECK: tile.wgmma_wait %[[S]] {pending = 1 : i64}
// CHECK: tile.arrive %[[KEMPTY]]
// CHECK: math.exp
// CHECK: %[[PVDONE:.+]] = tile.wgmma_wait %[[PV]] {pending = 0 : i64}
// CHECK: tile.arrive %[[VEMPTY]]
// CHECK: scf.yield %[[PVDONE]],
// CHECK: nvgpu.mbarrier.try_wait.parity %[[VFULL]]
// CHECK: %[[LAST:.+]] = tile.wgmma {{.+}} : !tile.tile<128x128xbf16, layout = #tile.dot_operand
// CHECK: tile.wgmma_wait %[[LAST]] {pending = 0 : i64}
// CHECK: tile.arrive %[[VEMPTY]]

// -----

// A loop that is not known to run at least once (it starts at 64) stays as
// it is, with a remark; so does one whose first product reads what the
// second carries.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
!p = !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>>
func.func @kept(%x: memref<128x64xbf16>) {
  tile.kernel @kept grid [1] threads 128 (%x) : memref<128x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, warp_specialize = true, overlap = true>} {
  ^bb0(%a: memref<128x64xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<128x64xbf16> -> !s
    // expected-remark @+1 {{not overlapped: the loop is not known to run at least once}}
    %r = scf.for %i = %c64 to %c128 step %c64 iter_args(%o = %z) -> (!acc) {
      %s = tile.wgmma %t, %t, %z : !s, !s -> !acc
      %sd = tile.wgmma_wait %s {pending = 0} : !acc
      %ph = tile.cast %sd : !acc -> !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
      %pp = tile.convert_layout %ph : !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>> -> !p
      %pv = tile.wgmma %pp, %t, %o : !p, !s -> !acc
      %pvd = tile.wgmma_wait %pv {pending = 0} : !acc
      scf.yield %pvd : !acc
    }
    // expected-remark @+1 {{not overlapped: the first stage reads what the second carries}}
    %r2 = scf.for %i = %c0 to %c128 step %c64 iter_args(%o = %z) -> (!acc) {
      %s = tile.wgmma %t, %t, %o : !s, !s -> !acc
      %sd = tile.wgmma_wait %s {pending = 0} : !acc
      %ph = tile.cast %sd : !acc -> !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
      %pp = tile.convert_layout %ph : !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>> -> !p
      %pv = tile.wgmma %pp, %t, %o : !p, !s -> !acc
      %pvd = tile.wgmma_wait %pv {pending = 0} : !acc
      scf.yield %pvd : !acc
    }
  }
  return
}
// KEEP-LABEL: func @kept
// KEEP-COUNT-2: scf.for

// -----

// A persistent kernel's tile loop (here from 64: not known to run) around
// the key loop: the key loop is overlapped (a product left in flight), and
// the tile loop, whose own products are the key loop's prologue and
// epilogue, is left as it is without a remark.
!s = !tile.tile<64x64xbf16, layout = #tile.shared<swizzle = 128>, memory_space = #gpu.address_space<workgroup>>
!acc = !tile.tile<64x64xf32, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
!p = !tile.tile<64x64xbf16, layout = #tile.dot_operand<0, #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>>
func.func @nested(%x: memref<128x64xbf16>) {
  tile.kernel @nested grid [1] threads 128 (%x) : memref<128x64xbf16> attributes {tile.config = #tile.config<block = [64, 64, 64], threads = 128, mma = wgmma, instr = [64, 64, 16], warps = [4, 1], stages = 2, warp_specialize = true, overlap = true>} {
  ^bb0(%a: memref<128x64xbf16>):
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %z = tile.splat %zero : f32 -> !acc
    %t = tile.load %a[%c0, %c0] : memref<128x64xbf16> -> !s
    scf.for %tile = %c64 to %c128 step %c64 {
      %s0 = tile.wgmma %t, %t, %z : !s, !s -> !acc
      %s0d = tile.wgmma_wait %s0 {pending = 0} : !acc
      %r = scf.for %i = %c0 to %c128 step %c64 iter_args(%o = %s0d) -> (!acc) {
        %s = tile.wgmma %t, %t, %z : !s, !s -> !acc
        %sd = tile.wgmma_wait %s {pending = 0} : !acc
        %ph = tile.cast %sd : !acc -> !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>>
        %pp = tile.convert_layout %ph : !tile.tile<64x64xbf16, layout = #tile.mma<wgmma, warps = [4, 1], instr = [64, 64, 16]>> -> !p
        %pv = tile.wgmma %pp, %t, %o : !p, !s -> !acc
        %pvd = tile.wgmma_wait %pv {pending = 0} : !acc
        scf.yield %pvd : !acc
      }
      %e = tile.wgmma %t, %t, %r : !s, !s -> !acc
      %ed = tile.wgmma_wait %e {pending = 0} : !acc
    }
  }
  return
}
// KEEP-LABEL: func @nested
// KEEP: scf.for %{{.+}} = %c64 to %c128
// KEEP: scf.for
// KEEP: tile.wgmma_wait %{{.+}} {pending = 1 : i64}
