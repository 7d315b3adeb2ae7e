"""Launches on a GPU, checked against torch (skipped without a CUDA device
or torch). Shapes are ragged on purpose: no dimension fills the tiles."""

import textwrap
import time

import pytest

import tile

import kernels
from conftest import run_python

# No `compiler` mark: without the compiler these launch from the cache that
# python/tools/aot_fill.py --tests filled (kernels.GPU_SHAPES).
pytestmark = pytest.mark.gpu

torch = pytest.importorskip("torch")
F = torch.nn.functional


def rel_err(out, ref):
    out, ref = out.double(), ref.double()
    assert not torch.isnan(out).any(), "NaN in the output"
    return ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def assert_reads_back(kernel, qw, s, w, rows, upto):
    """x of `rows` one-hot rows at K positions start .. start + rows - 1,
    for starts 0, rows, ... below `upto`: each product is one column of the
    dequantized weight w (rounded to bf16), exactly."""
    k = w.shape[1]
    index = torch.arange(rows, device="cuda")
    wb = w.to(torch.bfloat16)
    for start in range(0, upto, rows):
        x = torch.zeros(rows, k, dtype=torch.bfloat16, device="cuda")
        x[index, start + index] = 1
        assert torch.equal(kernel(x, qw, s), wb[:, start:start + rows].T), start


def rand(*shape, dtype=torch.float32):
    return torch.randn(*shape, device="cuda", dtype=dtype)


def mlp_arguments():
    """The MLP block's inputs (kernels.GPU_SHAPES["mlp"]), scaled as a
    layer's would be."""
    d, h, t = 128, 512, 256
    x = rand(t, d, dtype=torch.bfloat16)
    w1 = rand(d, h, dtype=torch.bfloat16) / d ** 0.5
    w2 = rand(h, d, dtype=torch.bfloat16) / h ** 0.5
    b1, b2 = rand(h, dtype=torch.bfloat16), rand(d, dtype=torch.bfloat16)
    g, be = rand(d, dtype=torch.bfloat16), rand(d, dtype=torch.bfloat16)
    return [x, w1, b1, w2, b2, g, be]


def test_elementwise_chain_f32():
    x, y = rand(257, 129), rand(257, 129)
    out = kernels.chain(x, y)
    r = F.silu(x) * y
    r = torch.exp(-r) + x
    r = torch.maximum(r, y) / 3.0
    ref = torch.sqrt(r.abs()) - y
    torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-4)


def test_f16_to_bf16_matches_torch_bitwise():
    """f16 -> bf16 goes through f32 (exact) and rounds once: torch's."""
    x = rand(100, 300).half() * 1000
    out = kernels.f16_to_bf16(x)
    assert out.dtype == torch.bfloat16
    assert torch.equal(out, x.to(torch.bfloat16))


def test_scale_add_broadcast():
    x, b = rand(1000, 300), rand(300)
    torch.testing.assert_close(kernels.scale_add(x, b), x * 2.0 + b)


def test_broadcasts_fused_ragged():
    # One kernel each (the broadcast read inside it), on ragged shapes.
    x, b = rand(1000, 3001), rand(3001)
    torch.testing.assert_close(kernels.bias_add(x, b), x + b)
    s = rand(1000, 1)
    torch.testing.assert_close(kernels.row_scale(s, x), s * x)
    xb, bb, sb = (rand(257, 4096, dtype=torch.bfloat16),
                  rand(4096, dtype=torch.bfloat16), rand(257, 1, dtype=torch.bfloat16))
    out = kernels.bias_add(xb, bb)
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out, xb + bb)
    torch.testing.assert_close(kernels.row_scale(sb, xb), sb * xb)


def test_softmax_f32_and_bf16():
    x = rand(333, 1025)
    torch.testing.assert_close(kernels.softmax(x), torch.softmax(x, -1),
                               rtol=2e-5, atol=1e-6)
    xb = rand(100, 4097, dtype=torch.bfloat16)
    out = kernels.softmax(xb)
    assert out.dtype == torch.bfloat16
    assert rel_err(out, torch.softmax(xb.float(), -1)) < 1e-2


def test_layernorm_and_rmsnorm():
    x, g, b = rand(257, 768, dtype=torch.bfloat16), rand(768), rand(768)
    out = kernels.layernorm(x, g, b)
    ref = F.layer_norm(x.float(), (768,), g, b, eps=1e-5)
    assert out.dtype == torch.bfloat16 and rel_err(out, ref) < 1e-2
    x, g = rand(65, 1000), rand(1000)
    out = kernels.rmsnorm(x, g)
    ref = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * g
    torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-5)


def test_reductions_and_column_broadcast():
    x = rand(40, 50, dtype=torch.bfloat16)
    s, m, c = kernels.row_stats(x)
    xf = x.float()
    torch.testing.assert_close(s, xf.sum(-1), rtol=1e-4, atol=1e-4)
    torch.testing.assert_close(m, xf.max(-1).values)
    torch.testing.assert_close(c, xf.mean(0), rtol=1e-5, atol=1e-5)
    x, sc = rand(64, 48), rand(64, 1).abs() + 0.5
    torch.testing.assert_close(kernels.col_broadcast(x, sc), x / sc)


@pytest.mark.parametrize("m,k,n", [(256, 128, 512), (257, 320, 129)])
def test_matmul_bias_gelu_bf16(m, k, n):
    x = rand(m, k, dtype=torch.bfloat16)
    w = rand(k, n, dtype=torch.bfloat16) / k ** 0.5
    b = rand(n, dtype=torch.bfloat16)
    out = kernels.bias_gelu(x, w, b)
    ref = F.gelu(x.float() @ w.float() + b.float())        # erf, torch's default
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    assert rel_err(out, ref) < 1e-2
    if (m, k, n) == (257, 320, 129):
        tanh = kernels.bias_gelu_tanh(x, w, b)
        ref = F.gelu(x.float() @ w.float() + b.float(), approximate="tanh")
        assert rel_err(tanh, ref) < 1e-2


@pytest.mark.parametrize("k,n", [(4096, 1030), (60001, 300)])
def test_decode_matrix_vector(k, n):
    # M = 1: a matrix-vector product (a row group), against float32.
    x = rand(1, k, dtype=torch.bfloat16)
    w = rand(n, k, dtype=torch.bfloat16) / k ** 0.5
    out = kernels.decode_linear(x, w)
    assert out.shape == (1, n) and out.dtype == torch.bfloat16
    assert rel_err(out, x.float() @ w.float().T) < 1e-2
    if k == 4096:
        xf, wf = rand(1, 1000), rand(1000, 257)
        out = kernels.decode_matmul(xf, wf)
        assert out.shape == (1, 257)
        assert rel_err(out, xf @ wf) < 1e-5
        a, v = rand(257, 1000), rand(1000, 1)
        out = kernels.matrix_times_column(a, v)
        assert out.shape == (257, 1)
        assert rel_err(out, a @ v) < 1e-5


@pytest.mark.parametrize("w_dtype,rowwise", [("float8_e4m3fn", False),
                                              ("float8_e5m2", True)])
def test_scaled_matmul_fp8(w_dtype, rowwise):
    # tl.scaled_matmul against the float32 product of the same fp8 values,
    # and against torch._scaled_mm (same inputs, same scales) where it runs.
    m, k, n = 300, 544, 1040
    x = rand(m, k).to(torch.float8_e4m3fn)
    w = rand(n, k).to(getattr(torch, w_dtype))
    if rowwise:
        sa, sb = rand(m, 1).abs() + 0.5, rand(1, n).abs() + 0.5
    else:
        sa, sb = torch.tensor([0.5], device="cuda"), torch.tensor([2.0], device="cuda")
    out = kernels.fp8_linear(x, w, sa, sb)
    ref = (x.float() @ w.float().T) * sa * sb
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    assert rel_err(out, ref) < 1e-2
    if not rowwise:
        peer = torch._scaled_mm(x, w.T, scale_a=sa.reshape(()),
                                scale_b=sb.reshape(()), out_dtype=torch.bfloat16)
        assert rel_err(out, peer.float()) < 1e-2


@pytest.mark.parametrize("m,k,n", [(1000, 544, 1040), (16, 4096, 1000),
                                   (300, 1024, 640)])
def test_scaled_matmul_block_scales(m, k, n):
    # DeepSeek-V3's block scales in torch._scaled_mm's layouts (scale_a
    # M-major 1x128, scale_b = sw^T for 128x128 blocks of w) against the
    # float32 product of the dequantized fp8 values; against _scaled_mm's
    # blockwise recipe too where this torch runs it and K and N are whole
    # blocks (on the H200, torch 2.11's blockwise _scaled_mm gave wrong
    # columns in a partial last block of N at 1000x544x1040, unlike the
    # float32 product and ours; session 14).
    kb, nb = -(-k // 128), -(-n // 128)
    x = rand(m, k).to(torch.float8_e4m3fn)
    w = rand(n, k).to(torch.float8_e4m3fn)
    sat = torch.rand(kb, m, device="cuda") + 0.5
    sw = torch.rand(nb, kb, device="cuda") + 0.5
    out = kernels.fp8_linear_blocks(x, w, sat, sw)
    xs = x.float() * sat.T.repeat_interleave(128, 1)[:, :k]
    ws = w.float() * sw.repeat_interleave(128, 0).repeat_interleave(128, 1)[:n, :k]
    ref = xs @ ws.T
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    assert rel_err(out, ref) < 1e-2
    if k % 128 or n % 128:
        return
    try:
        peer = torch._scaled_mm(x, w.T, scale_a=sat.T, scale_b=sw.T,
                                out_dtype=torch.bfloat16)
    except RuntimeError:
        return  # no blockwise recipe here: the float32 check above stands
    assert rel_err(out, peer.float()) < 1e-2


@pytest.mark.parametrize("m,k,n", [(7, 768, 1000), (16, 4096, 1024)])
def test_quantized_matmul_int4(m, k, n):
    # tile.quant.pack_int4's layout through tl.quantized_matmul, against the
    # float32 product with the dequantized weight (rounded to bf16, as the
    # kernel's map rounds it).
    x = rand(m, k, dtype=torch.bfloat16)
    qw, s = tile.quant.pack_int4(rand(n, k), group_size=128)
    assert qw.dtype == torch.int8 and qw.shape == (n, k // 2)
    assert s.shape == (k // 128, n)
    out = kernels.int4_linear(x, qw, s)
    w = tile.quant.dequantize(qw, s, group_size=128, format="int4")
    ref = x.float() @ w.to(torch.bfloat16).float().T
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    assert rel_err(out, ref) < 1e-2


@pytest.mark.parametrize("m,k,n", [(5, 1024, 520), (16, 4096, 1000), (40, 768, 264)])
def test_quantized_matmul_int4_mma_layout(m, k, n):
    # pack_int4(layout="mma"): the bytes reordered for the tensor cores
    # (AWQ's nibble order, K in mma.sync's fragment runs). Against the
    # float32 product with the weight dequantized from the "rows" packing of
    # the same weight (the two layouts hold the same values: the reorder is
    # checked on the host too), bf16 scales; M = 40 puts two warps along M.
    w0 = rand(n, k)
    qw_rows, s = tile.quant.pack_int4(w0, group_size=128)
    qw, s_mma = tile.quant.pack_int4(w0, group_size=128, layout="mma")
    assert torch.equal(s, s_mma) and qw.shape == qw_rows.shape
    assert torch.equal(tile.quant.to_mma_layout(qw_rows), qw)
    s = s.to(torch.bfloat16)
    w = tile.quant.dequantize(qw_rows, s, group_size=128, format="int4")
    assert torch.equal(w, tile.quant.dequantize(qw, s, group_size=128,
                                                format="int4", layout="mma"))
    x = rand(m, k, dtype=torch.bfloat16)
    out = kernels.int4_linear_mma(x, qw, s)
    ref = x.float() @ w.to(torch.bfloat16).float().T
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    assert rel_err(out, ref) < 1e-2
    # One-hot rows read the weight back exactly (each K position once).
    assert_reads_back(kernels.int4_linear_mma, qw, s, w, rows=16, upto=256)


@pytest.mark.parametrize("fmt", ["int4", "int8"])
def test_quantized_matmul_bf16_scales_exact(fmt):
    # With bf16 scales the kernel dequantizes in bf16 pairs
    # (tile-packed-dequant), which must give the values of the f32 math
    # rounded once, bit for bit. x's rows are one-hot, so each output row
    # is one column of the dequantized weight (f32 sums of one product and
    # zeros, exact), for every K position of two groups; M = 16 takes the
    # register path of decode shapes. The weight and scales are random.
    m, k, n = 16, 256, 72
    pack = tile.quant.pack_int4 if fmt == "int4" else tile.quant.pack_int8
    qw, s = pack(rand(n, k), group_size=128)
    s = s.to(torch.bfloat16)  # as a bf16 model's GPTQ / AWQ checkpoint
    w = tile.quant.dequantize(qw, s, group_size=128, format=fmt)
    w = w.to(torch.bfloat16)
    linear = kernels.int4_linear if fmt == "int4" else kernels.int8_linear
    rows = torch.arange(m, device="cuda")
    for start in range(0, k, m):
        x = torch.zeros(m, k, dtype=torch.bfloat16, device="cuda")
        x[rows, start + rows] = 1
        out = linear(x, qw, s)
        assert torch.equal(out, w[:, start:start + m].T), start
    # And random activations against the float32 product.
    x = rand(m, k, dtype=torch.bfloat16)
    ref = x.float() @ w.float().T
    assert rel_err(linear(x, qw, s), ref) < 1e-2


def test_quantized_matmul_int8_zeros():
    m, k, n = 33, 4160, 520
    x = rand(m, k, dtype=torch.bfloat16)
    qw, s = tile.quant.pack_int8(rand(n, k), group_size=64)
    z = torch.randint(-3, 4, s.shape, device="cuda").float()
    out = kernels.int8_linear_zeros(x, qw, s, z)
    w = tile.quant.dequantize(qw, s, z, group_size=64, format="int8")
    ref = x.float() @ w.to(torch.bfloat16).float().T
    assert rel_err(out, ref) < 1e-2


def test_quantized_matmul_mxfp4():
    m, k, n = 16, 1024, 264
    x = rand(m, k, dtype=torch.bfloat16)
    w0 = rand(n, k)
    qw, s = tile.quant.pack_mxfp4(w0)
    assert qw.shape == (n, k // 2) and s.shape == (n, k // 32)
    w = tile.quant.dequantize(qw, s, format="mxfp4")
    # The packing is a quantization of w0: within e2m1's step of it.
    assert rel_err(w, w0) < 0.2
    out = kernels.mxfp4_linear(x, qw, s)
    ref = x.float() @ w.to(torch.bfloat16).float().T
    assert rel_err(out, ref) < 1e-2
    # The bytes as torch holds MX weights: uint8 codes, float8_e8m0fnu
    # scales (a compile of their own, the same kernel), and dequantize
    # reading them.
    qu, se = qw.view(torch.uint8), s.view(torch.float8_e8m0fnu)
    assert torch.equal(tile.quant.dequantize(qu, se, format="mxfp4"), w)
    assert torch.equal(kernels.mxfp4_linear(x, qu, se), out)


@pytest.mark.parametrize("m,k,n", [(13, 1024, 264), (16, 4096, 1000)])
def test_quantized_matmul_mxfp4_mma_layout(m, k, n):
    # pack_mxfp4(layout="mma"): each block of 32 along K (one scale group)
    # in mma.sync's fragment runs of 8, bit by bit in each word. The same codes
    # and scales as the "rows" packing (checked on the host), against the
    # float32 product with the dequantized weight; one-hot rows read the
    # first 64 K positions back exactly (two blocks of 32: the order
    # repeats every block).
    w0 = rand(n, k)
    qw_rows, s = tile.quant.pack_mxfp4(w0)
    qw, s_mma = tile.quant.pack_mxfp4(w0, layout="mma")
    assert torch.equal(s, s_mma) and qw.shape == qw_rows.shape
    assert torch.equal(tile.quant.to_mma_layout(qw_rows, format="mxfp4"), qw)
    w = tile.quant.dequantize(qw_rows, s, format="mxfp4")
    assert torch.equal(w, tile.quant.dequantize(qw, s, format="mxfp4",
                                                layout="mma"))
    x = rand(m, k, dtype=torch.bfloat16)
    out = kernels.mxfp4_linear_mma(x, qw, s)
    ref = x.float() @ w.to(torch.bfloat16).float().T
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    assert rel_err(out, ref) < 1e-2
    if m == 13:
        assert_reads_back(kernels.mxfp4_linear_mma, qw, s, w, rows=13, upto=64)


def test_quantized_matmul_mxfp4_spec_scales():
    # OCP e8m0 at its ends: byte 0 is 2^-127 (a bf16 subnormal factor, not
    # 0) and 255 is NaN (a whole block of 32). One-hot rows of x read the
    # dequantized weight back exactly; the NaN block's row is NaN in every
    # product (0 * NaN), as in torch's float32 product. Bytes 200 (2^73)
    # and 129 (2^2): large scales, read back exactly too.
    # (kernels.GPU_SHAPES' signatures: 16 rows for "rows", 13 for "mma".)
    n, k = 264, 1024
    w0 = rand(n, k)
    for layout, kernel, rows in (("rows", kernels.mxfp4_linear, 16),
                                 ("mma", kernels.mxfp4_linear_mma, 13)):
        index = torch.arange(rows, device="cuda")
        qw, s = tile.quant.pack_mxfp4(w0, layout=layout)
        s = s.clone()
        s.view(torch.uint8)[0, 0] = 0
        s.view(torch.uint8)[1, 1] = 255
        s.view(torch.uint8)[2, 1] = 200
        s.view(torch.uint8)[100, 0] = 129
        w = tile.quant.dequantize(qw, s, format="mxfp4", layout=layout)
        assert w[1, 32:64].isnan().all() and not w[1, :32].isnan().any()
        big = w[2, 32:64]
        assert big.isfinite().all() and big.abs().max() > 2.0 ** 70
        tiny = w[0, :32]
        assert (tiny != 0).any() and tiny.abs().max() <= 6 * 2.0 ** -127
        wb = w.to(torch.bfloat16)
        assert torch.equal(wb[0, :32].float(), tiny)  # bf16 subnormals
        for start in (0, rows, 32):
            x = torch.zeros(rows, k, dtype=torch.bfloat16, device="cuda")
            x[index, start + index] = 1
            expected = wb[:, start:start + rows].T.clone()
            expected[:, 1] = float("nan")
            torch.testing.assert_close(kernel(x, qw, s), expected, rtol=0,
                                       atol=0, equal_nan=True,
                                       msg=f"{layout} {start}")


def test_torch_math_and_defaults():
    # F.gelu (both forms), erf, log1p, expm1, sin, cos, where, comparisons
    # and F.rms_norm's default eps, against torch on the same inputs.
    for dtype, shape in [(torch.float32, (257, 1000)), (torch.bfloat16, (64, 300))]:
        x, y = rand(*shape, dtype=dtype), rand(*shape, dtype=dtype)
        y[0, :7] = 0.5           # the == branch of the mask
        y[1, :5] = x[1, :5]      # and the != one
        g, m, c, r, p = kernels.torch_math(x, y)
        xf, yf = x.float(), y.float()
        ref_g = F.gelu(xf) + F.gelu(yf, approximate="tanh")
        ref_m = torch.where((xf > 0) & ~(yf == 0.5), torch.log1p(xf.abs()),
                            torch.expm1(yf * 0.5))
        ref_c = (xf <= yf).float() * torch.sin(xf) + torch.cos(yf) + torch.erf(xf)
        ref_r = F.rms_norm(x, (shape[1],))   # eps=None: finfo(dtype).eps
        ref_p = torch.where(xf != yf, xf ** 3, 0.0)
        # c mixes a float32 mask with `dtype` tensors: float32, as in torch.
        ref_c = ref_c.to(torch.float32)
        outs = [(g, ref_g.to(dtype)), (m, ref_m.to(dtype)), (c, ref_c),
                (r, ref_r), (p, ref_p.to(dtype))]
        for out, ref in outs:
            assert out.dtype == ref.dtype and out.shape == shape
            tol = dict(rtol=2e-5, atol=2e-5) if dtype == torch.float32 else \
                dict(rtol=1.6e-2, atol=1e-2)
            torch.testing.assert_close(out, ref, **tol)


def test_mlp_block():
    x, w1, b1, w2, b2, g, be = mlp_arguments()
    d = x.shape[1]
    out = kernels.mlp(x, w1, b1, w2, b2, g, be)
    hh = F.layer_norm(x.float(), (d,), g.float(), be.float()).bfloat16()
    hh = F.gelu(hh.float() @ w1.float() + b1.float()).bfloat16()
    ref = hh.float() @ w2.float() + b2.float() + x.float()
    assert rel_err(out, ref) < 2e-2


def test_outputs_given_and_streams():
    x, b = rand(1000, 300), rand(300)
    out = torch.empty_like(x)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())  # x and b are ready
    with torch.cuda.stream(s):
        r = kernels.scale_add(x, b, out=out)
    s.synchronize()
    assert r is out
    torch.testing.assert_close(out, x * 2.0 + b)


@pytest.mark.parametrize("name,shape,causal", [
    ("sdpa", (2, 4, 1000, 64), False), ("sdpa", (1, 2, 512, 128), False),
    ("sdpa_causal", (2, 3, 1000, 64), True),
    ("sdpa_causal", (4, 40, 256, 128), True),       # 160 heads: more than SMs
    ("sdpa_causal", (1, 3, 600, 256), True),        # D = 256: 64 keys a step
    ("attention_written_out", (2, 4, 384, 64), False)])
def test_attention_against_float32(name, shape, causal):
    """tl.scaled_dot_product_attention (and the same math written out) is
    one FlashAttention kernel; checked against torch's SDPA in float32 on
    the same bf16 inputs (ragged S, causal, more and fewer heads than SMs)."""
    q, k, v = (rand(*shape).to(torch.bfloat16) for _ in range(3))
    out = getattr(kernels, name)(q, k, v)
    assert out.shape == q.shape and out.dtype == torch.bfloat16
    ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                         is_causal=causal)
    assert rel_err(out, ref) < 1e-2


def test_argument_errors():
    x, b = rand(100, 300), rand(300)
    with pytest.raises(tile.ArgumentError, match="argument 'x' is not contiguous"):
        kernels.scale_add(rand(300, 100).t(), b)
    with pytest.raises(tile.ArgumentError, match="must be on a CUDA device"):
        kernels.scale_add(x.cpu(), b.cpu())
    kernels.scale_add(x, b)
    with pytest.raises(tile.ArgumentError, match=r"out\[0\]' has shape"):
        kernels.scale_add(x, b, out=torch.empty(100, 299, device="cuda"))


def test_argument_faults_are_errors():
    """What used to reach the kernel and kill the CUDA context: a CPU tensor
    after a CUDA one, a view 4 bytes off a 16-byte boundary. Both are
    refused before anything is compiled or launched; the context lives."""
    x, b = rand(100, 300), rand(300)
    with pytest.raises(tile.ArgumentError,
                       match="argument 'b' is on cpu, not on cuda:0"):
        kernels.scale_add(x, b.cpu())
    shifted = rand(301)[1:]  # contiguous, at storage offset 1 (4 bytes)
    with pytest.raises(tile.ArgumentError,
                       match="argument 'b' starts at address .+ offset 1.+"
                             "not a multiple of 16 bytes"):
        kernels.scale_add(x, shifted)
    strided = rand(100, 600)[:, ::2]
    with pytest.raises(tile.ArgumentError, match="argument 'x' is not contiguous"):
        kernels.scale_add(strided, b)
    # A dtype the signature did not have is another specialization, correct.
    xh, bh = x.half(), b.half()
    torch.testing.assert_close(kernels.scale_add(xh, bh).float(),
                               (xh * 2.0 + bh).float(), rtol=1e-3, atol=1e-3)
    torch.testing.assert_close(kernels.scale_add(x, b), x * 2.0 + b)


def test_repeated_calls_take_the_c_path():
    """A call that repeats the last one's signature launches from C
    (runtime.native); alternating signatures and constants, out=, and bad
    arguments after such a call still get their kernel or the located
    error, and the C path gives the bits of the ctypes one."""
    from tile.runtime import native

    if native.get() is None and not native.can_build():
        pytest.skip(f"no C compiler or Python.h here: {native.why_not}")
    assert native.get() is not None, native.why_not
    x = rand(100, 300)
    for _ in range(3):
        torch.testing.assert_close(kernels.scaled(x, 0.5), x * 0.5)
        torch.testing.assert_close(kernels.scaled(x, 2.0), x * 2.0)
    assert kernels.scaled._last_fast is not None
    out = torch.empty_like(x)
    assert kernels.scaled(x, 2.0, out=out) is out
    torch.testing.assert_close(out, x * 2.0)
    with pytest.raises(tile.ArgumentError, match="argument 'x' is not contiguous"):
        kernels.scaled(rand(300, 100).t(), 2.0)
    with pytest.raises(tile.ArgumentError, match="must be on a CUDA device"):
        kernels.scaled(x.cpu(), 2.0)
    with pytest.raises(tile.ArgumentError, match=r"out\[0\]' has dtype f16"):
        kernels.scaled(x, 2.0, out=torch.empty_like(x, dtype=torch.float16))
    b = rand(300)
    for _ in range(2):
        for rows in (1000, 100):
            xs = rand(rows, 300)
            torch.testing.assert_close(kernels.scale_add(xs, b), xs * 2.0 + b)
    slow = tile.jit(kernels.scaled.fn)
    slow(x, 2.0)
    for spec in slow._specializations.values():
        spec.fast = spec.kernel._fast = None
    slow._last_fast = None
    assert torch.equal(slow(x, 2.0), kernels.scaled(x, 2.0))


def test_cuda_graph_capture_and_replay():
    """Tile ops captured into a CUDA graph replay correctly on new data:
    an elementwise op, the MLP (scratch buffers and TMA descriptors over
    them, from the graph's pool and copy nodes) and attention (TMA over
    the inputs), against eager calls on the same data."""
    x, b = rand(1000, 300), rand(300)
    mlp = mlp_arguments()
    q, k, v = (rand(2, 4, 1000, 64, dtype=torch.bfloat16) for _ in range(3))
    side = torch.cuda.Stream()  # warm-up on a side stream, as torch advises
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        kernels.scale_add(x, b), kernels.mlp(*mlp), kernels.sdpa(q, k, v)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        y1 = kernels.scale_add(x, b)
        y2 = kernels.mlp(*mlp)
        y3 = kernels.sdpa(q, k, v)
    fresh = mlp_arguments()
    for _ in range(2):
        for static, new in zip([x, b, *mlp, q, k, v],
                               [rand(1000, 300), rand(300), *fresh,
                                *(rand(2, 4, 1000, 64, dtype=torch.bfloat16)
                                  for _ in range(3))]):
            static.copy_(new)
        graph.replay()
        torch.cuda.synchronize()
        torch.testing.assert_close(y1, x * 2.0 + b)
        assert torch.equal(y2, kernels.mlp(*mlp))
        assert torch.equal(y3, kernels.sdpa(q, k, v))
        fresh = mlp_arguments()


def test_torch_op_eager_compiled_and_autograd():
    """A tile function as a torch custom op: the same bits eagerly, inside
    torch.compile(fullgraph=True) next to inductor's own code, and with a
    backward registered through torch (one of whose ops is a tile op)."""
    op = kernels.bias_gelu.torch_op("tiletest::bias_gelu")
    x = rand(256, 128, dtype=torch.bfloat16)
    w = rand(128, 512, dtype=torch.bfloat16) / 128 ** 0.5
    bias = rand(512, dtype=torch.bfloat16)
    ref = kernels.bias_gelu(x, w, bias)
    assert torch.equal(op(x, w, bias), ref)
    compiled = torch.compile(lambda x, w, b: op(x, w, b).float() * 2.0 + 1.0,
                             fullgraph=True)
    torch.testing.assert_close(compiled(x, w, bias), ref.float() * 2.0 + 1.0)
    # mode="reduce-overhead": inductor's CUDA graphs capture the tile op.
    graphed = torch.compile(lambda x, w, b: op(x, w, b).float() * 2.0 + 1.0,
                            fullgraph=True, mode="reduce-overhead")
    for _ in range(4):  # warm-up, capture, replays
        torch.testing.assert_close(graphed(x, w, bias), ref.float() * 2.0 + 1.0)

    scale_add = kernels.scale_add.torch_op("tiletest::scale_add")

    def backward(ctx, grad):            # d(2x + b): 2 grad, grad summed over rows
        return kernels.scaled(grad.contiguous(), 2.0), grad.sum(0)

    scale_add.register_autograd(backward, setup_context=lambda ctx, inputs, output: None)
    xs, bs = rand(100, 300, dtype=torch.float32), rand(300)
    xa, ba = xs.clone().requires_grad_(), bs.clone().requires_grad_()
    (scale_add(xa, ba) ** 2).sum().backward()
    xt, bt = xs.clone().requires_grad_(), bs.clone().requires_grad_()
    ((xt * 2.0 + bt) ** 2).sum().backward()
    torch.testing.assert_close(xa.grad, xt.grad)
    torch.testing.assert_close(ba.grad, bt.grad)


@pytest.mark.parametrize("q_shape,kv_shape", [
    ((2, 8, 1000, 64), (2, 2, 1000, 64)),      # 4 query heads per K/V head
    ((1, 4, 512, 128), (1, 1, 512, 128))])     # one K/V head (multi-query)
def test_grouped_query_attention(q_shape, kv_shape):
    """enable_gqa=True: K and V of fewer heads, read in place by the one
    attention kernel; against torch's SDPA (enable_gqa) in float32."""
    q = rand(*q_shape, dtype=torch.bfloat16)
    k, v = (rand(*kv_shape, dtype=torch.bfloat16) for _ in range(2))
    out = kernels.sdpa_gqa_causal(q, k, v)
    assert out.shape == q.shape
    ref = F.scaled_dot_product_attention(q.float(), k.float(), v.float(),
                                         is_causal=True, enable_gqa=True)
    assert rel_err(out, ref) < 1e-2


def test_fresh_process_launches_from_cache(cache_dir):
    x = torch.arange(64 * 1000, device="cuda", dtype=torch.float32).reshape(64, 1000)
    kernels.softmax(x / 1e4)  # compiles and fills the cache
    code = textwrap.dedent("""
        import time, torch, tile, kernels
        x = torch.arange(64 * 1000, device="cuda", dtype=torch.float32).reshape(64, 1000) / 1e4
        t = time.perf_counter()
        y = kernels.softmax(x)
        torch.cuda.synchronize()
        first = time.perf_counter() - t
        torch.testing.assert_close(y, torch.softmax(x, -1), rtol=1e-5, atol=1e-6)
        print("STATS", tile.cache.stats, "FIRST_CALL_S", round(first, 4))
    """)
    r = run_python(code, TILE_LOG=1, TILE_CACHE_DIR=cache_dir)
    assert r.returncode == 0, r.stderr
    assert "'compiles': 0" in r.stdout and "'disk_hits': 1" in r.stdout
    assert "tile: cache hit" in r.stderr
    print(r.stdout)


def test_launch_overhead():
    """Measures a cached tiny op's Python launch cost (printed; pytest -s)."""
    x = rand(64, 64)
    kernels.tiny(x)
    torch.cuda.synchronize()
    n = 2000
    t = time.perf_counter()
    for _ in range(n):
        kernels.tiny(x)
    launch = (time.perf_counter() - t) / n
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(n):
        x + 1.0
    eager = (time.perf_counter() - t) / n
    torch.cuda.synchronize()
    print(f"\nlaunch overhead: tile {launch * 1e6:.1f} us/call, torch eager "
          f"{eager * 1e6:.1f} us/call")
    assert launch < 1e-3
