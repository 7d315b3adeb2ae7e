// Static checks of the PTX each path produces for a bf16 matmul: sm_90a
// uses wgmma, the TMA copy engine and register reallocation (2048^2: the
// 128 x 256 block of two consumer warpgroups).
// RUN: tile-compile %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=SM90A
// SM90A: .target sm_90a
// SM90A-DAG: setmaxnreg.inc.sync.aligned.u32 232
// SM90A-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// SM90A-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
func.func @mm(%a: tensor<2048x512xbf16>, %b: tensor<512x2048xbf16>) -> tensor<2048x2048xbf16> {
  %c = tile.matmul %a, %b : (tensor<2048x512xbf16>, tensor<512x2048xbf16>) -> tensor<2048x2048xf32>
  %o = tile.cast %c : tensor<2048x2048xf32> -> tensor<2048x2048xbf16>
  return %o : tensor<2048x2048xbf16>
}
