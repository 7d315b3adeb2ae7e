#!/usr/bin/env python3
"""Launch overhead of a cached @tile.jit op, next to torch eager's.

    PYTHONPATH=python:test/python TILE_CACHE_DIR=.carry/tile-cache \\
        python3 python/tools/bench_launch.py

Times N calls of a tiny op (x + 1 on 64x64 f32: the GPU work is ~2 us, so
the loop measures the host side): once without synchronizing (the cost of
issuing a launch from Python: signature lookup, output allocation, pointer
packing, cuLaunchKernel), once with torch.cuda.synchronize() after every
call (issue + GPU round trip). The same for torch eager (x + 1).
"""

import argparse
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "build", "python"),
                os.path.join(ROOT, "test", "python")]

import torch  # noqa: E402

import kernels  # noqa: E402  (tiny: x + 1.0, in the AOT cache)


def per_call(fn, n, sync_each):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        fn()
        if sync_each:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / n * 1e6


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-n", type=int, default=10000)
    args = p.parse_args()
    x = torch.randn(64, 64, device="cuda")
    out = torch.empty_like(x)
    rows = [
        ("tile (allocates out)", lambda: kernels.tiny(x)),
        ("tile (out= given)", lambda: kernels.tiny(x, out=out)),
        ("torch eager x + 1", lambda: x + 1.0),
        ("torch eager add(out=)", lambda: torch.add(x, 1.0, out=out)),
    ]
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"{args.n} calls")
    print(f"| {'op':<24} | {'us/call, no sync':>16} | {'us/call, sync each':>18} |")
    print(f"|{'-' * 26}|{'-' * 18}|{'-' * 20}|")
    for name, fn in rows:
        print(f"| {name:<24} | {per_call(fn, args.n, False):>16.1f} | "
              f"{per_call(fn, args.n // 10, True):>18.1f} |")


if __name__ == "__main__":
    main()
