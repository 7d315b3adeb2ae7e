// Split-K with the partials added in a thread-block cluster: 50 rows (above
// the in-kernel sums' 16, up to 64) of a 4104-deep K against 1000 columns
// make few output tiles, so tile-configure cuts K into four ranges whose
// programs form one cluster (cluster = [1, 1, 4]); ranks 1-3 write their
// f32 partials into rank 0's shared memory (tile.cluster_sum), which adds
// them in rank order and runs the bf16 cast. Ragged M, N and K (the last
// range is short, its tiles zero past K), against the reference.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a -o %t.sm_90a.tilebundle
// RUN: grep -a "^launch main" %t.sm_90a.tilebundle | FileCheck %s --check-prefix=LAUNCH
// RUN: tile-run %t.sm_90a.tilebundle --repeats 5 | FileCheck %s
// TILE-CHIPS: sm_90a
// LAUNCH: grid 1 16 4 block 256 1 1 cluster 1 1 4
// CHECK: RESULT matmul_split_k_cluster_ragged status=PASS

func.func @matmul_split_k_cluster_ragged(%a: tensor<50x4104xbf16>, %b: tensor<4104x1000xbf16>) -> tensor<50x1000xbf16> {
  %c = tile.matmul %a, %b : (tensor<50x4104xbf16>, tensor<4104x1000xbf16>) -> tensor<50x1000xf32>
  %o = tile.cast %c : tensor<50x1000xf32> -> tensor<50x1000xbf16>
  return %o : tensor<50x1000xbf16>
}
