"""Peers on the attention benchmark shapes: torch SDPA with the cuDNN and
flash backends, and a Triton FlashAttention forward kernel (written here:
online softmax over key blocks, exp2, causal blocks above the diagonal
skipped, autotuned over a few block shapes).

Each peer is checked against a float32 reference on fresh random data
(the first head only, to keep the reference small), then timed with
triton.testing.do_bench (median, L2 cleared between runs). Prints one JSON
line per (peer, shape). Run on the GPU machine:
    python3 bench/attention_peers.py SHAPES_FILE   (lines 'B H S D [causal] [kv=HKV]')
"""
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BM": 128, "BN": 64}, num_stages=2, num_warps=8),
        triton.Config({"BM": 128, "BN": 128}, num_stages=2, num_warps=8),
        triton.Config({"BM": 64, "BN": 64}, num_stages=3, num_warps=4),
        triton.Config({"BM": 128, "BN": 64}, num_stages=3, num_warps=4),
    ],
    key=["S", "D", "CAUSAL"],
)
@triton.jit
def attention_kernel(q, k, v, o, S, scale_log2, D: tl.constexpr, CAUSAL: tl.constexpr,
                     BM: tl.constexpr, BN: tl.constexpr):
    # One program: BM query rows of one (batch, head); tensors [BH, S, D].
    pm = tl.program_id(0)
    head = tl.program_id(1).to(tl.int64) * S * D
    rows = pm * BM + tl.arange(0, BM)
    dims = tl.arange(0, D)
    qt = tl.load(q + head + rows[:, None] * D + dims[None, :], mask=rows[:, None] < S, other=0.0)
    m_i = tl.full((BM,), float("-inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    end = S
    if CAUSAL:
        end = tl.minimum((pm + 1) * BM, S)
    for start in range(0, end, BN):
        keys = start + tl.arange(0, BN)
        kb = tl.load(k + head + keys[:, None] * D + dims[None, :], mask=keys[:, None] < S, other=0.0)
        s = tl.dot(qt, tl.trans(kb)) * scale_log2
        keep = keys[None, :] < S
        if CAUSAL:
            keep = keep & (keys[None, :] <= rows[:, None])
        s = tl.where(keep, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.math.exp2(s - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        vt = tl.load(v + head + keys[:, None] * D + dims[None, :], mask=keys[:, None] < S, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.bfloat16), vt)
        m_i = m_new
    out = acc / l_i[:, None]
    tl.store(o + head + rows[:, None] * D + dims[None, :], out.to(tl.bfloat16), mask=rows[:, None] < S)


def triton_attention(q, k, v, causal):
    b, h, s, d = q.shape
    o = torch.empty_like(q)
    grid = lambda meta: (triton.cdiv(s, meta["BM"]), b * h)
    attention_kernel[grid](q, k, v, o, s, 1.4426950408889634 / d ** 0.5, D=d, CAUSAL=causal)
    return o


def flops(b, h, s, d, causal):
    f = 4.0 * b * h * s * s * d
    return f / 2 if causal else f


def reference(q, k, v, causal):
    """The first query head's output; its K/V head is the first too."""
    qf, kf, vf = (t[:1, :1].float() for t in (q, k, v))
    s = qf @ kf.transpose(-1, -2) / q.shape[-1] ** 0.5
    if causal:
        n = s.shape[-1]
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool, device=s.device).triu(1), float("-inf"))
    return torch.softmax(s, -1) @ vf


def shape_name(b, h, s, d, causal, kv):
    return f"{b}x{h}x{s}x{d}" + (f"_kv{kv}" if kv != h else "") + \
        ("_causal" if causal else "")


def main():
    torch.manual_seed(0)
    shapes = []
    for line in open(sys.argv[1]):
        fields = line.split("#")[0].split()
        if fields:
            kv = next((int(f[3:]) for f in fields[4:] if f.startswith("kv=")),
                      int(fields[1]))
            shapes.append((*map(int, fields[:4]), "causal" in fields[4:], kv))
    for b, h, s, d, causal, kv in shapes:
        q = torch.randn(b, h, s, d, device="cuda", dtype=torch.bfloat16)
        k, v = (torch.randn(b, kv, s, d, device="cuda", dtype=torch.bfloat16)
                for _ in range(2))
        ref = reference(q, k, v, causal)
        peers = {
            "cudnn": lambda: sdpa(SDPBackend.CUDNN_ATTENTION, q, k, v, causal),
            "flash": lambda: sdpa(SDPBackend.FLASH_ATTENTION, q, k, v, causal),
        }
        if kv == h:  # the Triton kernel reads K/V at the query's head
            peers["triton"] = lambda: triton_attention(q, k, v, causal)
        for name, fn in peers.items():
            row = {"peer": name, "shape": shape_name(b, h, s, d, causal, kv)}
            try:
                out = fn()
                err = ((out[:1, :1].float() - ref).norm() / ref.norm()).item()
                ms = triton.testing.do_bench(fn, warmup=25, rep=100)
                row.update(rel_err=err, time_us=ms * 1e3, tflops=flops(b, h, s, d, causal) / ms / 1e9)
            except Exception as e:  # a backend that does not run this shape
                row.update(error=str(e).splitlines()[0][:120])
            print(json.dumps(row), flush=True)


def sdpa(backend, q, k, v, causal):
    with sdpa_kernel([backend]):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                              enable_gqa=k.shape[1] != q.shape[1])


if __name__ == "__main__":
    main()
