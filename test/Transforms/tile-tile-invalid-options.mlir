// Errors that only bad command-line options of tile-tile can cause (the
// tile.config attribute verifier rejects these values itself).
// RUN: not tile-opt %s --tile-tile="threads=16" 2>&1 | FileCheck %s --check-prefix=FEW
// RUN: not tile-opt %s --tile-tile="threads=2048" 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not tile-opt %s --tile-tile="elementwise-block=8,0" 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not tile-opt %s --tile-tile="elementwise-block=256" 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not tile-opt %s --tile-tile="rows-per-program=-1" 2>&1 | FileCheck %s --check-prefix=ROWS

// RUN: not tile-opt %s --tile-tile="row-stages=1" 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not tile-opt %s --tile-tile="shared-memory-per-sm=-1" 2>&1 | FileCheck %s --check-prefix=SMEM
// ROWS: error: rows-per-program must be 0 (automatic) or more but is -1
// STAGES: error: row-stages must be in [2, 8] but is 1
// SMEM: error: shared-memory-per-sm must be 0 (no staging) or more but is -1

// FEW: tile-tile-invalid-options.mlir:[[@LINE+6]]:8: error: 'tile.cast' op expected threads to be a power of two in [32, 1024] but got 16
// MANY: tile-tile-invalid-options.mlir:[[@LINE+5]]:8: error: 'tile.cast' op expected threads to be a power of two in [32, 1024] but got 2048
// ZERO: tile-tile-invalid-options.mlir:[[@LINE+4]]:8: error: 'tile.cast' op expected power-of-two block sizes but got 0
// ONE: tile-tile-invalid-options.mlir:[[@LINE+3]]:8: error: 'tile.cast' op expected at least 2 block sizes but got 1

func.func @cast(%a: tensor<64x64xf32>) -> tensor<64x64xf16> {
  %y = tile.cast %a : tensor<64x64xf32> -> tensor<64x64xf16>
  return %y : tensor<64x64xf16>
}
