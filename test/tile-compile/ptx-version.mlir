// The PTX version asked for (+ptx80 by default) is raised to the least the
// chip needs: below it LLVM's NVPTX backend stops the process with a fatal
// error. A higher version asked for stays.
// RUN: tile-compile %s --chip=sm_90a --emit=ptx | FileCheck %s --check-prefix=SM90
// RUN: tile-compile %s --chip=sm_100a --emit=ptx | FileCheck %s --check-prefix=SM100
// RUN: tile-compile %s --chip=sm_120 --emit=ptx | FileCheck %s --check-prefix=SM120
// RUN: tile-compile %s --chip=sm_100a --features=+ptx87 --emit=ptx | FileCheck %s --check-prefix=ASKED
// RUN: tile-compile %s --chip=sm_100f --emit=ptx | FileCheck %s --check-prefix=FAMILY
// RUN: tile-compile %s --chip=sm_90a --features=+ptx78 --emit=ptx | FileCheck %s --check-prefix=LOW
// SM90: .version 8.0
// SM90: .target sm_90a
// SM100: .version 8.6
// SM100: .target sm_100a
// SM120: .version 8.7
// SM120: .target sm_120
// ASKED: .version 8.7
// ASKED: .target sm_100a
// FAMILY: .version 8.8
// FAMILY: .target sm_100f
// LOW: .version 8.0
// LOW: .target sm_90a

func.func @scale(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = tile.map (%x) : (tensor<64x64xf32>) -> tensor<64x64xf32> {
  ^bb0(%v: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %v, %two : f32
    tile.yield %r : f32
  }
  return %y : tensor<64x64xf32>
}
