"""The int4 decode prototype (bench/prototypes/int4_decode.cu) in turn with
compiled bundles and cuBLAS's bf16 GEMM at 16x8192x8192, in one process
(bench/interleave.py; $TILE_BENCH_FLUSH picks how the L2 is cleared).
Session 29 (bench/RESULTS.md). On the GPU machine:
  nvcc -O3 -arch=sm_90a -std=c++17 -shared -Xcompiler -fPIC -DPROTO_LIB \
      bench/prototypes/int4_decode.cu -o /tmp/libint4proto.so
  python3 bench/prototypes/int4_decode.py /tmp/libint4proto.so [BUNDLE...]
The prototype's variants run on random bytes (their results are checked
against each other here, and against a float64 reference by the
standalone binary); the bundles are checked by tile-run.
"""
import ctypes
import os
import sys

import torch

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(root, "bench"))
sys.path.insert(0, os.path.join(root, "python"))
from interleave import bundle_launch, interleaved_times, median, p10  # noqa: E402

VARIANTS = {0: "proto K256 2 ahead, atomics", 1: "proto K128 4 ahead, atomics",
            2: "proto K128 2 ahead, atomics", 3: "proto K256 2 ahead, partials",
            4: "proto K128 1 ahead, atomics"}


def main():
    lib = ctypes.CDLL(sys.argv[1])
    m, n, k = 16, 8192, 8192
    fns = {os.path.basename(p): bundle_launch(p) for p in sys.argv[2:]}
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    q = torch.randint(-128, 128, (n, k // 2), device="cuda", dtype=torch.int8)
    s = (torch.rand(k // 128, n, device="cuda") / 100).to(torch.bfloat16)
    y = torch.zeros(m, n, device="cuda", dtype=torch.float32)
    part = torch.zeros(4, m, n, device="cuda", dtype=torch.float32)
    counters = torch.zeros(n // 128, device="cuda", dtype=torch.int32)
    yb = torch.zeros(m, n, device="cuda", dtype=torch.bfloat16)
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    ptr = lambda t: ctypes.c_void_p(t.data_ptr())

    def variant(v):
        def launch():
            if lib.protoLaunch(v, ptr(x), ptr(q), ptr(s), ptr(y), n, k, stream,
                               ptr(part), ptr(counters), ptr(yb)) != 0:
                raise RuntimeError(f"variant {v} failed to launch")
        return launch

    # The variants against variant 0 (checked against float64 standalone).
    y.zero_(); variant(0)(); torch.cuda.synchronize(); want = y.clone()
    for v in (1, 2, 4):
        y.zero_(); variant(v)(); torch.cuda.synchronize()
        print(f"{VARIANTS[v]} against variant 0: rel {((y - want).norm() / want.norm()).item():.1e}")
    variant(3)(); torch.cuda.synchronize()
    print(f"{VARIANTS[3]} against variant 0: rel "
          f"{((yb.float() - want).norm() / want.norm()).item():.1e} (bf16 out), "
          f"counters back to zero: {bool((counters == 0).all())}")
    for v, name in VARIANTS.items():
        fns[name] = variant(v)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    fns["cublas bf16"] = lambda: x @ w.t()
    times = interleaved_times(fns, rounds=40)
    peer = median(times["cublas bf16"])
    flush = os.environ.get("TILE_BENCH_FLUSH", "zero")
    for name, t in times.items():
        print(f"{flush:5s} {name:34s} {median(t):7.2f} us  p10 {p10(t):7.2f}  "
              f"{median(t) / peer:.3f} of cuBLAS")


if __name__ == "__main__":
    main()
