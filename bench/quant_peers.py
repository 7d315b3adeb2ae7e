"""cuBLAS's bf16 GEMM (torch) on the weight-only benchmark shapes.

For each 'M N K' of bench/quant_shapes.txt: x bf16 [M, K] times W^T with
W bf16 [N, K] (torch's Linear), bf16 out: the time a dequantized weight
would cost. Timed with triton.testing.do_bench (median, L2 cleared).
Prints one JSON line per shape. Run on the GPU machine:
python3 bench/quant_peers.py bench/quant_shapes.txt
"""
import json
import sys

import torch
import triton


def main():
    shapes = [tuple(map(int, l.split())) for l in open(sys.argv[1])
              if l.strip() and not l.startswith("#")]
    for m, n, k in shapes:
        gen = torch.Generator(device="cuda").manual_seed(m + n + k)
        x = torch.randn(m, k, device="cuda", generator=gen).to(torch.bfloat16)
        w = torch.randn(n, k, device="cuda", generator=gen).to(torch.bfloat16)
        f = lambda: x @ w.T
        t = triton.testing.do_bench(f, warmup=25, rep=200) * 1e3
        print(json.dumps({"peer": "cublas_bf16", "shape": f"{m}x{n}x{k}", "time_us": t}))


if __name__ == "__main__":
    main()
