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
        refs = {}
        tinygemm = int4_tinygemm(x, gen)
        if tinygemm:
            timed["torch_int4"], refs["torch_int4"] = tinygemm
        stem = f"quant_{shape}_"
        for path in sorted(glob.glob(os.path.join(bundles, stem + "*.tilebundle")) if bundles else []):
            fmt = os.path.basename(path)[len(stem):-len(".tilebundle")]
            timed[fmt] = bundle_launch(path)

        def rel_err(peer, out):
            ref = refs.get(peer)
            if ref is None:
                return None
            return ((out.float() - ref).norm() / ref.norm()).item()

        for row in check_and_time(shape, timed, rel_err, rounds=100).values():
            print(json.dumps(row), flush=True)


def int4_tinygemm(x, gen, group=128):
    """torch's int4 weight-only GEMM (tinygemm: _weight_int4pack_mm, bf16,
    group 128) on a random int4 weight of x's K and N = K, with its float32
    reference, or None where this torch has none. Codes u in 0..15 with
    scales s and zero 0 mean w = (u - 8) s (tinygemm's convention, checked
    by rel_err: a wrong guess shows as a large error, not a fast number)."""
    m, k = x.shape
    n = k
    try:
        u = torch.randint(0, 16, (n, k), device="cuda", generator=gen,
                          dtype=torch.int32)
        s = (torch.rand(k // group, n, device="cuda", generator=gen) * 0.02
             + 0.001).to(torch.bfloat16)
        packed_u8 = (u[:, ::2] << 4 | u[:, 1::2]).to(torch.uint8)
        packed = torch._convert_weight_to_int4pack(packed_u8, 8)
        scale_zero = torch.stack([s, torch.zeros_like(s)], dim=-1).contiguous()
        fn = lambda: torch._weight_int4pack_mm(x, packed, group, scale_zero)
        fn()
    except Exception as e:  # not in this torch, or another layout
        print(json.dumps({"peer": "torch_int4", "shape": f"{m}x{n}x{k}",
                          "error": str(e).splitlines()[0][:200]}), flush=True)
        return None
    wf = (u.float() - 8) * s.float().T.repeat_interleave(group, dim=1)
    return fn, x.float() @ wf.T


if __name__ == "__main__":
    main()
