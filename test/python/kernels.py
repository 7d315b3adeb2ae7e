"""Tile functions shared by the tests (a module of its own, so that a
child process traces exactly the same source and finds the same cache key)."""

import tile
import tile.language as tl


@tile.jit
def scale_add(x, b):
    return x * 2.0 + b


@tile.jit
def bias_gelu(x, w, b):
    return tl.gelu(x @ w + b).to(tl.bf16)


@tile.jit
def bias_gelu_tanh(x, w, b):
    return tl.gelu(x @ w + b, approximate="tanh").to(tl.bf16)


@tile.jit
def torch_math(x, y):
    # torch's functions and defaults, written as a port would.
    g = tl.gelu(x) + tl.gelu(y, approximate="tanh")
    m = tl.where((x > 0) & ~(y == 0.5), tl.log1p(abs(x)), tl.expm1(y * 0.5))
    c = (x <= y).to(tl.f32) * tl.sin(x) + tl.cos(y) + x.erf()
    return g, m, c, tl.rmsnorm(x), tl.where(x != y, x ** 3, 0.0)


@tile.jit
def softmax(x):
    return tl.softmax(x)


@tile.jit
def layernorm(x, g, b):
    return tl.layernorm(x, g, b)


@tile.jit
def rmsnorm(x, g):
    return tl.rmsnorm(x, g)


@tile.jit
def chain(x, y):
    # A chain: every binary op has at most one computed operand.
    r = tl.silu(x) * y
    r = tl.exp(-r) + x
    r = tl.maximum(r, y) / 3.0
    return tl.sqrt(abs(r)) - y


@tile.jit
def row_stats(x):
    return x.sum(-1), x.max(-1), x.mean(0)


@tile.jit
def col_broadcast(x, s):          # s: [M, 1]
    return x / s


@tile.jit
def bias_add(x, b):               # b: [N]
    return x + b


@tile.jit
def row_scale(s, x):              # s: [M, 1]
    return s * x


@tile.jit
def mlp(x, w1, b1, w2, b2, g, b):
    h = tl.layernorm(x, g, b)
    h = tl.gelu(h @ w1 + b1).to(tl.bf16)
    return (h @ w2 + b2 + x).to(tl.bf16)


@tile.jit
def scaled(x, alpha):              # alpha: a constant of the trace
    return x * alpha


@tile.jit
def tiny(x):
    return x + 1.0


@tile.jit
def f16_to_bf16(x):                # f16 -> bf16: one rounding, as torch
    return x.to(tl.bf16)


#: The signatures test_gpu.py launches, one list per kernel: the single
#: source of truth for the tests and for python/tools/aot_fill.py, which
#: compiles them ahead of time for a GPU machine without the compiler.
@tile.jit
def sdpa(q, k, v):
    return tl.scaled_dot_product_attention(q, k, v)


@tile.jit
def sdpa_causal(q, k, v):
    return tl.scaled_dot_product_attention(q, k, v, is_causal=True)


@tile.jit
def sdpa_gqa_causal(q, k, v):        # k, v: fewer heads
    return tl.scaled_dot_product_attention(q, k, v, is_causal=True,
                                           enable_gqa=True)


@tile.jit
def attention_written_out(q, k, v):
    # The same math with @, .mT and softmax: fuses to the same kernel.
    s = (q @ k.mT) * (1.0 / q.shape[-1] ** 0.5)
    return (tl.softmax(s).to(tl.bf16) @ v).to(tl.bf16)


@tile.jit
def fp8_linear(x, w, sa, sb):
    # torch._scaled_mm's form: fp8 x [M, K] and weight w [N, K], per-tensor
    # ([1]) or row/column scales, bf16 out.
    return tl.scaled_matmul(x, w.mT, sa, sb, out_dtype=tl.bfloat16)


@tile.jit
def fp8_linear_blocks(x, w, sat, sw):
    # DeepSeek-V3's block scales in torch._scaled_mm's layout: 1x128 on x
    # (sat [K / 128, M]: scale_a is its transpose, M-major) and 128x128 on
    # w (sw [N / 128, K / 128]: scale_b is its transpose), bf16 out.
    return tl.scaled_matmul(x, w.mT, sat.mT, sw.mT, out_dtype=tl.bfloat16)


@tile.jit
def int4_linear(x, qw, s):
    # Weight-only int4 (tile.quant.pack_int4's layout), group 128.
    return tl.quantized_matmul(x, qw, s, group_size=128, format="int4")


@tile.jit
def int4_linear_mma(x, qw, s):
    # Weight-only int4 packed for the tensor cores (pack_int4(layout="mma")).
    return tl.quantized_matmul(x, qw, s, group_size=128, format="int4",
                               layout="mma")


@tile.jit
def int8_linear(x, qw, s):
    # Weight-only int8, group 128.
    return tl.quantized_matmul(x, qw, s, group_size=128, format="int8")


@tile.jit
def int8_linear_zeros(x, qw, s, z):
    # Weight-only int8 with zero points, group 64.
    return tl.quantized_matmul(x, qw, s, z, group_size=64, format="int8")


@tile.jit
def mxfp4_linear(x, qw, s):
    # Weight-only MXFP4 (e2m1 pairs, e8m0 scale per 32).
    return tl.quantized_matmul(x, qw, s, group_size=32, format="mxfp4")


@tile.jit
def mxfp4_linear_mma(x, qw, s):
    # MXFP4 packed for the tensor cores (pack_mxfp4(layout="mma")).
    return tl.quantized_matmul(x, qw, s, group_size=32, format="mxfp4",
                               layout="mma")


@tile.jit
def decode_linear(x, w):
    # One token against torch's Linear weight w [N, K]: a matrix-vector
    # product that reads w as stored (one row-group kernel).
    return (x @ w.mT).to(tl.bf16)


@tile.jit
def decode_matmul(x, w):
    # x [1, K] @ w [K, N]: through w's transpose.
    return x @ w


@tile.jit
def matrix_times_column(a, v):
    return a @ v


GPU_SHAPES = {
    "chain": [[("f32", (257, 129)), ("f32", (257, 129))]],
    "decode_linear": [[("bf16", (1, 4096)), ("bf16", (1030, 4096))],
                      [("bf16", (1, 60001)), ("bf16", (300, 60001))]],
    "decode_matmul": [[("f32", (1, 1000)), ("f32", (1000, 257))]],
    "matrix_times_column": [[("f32", (257, 1000)), ("f32", (1000, 1))]],
    "fp8_linear": [[("f8e4m3fn", (300, 544)), ("f8e4m3fn", (1040, 544)),
                    ("f32", (1,)), ("f32", (1,))],
                   [("f8e4m3fn", (300, 544)), ("f8e5m2", (1040, 544)),
                    ("f32", (300, 1)), ("f32", (1, 1040))]],
    # Block scales: ragged M and N (K = 544: a last block of 32), and a
    # decode-sized M against a deep K (split-K).
    "fp8_linear_blocks": [[("f8e4m3fn", (1000, 544)), ("f8e4m3fn", (1040, 544)),
                           ("f32", (5, 1000)), ("f32", (9, 5))],
                          [("f8e4m3fn", (16, 4096)), ("f8e4m3fn", (1000, 4096)),
                           ("f32", (32, 16)), ("f32", (8, 32))],
                          [("f8e4m3fn", (300, 1024)), ("f8e4m3fn", (640, 1024)),
                           ("f32", (8, 300)), ("f32", (5, 8))]],
    # Weight-only quantized: ragged M and N, decode-sized M (split-K).
    "int4_linear": [[("bf16", (7, 768)), ("i8", (1000, 384)), ("f32", (6, 1000))],
                    [("bf16", (16, 4096)), ("i8", (1024, 2048)), ("f32", (32, 1024))],
                    [("bf16", (16, 256)), ("i8", (72, 128)), ("bf16", (2, 72))]],
    "int4_linear_mma": [
        [("bf16", (m, k)), ("i8", (n, k // 2)), ("bf16", (k // 128, n))]
        for m, k, n in ((5, 1024, 520), (16, 1024, 520), (16, 4096, 1000),
                        (40, 768, 264), (16, 768, 264))],
    "int8_linear": [[("bf16", (16, 256)), ("i8", (72, 256)), ("bf16", (2, 72))]],
    "int8_linear_zeros": [[("bf16", (33, 4160)), ("i8", (520, 4160)),
                           ("f32", (65, 520)), ("f32", (65, 520))]],
    "mxfp4_linear": [[("bf16", (16, 1024)), ("i8", (264, 512)), ("i8", (264, 32))],
                     [("bf16", (16, 1024)), ("u8", (264, 512)),
                      ("f8e8m0fnu", (264, 32))]],
    "mxfp4_linear_mma": [[("bf16", (m, k)), ("i8", (n, k // 2)), ("i8", (n, k // 32))]
                         for m, k, n in ((13, 1024, 264), (16, 4096, 1000))],
    "scale_add": [[("f32", (1000, 300)), ("f32", (300,))],
                  [("f32", (100, 300)), ("f32", (300,))],
                  [("f16", (100, 300)), ("f16", (300,))]],
    "softmax": [[("f32", (333, 1025))], [("bf16", (100, 4097))],
                [("f32", (64, 1000))]],
    "layernorm": [[("bf16", (257, 768)), ("f32", (768,)), ("f32", (768,))]],
    "rmsnorm": [[("f32", (65, 1000)), ("f32", (1000,))]],
    "row_stats": [[("bf16", (40, 50))]],
    "col_broadcast": [[("f32", (64, 48)), ("f32", (64, 1))]],
    "bias_add": [[("f32", (1000, 3001)), ("f32", (3001,))],
                 [("bf16", (257, 4096)), ("bf16", (4096,))]],
    "row_scale": [[("f32", (1000, 1)), ("f32", (1000, 3001))],
                  [("bf16", (257, 1)), ("bf16", (257, 4096))]],
    "bias_gelu_tanh": [[("bf16", (257, 320)), ("bf16", (320, 129)), ("bf16", (129,))]],
    "torch_math": [[("f32", (257, 1000)), ("f32", (257, 1000))],
                   [("bf16", (64, 300)), ("bf16", (64, 300))]],
    "bias_gelu": [[("bf16", (256, 128)), ("bf16", (128, 512)), ("bf16", (512,))],
                  [("bf16", (257, 320)), ("bf16", (320, 129)), ("bf16", (129,))]],
    "mlp": [[("bf16", (256, 128)), ("bf16", (128, 512)), ("bf16", (512,)),
             ("bf16", (512, 128)), ("bf16", (128,)), ("bf16", (128,)),
             ("bf16", (128,))]],
    "tiny": [[("f32", (64, 64))]],
    "scaled": [[("f32", (100, 300)), 0.5], [("f32", (100, 300)), 2.0]],
    "f16_to_bf16": [[("f16", (100, 300))]],
    "sdpa": [[("bf16", (2, 4, 1000, 64))] * 3, [("bf16", (1, 2, 512, 128))] * 3],
    "sdpa_causal": [[("bf16", (2, 3, 1000, 64))] * 3,
                    [("bf16", (4, 40, 256, 128))] * 3,
                    [("bf16", (1, 3, 600, 256))] * 3],
    "attention_written_out": [[("bf16", (2, 4, 384, 64))] * 3],
    "sdpa_gqa_causal": [[("bf16", (2, 8, 1000, 64)), ("bf16", (2, 2, 1000, 64)),
                         ("bf16", (2, 2, 1000, 64))],
                        [("bf16", (1, 4, 512, 128)), ("bf16", (1, 1, 512, 128)),
                         ("bf16", (1, 1, 512, 128))]],
}

