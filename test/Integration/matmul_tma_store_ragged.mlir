// Epilogues stored through the TMA (tile-configure's tma-store, the config's
// tma_store: tile-tma-store's tile.tma_store), against the unfused
// reference, every shape ragged:
// - bias_gelu: bf16 + bias + tanh GELU, bf16 out; 128 x 256 tiles, two
//   staging slots of 128 x 64 taken in turn, 4 blocks a tile; M = 1000
//   (the last block-row of 104 rows), N = 1040 (the last block-column 16
//   wide: the TMA clips the rest);
// - one_block: a hand-written config of 128 x 64 tiles (one 128-byte
//   block a tile, one slot: each store waits for the copy before), 8 x 16
//   tiles persistent on sms=5 programs, so that each program stores many
//   tiles through the one slot;
// - fp8_out: e4m3 x e4m3 with per-tensor scales to e4m3 (1-byte elements:
//   blocks of 128 columns);
// - f32_out: bf16 to f32 (4-byte elements: blocks of 32 columns, the
//   thread's columns past one 16-byte unit).
// REQUIRES: cuda-device
// TILE-CHIPS: sm_90a
// RUN: tile-compile %s --fuse --chip=sm_90a --configure-options=tma-store=1 --function=bias_gelu -o %t.gelu.tilebundle
// RUN: tile-run %t.gelu.tilebundle --repeats 3 | FileCheck %s --check-prefix=GELU
// RUN: tile-compile %s --fuse --chip=sm_90a --pipeline-options=sms=5 --function=one_block -o %t.one.tilebundle
// RUN: tile-run %t.one.tilebundle --repeats 3 | FileCheck %s --check-prefix=ONE
// RUN: tile-compile %s --fuse --chip=sm_90a --configure-options=tma-store=1 --function=fp8_out -o %t.fp8.tilebundle
// RUN: tile-run %t.fp8.tilebundle --repeats 3 | FileCheck %s --check-prefix=FP8
// RUN: tile-compile %s --fuse --chip=sm_90a --configure-options=tma-store=1 --function=f32_out -o %t.f32.tilebundle
// RUN: tile-run %t.f32.tilebundle --repeats 3 | FileCheck %s --check-prefix=F32
// TILE-COMPILE-FLAGS: --fuse --configure-options=tma-store=1 --function=bias_gelu
// GELU: RESULT bias_gelu status=PASS
// ONE: RESULT one_block status=PASS
// FP8: RESULT fp8_out status=PASS
// F32: RESULT f32_out status=PASS

func.func @bias_gelu(%a: tensor<1000x520xbf16>, %b: tensor<520x1040xbf16>, %bias: tensor<1040xf32>) -> tensor<1000x1040xbf16> {
  %c = tile.matmul %a, %b : (tensor<1000x520xbf16>, tensor<520x1040xbf16>) -> tensor<1000x1040xf32>
  %bb = tile.broadcast %bias [0] : tensor<1040xf32> -> tensor<1000x1040xf32>
  %y = tile.map (%c, %bb) : (tensor<1000x1040xf32>, tensor<1000x1040xf32>) -> tensor<1000x1040xbf16> {
  ^bb0(%x: f32, %z: f32):
    %s = arith.addf %x, %z : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.7978845608 : f32
    %c3 = arith.constant 0.044715 : f32
    %s2 = arith.mulf %s, %s : f32
    %s3 = arith.mulf %s2, %s : f32
    %t0 = arith.mulf %s3, %c3 : f32
    %t1 = arith.addf %s, %t0 : f32
    %t2 = arith.mulf %t1, %k : f32
    %th = math.tanh %t2 : f32
    %t3 = arith.addf %th, %one : f32
    %t4 = arith.mulf %s, %t3 : f32
    %g = arith.mulf %t4, %half : f32
    %h = arith.truncf %g : f32 to bf16
    tile.yield %h : bf16
  }
  return %y : tensor<1000x1040xbf16>
}

func.func @one_block(%a: tensor<1000x256xbf16>, %b: tensor<256x1000xbf16>) -> tensor<1000x1000xbf16> {
  %c = tile.matmul %a, %b {tile.config = #tile.config<block = [128, 64, 64], threads = 256, mma = wgmma, instr = [64, 64, 16], warps = [8, 1], stages = 4, persistent = true, group_rows = 8, warp_specialize = true, tma_store = true>} : (tensor<1000x256xbf16>, tensor<256x1000xbf16>) -> tensor<1000x1000xf32>
  %y = tile.cast %c : tensor<1000x1000xf32> -> tensor<1000x1000xbf16>
  return %y : tensor<1000x1000xbf16>
}

func.func @fp8_out(%a: tensor<1000x256xf8E4M3FN>, %w: tensor<2064x256xf8E4M3FN>, %sa: tensor<f32>, %sb: tensor<f32>) -> tensor<1000x2064xf8E4M3FN> {
  %wt = tile.transpose %w : tensor<2064x256xf8E4M3FN> -> tensor<256x2064xf8E4M3FN>
  %c = tile.matmul %a, %wt : (tensor<1000x256xf8E4M3FN>, tensor<256x2064xf8E4M3FN>) -> tensor<1000x2064xf32>
  %ba = tile.broadcast %sa [0, 1] : tensor<f32> -> tensor<1000x2064xf32>
  %bb = tile.broadcast %sb [0, 1] : tensor<f32> -> tensor<1000x2064xf32>
  %y = tile.map (%c, %ba, %bb) : (tensor<1000x2064xf32>, tensor<1000x2064xf32>, tensor<1000x2064xf32>) -> tensor<1000x2064xf8E4M3FN> {
  ^bb0(%acc: f32, %x: f32, %z: f32):
    %s = arith.mulf %x, %z : f32
    %r = arith.mulf %acc, %s : f32
    %h = arith.truncf %r : f32 to f8E4M3FN
    tile.yield %h : f8E4M3FN
  }
  return %y : tensor<1000x2064xf8E4M3FN>
}

func.func @f32_out(%a: tensor<500x264xbf16>, %b: tensor<264x516xbf16>) -> tensor<500x516xf32> {
  %c = tile.matmul %a, %b : (tensor<500x264xbf16>, tensor<264x516xbf16>) -> tensor<500x516xf32>
  return %c : tensor<500x516xf32>
}
