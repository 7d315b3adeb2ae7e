#!/usr/bin/env bash
# Nsight Compute's launch, occupancy, speed-of-light, scheduler, warp-state
# and instruction sections for one kernel of a bundle, on the GPU machine:
#   bench/ncu-kernel.sh BUNDLE [KERNEL_REGEX]
# The kernel is the bundle's first by default (the reference kernels run
# too; they are not profiled). Nsight Compute locks clocks (1.35 GHz on the
# H200), so durations differ from the benchmarks'; read the ratios.
set -u
bundle="$1"; kernel="${2:-.}"
. "$(dirname "${BASH_SOURCE[0]}")/ncu-common.sh"
"$ncu" --section LaunchStats --section Occupancy --section SpeedOfLight \
  --section SchedulerStats --section WarpStateStats --section InstructionStats \
  --section MemoryWorkloadAnalysis -k "regex:${kernel}" --launch-count 1 \
  "$runner" "$bundle" --warmup 1 --repeats 1 --no-time 2>&1 |
  grep -vE '^==PROF==|^ *-+ *$|^ *$|Section:|^    [A-Z][a-z]+ .*(OPT|INF|WRN)' | cut -c1-110
