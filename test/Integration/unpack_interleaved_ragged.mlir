// tile.unpack in AWQ's nibble order (interleaved) as a kernel of its own
// (tile-tile's unpack kernel, the SIMT lowering's words or its
// shared-memory path): 33 rows of 25 words, signed values, checked against
// the reference's reading of each nibble by its definition.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 3 | FileCheck %s
// CHECK: RESULT unpack_interleaved status=PASS

func.func @unpack_interleaved(%p: tensor<33x100xi8>) -> tensor<33x200xi8> {
  %q = tile.unpack %p signed interleaved : tensor<33x100xi8> -> tensor<33x200xi8>
  return %q : tensor<33x200xi8>
}
