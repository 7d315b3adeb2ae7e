// A matmul whose B is stored in fragment runs (k_runs = 16) but is no
// weight computed in registers: tile-configure leaves it on SIMT FMAs
// (a remark), whose dot reads A's column perm(p) for B's row p, in K steps
// of whole blocks of 64. Ragged M and N; checked against the reference's
// reading of the permutation by its definition.
// REQUIRES: cuda-device
// RUN: tile-compile %s --chip=sm_90a -o %t.tilebundle
// RUN: tile-run %t.tilebundle --repeats 3 | FileCheck %s
// CHECK: RESULT k_runs_simt status=PASS

func.func @k_runs_simt(%x: tensor<5x320xbf16>, %w: tensor<320x40xbf16>) -> tensor<5x40xf32> {
  %y = tile.matmul %x, %w k_runs = 16 : (tensor<5x320xbf16>, tensor<320x40xbf16>) -> tensor<5x40xf32>
  return %y : tensor<5x40xf32>
}
