// A TMA ring's dynamic shared memory is declared as CUDA declares it
// (tile-extern-dynamic-shared): `.extern .shared` of unknown size, not a
// one-byte static variable ("demoted variable") that the copies run past,
// which compute-sanitizer's synccheck refuses to launch.
// RUN: tile-compile %s --chip=sm_90a --emit=ptx | FileCheck %s
// CHECK-NOT: __dynamic_shmem__0 has been demoted
// CHECK: .extern .shared .align 16 .b8 __dynamic_shmem__0[];
// CHECK-NOT: .shared .align 16 .b8 __dynamic_shmem__0;
// CHECK: mov.b64 {{.*}}, __dynamic_shmem__0;
// CHECK: cp.async.bulk.tensor.2d
func.func @mm(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xf32> {
  %c = tile.matmul %a, %b : (tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}
