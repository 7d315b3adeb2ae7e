"""Decode-shaped linear layers from Python: y = x @ w.mT with one token
(x [1, K]) against torch's Linear weight w [N, K], bf16, on the Llama-3
8B / 70B projection shapes of bench/llama_shapes.txt (its M = 1 rows).
Ours is the frontend's matrix-vector product (one row-group kernel that
reads w once); the peer is torch (cuBLAS) on the same tensors. Both are
checked against float32 and timed with triton.testing.do_bench (median,
L2 cleared), in one run.

  python3 bench/decode.py compile --cache-dir DIR     # here (compiler)
  TILE_CACHE_DIR=DIR python3 bench/decode.py run       # on the GPU machine
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))

import tile  # noqa: E402
import tile.language as tl  # noqa: E402


@tile.jit
def decode_linear(x, w):
    return (x @ w.mT).to(tl.bf16)


def shapes():
    path = os.path.join(os.path.dirname(__file__), "llama_shapes.txt")
    out = []
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            m, n, k = map(int, line.split())
            if m == 1:
                out.append((n, k))
    return out


def compile_all(target):
    for n, k in shapes():
        ck = decode_linear.compile([("bf16", (1, k)), ("bf16", (n, k))],
                                   target=target)
        print(f"{n}x{k}: {len(ck.bundle.main_launches)} kernel(s)", flush=True)


def run():
    import torch
    import triton

    print(f"{'N x K':<14}{'tile us':>9}{'torch us':>10}{'tile/torch':>11}"
          f"{'tile GB/s':>11}{'rel_err':>10}")
    for n, k in shapes():
        x = torch.randn(1, k, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16) / k ** 0.5
        ref = x.float() @ w.float().T
        out = decode_linear(x, w)
        err = ((out.float() - ref).norm() / ref.norm()).item()
        peer_err = ((torch.nn.functional.linear(x, w).float() - ref).norm()
                    / ref.norm()).item()
        ours = triton.testing.do_bench(lambda: decode_linear(x, w), warmup=25,
                                       rep=200) * 1e3
        peer = triton.testing.do_bench(
            lambda: torch.nn.functional.linear(x, w), warmup=25, rep=200) * 1e3
        gbps = 2.0 * n * k / ours / 1e3
        print(f"{n}x{k:<9}{ours:>9.1f}{peer:>10.1f}{peer / ours:>11.3f}"
              f"{gbps:>11.0f}{err:>10.1e}", flush=True)
        print(json.dumps({"shape": f"1x{n}x{k}", "tile_us": ours,
                          "torch_us": peer, "rel_err": err,
                          "torch_rel_err": peer_err}), file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["compile", "run"])
    p.add_argument("--cache-dir", help="the cache to fill (compile)")
    p.add_argument("--target", default="sm_90a")
    a = p.parse_args()
    if a.what == "compile":
        if a.cache_dir:
            os.environ["TILE_CACHE_DIR"] = a.cache_dir
        compile_all(a.target)
    else:
        run()


if __name__ == "__main__":
    main()
