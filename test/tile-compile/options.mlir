// tile-compile passes --tile-options to tile-tile and --pipeline-options to
// tile-to-nvvm (the kernels only, never the reference).
// RUN: split-file %s %t
// RUN: tile-compile %t/gemm.mlir --chip=sm_90a --emit=nvvm | FileCheck %s --check-prefix=DEFAULT
// RUN: tile-compile %t/gemm.mlir --chip=sm_90a --emit=nvvm --pipeline-options="sms=3" | FileCheck %s --check-prefix=THREE
// RUN: tile-compile %t/decode.mlir --chip=sm_90a --emit=tile --configure-options=candidate=14 | FileCheck %s --check-prefix=CANDIDATE
// RUN: tile-compile %t/decode.mlir --chip=sm_90a --emit=tile --configure-options=list-candidates=1 --configure-options=candidate=14 2>&1 | FileCheck %s --check-prefixes=LISTED,CANDIDATE
// RUN: tile-compile %t/decode.mlir --chip=sm_90a --emit=tile --tuning-db=%t/db.jsonl | FileCheck %s --check-prefix=TUNED
// RUN: env TILE_TUNING_DB=%t/db.jsonl tile-compile %t/decode.mlir --chip=sm_90a --emit=tile | FileCheck %s --check-prefix=TUNED
// RUN: not tile-compile %t/gemm.mlir --chip=sm_90a --pipeline-options="sms=3} ,canonicalize{" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLICE
// RUN: tile-compile %t/ragged.mlir --chip=sm_90a --emit=tile | FileCheck %s --check-prefix=PADDED
// RUN: tile-compile %t/ragged.mlir --chip=sm_90a --emit=tile --tile-options="pad-matmul-rows=0" 2>&1 | FileCheck %s --check-prefix=UNPADDED

// 512 x 512 in 64 x 64 tiles (tile-configure's most programs below half
// the SMs): 64 programs; a GPU of 3 SMs (sms=3) gets 3 persistent ones.
// DEFAULT: gpu.launch_func @gemm_0::@gemm_0 blocks in (%c64,
// THREE: gpu.launch_func @gemm_0::@gemm_0 blocks in (%c3,
// The reference keeps its own grid.
// THREE: gpu.launch_func @gemm_ref_0::@gemm_ref_0

// --configure-options reach the tensor-level tile-configure: candidate 14
// of M = 16 x 4096 x 4096 is 64 x 128 blocks without a split; the tuning
// database's entry (--tuning-db or $TILE_TUNING_DB) is 64 x 256 in 4
// ranges.
// --configure-options given twice passes both.
// LISTED: remark: 23 candidate configs for tuning key
// CANDIDATE: tile.kernel @decode_0 grid [1, 32] threads 128
// TUNED: tile.kernel @decode_0_split_k grid [1, 16, 4] threads 128

// Options are pass options: text that would close the pass's braces and
// splice in another pass is refused.
// SPLICE: error: the pipeline options ('sms=3} ,canonicalize{') may not hold a brace or a quote: they are pass options (name=value, separated by spaces)

// PADDED: tile.kernel @ragged_0_pad_a
// PADDED: tile.kernel @ragged_0_pad_b
// PADDED: tile.kernel @ragged_0_unpad_c
// UNPADDED-NOT: _pad_
// UNPADDED: tile.kernel @ragged_0 grid

//--- gemm.mlir
func.func @gemm(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %c = tile.matmul %a, %b : (tensor<512x512xbf16>, tensor<512x512xbf16>) -> tensor<512x512xf32>
  %o = tile.cast %c : tensor<512x512xf32> -> tensor<512x512xbf16>
  return %o : tensor<512x512xbf16>
}

//--- ragged.mlir
func.func @ragged(%a: tensor<100x99xbf16>, %b: tensor<99x101xbf16>) -> tensor<100x101xbf16> {
  %c = tile.matmul %a, %b : (tensor<100x99xbf16>, tensor<99x101xbf16>) -> tensor<100x101xf32>
  %o = tile.cast %c : tensor<100x101xf32> -> tensor<100x101xbf16>
  return %o : tensor<100x101xbf16>
}

//--- decode.mlir
func.func @decode(%a: tensor<16x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<16x4096xbf16> {
  %c = tile.matmul %a, %b : (tensor<16x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<16x4096xf32>
  %o = tile.cast %c : tensor<16x4096xf32> -> tensor<16x4096xbf16>
  return %o : tensor<16x4096xbf16>
}

//--- db.jsonl
{"tile_tuning": 1, "schedule": 1, "op": "tile.matmul", "chip": "sm_90a", "sms": 132, "m": 16, "n": 4096, "k": 4096, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.config<block = [64, 256, 64], threads = 128, mma = wgmma, instr = [64, 256, 16], warps = [4, 1], stages = 5, persistent = true, group_rows = 8, warp_specialize = true, split_k = 4>"}
