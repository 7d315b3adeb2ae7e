// tile-compile --reproducer=FILE: a pass that fails leaves MLIR's
// reproducer (the IR the failing pipeline started from, its passes) and
// says how to replay it; tile-opt --run-reproducer gives the same error.
// RUN: rm -f %t.repro.mlir
// RUN: not tile-compile %s --chip=sm_90a --reproducer=%t.repro.mlir -o %t.tilebundle 2>&1 | FileCheck %s
// RUN: not tile-opt --run-reproducer %t.repro.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPLAY
// CHECK: error: tile.config's 6 stages take 294912 bytes of shared memory; sm_90a has 232448 per program
// CHECK: remark: reproducer: {{.+}}.repro.mlir (replay: tile-opt --run-reproducer {{.+}}.repro.mlir)
// REPLAY: error: tile.config's 6 stages take 294912 bytes of shared memory; sm_90a has 232448 per program

func.func @gemm(%a: tensor<256x64xbf16>, %b: tensor<64x256xbf16>) -> tensor<256x256xf32> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 256, 64], threads = 256, mma = wgmma, instr = [64, 256, 16], warps = [8, 1], stages = 6>} : (tensor<256x64xbf16>, tensor<64x256xbf16>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
