// bf16 matmul on the sm_80 path with M, N and K ragged against the 128 x 128 x 32
// block: the last K step is partly zero-filled by cp.async, the last block-row
// and block-column are masked in the epilogue.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_80 -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 5 | FileCheck %s
// CHECK: RESULT matmul_bf16_mma_sync_ragged status=PASS

func.func @matmul_bf16_mma_sync_ragged(%a: tensor<1000x1000xbf16>, %b: tensor<1000x1032xbf16>) -> tensor<1000x1032xbf16> {
  %c = tile.matmul %a, %b : (tensor<1000x1000xbf16>, tensor<1000x1032xbf16>) -> tensor<1000x1032xf32>
  %o = tile.cast %c : tensor<1000x1032xf32> -> tensor<1000x1032xbf16>
  return %o : tensor<1000x1032xbf16>
}
