// Grouped-query attention (AttentionPattern.h): tile-fuse takes the
// tile.repeat of K's and V's head dimension into the attention group, and
// the kernel reads the K/V tensors as given (4000 rows for 2 x 2 heads of
// 1000, against the queries' 16000), at K/V head (program_id 1) / 4.
// RUN: tile-opt %S/../Integration/attention_gqa.mlir --tile-fuse | FileCheck %s --check-prefix=FUSE
// RUN: tile-opt %S/../Integration/attention_gqa.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s
// RUN: tile-opt %S/../Integration/attention_gqa.mlir --tile-fuse --tile-configure=chip=sm_80 --tile-tile | FileCheck %s
// One K/V head shared by all (multi-query: B = 1 and the K/V head are unit
// dimensions, so a tile.broadcast makes the head dimension), at D = 128
// with the TMA producer warpgroup on sm_90a.
// RUN: tile-opt %S/../Integration/attention_mqa_d128.mlir --tile-fuse --tile-configure=chip=sm_90a --tile-tile | FileCheck %s --check-prefix=MQA

// FUSE: tile.fused(%arg1, %arg2, %arg0) {tile.attention} : (tensor<2x2x1000x64xbf16>, tensor<2x2x1000x64xbf16>, tensor<2x8x1000x64xbf16>) -> tensor<2x8x1000x64xbf16>
// FUSE: tile.repeat %{{.+}} dim = 1 times = 4
// FUSE: tile.repeat %{{.+}} dim = 1 times = 4
// FUSE-NOT: tile.repeat

// CHECK: tile.kernel @attention_gqa_0 grid [{{8|16}}, 16] threads {{128|256}}({{.+}}) : memref<16000x64xbf16>, memref<4000x64xbf16>, memref<4000x64xbf16>, memref<16000x64xbf16>
// CHECK: [[HEAD:%.+]] = tile.program_id 1
// CHECK: [[C4:%.+]] = arith.constant 4 : index
// CHECK: [[KV:%.+]] = arith.divui [[HEAD]], [[C4]] : index
// CHECK: arith.muli [[KV]], %{{.+}} : index
// CHECK-NOT: tile.repeat

// MQA: tile.kernel @attention_mqa_0 grid [4, 4] threads 256({{.+}}) : memref<2048x128xbf16>, memref<512x128xbf16>, memref<512x128xbf16>, memref<2048x128xbf16> attributes {{{.+}}warp_specialize = true
// MQA: [[HEAD:%.+]] = tile.program_id 1
// MQA: arith.divui [[HEAD]], %{{.+}} : index
// MQA-NOT: tile.broadcast %arg
