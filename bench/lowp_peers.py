"""torch._scaled_mm (cuBLAS's FP8 GEMM) on the FP8 benchmark shapes.

For each 'M N K' of bench/lowp_shapes.txt: e4m3 A [M, K] and W [N, K]
(B = W^T, column-major, as _scaled_mm requires), bf16 out, with per-tensor
scales, with row-wise scales (scale_a [M, 1], scale_b [1, N]: what ours
computes) and with 1x128 / 128x128 block scales (where this torch and
cuBLAS have the blockwise recipes; an error row where not). Each is
checked against a float32 reference on the same fp8 values (dequantized
for the block scales). Given a folder of our bundles (bench/compile-lowp.sh's
lowp_<shape>[_rowwise|_blocks].tilebundle), ours run too, launched through
tile.runtime on random inputs (bench/lowp.sh checks them with tile-run).
All of a shape's kernels are timed in one loop, launch by launch in turn,
L2 cleared before each (bench/interleave.py: the GPU lowers its clock at its
power cap under sustained load, and so all meet the same clocks).
Prints one JSON line per (peer, shape), with the median and the 10th
percentile of the launch times. Run on the GPU machine:
python3 bench/lowp_peers.py bench/lowp_shapes.txt [BUNDLE_DIR]
"""
import json
import os
import sys

import torch

from interleave import bundle_launch, check_and_time


def main():
    shapes = [tuple(map(int, l.split())) for l in open(sys.argv[1])
              if l.strip() and not l.startswith("#")]
    for m, n, k in shapes:
        gen = torch.Generator(device="cuda").manual_seed(m + n + k)
        a = (torch.randn(m, k, device="cuda", generator=gen)).to(torch.float8_e4m3fn)
        w = (torch.randn(n, k, device="cuda", generator=gen)).to(torch.float8_e4m3fn)
        ref = a.float() @ w.float().T
        # use_fast_accum=True: cuBLAS accumulates in the tensor cores'
        # fp8 accumulator over all of K, as our kernel does (ours has no
        # promotion to f32 yet); False (the default) promotes, which is
        # more precise and slower.
        tensor_scales = (torch.tensor(0.5, device="cuda"), torch.tensor(2.0, device="cuda"))
        row_scales = (torch.rand(m, 1, device="cuda", generator=gen) + 0.5,
                      torch.rand(1, n, device="cuda", generator=gen) + 0.5)
        # DeepSeek-V3's blocks in _scaled_mm's blockwise layouts: scale_a
        # [M, K/128] M-major (1x128), scale_b = sw^T for sw [N/128, K/128]
        # (128x128 blocks of W); the reference dequantizes.
        kb, nb = -(-k // 128), -(-n // 128)
        sat = torch.rand(kb, m, device="cuda", generator=gen) + 0.5
        sw = torch.rand(nb, kb, device="cuda", generator=gen) + 0.5
        block_scales = (sat.T, sw.T)
        a_scale = sat.T.repeat_interleave(128, 1)[:, :k]
        w_scale = sw.repeat_interleave(128, 0).repeat_interleave(128, 1)[:n, :k]
        block_ref = (a.float() * a_scale) @ (w.float() * w_scale).T
        shape = f"{m}x{n}x{k}"
        scales = {"scaled_mm_tensor": (tensor_scales, False),
                  "scaled_mm_rowwise": (row_scales, False),
                  "scaled_mm_tensor_fast": (tensor_scales, True),
                  "scaled_mm_rowwise_fast": (row_scales, True),
                  "scaled_mm_blocks": (block_scales, False)}
        peers = {peer: (lambda sa, sb, fast: lambda: torch._scaled_mm(
            a, w.T, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
            use_fast_accum=fast))(sa, sb, fast)
            for peer, ((sa, sb), fast) in scales.items()}

        def scaled_err(peer, out):
            if peer.startswith("tile"):  # bench/lowp.sh checks ours with tile-run
                return None
            (sa, sb), _ = scales[peer]
            want = block_ref if peer == "scaled_mm_blocks" else ref * sa * sb
            return float((out.float() - want).norm() / want.norm())
        if len(sys.argv) > 2:  # ours, as bench/lowp.sh names them
            for variant in ("", "_rowwise", "_blocks"):
                path = os.path.join(sys.argv[2], f"lowp_{shape}{variant}.tilebundle")
                if os.path.exists(path):
                    peers["tile" + variant] = bundle_launch(path)
        for row in check_and_time(shape, peers, scaled_err, rounds=50).values():
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
