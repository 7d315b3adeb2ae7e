// tile-compile --lineinfo: line tables from the source's locations. The
// PTX names this file, the tile.map's line (13) and the multiply's (15) in
// .loc directives, the
// target is not marked `debug` (ptxas optimizes as usual), and the bundle
// builds (ptxas -lineinfo keeps the lines in the cubin for Nsight
// Compute's source view). Without the flag: no .loc.
// REQUIRES: ptxas
// RUN: tile-compile %s --chip=sm_90a --lineinfo --emit=ptx -o - | FileCheck %s
// RUN: tile-compile %s --chip=sm_90a --lineinfo -o %t.tilebundle
// RUN: tile-compile %s --chip=sm_90a --emit=ptx -o - | FileCheck %s --check-prefix=OFF
func.func @scale(%a: tensor<1000x300xf32>) -> tensor<1000x300xf32> {
  %c = arith.constant 2.0 : f32
  %y = tile.map (%a) : (tensor<1000x300xf32>) -> tensor<1000x300xf32> {
  ^bb0(%x: f32):
    %s = arith.mulf %x, %c : f32
    tile.yield %s : f32
  }
  return %y : tensor<1000x300xf32>
}
// CHECK: .target sm_90a{{$}}
// CHECK: .loc 1 13 8
// CHECK: .loc 1 15 10
// CHECK: .file 1 "{{.*}}lineinfo.mlir"
// OFF-NOT: .loc
