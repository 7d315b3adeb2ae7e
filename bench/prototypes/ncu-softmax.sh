#!/usr/bin/env bash
# Nsight Compute counters (instructions, issue rate, pipes, stall reasons)
# for the softmax_ring.cu prototypes (staged plain/lean/nocheck exact, lean
# fast) and for compiled softmax 4096x50257 bundles, on the GPU machine:
#   bench/prototypes/ncu-softmax.sh EXACT.tilebundle FAST.tilebundle
# Compile the bundles here with tile-compile (and --fast-math); KERNEL
# (default softmax_4096x50257_0) names their kernel, not the references.
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__issue_active.avg.per_cycle_active
M=$M,smsp__warps_active.avg.per_cycle_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
M=$M,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active
for s in barrier long_scoreboard short_scoreboard math_pipe_throttle wait not_selected mio_throttle; do
  M=$M,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
M=$M,dram__throughput.avg.pct_of_peak_sustained_elapsed
nvcc -O3 -arch=sm_90a -std=c++17 bench/prototypes/softmax_ring.cu -o /tmp/softmax_ring || exit 1
for v in 0 1 2 6; do
  echo "== prototype variant $v"
  ncu --metrics $M -k regex:softmax --launch-count 1 /tmp/softmax_ring $v 2>&1 |
    grep -E "^ +[a-z]" | awk '{print $1, $NF}'
done
[ -x build-runner/bin/tile-run ] || {
  cmake -G Ninja -S . -B build-runner -DTILE_ENABLE_COMPILER=OFF >/dev/null 2>&1 &&
    ninja -C build-runner tile-run >/dev/null 2>&1; } || { echo "runner build failed"; exit 1; }
for b in "$@"; do
  echo "== compiled $(basename "$b")"
  ncu --metrics $M -k "regex:${KERNEL:-softmax_4096x50257_0}" --launch-count 1 build-runner/bin/tile-run "$b" \
    --warmup 1 --repeats 1 --no-time 2>&1 | grep -E "^ +[a-z]" | awk '{print $1, $NF}'
done
