"""torch eager and torch.compile (Triton) on the fused-kernel benchmark.

Same shapes and dtypes as bench/gen_fused.py; each peer is checked against a
float32 evaluation, then timed with triton.testing.do_bench (median). Also
measures the device-to-device copy bandwidth (read + write) in the same run.
Prints one JSON line per (peer, case).
"""
import json

import torch
import torch.nn.functional as F
import triton


def gelu_tanh(x):
    return F.gelu(x, approximate="tanh")


def cases():
    dev = "cuda"
    rnd = lambda *s: (torch.rand(*s, device=dev) * 2 - 1).to(torch.bfloat16)
    for (m, n) in [(8192, 8192), (4096, 50257)]:
        x = rnd(m, n)
        yield f"softmax_{m}x{n}", (lambda x=x: torch.softmax(x, dim=-1)), \
            (lambda x=x: torch.softmax(x.float(), dim=-1)), 2 * x.numel() * 2
    for (m, n) in [(8192, 8192), (16384, 5120)]:
        x, g, b = rnd(m, n), rnd(n), rnd(n)
        yield f"layernorm_{m}x{n}", (lambda x=x, g=g, b=b: F.layer_norm(x, (n,), g, b, 1e-5)), \
            (lambda x=x, g=g, b=b: F.layer_norm(x.float(), (n,), g.float(), b.float(), 1e-5)), \
            2 * x.numel() * 2 + 4 * n
        yield f"rmsnorm_{m}x{n}", (lambda x=x, g=g: F.rms_norm(x, (n,), g, 1e-5)), \
            (lambda x=x, g=g: F.rms_norm(x.float(), (n,), g.float(), 1e-5)), \
            2 * x.numel() * 2 + 2 * n
    x, bias, scale = rnd(8192, 8192), rnd(8192), rnd(8192, 1)
    yield "bias_add_8192x8192", (lambda: x + bias), (lambda: x.float() + bias.float()), \
        2 * x.numel() * 2 + 2 * 8192
    yield "row_scale_8192x8192", (lambda: scale * x), (lambda: scale.float() * x.float()), \
        2 * x.numel() * 2 + 2 * 8192
    a, bm, bias = rnd(4096, 4096), rnd(4096, 4096), rnd(4096)
    yield "gemm_4096x4096x4096", (lambda: a @ bm), (lambda: a.float() @ bm.float()), None
    yield "gemm_bias_gelu_4096x4096x4096", (lambda: gelu_tanh(a @ bm + bias)), \
        (lambda: gelu_tanh(a.float() @ bm.float() + bias.float())), None


def rel_err(out, ref):
    out, ref = out.double(), ref.double()
    return (torch.linalg.norm(out - ref) / torch.linalg.norm(ref)).item()


def main():
    torch.manual_seed(0)
    src = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    ms = triton.testing.do_bench(lambda: dst.copy_(src), return_mode="median")
    print(json.dumps({"peer": "copy", "case": "copy_1GiB", "gbps": 2 * src.numel() / (ms * 1e-3) / 1e9}),
          flush=True)
    del src, dst
    for name, fn, ref_fn, nbytes in cases():
        ref = ref_fn()
        for peer, f in [("eager", fn), ("compile", torch.compile(fn))]:
            out = f()
            torch.cuda.synchronize()
            err = rel_err(out, ref)
            ms = triton.testing.do_bench(f, warmup=25, rep=200, return_mode="median")
            rec = {"peer": peer, "case": name, "rel_err": err, "time_us": ms * 1e3}
            if nbytes:
                rec["gbps"] = nbytes / (ms * 1e-3) / 1e9
            else:
                rec["tflops"] = 2 * 4096 ** 3 / (ms * 1e-3) / 1e12
            print(json.dumps(rec), flush=True)


if __name__ == "__main__":
    main()
