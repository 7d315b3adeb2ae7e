// convert-tile-to-simt on an attention step (the kernel of
// test/Transforms/tile-assign-layouts-attention.mlir): the probabilities,
// the scores' wgmma accumulator cast to bf16, are the second wgmma's A
// operand in registers. Their conversion to #tile.dot_operand and the row
// max's between slice layouts move nothing (no scatter to shared memory,
// which holds only Q, K, V and the loaded accumulator); the second dot is
// wgmma with A from four 32-bit registers per k16 step (inline PTX; the
// NVVM op takes descriptors only), K = 128: eight of them.
// RUN: tile-opt %S/../../Transforms/tile-assign-layouts-attention.mlir --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --convert-tile-kernel-to-gpu --convert-tile-to-simt | FileCheck %s

// CHECK: gpu.launch {{.+}} dynamic_shared_memory_size %c51200_i32
// CHECK-NOT: vector.scatter
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 128, k = 16>
// CHECK-NOT: vector.scatter
// CHECK-COUNT-8: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, $69, 0;\0Awgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {$0, $1, {{.+}}, $31}, {$64, $65, $66, $67}, $68, p, 1, 1, 1;\0A}", "=f,{{.+}},0,1,{{.+}},31,r,r,r,r,l,r"
// CHECK: nvvm.wgmma.commit.group.sync.aligned
