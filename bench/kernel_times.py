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

from interleave import bundle_kernel, profiled_launches

ROUNDS = 20
SPIN_CYCLES = 100000  # about 50 us at 2 GHz


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
            groups = profiled_launches([fn] * ROUNDS, flush, "zero", SPIN_CYCLES)
            spans = sorted((max(stop for _, stop, _ in g) - g[0][0]) / 1e3 for g in groups)
            print(f"{shape} {name}: span median {spans[len(spans) // 2]:.2f} us "
                  f"over {len(spans)} launches")
            for i in range(max(len(g) for g in groups)):
                rows = [((g[i][1] - g[i][0]) / 1e3, (g[i][0] - g[i - 1][1]) / 1e3 if i else 0.0)
                        for g in groups if len(g) > i]
                times = sorted(t for t, _ in rows)
                gaps = sorted(gap for _, gap in rows)
                label = next(g[i][2] for g in groups if len(g) > i)[:70]
                print(f"    kernel {i} {label}: {times[len(times) // 2]:.2f} us, "
                      f"gap before {gaps[len(gaps) // 2]:.2f}")


if __name__ == "__main__":
    main()
