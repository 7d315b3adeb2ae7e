// tile-tile on an attention group (tile-fuse's; AttentionPattern.h): one
// FlashAttention kernel. On sm_90a (tile-configure's schedule at D = 64:
// 128 query rows on 256 threads, 128 keys per step, a 2-slot ring, two
// programs per SM) each program loads its Q tile once, then per key block
// loads K as stored and transposes it (a view once in shared memory), runs
// the group's score map with tile.iota positions offset to the block,
// masks the keys past S = 1000, and folds the block into the running row
// max and sum and the rescaled output; o / l and the cast after the loop.
// The score map is a causal mask, so the key loop ends at the program's
// last query (min(m0 + 128, S)), and only a block whose last key comes
// after the program's first query (n + 127 > m0: the diagonal one) runs
// the mask; the others take the scores as they are.
// Without wgmma (sm_80) the kernel takes 64 x 64 blocks and no config.
// RUN: tile-opt %S/../Integration/attention_fused_causal_ragged.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s
// A second score map by position (a sliding window) can hide every key of
// a row's first blocks: the exponentials then subtract 0 where the running
// max is still -inf (exp(-inf + inf) would be NaN); a causal mask alone
// never hides key 0, and keeps the plain max.
// RUN: tile-opt %S/../Integration/attention_fused_causal_ragged.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s --check-prefix=PLAIN-MAX
// PLAIN-MAX-NOT: arith.cmpf oeq
// RUN: tile-opt %S/../Integration/attention_sliding_window_ragged.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s --check-prefix=WINDOW
// WINDOW: scf.for
// WINDOW: %[[MNEW:.+]] = tile.map(%{{.+}}, %{{.+}}) : (!tile.tile<128xf32>, !tile.tile<128xf32>) -> !tile.tile<128xf32> {
// WINDOW: arith.maximumf
// WINDOW: %[[MEXP:.+]] = tile.map(%[[MNEW]]) : (!tile.tile<128xf32>) -> !tile.tile<128xf32> {
// WINDOW: %[[NOKEY:.+]] = arith.cmpf oeq, %{{.+}}, %{{.+}} : f32
// WINDOW: arith.select %[[NOKEY]], %{{.+}}, %{{.+}} : f32
// WINDOW: tile.broadcast %[[MEXP]] [1]
// WINDOW: %[[ALPHA:.+]] = tile.map(%{{.+}}, %[[MEXP]])
// WINDOW: scf.yield %{{.+}}, %[[MNEW]], %{{.+}} :
// RUN: tile-opt %S/../Integration/attention_fused_causal_ragged.mlir --tile-fuse --tile-configure=chip=sm_80 --tile-tile | FileCheck %s --check-prefix=SYNC
// At D = 128 the schedule adds a TMA producer warpgroup (warp
// specialization), so 128 keys per step fit the consumers' registers; the
// producer's partition holds the ring's copies and no tensor-core work;
// the two consumer warpgroups take turns at the tensor cores (pingpong;
// not at D = 64 below, where it ran slower, except in the causal kernel
// of mirrored pairs).
// RUN: tile-opt %S/../Integration/attention_fused_d128.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s --check-prefix=D128
// RUN: tile-opt %S/../Integration/attention_fused_d128.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize | FileCheck %s --check-prefix=WS
// D128: tile.kernel @attention_0 grid [5] threads 256
// D128-NOT: min_programs_per_sm
// D128-SAME: tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, warp_specialize = true, overlap = true, pingpong = true>
// WS: tile.kernel @attention_0 grid [5] threads 384
// WS: tile.warp_specialize threads [128, 256] registers [40, 232] {
// WS-NOT: tile.wgmma
// WS: tile.tma_load
// WS-NOT: tile.wgmma
// WS: }, {
// WS: tile.wgmma
// WS: tile.wgmma
// The attention-block option sets the block (here 256 query rows on four
// consumer warpgroups and 64 keys, with 40 SMs so that the 80 blocks are
// more than the SMs); the rest follows from it (no pingpong: that is for
// two consumer warpgroups). Its 640 threads start with 96 registers
// each: the producer keeps 32 and the four consumer warpgroups take 112
// (61440 in all; at 40 and 112 setmaxnreg.inc waited forever on the H200).
// RUN: tile-opt %S/../Integration/attention_fused_d64_persistent.mlir --tile-fuse --tile-configure="chip=sm_90a sms=40 attention-block=256,64" --tile-tile | FileCheck %s --check-prefix=BLOCK256
// RUN: tile-opt %S/../Integration/attention_fused_d64_persistent.mlir --tile-fuse --tile-configure="chip=sm_90a sms=40 attention-block=256,64" --tile-tile --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-warp-specialize | FileCheck %s --check-prefix=BLOCK256-WS
// BLOCK256: tile.kernel @attention_0 grid [4, 20] threads 512
// BLOCK256-SAME: tile.config = #tile.config<block = [256, 64, 64], threads = 512, mma = wgmma, instr = [64, 64, 16], warps = [16, 1], stages = 2, persistent = true, group_rows = 4, warp_specialize = true, overlap = true, every_sm = true>
// BLOCK256-WS: tile.kernel @attention_0 grid [40] threads 640
// BLOCK256-WS: tile.warp_specialize threads [128, 512] registers [32, 112] {
// At D = 128 with no mask and whole blocks (S = 1024) and more query
// blocks (160) than SMs, the same with a persistent grid, each head's
// query blocks adjacent (as at D = 64 below); causal with more pairs of
// query blocks (200) than SMs, the persistent grid in mirrored pairs.
// RUN: tile-opt %S/../Integration/attention_fused_d128_persistent.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s --check-prefix=PERS128
// PERS128: tile.kernel @attention_0 grid [8, 20] threads 256
// PERS128-SAME: tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, pingpong = true>
// RUN: tile-opt %S/../Integration/attention_fused_d128_causal_persistent.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s --check-prefix=MIRROR128
// MIRROR128: tile.kernel @attention_0 grid [4, 100] threads 256
// MIRROR128-SAME: tile.config = #tile.config<block = [128, 128, 128], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, persistent = true, warp_specialize = true, overlap = true, pingpong = true, mirror_rows = true>
// At D = 64 with no mask and whole blocks (S = 1024) and more query
// blocks (160) than SMs: the producer with a persistent grid, each head's
// 8 query blocks adjacent (group_rows), one program per SM looping over
// the 160 tiles. With as many SMs as tiles (ONE-WAVE, sms=160) a
// persistent grid gains nothing: two programs per SM, as for the causal
// and ragged kernel above.
// RUN: tile-opt %S/../Integration/attention_fused_d64_persistent.mlir --tile-fuse --tile-configure="chip=sm_90a sms=160" --tile-tile | FileCheck %s --check-prefix=ONE-WAVE
// RUN: tile-opt %S/../Integration/attention_fused_d64_persistent.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s --check-prefix=PERS
// RUN: tile-opt %S/../Integration/attention_fused_d64_persistent.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-warp-specialize | FileCheck %s --check-prefix=PERS-WS
// Causal at D = 64, whole blocks, 400 query blocks: the same persistent
// producer kernel, its query blocks in mirrored pairs (mirror_rows, no
// group_rows): each program's tile loop runs whole pairs, and both
// partitions carry the K/V ring's position from one tile to the next (the
// key loop's length changes with the block).
// With as many SMs as pairs (FEW-PAIRS, sms=200), a program per pair
// would leave programs running two tiles where two programs per SM run
// one each: the plain grid.
// At D = 64 that kernel computes every 8th exponential of the scores on
// the FMA pipe (fma_exp2, on the scores' math.exp; the running max's
// correction keeps the special-function unit); attention-fma-exp2
// replaces the choice (0 for none in the NO-FMA-EXP2 run; every 4th in
// the non-causal kernel in the FMA-EXP2-4 run).
// RUN: tile-opt %S/../Integration/attention_fused_causal_persistent.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s --check-prefix=MIRROR
// RUN: tile-opt %S/../Integration/attention_fused_causal_persistent.mlir --tile-fuse --tile-configure="chip=sm_90a attention-fma-exp2=0" --tile-tile | FileCheck %s --check-prefix=NO-FMA-EXP2
// RUN: tile-opt %S/../Integration/attention_fused_d64_persistent.mlir --tile-fuse --tile-configure="chip=sm_90a attention-fma-exp2=4" --tile-tile | FileCheck %s --check-prefix=FMA-EXP2-4
// NO-FMA-EXP2-NOT: fma_exp2
// FMA-EXP2-4: tile.config = #tile.config<{{.*}}, fma_exp2 = 4, every_sm = true>
// FMA-EXP2-4: math.exp %{{.+}} {tile.fma_exp2 = 4 : i64} : f32
// RUN: tile-opt %S/../Integration/attention_fused_causal_persistent.mlir --tile-fuse --tile-configure="chip=sm_90a sms=200" --tile-tile | FileCheck %s --check-prefix=FEW-PAIRS
// FEW-PAIRS: tile.kernel @attention_0 grid [4, 100] threads 256
// FEW-PAIRS-SAME: min_programs_per_sm = 2 : i64, tile.config = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2>
// RUN: tile-opt %S/../Integration/attention_fused_causal_persistent.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-overlap --tile-warp-specialize | FileCheck %s --check-prefix=MIRROR-WS
// MIRROR: tile.kernel @attention_0 grid [4, 100] threads 256
// MIRROR-SAME: tile.config = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, persistent = true, warp_specialize = true, overlap = true, pingpong = true, mirror_rows = true, fma_exp2 = 8>
// MIRROR: math.exp %{{.+}} {tile.fma_exp2 = 8 : i64} : f32
// MIRROR: math.exp %{{.+}} : f32
// MIRROR-WS: tile.kernel @attention_0 grid [132] threads 384
// MIRROR-WS: tile.warp_specialize threads [128, 256] registers [40, 232] {
// MIRROR-WS: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1{{.*}} iter_args(%[[PBASE:.+]] = %c0{{.*}}) -> (index) {
// MIRROR-WS: scf.for
// MIRROR-WS: arith.addi %[[PBASE]],
// MIRROR-WS: tile.tma_load
// MIRROR-WS: scf.yield %{{.+}} : index
// MIRROR-WS: }, {
// MIRROR-WS: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %c1{{.*}} iter_args(%[[CBASE:.+]] = %c0{{.*}}) -> (index) {
// MIRROR-WS: scf.for
// MIRROR-WS: arith.addi %[[CBASE]],
// MIRROR-WS: tile.wgmma
// MIRROR-WS: scf.yield %{{.+}} : index
// ONE-WAVE: tile.kernel @attention_0 grid [8, 20] threads 256
// ONE-WAVE-SAME: min_programs_per_sm = 2 : i64, tile.config = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2>
// PERS: tile.kernel @attention_0 grid [8, 20] threads 256
// PERS-NOT: min_programs_per_sm
// PERS-SAME: tile.config = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2, persistent = true, group_rows = 8, warp_specialize = true, overlap = true, every_sm = true>
// The producer loads the first tile's Q into slot 0 of Q's own ring
// before the tile loop (the tile order: blocks of a head adjacent, % 8 for
// the block and / 8 for the head), then each tile's K and V, then the next
// tile's Q.
// PERS-WS: tile.kernel @attention_0 grid [132] threads 384
// PERS-WS: [[QRING:%.+]] = tile.shared : memref<2x128x64xbf16, #gpu.address_space<workgroup>>
// PERS-WS: tile.warp_specialize threads [128, 256] registers [40, 232] {
// PERS-WS: tile.view [[QRING]][%c0
// PERS-WS: arith.remui %{{.+}}, %c160
// PERS-WS: arith.remui %{{.+}}, %{{.+}} : index
// PERS-WS: tile.tma_load
// PERS-WS: } {tile.producer}
// PERS-WS: scf.for %{{.+}} = %{{.+}} to %c160{{.*}} step %c132
// PERS-WS: tile.tma_load
// PERS-WS: tile.tma_load
// PERS-WS: tile.view [[QRING]]
// PERS-WS: tile.tma_load
// PERS-WS: }, {
// PERS-WS: scf.for %{{.+}} = %{{.+}} to %c160{{.*}} step %c132
// PERS-WS: tile.wgmma

// CHECK: tile.kernel @attention_0 grid [8] threads 256
// CHECK-SAME: min_programs_per_sm = 2 : i64, tile.config = #tile.config<block = [128, 128, 64], threads = 256, mma = wgmma, instr = [64, 128, 16], warps = [8, 1], stages = 2>
// Causal query blocks run longest first: program i takes block 7 - i.
// CHECK: %[[PID:.+]] = tile.program_id 0
// CHECK: %[[BLOCK:.+]] = arith.subi %c7, %[[PID]]
// CHECK: %[[M0:.+]] = arith.muli %[[BLOCK]], %c128
// CHECK: %[[Q:.+]] = tile.load %{{.+}}[%[[M0]], %c0] : memref<1000x64xbf16> -> !tile.tile<128x64xbf16>
// CHECK: %[[LAST:.+]] = arith.addi %[[M0]], %c128
// CHECK: %[[END:.+]] = arith.minui %[[LAST]], %c1000
// CHECK: scf.for %[[N:.+]] = %c0 to %[[END]] step %c128{{.*}} iter_args
// CHECK: %[[KR:.+]] = arith.addi %c0{{.*}}, %[[N]]
// CHECK: %[[K:.+]] = tile.load %{{.+}}[%[[KR]], %c0] : memref<1000x64xbf16> -> !tile.tile<128x64xbf16>
// CHECK: %[[KT:.+]] = tile.transpose %[[K]] : !tile.tile<128x64xbf16> -> !tile.tile<64x128xbf16>
// CHECK: %[[S:.+]] = tile.dot %[[Q]], %[[KT]]
// CHECK: %[[LASTKEY:.+]] = arith.addi %[[N]], %c127
// CHECK: %[[DIAG:.+]] = arith.cmpi ugt, %[[LASTKEY]], %[[M0]]
// CHECK: %[[X:.+]] = scf.if %[[DIAG]] -> (!tile.tile<128x128xf32>) {
// CHECK: tile.iota dim = 0
// CHECK: arith.index_cast %[[M0]] : index to i32
// CHECK: tile.iota dim = 1
// CHECK: arith.index_cast %[[N]] : index to i32
// CHECK: %[[XD:.+]] = tile.map(%[[S]], %{{.+}}, %{{.+}})
// CHECK: arith.select
// CHECK: scf.yield %[[XD]]
// CHECK: } else {
// CHECK-NOT: tile.iota
// CHECK-NOT: tile.map
// CHECK: scf.yield %[[S]]
// CHECK: }
// CHECK: %[[XM:.+]] = tile.mask %[[X]], %{{.+}} bounds[%{{.+}}, %{{.+}}] at[%c0, %[[N]]]
// CHECK: tile.reduce %[[XM]]
// CHECK: math.exp
// CHECK: math.exp
// CHECK: tile.reduce
// CHECK: %[[P:.+]] = tile.cast %{{.+}} : !tile.tile<128x128xf32> -> !tile.tile<128x128xbf16>
// CHECK: %[[V:.+]] = tile.load %{{.+}}[%[[KR]], %c0] : memref<1000x64xbf16> -> !tile.tile<128x64xbf16>
// CHECK: tile.dot %[[P]], %[[V]]
// CHECK: arith.divf
// CHECK: tile.cast %{{.+}} : !tile.tile<128x64xf32> -> !tile.tile<128x64xbf16>
// CHECK: tile.store %{{.+}}[%[[M0]], %c0]
// CHECK-NOT: tile.kernel
// SYNC: tile.kernel @attention_0 grid [16] threads 128
// SYNC-NOT: tile.config
// SYNC: tile.dot {{.+}} -> !tile.tile<64x64xf32>
// SYNC-NOT: tile.kernel
