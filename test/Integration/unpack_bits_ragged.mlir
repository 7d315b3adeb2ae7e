// tile.unpack in bits' order (MXFP4's layout="mma": bit b of value v of
// each word at bit bits[4 v + b]) as a kernel of its own (tile-tile's
// unpack kernel, the SIMT lowering's words taken bit by bit): 33 rows of
// 25 words, signed values, checked against the reference's reading of
// each bit by its definition.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 3 | FileCheck %s
// CHECK: RESULT unpack_bits status=PASS

func.func @unpack_bits(%p: tensor<33x100xi8>) -> tensor<33x200xi8> {
  %q = tile.unpack %p signed bits = [0, 1, 2, 9, 16, 17, 18, 25, 10, 11, 12, 19, 26, 27, 28, 3, 4, 5, 6, 13, 20, 21, 22, 29, 14, 7, 8, 15, 30, 23, 24, 31] : tensor<33x100xi8> -> tensor<33x200xi8>
  return %q : tensor<33x200xi8>
}
