// An epilogue that reads the matmul's own A again: y = x W^T + x (N = K),
// on rows that are not whole runs (K = N = 100 and 4100 bf16), so the K
// loop reads A's padded copy and the epilogue reads it too. The second
// function: M = 5, a split of K whose partials are added in the kernel
// before the epilogue. Checked against the reference of the same math.
// REQUIRES: cuda-device
// RUN: tile-compile %s --fuse --chip=sm_80 --function=residual_own_a -o %t.sm_80.tilebundle
// RUN: tile-run %t.sm_80.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=residual_own_a -o %t.sm_90a.tilebundle
// RUN: tile-run %t.sm_90a.tilebundle --repeats 3 | FileCheck %s
// RUN: tile-compile %s --fuse --chip=sm_90a --function=residual_own_a_split -o %t.split.tilebundle
// RUN: tile-run %t.split.tilebundle --repeats 3 | FileCheck %s --check-prefix=SPLIT
// TILE-COMPILE-FLAGS: --fuse --function=residual_own_a
// CHECK: RESULT residual_own_a status=PASS
// SPLIT: RESULT residual_own_a_split status=PASS

func.func @residual_own_a(%x: tensor<37x100xbf16>, %w: tensor<100x100xbf16>) -> tensor<37x100xbf16> {
  %wt = tile.transpose %w : tensor<100x100xbf16> -> tensor<100x100xbf16>
  %c = tile.matmul %x, %wt : (tensor<37x100xbf16>, tensor<100x100xbf16>) -> tensor<37x100xf32>
  %y = tile.map (%c, %x) : (tensor<37x100xf32>, tensor<37x100xbf16>) -> tensor<37x100xbf16> {
  ^bb0(%a: f32, %b: bf16):
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %a, %bf : f32
    %h = arith.truncf %s : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<37x100xbf16>
}

func.func @residual_own_a_split(%x: tensor<5x4100xbf16>, %w: tensor<4100x4100xbf16>) -> tensor<5x4100xbf16> {
  %wt = tile.transpose %w : tensor<4100x4100xbf16> -> tensor<4100x4100xbf16>
  %c = tile.matmul %x, %wt : (tensor<5x4100xbf16>, tensor<4100x4100xbf16>) -> tensor<5x4100xf32>
  %y = tile.map (%c, %x) : (tensor<5x4100xf32>, tensor<5x4100xbf16>) -> tensor<5x4100xbf16> {
  ^bb0(%a: f32, %b: bf16):
    %bf = arith.extf %b : bf16 to f32
    %s = arith.addf %a, %bf : f32
    %h = arith.truncf %s : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<5x4100xbf16>
}
