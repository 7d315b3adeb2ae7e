#!/usr/bin/env bash
# Nsight Compute metrics of one of our GEMM kernels and of cuBLAS's kernel
# for the same square bf16 shape, on the GPU machine:
#   bench/ncu-gemm.sh BUNDLE KERNEL_NAME SIZE
# e.g. bench/ncu-gemm.sh .carry/prof/g8192.tilebundle gemm_8192x8192x8192_bf16_0 8192
# Nsight Compute locks clocks (1.35 GHz on the H200), so times differ from
# bench/gemm.sh's; the metrics compare the kernels' L2 and DRAM traffic and
# tensor-pipe activity.
set -u
bundle="$1"; kernel="$2"; size="$3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null) || { echo "no ncu"; exit 2; }
metrics=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,launch__grid_size,launch__cluster_dim_x
show='Kernel|\(|hmma|hit_rate|bytes|throughput|duration|grid_size|cluster|ERR|rror'
cmake -G Ninja -S "$root" -B "$root/build-runner" -DTILE_ENABLE_COMPILER=OFF >/dev/null 2>&1 &&
  ninja -C "$root/build-runner" tile-run >/dev/null 2>&1 || { echo "runner build failed"; exit 2; }
"$ncu" --metrics "$metrics" -k "regex:^${kernel}\$" --launch-count 1 \
  "$root/build-runner/bin/tile-run" "$bundle" --warmup 2 --repeats 1 --no-time 2>&1 | grep -E "$show"
python3 - "$size" >/tmp/ncu-cublas.py <<'PY'
import sys
n = int(sys.argv[1])
print(f"""import torch
a = torch.randn({n}, {n}, device="cuda", dtype=torch.bfloat16)
b = torch.randn({n}, {n}, device="cuda", dtype=torch.bfloat16)
for _ in range(3):
    c = a @ b
torch.cuda.synchronize()""")
PY
"$ncu" --metrics "$metrics" -k "regex:sm90|gemm|nvjet|cutlass" --launch-skip 2 --launch-count 1 \
  python3 /tmp/ncu-cublas.py 2>&1 | grep -E "$show"
