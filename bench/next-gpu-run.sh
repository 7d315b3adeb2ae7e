#!/usr/bin/env bash
# The measurements session 39 prepared for issue 17's weight-only kernels
# and could not run (no GPU lent): kept in the repository because a
# session's .carry folder does not survive into the next checkout; delete
# it once its questions are answered (bench/RESULTS.md).
#
#   bash bench/next-gpu-run.sh prepare [DIR]   # here (~1 minute)
#   then on the GPU machine, carrying DIR (default .carry/next, ~6 MB):
#   bash bench/next-gpu-run.sh run [DIR]       # ~6 minutes
#
# The questions:
# 1. What a small-N wgmma costs (bench/prototypes/wgmma_small_n.cu): is
#    the copy-free 16.7 us of int4 16x8192x8192 (65536 m64n16k16, 496 an
#    SM) the tensor pipe's time, the warpgroups' serial chains (decode,
#    issue, wait), or issue slots? The answer picks the next structure:
#    more independent chains, or fewer / cheaper MMAs (mma.sync).
# 2. Steps and rings of the transposed product (tuning-database entries,
#    no compiler change): K steps of 512 (both halves of each weight row's
#    256-byte line at once, 4 stages), of 128 (finer hand-offs, a shorter
#    tail), a ring of 4, two warpgroups at 512; int4 and MXFP4 at M = 16.
#    A variant faster in every round becomes tile-configure's choice.
# 3. Nsight Compute's tensor-pipe, issue and DRAM shares of both kernels.
# 4. bench/quant.sh in turn with cuBLAS (last run in session 36).
# 2b. (session 40) wgmma-descriptor-adds (convert-tile-to-simt option):
#    a product's later wgmma descriptors as 64-bit adds to its first
#    (int4's K loop 365 -> 350 SASS a step, MXFP4's 530 -> 524), in the
#    A/B of 2 as folder vda.
# 5. (session 40) What the decode's multiplies cost, by PTX ablation
#    (bench/drop_multiplies.py, unchecked bundles): int4 without its
#    per-group scale multiply (an upper bound for scaling the
#    accumulators instead: 365 -> 270 SASS a step, the scale loads go
#    too) and MXFP4 with one multiply a pair (2^126 folded into the
#    scale: 530 -> 466), each also without the weight's copies
#    (bench/drop_copies.py), beside the unedited kernels; and int4 with
#    the scales applied to each product's sum instead (checked against
#    the reference; bench/prototypes/scale_on_accumulators.py, 337 SASS
#    a step).

set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:?usage: bench/next-gpu-run.sh prepare|run [DIR]}"
dir="${2:-$root/.carry/next}"
build="${TILE_BUILD_DIR:-$root/build}"
variants="512-4-4 128-8-4 256-4-4 512-4-2" # K step - stages - warpgroups

if [ "$mode" = prepare ]; then
  mkdir -p "$dir"
  bash "$root/bench/compile-quant.sh" "$dir/quant" >/dev/null
  mkdir -p "$dir/ab/def"
  for v in $variants; do
    IFS=- read -r step stages groups <<<"$v"
    mkdir -p "$dir/ab/v$v"
    for pair in "int4-bf16-runs:tile.matmul.dequant.i4s.g128.kr32" \
                "mxfp4-bits-runs:tile.matmul.dequant.i4u.g32.kr8"; do
      name=quant_16x8192x8192_${pair%%:*} op=${pair#*:}
      cp "$dir/quant/$name.tilebundle" "$dir/ab/def/"
      db="$dir/ab/v$v/$name.jsonl"
      printf '{"tile_tuning": 1, "schedule": 1, "op": "%s", "chip": "sm_90a", "sms": 132, "m": 16, "n": 8192, "k": 8192, "lhs": "bf16", "rhs": "bf16", "result": "f32", "config": "#tile.config<block = [16, 64, %s], threads = 128, mma = wgmma, instr = [64, 16, 16], warps = [4, 1], stages = %s, group_rows = 8, warp_specialize = true, prefetch = true, transposed = true, k_warpgroups = %s>", "time_us": 0, "spread_us": 0, "candidate": 0, "candidates": 1, "tuned": "by hand"}\n' \
        "$op" "$step" "$stages" "$groups" >"$db"
      "$build/bin/tile-compile" "$dir/quant/$name.mlir" --fuse --chip=sm_90a \
        --configure-options=tuning-db="$db" -o "$dir/ab/v$v/$name.tilebundle"
      rm "$db"
    done
  done
  mkdir -p "$dir/abl/base" "$dir/abl/mul" "$dir/abl/nocopy" "$dir/abl/nocopymul"
  for pair in int4-bf16-runs:scale mxfp4-bits-runs:constant; do
    name=quant_16x8192x8192_${pair%%:*}
    "$build/bin/tile-compile" "$dir/quant/$name.mlir" --fuse --chip=sm_90a \
      --no-reference -o "$dir/abl/base/$name.tilebundle"
    python3 "$root/bench/drop_multiplies.py" "$dir/abl/base/$name.tilebundle" \
      "$dir/abl/mul/$name.tilebundle" "${pair#*:}" >/dev/null
    for v in base:nocopy mul:nocopymul; do # parameter 0: the weight's map
      python3 "$root/bench/drop_copies.py" "$dir/abl/${v%%:*}/$name.tilebundle" \
        "$dir/abl/${v#*:}/$name.tilebundle" 0 >/dev/null
    done
  done
  mkdir -p "$dir/abl/acc"
  python3 "$root/bench/prototypes/scale_on_accumulators.py" \
    "$dir/quant/quant_16x8192x8192_int4-bf16-runs.tilebundle" \
    "$dir/abl/acc/quant_16x8192x8192_int4-bf16-runs.tilebundle" >/dev/null
  mkdir -p "$dir/ab/vda"
  for name in int4-bf16-runs mxfp4-bits-runs; do
    name=quant_16x8192x8192_$name
    "$build/bin/tile-compile" "$dir/quant/$name.mlir" --fuse --chip=sm_90a \
      --pipeline-options=wgmma-descriptor-adds=1 -o "$dir/ab/vda/$name.tilebundle"
  done
  cp "$root/bench/prototypes/wgmma_small_n.cu" "$dir/"
  echo "prepared $dir ($(du -sh "$dir" | cut -f1))"
  exit 0
fi

set +e
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
echo "== 1. small-N wgmma (bench/prototypes/wgmma_small_n.cu)"
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
  "$dir/wgmma_small_n.cu" -o /tmp/wgmma_small_n 2>&1 | grep C75
timeout 120 /tmp/wgmma_small_n
echo "== 2. steps and rings, 16x8192x8192 (tile-run, L2 flushed)"
abdirs="$dir/ab/def"
for v in $variants da; do abdirs="$abdirs $dir/ab/v$v"; done
# shellcheck disable=SC2086
timeout 240 bash "$root/bench/ab.sh" -r 3 -n 15 $abdirs 2>&1 | tail -30
echo "== 5. decode multiplies and copies (PTX ablations, unchecked)"
timeout 150 bash "$root/bench/ab.sh" -r 3 -n 15 "$dir/abl/base" "$dir/abl/mul" \
  "$dir/abl/nocopy" "$dir/abl/nocopymul" "$dir/abl/acc" 2>&1 | tail -16
echo "== 3. Nsight Compute"
. "$root/bench/ncu-common.sh"
names=$("$ncu" --query-metrics 2>/dev/null | awk '{print $1}')
metrics="gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed"
for base in $(echo "$names" | grep -E "^(sm__pipe_tensor_op_gmma_cycles_active|sm__pipe_tensor_cycles_active|smsp__issue_active|sm__pipe_alu_cycles_active|sm__pipe_fma_cycles_active|sm__pipe_shared_cycles_active)$"); do
  metrics="$metrics,$base.avg.pct_of_peak_sustained_active"
done
for base in $(echo "$names" | grep -E "^(sm__inst_executed_pipe_tensor_op_gmma|smsp__inst_executed)$"); do
  metrics="$metrics,$base.sum"
done
for name in int4-bf16-runs mxfp4-bits-runs; do
  echo "-- $name"
  timeout 90 "$ncu" --metrics "$metrics" -k regex:. --launch-count 1 "$runner" \
    "$dir/quant/quant_16x8192x8192_$name.tilebundle" --warmup 1 --repeats 1 --no-time 2>&1 |
    grep -vE '^==PROF==|^ *-+ *$|^ *$' | cut -c1-110 | tail -12
done
echo "== 4. bench/quant.sh"
timeout 240 bash "$root/bench/quant.sh" "$dir/quant" 2>&1 | tail -30
