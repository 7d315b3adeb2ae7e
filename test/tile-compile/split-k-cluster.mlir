// Split-K added in a cluster, end to end without a GPU: the bundle's launch
// carries the cluster (docs/bundle-format.md), and the PTX has the cluster
// barriers, the mapping of rank 0's shared memory and the 16-byte stores
// into it, and wgmma descriptors whose base keeps the 18-bit shared window
// (bits 4-17: a clustered launch's addresses carry the rank from bit 24).
// RUN: tile-compile %s --chip=sm_90a --no-reference -o %t.tilebundle
// RUN: grep -a "^launch" %t.tilebundle | FileCheck %s --check-prefix=LAUNCH
// RUN: tile-compile %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=PTX
// LAUNCH: launch main split_in_cluster_0_split_k split_in_cluster_0_split_k grid 1 16 4 block 256 1 1 cluster 1 1 4 smem
// LAUNCH-NOT: launch main
// PTX: bfe.u32 {{.+}}, 4, 14;
// PTX: wgmma.mma_async
// PTX: %cluster_ctarank
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
// PTX: mapa.shared::cluster.u64 {{.+}}, 0;
// PTX: st.shared::cluster.v4.b32
// PTX: barrier.cluster.arrive;
// PTX-NEXT: barrier.cluster.wait;
func.func @split_in_cluster(%a: tensor<50x4104xbf16>, %b: tensor<4104x1000xbf16>) -> tensor<50x1000xbf16> {
  %c = tile.matmul %a, %b : (tensor<50x4104xbf16>, tensor<4104x1000xbf16>) -> tensor<50x1000xf32>
  %o = tile.cast %c : tensor<50x1000xf32> -> tensor<50x1000xbf16>
  return %o : tensor<50x1000xbf16>
}
