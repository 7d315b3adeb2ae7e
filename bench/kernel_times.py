"""Each kernel of a launch, its GPU time and the gap before it, for cuBLAS
(through torch) and our GEMM bundles at the given shapes: where a short
launch's time goes (a split-K product and its reduction, the gap between
them). CUPTI's records through torch.profiler, 20 launches, each after an
L2 flush and a GPU spin so that the launch is queued before it starts.
Run on the GPU machine:
    PYTHONPATH=python python3 bench/kernel_times.py BUNDLE_DIR MxNxK...
with BUNDLE_DIR holding bench/compile-gemm.sh's gemm_<shape>_bf16.*.tilebundle.
"""
import glob
import os
import sys

import torch
from torch.autograd import DeviceType
from torch.profiler import ProfilerActivity, profile

from interleave import bundle_kernel

ROUNDS = 20
SPIN_CYCLES = 100000  # about 50 us at 2 GHz


def device_activity(prof):
    """(start ns, duration ns, name) of every kernel and memset, by start."""
    return sorted((e.start_ns(), e.duration_ns(), e.name())
                  for e in prof.profiler.kineto_results.events()
                  if e.device_type() == DeviceType.CUDA)


def launches(fn, flush):
    """The kernels of each of ROUNDS launches of `fn`, as lists of
    (start ns, duration ns, name): those after each spin, the flush's
    left out."""
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        flush.zero_()
        torch.cuda._sleep(SPIN_CYCLES)
        torch.cuda.synchronize()
    markers = {name for _, _, name in device_activity(prof)}
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(ROUNDS):
            flush.zero_()
            torch.cuda._sleep(SPIN_CYCLES)
            fn()
        torch.cuda.synchronize()
    groups = []
    for start, length, name in device_activity(prof):
        if name in markers:
            if not groups or groups[-1]:
                groups.append([])
            continue
        if groups:
            groups[-1].append((start, length, name))
    return [g for g in groups if g]


def main():
    flush = torch.empty(64 << 20, dtype=torch.float32, device="cuda")
    for shape in sys.argv[2:]:
        m, n, k = map(int, shape.split("x"))
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
        peers = {"cublas": lambda: torch.matmul(a, b)}
        stem = f"gemm_{shape}_bf16."
        for path in sorted(glob.glob(os.path.join(sys.argv[1], stem + "*.tilebundle"))):
            kernel = bundle_kernel(path)
            tag = os.path.basename(path)[len(stem):-len(".tilebundle")]
            peers["tile." + tag] = (lambda kernel: lambda: kernel(a, b))(kernel)
        for name, fn in peers.items():
            for _ in range(3):
                fn()
            torch.cuda.synchronize()
            groups = launches(fn, flush)
            spans = sorted((g[-1][0] + g[-1][1] - g[0][0]) / 1e3 for g in groups)
            print(f"{shape} {name}: span median {spans[len(spans) // 2]:.2f} us "
                  f"over {len(spans)} launches")
            for i in range(max(len(g) for g in groups)):
                rows = [(g[i][1] / 1e3, (g[i][0] - g[i - 1][0] - g[i - 1][1]) / 1e3 if i else 0.0)
                        for g in groups if len(g) > i]
                times = sorted(t for t, _ in rows)
                gaps = sorted(gap for _, gap in rows)
                label = next(g[i][2] for g in groups if len(g) > i)[:70]
                print(f"    kernel {i} {label}: {times[len(times) // 2]:.2f} us, "
                      f"gap before {gaps[len(gaps) // 2]:.2f}")


if __name__ == "__main__":
    main()
