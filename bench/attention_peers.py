"""Peers on the attention benchmark shapes: torch SDPA with the cuDNN and
flash backends, a Triton FlashAttention forward kernel (written here:
online softmax over key blocks, exp2, causal blocks above the diagonal
skipped, autotuned over a few block shapes), and, given a folder of our
bundles (bench/compile-attention.sh's attn_<shape>.tilebundle), our kernel
launched from its bundle through tile.runtime (no compiler needed).

Each one is checked against a float32 reference on fresh random data (the
first head only, to keep the reference small). Then all of them are timed
in one loop, launch by launch in turn (bench/interleave.py: the GPU lowers
its clock at its power cap under sustained load, and so all meet the same
clocks), L2 cleared before each launch. Prints one
JSON line per (peer, shape): the median and the 10th percentile (nearest
the uncapped clock) of the launch times. Run on the GPU machine:
    python3 bench/attention_peers.py SHAPES_FILE [BUNDLE_DIR]
(SHAPES_FILE lines 'B H S D [causal] [kv=HKV]')
"""
import json
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
import triton
import triton.language as tl

from interleave import bundle_kernel, check_and_time


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
    bundles = sys.argv[2] if len(sys.argv) > 2 else None
    for b, h, s, d, causal, kv in shapes:
        name = shape_name(b, h, s, d, causal, kv)
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
        path = bundles and os.path.join(bundles, f"attn_{name}.tilebundle")
        if path and os.path.exists(path):
            kernel = bundle_kernel(path)
            peers["tile"] = lambda: kernel(q, k, v)
        first_head_err = lambda peer, out: (
            (out[:1, :1].float() - ref).norm() / ref.norm()).item()
        for row in check_and_time(name, peers, first_head_err).values():
            if "time_us" in row:
                row["tflops"] = flops(b, h, s, d, causal) / row["time_us"] / 1e6
            print(json.dumps(row), flush=True)


def sdpa(backend, q, k, v, causal):
    with sdpa_kernel([backend]):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                              enable_gqa=k.shape[1] != q.shape[1])


if __name__ == "__main__":
    main()
