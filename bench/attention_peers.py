"""torch SDPA (cuDNN and flash backends) on the attention benchmark shapes.

Each peer is checked against a float32 reference on fresh random data (the
first head only, to keep the reference small), then timed with
triton.testing.do_bench (median, L2 cleared between runs). Prints one JSON
line per (peer, shape). Run on the GPU machine:
    python3 bench/attention_peers.py B,H,S,D[,causal] ...
"""
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
import triton


def flops(b, h, s, d, causal):
    f = 4.0 * b * h * s * s * d
    return f / 2 if causal else f


def reference(q, k, v, causal):
    qf, kf, vf = (t[:1, :1].float() for t in (q, k, v))
    s = qf @ kf.transpose(-1, -2) / q.shape[-1] ** 0.5
    if causal:
        n = s.shape[-1]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    return torch.softmax(s, -1) @ vf


def main():
    torch.manual_seed(0)
    backends = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}
    for spec in sys.argv[1:]:
        parts = spec.split(",")
        b, h, s, d = map(int, parts[:4])
        causal = len(parts) > 4 and parts[4] == "causal"
        q, k, v = (torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
        ref = reference(q, k, v, causal)
        shape = spec
        for name, backend in backends.items():
            row = {"peer": name, "shape": shape}
            try:
                with sdpa_kernel([backend]):
                    fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                    out = fn()
                    err = ((out[:1, :1].float() - ref).norm() / ref.norm()).item()
                    ms = triton.testing.do_bench(fn, warmup=25, rep=100)
                row.update(rel_err=err, time_us=ms * 1e3, tflops=flops(b, h, s, d, causal) / ms / 1e9)
            except Exception as e:  # a backend that does not run this shape
                row.update(error=str(e).splitlines()[0][:120])
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
