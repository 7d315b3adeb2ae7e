"""cuBLAS (through torch), a Triton matmul and, given a folder of our bundles
(bench/compile-gemm.sh's gemm_<M>x<N>x<K>_<out>.<path>.tilebundle), our
kernels launched from them through tile.runtime, on the GEMM benchmark
shapes.

Each result is checked against a float32 reference on fresh random data,
then all of a shape's kernels are timed in one loop, launch by launch in
turn, L2 cleared before each (bench/interleave.py: the GPU lowers its clock
at its power cap under sustained load, and so all meet the same clocks).
Prints one JSON line per (peer, shape), with the median and the 10th
percentile of the launch times. Run on the GPU machine:
    python3 bench/gemm_peers.py SHAPES [bf16|f32] [BUNDLE_DIR]
"""
import glob
import json
import os
import sys

import torch
import triton
import triton.language as tl

from interleave import bundle_kernel, check_and_time


@triton.autotune(
    configs=[
        triton.Config({"BM": 128, "BN": 256, "BK": 64, "GM": 8}, num_stages=3, num_warps=8),
        triton.Config({"BM": 128, "BN": 128, "BK": 64, "GM": 8}, num_stages=4, num_warps=8),
        triton.Config({"BM": 256, "BN": 128, "BK": 64, "GM": 8}, num_stages=3, num_warps=8),
        triton.Config({"BM": 128, "BN": 128, "BK": 64, "GM": 8}, num_stages=4, num_warps=4),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  GM: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    group = pid // (GM * num_n)
    first_m = group * GM
    rows = min(num_m - first_m, GM)
    pid_m = first_m + (pid % (GM * num_n)) % rows
    pid_n = (pid % (GM * num_n)) // rows
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        k_left = K - k * BK
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * scm + offs_n[None, :] * scn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def triton_mm(a, b, out_dtype):
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=out_dtype)
    grid = lambda meta: (triton.cdiv(M, meta["BM"]) * triton.cdiv(N, meta["BN"]),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1),
                        b.stride(0), b.stride(1), c.stride(0), c.stride(1))
    return c


def rel_err(out, ref):
    out = out.double()
    ref = ref.double()
    if torch.isnan(out).any():
        return float("nan")
    return (torch.linalg.norm(out - ref) / torch.linalg.norm(ref)).item()


def main():
    shapes = []
    for line in open(sys.argv[1]):
        line = line.split("#")[0].split()
        if line:
            shapes.append(tuple(int(x) for x in line))
    out_name = sys.argv[2] if len(sys.argv) > 2 else "bf16"
    out_dtype = {"bf16": torch.bfloat16, "f32": torch.float32}[out_name]
    bundles = sys.argv[3] if len(sys.argv) > 3 else None
    torch.manual_seed(0)
    for (m, n, k) in shapes:
        a = torch.rand((m, k), device="cuda", dtype=torch.bfloat16) * 2 - 1
        b = torch.rand((k, n), device="cuda", dtype=torch.bfloat16) * 2 - 1
        ref = a.float() @ b.float()
        flops = 2.0 * m * n * k
        peers = {
            "cublas": lambda: torch.matmul(a, b).to(out_dtype) if out_dtype != torch.bfloat16 else torch.matmul(a, b),
            "triton": lambda: triton_mm(a, b, out_dtype),
        }
        # Ours: one peer per path (tile.<chip>[-<tag>], as bench/gemm.sh names them).
        stem = f"gemm_{m}x{n}x{k}_{out_name}."
        for path in sorted(glob.glob(os.path.join(bundles or "", stem + "*.tilebundle")) if bundles else []):
            kernel = bundle_kernel(path)
            tag = os.path.basename(path)[len(stem):-len(".tilebundle")]
            peers["tile." + tag] = (lambda kernel: lambda: kernel(a, b))(kernel)
        rows = check_and_time(f"{m}x{n}x{k}", peers,
                              lambda peer, out: rel_err(out, ref), rounds=100)
        for row in rows.values():
            if "time_us" in row:
                row["tflops"] = flops / (row["time_us"] * 1e-6) / 1e12
            # bench/gemm.sh's rel_err for ours is tile-run's (the bundle's
            # own reference); this one is against the float32 product.
            if row["peer"].startswith("tile.") and "rel_err" in row:
                row["rel_err_fp32"] = row.pop("rel_err")
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
