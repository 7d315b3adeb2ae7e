// A SIMT matmul lowers math.fma to a libdevice call (__nv_fmaf), as map
// bodies do math.exp and math.tanh. tile-compile names the toolkit to
// gpu-module-to-binary itself (--cuda-path, default $CUDA_HOME, else
// /usr/local/cuda), so libdevice is linked without any CUDA environment
// variable: the PTX calls no __nv_ function and ptxas accepts it.
// REQUIRES: ptxas
// RUN: env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT tile-compile %s --chip=sm_80 -o %t.tilebundle
// RUN: env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT tile-compile %s --chip=sm_80 --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT tile-compile %s --chip=sm_80 --cuda-path=/usr/local/cuda -o %t.tilebundle
// --cuda-path, and else CUDA_HOME, is the toolkit used.
// RUN: not tile-compile %s --chip=sm_80 --emit=ptx --cuda-path=%t.nowhere 2>&1 | FileCheck %s --check-prefix=NOWHERE
// RUN: env CUDA_HOME=%t.nowhere not tile-compile %s --chip=sm_80 --emit=ptx 2>&1 | FileCheck %s --check-prefix=NOWHERE

// PTX: fma.rn.f32
// PTX-NOT: __nv_
// NOWHERE: libdevice-without-cuda-home.mlir:[[@LINE+3]]:8: error: CUDA path: {{.+}}.nowhere does not exist or is not a directory

func.func @mm(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = tile.matmul %a, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
