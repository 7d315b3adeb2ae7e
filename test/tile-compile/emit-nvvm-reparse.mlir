// tile-compile --emit=nvvm prints IR that parses back: a warp-specialized
// kernel's llvm.func carries one nvvm.maxntid (upstream's, from the known
// block size), not a second one from the launch, which printed the key
// twice and made the output unreadable ("duplicate key").
// RUN: tile-compile %s --emit=nvvm --chip=sm_90a | tile-opt | FileCheck %s

// CHECK: llvm.func @mm_0(
// CHECK-SAME: nvvm.maxntid = array<i32: 256, 1, 1>, nvvm.minctasm = 1 : i32}
// CHECK: nvvm.setmaxregister
func.func @mm(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xf32> {
  %c = tile.matmul %a, %b : (tensor<256x256xbf16>, tensor<256x256xbf16>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
