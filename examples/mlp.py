#!/usr/bin/env python3
"""A transformer MLP block written with the tile frontend, checked against
torch and timed against torch eager.

    y = x + (gelu(layernorm(x) @ W1 + b1) @ W2 + b2)      (bf16, f32 inside)

    python examples/mlp.py                    # GPU: check, time, print a table
    python examples/mlp.py --aot sm_90a       # no GPU needed: compile into the
                                              # cache ($TILE_CACHE_DIR) only

On a GPU machine without the compiler, point TILE_CACHE_DIR at a cache
filled ahead of time (python/tools/aot_fill.py) and the block launches
from it; TILE_LOG=1 shows the cache hits.
"""

import argparse
import os
import sys
import time

# The package from this checkout (and the compiler from its build, where
# there is one), unless tile is installed.
_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path[:0] = [os.path.join(_ROOT, "python"), os.path.join(_ROOT, "build", "python")]

import tile  # noqa: E402
import tile.language as tl  # noqa: E402

#: tokens x model width x hidden width (GPT-2 medium's MLP, 4096 tokens).
DEFAULT = dict(tokens=4096, dim=1024, hidden=4096)


@tile.jit
def mlp_block(x, gamma, beta, w1, b1, w2, b2):
    h = tl.layernorm(x, gamma, beta)            # bf16 out, statistics in f32
    h = tl.gelu(h @ w1 + b1, approximate="tanh").to(tl.bf16)  # GPT-2's GELU
    return (h @ w2 + b2 + x).to(tl.bf16)        # matmul + bias + residual


def signature(tokens, dim, hidden):
    bf16 = "bf16"
    return [(bf16, (tokens, dim)), (bf16, (dim,)), (bf16, (dim,)),
            (bf16, (dim, hidden)), (bf16, (hidden,)), (bf16, (hidden, dim)),
            (bf16, (dim,))]


def torch_mlp(x, gamma, beta, w1, b1, w2, b2):
    import torch.nn.functional as F

    h = F.layer_norm(x, (x.shape[-1],), gamma, beta, eps=1e-5)
    h = F.gelu(h @ w1 + b1, approximate="tanh")
    return h @ w2 + b2 + x


def reference(x, gamma, beta, w1, b1, w2, b2):
    """The frontend's math in f32 (bf16 rounding where it rounds)."""
    import torch.nn.functional as F

    f = lambda t: t.float()  # noqa: E731
    h = F.layer_norm(f(x), (x.shape[-1],), f(gamma), f(beta), eps=1e-5).bfloat16()
    h = F.gelu(f(h) @ f(w1) + f(b1), approximate="tanh").bfloat16()
    return f(h) @ f(w2) + f(b2) + f(x)


def time_ms(fn, repeats):
    import torch

    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    times.sort()
    return times[len(times) // 2]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tokens", type=int, default=DEFAULT["tokens"])
    p.add_argument("--dim", type=int, default=DEFAULT["dim"])
    p.add_argument("--hidden", type=int, default=DEFAULT["hidden"])
    p.add_argument("--aot", metavar="TARGET",
                   help="compile for TARGET (sm_90a, sm_80) into the cache and exit")
    p.add_argument("--repeats", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    sig = signature(args.tokens, args.dim, args.hidden)

    if args.aot:
        ck = tile.compile(mlp_block, sig, target=args.aot)
        print(ck.summary())
        print(f"cache: {ck.path}")
        return 0

    try:
        import torch
    except ImportError:
        sys.exit("examples/mlp.py: running needs torch and a CUDA GPU "
                 "(--aot TARGET only compiles)")
    if not torch.cuda.is_available():
        sys.exit("examples/mlp.py: no CUDA device (--aot TARGET only compiles)")

    torch.manual_seed(args.seed)
    t, d, hd = args.tokens, args.dim, args.hidden
    dev, bf = "cuda", torch.bfloat16
    x = torch.randn(t, d, device=dev, dtype=bf)
    gamma = (1 + 0.1 * torch.randn(d, device=dev)).to(bf)
    beta = (0.1 * torch.randn(d, device=dev)).to(bf)
    w1 = (torch.randn(d, hd, device=dev) / d ** 0.5).to(bf)
    b1 = (0.1 * torch.randn(hd, device=dev)).to(bf)
    w2 = (torch.randn(hd, d, device=dev) / hd ** 0.5).to(bf)
    b2 = (0.1 * torch.randn(d, device=dev)).to(bf)
    inputs = (x, gamma, beta, w1, b1, w2, b2)

    start = time.perf_counter()
    y = mlp_block(*inputs)
    torch.cuda.synchronize()
    first = time.perf_counter() - start
    stats = dict(tile.cache.stats)
    how = ("compiled" if stats["compiles"] else
           "loaded from the cache" if stats["disk_hits"] else "?")

    ref = reference(*inputs)
    err = ((y.double() - ref.double()).norm() / ref.double().norm()).item()
    eager = torch_mlp(*inputs)
    err_eager = ((eager.double() - ref.double()).norm() / ref.double().norm()).item()
    ok = err < 2e-2 and not torch.isnan(y).any().item()

    ms_tile = time_ms(lambda: mlp_block(*inputs), args.repeats)
    ms_eager = time_ms(lambda: torch_mlp(*inputs), args.repeats)
    flops = 2.0 * t * d * hd * 2
    ck = mlp_block.inspect(*inputs)  # the kernel the calls used (no new compile)

    print(f"MLP block: tokens={t} dim={d} hidden={hd} bf16, "
          f"{torch.cuda.get_device_name()}, target {ck.target}")
    print(f"first call: {first * 1e3:.1f} ms ({how}; {len(ck.launches)} kernels: "
          f"{', '.join(l['entry'] for l in ck.launches)})")
    print()
    print(f"| {'implementation':<14} | {'median ms':>9} | {'TFLOP/s':>7} | "
          f"{'rel err':>8} |")
    print(f"|{'-' * 16}|{'-' * 11}|{'-' * 9}|{'-' * 10}|")
    for name, ms, e in (("tile", ms_tile, err), ("torch eager", ms_eager, err_eager)):
        print(f"| {name:<14} | {ms:>9.3f} | {flops / ms / 1e9:>7.1f} | {e:>8.1e} |")
    print()
    print(f"tile / eager time: {ms_tile / ms_eager:.2f}x   check: "
          f"{'PASS' if ok else 'FAIL'} (||y - ref|| / ||ref|| = {err:.2e}, "
          "tolerance 2e-2)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
