"""cuBLAS's bf16 GEMM (torch) on the weight-only benchmark shapes, and ours.

For each 'M N K' of bench/quant_shapes.txt: x bf16 [M, K] times W^T with
W bf16 [N, K] (torch's Linear), bf16 out: the time a dequantized weight
would cost. Given a folder of our bundles (bench/compile-quant.sh's
quant_<shape>_<format>.tilebundle), ours run too, launched through
tile.runtime on random inputs (bench/quant.sh checks them with tile-run).
All of a shape's kernels are timed in one loop, launch by launch in turn,
L2 cleared before each (bench/interleave.py: the GPU lowers its clock at
its power cap under sustained load, and so all meet the same clocks).
Prints one JSON line per (peer, shape), with the median and the 10th
percentile of the launch times. Run on the GPU machine:
python3 bench/quant_peers.py bench/quant_shapes.txt [BUNDLE_DIR]
"""
import glob
import json
import os
import sys

import torch

from interleave import bundle_launch, check_and_time


def main():
    shapes = [tuple(map(int, l.split())) for l in open(sys.argv[1])
              if l.strip() and not l.startswith("#")]
    bundles = sys.argv[2] if len(sys.argv) > 2 else None
    for m, n, k in shapes:
        shape = f"{m}x{n}x{k}"
        gen = torch.Generator(device="cuda").manual_seed(m + n + k)
        x = torch.randn(m, k, device="cuda", generator=gen).to(torch.bfloat16)
        w = torch.randn(n, k, device="cuda", generator=gen).to(torch.bfloat16)
        timed = {"cublas_bf16": lambda: x @ w.T}
        stem = f"quant_{shape}_"
        for path in sorted(glob.glob(os.path.join(bundles, stem + "*.tilebundle")) if bundles else []):
            fmt = os.path.basename(path)[len(stem):-len(".tilebundle")]
            timed[fmt] = bundle_launch(path)
        for row in check_and_time(shape, timed, rounds=100).values():
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
