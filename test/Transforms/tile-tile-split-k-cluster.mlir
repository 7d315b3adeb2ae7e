// tile-tile on a matmul whose config adds split-K's partials in a cluster
// (cluster = [1, 1, S]): one kernel over [M / bm, N / bn, S], no workspace
// and no second kernel; program (i, j, s) runs the K loop over range s, the
// cluster sums the partials (tile.cluster_sum of S), and the program of
// range 0 alone runs the epilogue (the fused cast) and stores the tile.
// convert-tile-kernel-to-gpu launches it in clusters of the config's shape.
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-fuse --tile-tile | FileCheck %s
// RUN: tile-opt %s --tile-configure=chip=sm_90a --tile-fuse --tile-tile --tile-configure=chip=sm_90a --tile-assign-layouts --tile-promote --tile-mma --tile-persistent --tile-pipeline --tile-warp-specialize --convert-tile-kernel-to-gpu | FileCheck %s --check-prefix=LAUNCH

// CHECK-LABEL: func.func @split_in_cluster
// CHECK: tile.kernel @split_in_cluster_0_split_k grid [1, 16, 4] threads 128
// CHECK-SAME: split_k = 4, cluster = [1, 1, 4]
// CHECK: %[[SPLIT:.+]] = tile.program_id 2
// CHECK: %[[ACC:.+]] = scf.for
// CHECK: %[[SUM:.+]] = tile.cluster_sum %[[ACC]] of 4 : !tile.tile<64x64xf32>
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[SPLIT]], %c0
// CHECK: scf.if %[[FIRST]] {
// CHECK: tile.cast %[[SUM]]
// CHECK: tile.store
// CHECK-NOT: tile.kernel
// LAUNCH: gpu.launch clusters({{.+}}) in ({{.+}} = %c1{{.*}}, {{.+}} = %c1{{.*}}, {{.+}} = %c4{{.*}}) blocks({{.+}}) in ({{.+}} = %c1{{.*}}, {{.+}} = %c16{{.*}}, {{.+}} = %c4{{.*}})
func.func @split_in_cluster(%a: tensor<50x4104xbf16>, %b: tensor<4104x1000xbf16>) -> tensor<50x1000xbf16> {
  %c = tile.matmul %a, %b : (tensor<50x4104xbf16>, tensor<4104x1000xbf16>) -> tensor<50x1000xf32>
  %o = tile.cast %c : tensor<50x1000xf32> -> tensor<50x1000xbf16>
  return %o : tensor<50x1000xbf16>
}
