"""Tracing: the IR text the frontend emits (no compiler needed)."""

import os
import re

import pytest

import tile
import tile.language as tl
from tile import _ir
from tile.language import TensorSpec, trace

import kernels

BF = "bf16"


def ir(fn, *sig):
    return tile.jit(fn).trace(*sig).text


def body_ops(text):
    return re.findall(r"= ((?:arith|math|tile)\.[a-z_]+)", text)


def test_matmul_bias_gelu_structure():
    text = kernels.bias_gelu.trace((BF, (128, 64)), (BF, (64, 256)), (BF, (256,))).text
    assert "func.func @bias_gelu(%x: tensor<128x64xbf16>" in text
    assert ("tile.matmul %x, %w : (tensor<128x64xbf16>, tensor<64x256xbf16>) "
            "-> tensor<128x256xf32>") in text
    # The bias is broadcast along the new dimension 0, for its one use.
    assert "tile.broadcast %b [0] : tensor<256xbf16> -> tensor<128x256xbf16>" in text
    # Bias add: f32 accumulator plus an extended bf16 bias.
    assert re.search(r"\^bb0\(%\d+: f32, %\d+: bf16\):\n\s+%\d+ = arith.extf %\d+ "
                     r": bf16 to f32", text)
    # gelu is one map (the erf form, torch's default), then the cast to bf16.
    gelu = [m for m in re.findall(r"tile.map .*?\n  \} loc", text, re.S)
            if "math.erf" in m]
    assert len(gelu) == 1 and gelu[0].count("tile.yield") == 1
    assert "0.707106769" in gelu[0] and "math.tanh" not in text
    tanh = kernels.bias_gelu_tanh.trace((BF, (128, 64)), (BF, (64, 256)),
                                        (BF, (256,))).text
    assert "0.044714998" in tanh and "0.797884583" in tanh and "math.erf" not in tanh
    assert "tile.cast %" in text and "-> tensor<128x256xbf16>" in text
    assert text.rstrip().endswith("}" + text.rstrip().rsplit("}", 1)[1])


def test_locations_point_at_user_lines():
    def f(x, y):
        a = x + y
        b = tl.exp(a)
        return b

    first = f.__code__.co_firstlineno
    text = ir(f, ("f32", (8, 16)), ("f32", (8, 16)))
    here = os.path.abspath(__file__)
    assert f'loc("{here}":{first + 1}:13)' in text  # x + y
    assert f'loc("{here}":{first + 2}:13)' in text  # tl.exp(a)
    key = tile.jit(f).trace(("f32", (8, 16)), ("f32", (8, 16))).key_text
    assert "loc(" not in key


def test_key_text_is_deterministic_and_location_free():
    t1 = kernels.softmax.trace(("f32", (100, 300)))
    t2 = kernels.softmax.trace(("f32", (100, 300)))
    assert t1.text == t2.text and t1.key_text == t2.key_text

    # The same function in another file gives the same key text.
    src = "import tile.language as tl\ndef softmax(x):\n    return tl.softmax(x)\n"
    scope = {}
    exec(compile(src, "/somewhere/else.py", "exec"), scope)
    t3 = tile.jit(scope["softmax"]).trace(("f32", (100, 300)))
    assert t3.key_text == t1.key_text and t3.text != t1.text


def test_softmax_reductions_and_identities():
    t = kernels.softmax.trace(("bf16", (64, 1000)))
    text = t.text
    assert [(o.shape, o.dtype) for o in t.outputs] == [((64, 1000), tile.bf16)]
    # Cast to f32 first, max with -inf, sum with 0, result back in bf16.
    assert "tile.cast %x : tensor<64x1000xbf16> -> tensor<64x1000xf32>" in text
    assert "arith.constant 0xFF800000 : f32" in text
    assert "arith.maximumf" in text
    assert re.search(r"tile.reduce %\d+, %\d+ dim = 1 : tensor<64x1000xf32>, f32 "
                     r"-> tensor<64xf32>", text)
    assert text.count("tile.broadcast") == 2
    assert "[1] : tensor<64xf32> -> tensor<64x1000xf32>" in text
    assert "math.exp" in text and "arith.divf" in text


def test_layernorm_and_rmsnorm_compute_in_f32():
    text = kernels.layernorm.trace(("bf16", (32, 128)), ("f32", (128,)),
                                   ("f32", (128,))).text
    assert text.count("tile.reduce") == 2  # mean and variance
    assert "math.rsqrt" in text
    assert "arith.constant 128.0 : f32" in text
    assert "9.999999747378752e-06" in text  # eps, as an exact f32
    assert "tile.broadcast %g [0]" in text and "tile.broadcast %b [0]" in text
    assert "-> (tensor<32x128xbf16>)" in text
    text = kernels.rmsnorm.trace(("f32", (32, 128)), ("f32", (128,))).text
    assert text.count("tile.reduce") == 1 and "math.rsqrt" in text


def test_scalar_constants_live_in_map_bodies():
    text = kernels.scale_add.trace(("f32", (16, 32)), ("f32", (32,))).text
    m = re.search(r"tile.map \(%x\).*?\{\n\s+\^bb0\(%(\d+): f32\):\n\s+%\d+ = "
                  r"arith.constant 2.0 : f32", text, re.S)
    assert m, text


def test_one_op_per_map_and_dedup_of_repeated_operands():
    def sq(x):
        return x * x

    text = ir(sq, ("f32", (8, 8)))
    assert "tile.map (%x) : (tensor<8x8xf32>)" in text
    assert re.search(r"arith.mulf %(\d+), %\1 : f32", text)
    ops = body_ops(kernels.chain.trace(("f32", (8, 8)), ("f32", (8, 8))).text)
    # silu, *, unary -, exp, +, maximum, /, abs, sqrt, -: one map each.
    assert ops.count("tile.map") == 10


def test_mixed_dtypes_promote_to_f32_and_scalars_keep_type():
    def f(a, b):
        return a + b, a * 3.0

    t = tile.jit(f).trace(("bf16", (8, 8)), ("f16", (8, 8)))
    assert [(o.dtype, o.shape) for o in t.outputs] == [(tile.f32, (8, 8)),
                                                       (tile.bf16, (8, 8))]
    assert "arith.truncf" in t.text  # the bf16 result of a * 3.0


def test_keepdim_and_column_broadcast():
    t = kernels.col_broadcast.trace(("f32", (64, 48)), ("f32", (64, 1)))
    # An [M, 1] argument is an [M] tensor in the IR, broadcast along dim 1.
    assert "%s: tensor<64xf32>" in t.text
    assert "tile.broadcast %s [1] : tensor<64xf32> -> tensor<64x48xf32>" in t.text

    def center(x):
        return x - x.mean(-1, keepdim=True)

    t = tile.jit(center).trace(("f32", (64, 48)))
    assert "[1] : tensor<64xf32> -> tensor<64x48xf32>" in t.text

    def first_row(x, r):  # r: [1, N] broadcasts like [N]
        return x + r

    t = tile.jit(first_row).trace(("f32", (64, 48)), ("f32", (1, 48)))
    assert "tile.broadcast %r [0] : tensor<48xf32> -> tensor<64x48xf32>" in t.text


def test_reductions_axes_and_results():
    t = kernels.row_stats.trace(("bf16", (40, 50)))
    shapes = [(o.shape, o.dtype) for o in t.outputs]
    assert shapes == [((40,), tile.f32), ((40,), tile.f32), ((50,), tile.f32)]
    assert "dim = 1" in t.text and "dim = 0" in t.text
    assert "arith.constant 40.0 : f32" in t.text  # mean over axis 0


def test_casts_and_noop_cast():
    def f(x):
        return x.to(tl.bf16).to("float32").to(tl.f32) + 1.0

    text = ir(f, ("f32", (8, 8)))
    assert text.count("tile.cast") == 2


def test_signature_forms_and_constants():
    def f(x, eps, scale=2.0):
        return x * scale + eps

    jf = tile.jit(f)
    a = jf.trace(tile.TensorSpec((4, 8), "f32"), 0.5).text
    b = jf.trace(((4, 8), "float32"), 0.5, scale=2.0).text
    c = jf.trace("f32[4,8]", 0.5).text
    assert a == b == c
    assert "arith.constant 0.5 : f32" in a
    assert jf.trace("f32[4,8]", 0.25).key_text != jf.trace("f32[4,8]", 0.5).key_text


def test_float_literals_parse_as_mlir():
    assert _ir.float_literal(1e-5) == "9.999999747378752e-06"
    assert _ir.float_literal(2) == "2.0"
    assert _ir.float_literal(float("-inf")) == "0xFF800000"
    assert _ir.float_literal(1e20).startswith("1.0000000200408773e+20")


def test_function_names_become_symbols():
    f = lambda x: x + 1.0  # noqa: E731
    assert "func.func @lambda(" in ir(f, ("f32", (8,)))


def test_torch_op_schema_from_the_signature():
    """The torch operator's schema (tile/torch_op.py): unannotated
    parameters are tensors, float/int/bool/str ones constants with their
    defaults; what a schema cannot say is an error asking for schema=."""
    from tile.torch_op import _schema_of

    @tile.jit
    def f(x, w, alpha: float = 0.5, flag: bool = False):
        return x

    assert _schema_of(f, 1) == "(Tensor x, Tensor w, float alpha=0.5, bool flag=False) -> Tensor"
    assert _schema_of(f, 2).endswith("-> (Tensor, Tensor)")

    @tile.jit
    def g(x, *rest):
        return x

    with pytest.raises(tile.ArgumentError, match="parameter 'rest'.*pass schema="):
        _schema_of(g, 1)

    @tile.jit
    def h(x: list):
        return x

    with pytest.raises(tile.ArgumentError, match="annotated <class 'list'>"):
        _schema_of(h, 1)


def test_grouped_query_attention_traces_repeats():
    """enable_gqa: K and V of fewer heads are repeated along the head
    dimension (tile.repeat, fused into the attention kernel); one K/V head
    is a unit dimension of the IR, so it is a tile.broadcast."""
    def gqa(q, k, v):
        return tl.scaled_dot_product_attention(q, k, v, enable_gqa=True)

    params = [("q", TensorSpec((2, 8, 256, 64), "bf16")),
              ("k", TensorSpec((2, 2, 256, 64), "bf16")),
              ("v", TensorSpec((2, 2, 256, 64), "bf16"))]
    text = trace(gqa, params).text
    assert text.count("tile.repeat") == 2
    assert "dim = 1 times = 4 : tensor<2x2x256x64xbf16> -> tensor<2x8x256x64xbf16>" in text
    mqa = trace(gqa, [("q", TensorSpec((1, 4, 256, 64), "bf16")),
                      ("k", TensorSpec((1, 1, 256, 64), "bf16")),
                      ("v", TensorSpec((1, 1, 256, 64), "bf16"))]).text
    assert "tile.repeat" not in mqa
    assert re.search(r"tile.broadcast %k \[0\] : tensor<256x64xbf16> -> tensor<4x256x64xbf16>", mqa)
    with pytest.raises(tile.ShapeError, match="heads that divide the query's 8 but got 3"):
        trace(gqa, [("q", TensorSpec((8, 256, 64), "bf16")),
                    ("k", TensorSpec((3, 256, 64), "bf16")),
                    ("v", TensorSpec((3, 256, 64), "bf16"))])


def test_scaled_matmul_fp8():
    # fp8 operands, B as the transpose of W [N, K] (read K-major), per-tensor
    # scales ([1]) splat into the epilogue, bf16 out.
    text = kernels.fp8_linear.trace(("f8e4m3fn", (256, 512)),
                                    ("f8e4m3fn", (384, 512)),
                                    ("f32", (1,)), ("f32", (1,))).text
    assert ("tile.transpose %w : tensor<384x512xf8E4M3FN> -> "
            "tensor<512x384xf8E4M3FN>") in text
    assert re.search(r"tile.matmul %x, %\d+ : \(tensor<256x512xf8E4M3FN>, "
                     r"tensor<512x384xf8E4M3FN>\) -> tensor<256x384xf32>", text)
    assert "tile.broadcast %sa [0, 1] : tensor<1xf32> -> tensor<256x384xf32>" in text
    assert re.search(r"arith.truncf %\d+ : f32 to bf16", text)
    # fp8 casts are tile.cast; fp8 arithmetic is done in f32 and rounded
    # back to the format.
    text = tile.jit(lambda a: (a * 2).to(tl.f32)).trace(("f8e5m2", (16, 32))).text
    assert re.search(r"arith.extf %\d+ : f8E5M2 to f32", text)
    assert re.search(r"arith.truncf %\d+ : f32 to f8E5M2", text)
    assert re.search(r"tile.cast %\d+ : tensor<16x32xf8E5M2> -> "
                     r"tensor<16x32xf32>", text)


def test_scaled_matmul_errors():
    with pytest.raises(tile.DTypeError, match="expected fp8 operands"):
        kernels.fp8_linear.trace(("bf16", (64, 64)), ("bf16", (64, 64)),
                                 ("f32", (1,)), ("f32", (1,)))
    with pytest.raises(tile.ShapeError, match=r"expected scale_a of shape "
                       r"\[1\], \[64, 1\] \(per row\), \[64, 1\] \(1x128 "
                       r"blocks\) or \[1, 1\] \(128x128\).* but got \[64\] "
                       r"and \[1\]"):
        kernels.fp8_linear.trace(("f8e4m3fn", (64, 64)), ("f8e4m3fn", (64, 64)),
                                 ("f32", (64,)), ("f32", (1,)))
    with pytest.raises(tile.DTypeError, match="expected scale_a of f32 but "
                       "got bf16"):
        kernels.fp8_linear.trace(("f8e4m3fn", (64, 64)), ("f8e4m3fn", (64, 64)),
                                 ("bf16", (1,)), ("f32", (1,)))
    # Block scales of the wrong shape (K / 128 = 3 blocks, not 2).
    with pytest.raises(tile.ShapeError, match=r"expected scale_a .* \[256, 3\] "
                       r"\(1x128 blocks\)"):
        kernels.fp8_linear_blocks.trace(("f8e4m3fn", (256, 300)),
                                        ("f8e4m3fn", (384, 300)),
                                        ("f32", (2, 256)), ("f32", (3, 3)))


def test_scaled_matmul_block_scales():
    # torch's layouts: scale_a the transpose of [K / 128, M], scale_b of
    # [N / 128, K / 128]; one tile.matmul with scales in blocks of 1x128
    # and 128x128, the transposes left for tile-fuse to read as stored.
    text = kernels.fp8_linear_blocks.trace(("f8e4m3fn", (256, 520)),
                                           ("f8e4m3fn", (384, 520)),
                                           ("f32", (5, 256)),
                                           ("f32", (3, 5))).text
    assert "tile.transpose %sat : tensor<5x256xf32> -> tensor<256x5xf32>" in text
    assert "tile.transpose %sw : tensor<3x5xf32> -> tensor<5x3xf32>" in text
    assert re.search(r"tile.matmul %x, %\d+ scales\(%\d+, %\d+\) block "
                     r"\[1, 128, 128\] : \(tensor<256x520xf8E4M3FN>, "
                     r"tensor<520x384xf8E4M3FN>, tensor<256x5xf32>, "
                     r"tensor<5x3xf32>\) -> tensor<256x384xf32>", text)
    assert re.search(r"tile.cast %\d+ : tensor<256x384xf32> -> "
                     r"tensor<256x384xbf16>", text)
    # Scales per column of B (1x128 of W: [K / 128, N], given as is) and
    # one 128x128 block of A along M (M <= 128: the unit dimension drops).
    f = tile.jit(lambda x, w, sa, sb: tl.scaled_matmul(x, w.mT, sa, sb,
                                                       out_dtype=tl.f32))
    text = f.trace(("f8e4m3fn", (100, 300)), ("f8e5m2", (200, 300)),
                   ("f32", (1, 3)), ("f32", (3, 200))).text
    assert re.search(r"tile.matmul %x, %\d+ scales\(%sa, %sb\) block "
                     r"\[128, 128, 1\] : \(tensor<100x300xf8E4M3FN>, "
                     r"tensor<300x200xf8E5M2>, tensor<3xf32>, "
                     r"tensor<3x200xf32>\) -> tensor<100x200xf32>", text)
    assert "tile.cast" not in text


def test_matrix_vector_products():
    # M = 1 against w.mT: w read as stored (the transpose the frontend
    # emitted is dead), the products in f32, summed along K.
    text = kernels.decode_linear.trace(("bf16", (1, 512)), ("bf16", (300, 512))).text
    assert "tile.matmul" not in text
    assert "tile.broadcast %x [0] : tensor<512xbf16> -> tensor<300x512xbf16>" in text
    assert re.search(r"tile.map \(%w, %\d+\) : \(tensor<300x512xbf16>, "
                     r"tensor<300x512xbf16>\) -> tensor<300x512xf32>", text)
    assert re.search(r"tile.reduce %\d+, %\d+ dim = 1 : tensor<300x512xf32>", text)
    # x @ w with w [K, N]: w's transpose feeds the rows.
    text = kernels.decode_matmul.trace(("f32", (1, 64)), ("f32", (64, 48))).text
    assert "tile.transpose %w : tensor<64x48xf32> -> tensor<48x64xf32>" in text
    # N = 1: a's rows times the column.
    text = kernels.matrix_times_column.trace(("f32", (40, 64)), ("f32", (64, 1))).text
    assert "tile.broadcast %v [0] : tensor<64xf32> -> tensor<40x64xf32>" in text
    # M = N = 1 (a dot product) is not a matrix-vector product.
    with pytest.raises(tile.UnsupportedOpError, match="unit dimension"):
        kernels.matrix_times_column.trace(("f32", (1, 64)), ("f32", (64, 1)))


def test_quantized_matmul_traces_the_dequantization():
    # int4: the packed bytes unpacked (signed), GPTQ's [K/g, N] scales
    # transposed and repeated along K, one map (sitofp, mulf, truncf to x's
    # dtype), W's transpose as the matmul's B.
    text = kernels.int4_linear.trace(("bf16", (16, 512)), ("i8", (256, 256)),
                                     ("f32", (4, 256))).text
    assert ("tile.unpack %qw signed : tensor<256x256xi8> -> "
            "tensor<256x512xi8>") in text
    assert "tile.transpose %s : tensor<4x256xf32> -> tensor<256x4xf32>" in text
    assert re.search(r"tile.repeat %\d+ dim = 1 times = 128 : "
                     r"tensor<256x4xf32> -> tensor<256x512xf32>", text)
    assert re.search(r"arith.sitofp %\d+ : i8 to f32", text)
    assert re.search(r"arith.truncf %dq\d+_v : f32 to bf16", text)
    assert re.search(r"tile.matmul %x, %\d+ : \(tensor<16x512xbf16>, "
                     r"tensor<512x256xbf16>\) -> tensor<16x256xf32>", text)
    # int8 with zero points: no unpack; (q - z) * s.
    text = kernels.int8_linear_zeros.trace(("bf16", (33, 256)), ("i8", (520, 256)),
                                           ("f32", (4, 520)), ("f32", (4, 520))).text
    assert "tile.unpack" not in text
    assert re.search(r"arith.subf %dq\d+_w, %\d+ : f32", text)
    # MXFP4: unsigned nibbles, e2m1 placed as f32 bits and multiplied by
    # 2^126, the e8m0 byte shifted into an f32 exponent.
    text = kernels.mxfp4_linear.trace(("bf16", (16, 1024)), ("i8", (264, 512)),
                                      ("i8", (264, 32))).text
    assert ("tile.unpack %qw : tensor<264x512xi8> -> tensor<264x1024xi8>"
            in text)
    assert re.search(r"tile.repeat %s dim = 1 times = 32 : tensor<264x32xi8> "
                     r"-> tensor<264x1024xi8>", text)
    assert re.search(r"arith.bitcast %dq\d+_bits : i32 to f32", text)
    assert re.search(r"arith.mulf %dq\d+_raw, %dq\d+_two126 : f32", text)
    assert re.search(r"%dq\d+_two126 = arith.constant 0x7E800000 : f32", text)
    # The scale as OCP e8m0 reads it, as bf16 bits: byte 0 is 2^-127 (the
    # bf16 subnormal 0x40, the max of it and the shifted byte), byte 255
    # (inf) is NaN (s + (s - s)).
    assert re.search(r"%dq\d+_sb = arith.shli %dq\d+_e, %dq\d+_c7s : i16", text)
    assert re.search(r"%dq\d+_tiny = arith.constant 64 : i16", text)
    assert re.search(r"arith.maxui %dq\d+_sb, %dq\d+_tiny : i16", text)
    assert re.search(r"(%dq\d+_)nanish = arith.subf \1sh, \1sh : bf16", text)
    assert re.search(r"(%dq\d+_)sn = arith.addf \1sh, \1nanish : bf16", text)
    assert re.search(r"arith.extf %dq\d+_sn : bf16 to f32", text)


def test_quantized_weights_as_uint8_and_e8m0():
    # Packed codes as uint8 and MX scales as float8_e8m0fnu (or their bytes
    # as uint8), as torch and MX packers hold them, trace to the same
    # program as int8 bytes: the kernel reads bytes either way.
    sig = [("bf16", (16, 1024)), ("i8", (264, 512)), ("i8", (264, 32))]
    text = kernels.mxfp4_linear.trace(*sig).text
    for qw, s in (("u8", "f8e8m0fnu"), ("uint8", "uint8"),
                  ("i8", "float8_e8m0fnu")):
        assert kernels.mxfp4_linear.trace(sig[0], (qw, (264, 512)),
                                          (s, (264, 32))).text == text
    isig = [("bf16", (16, 512)), ("i8", (256, 256)), ("f32", (4, 256))]
    assert kernels.int4_linear.trace(isig[0], ("u8", (256, 256)),
                                     isig[2]).text == \
        kernels.int4_linear.trace(*isig).text
    # int8 weights are signed values, not bytes: uint8 is refused, as are
    # e8m0 codes and any arithmetic on the byte types.
    with pytest.raises(tile.DTypeError, match="expected an int8 qweight "
                       r"\[N, K\] but got u8"):
        kernels.int8_linear.trace(isig[0], ("u8", (256, 512)), isig[2])
    with pytest.raises(tile.DTypeError, match="expected an int8 or uint8 "
                       "qweight .* but got f8e8m0fnu"):
        kernels.int4_linear.trace(isig[0], ("f8e8m0fnu", (256, 256)), isig[2])
    with pytest.raises(tile.ShapeError, match="expected e8m0 scales as "
                       "float8_e8m0fnu, uint8 or int8 .* but got bf16"):
        kernels.mxfp4_linear.trace(sig[0], sig[1], ("bf16", (264, 32)))
    for t in ("u8", "f8e8m0fnu"):
        with pytest.raises(tile.DTypeError, match="hold quantized weights"):
            tile.jit(lambda q: q + 1).trace((t, (4, 4)))


def test_byte_storage_dtypes():
    # u8 and f8e8m0fnu name torch's uint8 and float8_e8m0fnu and cupy's
    # '|u1'; a bundle declares their buffers i8 (the launcher's check).
    from tile import dtypes
    assert dtypes.dtype("uint8") is dtypes.u8

    class TorchDtype:  # what str() of torch.uint8 ... gives, without torch
        def __init__(self, name):
            self.name = name

        def __str__(self):
            return "torch." + self.name

    assert dtypes.dtype(TorchDtype("uint8")) is dtypes.u8
    assert dtypes.dtype(TorchDtype("float8_e8m0fnu")) is dtypes.f8e8m0fnu
    assert dtypes.from_typestr("|u1") is dtypes.u8
    assert dtypes.u8.mlir == dtypes.f8e8m0fnu.mlir == "i8"
    assert "u8" not in dtypes.BY_NAME  # not a bundle dtype
    # A bundle's i8 buffer takes int8, or the compile's own dtype where the
    # argument arrived as uint8 / float8_e8m0fnu (jit and CompiledKernel
    # pass it): never a byte type the compile did not see.
    from tile.runtime import bundle, launcher
    buf = bundle.Buffer("s", "in", dtypes.i8, (4,), (1,))
    e8m0 = launcher.ArgInfo(0, (4,), "f8e8m0fnu", None, 0)
    launcher.check_argument(e8m0, buf, "s", dtype="f8e8m0fnu")
    launcher.check_argument(launcher.ArgInfo(0, (4,), "i8", None, 0), buf, "s")
    with pytest.raises(tile.ArgumentError, match="has dtype f8e8m0fnu but "
                       "the kernel was compiled for i8"):
        launcher.check_argument(e8m0, buf, "s")
    with pytest.raises(tile.ArgumentError, match="has dtype u8 but the "
                       "kernel was compiled for f8e8m0fnu"):
        launcher.check_argument(launcher.ArgInfo(0, (4,), "u8", None, 0),
                                buf, "s", dtype="f8e8m0fnu")
    # A strided uint8 __cuda_array_interface__ array: its strides in bytes
    # become elements (uint8's itemsize), not a KeyError.

    class Bytes:
        __cuda_array_interface__ = {"shape": (4, 3), "typestr": "|u1",
                                    "data": (4096, False), "strides": (6, 1),
                                    "version": 3}
    info = launcher.describe(Bytes(), "q")
    assert info.dtype == "u8" and info.strides == (6, 1)
    # The kernel API reads bytes as int8: uint8 and e8m0 arguments are
    # refused there, not read as signed bytes.
    import tile.kernel as tk

    @tile.kernel(grid=(1,), threads=128)
    def copy(x, y):
        tk.store(y, tk.load(x, (0, 0), (4, 64)))
    for t in ("u8", "f8e8m0fnu"):
        with pytest.raises(tile.DTypeError, match=f"argument 'x' is {t}: a "
                           "kernel reads bytes as int8"):
            copy.trace((t, (4, 64)), ("i8", (4, 64)))


def test_mxfp4_bit_decode_is_exact():
    """The decode the frontend writes for MXFP4, modelled in Python: the
    e2m1 code's bits at f32's bits 24-22 and 31, times 2^126 (f32 math with
    subnormals kept), is every code's value: quant's E2M1_VALUES with the
    sign of bit 3."""
    import math
    import struct
    two126 = struct.unpack("<f", struct.pack("<I", 0x7E800000))[0]
    assert two126 == 2.0 ** 126
    for u in range(16):
        bits = ((u & 7) << 22) | ((u & 8) << 28)
        raw = struct.unpack("<f", struct.pack("<I", bits))[0]
        value = struct.unpack("<f", struct.pack("<f", raw * two126))[0]
        expected = tile.quant.E2M1_VALUES[u & 7] * (-1.0 if u & 8 else 1.0)
        sign = -1.0 if u & 8 else 1.0
        assert value == expected and math.copysign(1.0, value) == sign, u


def test_quantized_matmul_errors():
    sig = [("bf16", (16, 512)), ("i8", (256, 256)), ("f32", (4, 256))]
    with pytest.raises(tile.ShapeError, match=r"expected qweight of shape "
                       r"\[256, 256\] .* but got \[256, 512\]"):
        kernels.int4_linear.trace(sig[0], ("i8", (256, 512)), sig[2])
    with pytest.raises(tile.ShapeError, match=r"expected scales of f32, bf16 "
                       r"or f16 \[4, 256\]"):
        kernels.int4_linear.trace(sig[0], sig[1], ("f32", (256, 4)))
    with pytest.raises(tile.DTypeError, match="expected an int8 or uint8 "
                       "qweight"):
        kernels.int4_linear.trace(sig[0], ("bf16", (256, 256)), sig[2])
    with pytest.raises(tile.UnsupportedOpError, match="M = 1: pad x"):
        kernels.int4_linear.trace(("bf16", (1, 512)), sig[1], sig[2])
    # layout="mma": int4 with K and group_size multiples of 128.
    mma = tile.jit(lambda x, q, s: tl.quantized_matmul(
        x, q, s, group_size=64, format="int4", layout="mma"))
    with pytest.raises(tile.ShapeError, match="layout='mma' is int4's"):
        mma.trace(sig[0], sig[1], ("f32", (8, 256)))
    with pytest.raises(tile.UnsupportedOpError, match="unknown layout 'awq'"):
        tile.jit(lambda x, q, s: tl.quantized_matmul(x, q, s, layout="awq")
                 ).trace(*sig)
    text = kernels.int4_linear_mma.trace(*sig).text
    assert "tile.unpack %qw signed interleaved" in text
    assert re.search(r"tile.matmul %x, %\d+ k_runs = 32 :", text)
    # MXFP4's layout="mma": unsigned codes bit by bit in each word
    # (tile.quant.MXFP4_MMA_BITS), runs of 8 (a block of 32, one scale
    # group); K a multiple of 32.
    msig = [("bf16", (16, 1024)), ("i8", (264, 512)), ("i8", (264, 32))]
    text = kernels.mxfp4_linear_mma.trace(*msig).text
    bits = ", ".join(map(str, tile.quant.MXFP4_MMA_BITS))
    assert f"tile.unpack %qw bits = [{bits}] :" in text
    assert re.search(r"tile.matmul %x, %\d+ k_runs = 8 :", text)
    with pytest.raises(tile.ShapeError, match="layout='mma' of mxfp4 needs K "
                                              "a multiple of 32"):
        kernels.mxfp4_linear_mma.trace(("bf16", (16, 1008)), ("i8", (264, 504)),
                                       ("i8", (264, 32)))
    with pytest.raises(tile.UnsupportedOpError, match="unknown format 'int3'"):
        tile.jit(lambda x, q, s: tl.quantized_matmul(x, q, s, format="int3")
                 ).trace(*sig)
    # int8 tensors are storage: arithmetic on them is an error at the line.
    with pytest.raises(tile.DTypeError, match="hold quantized weights"):
        tile.jit(lambda q: q * 2).trace(("i8", (4, 4)))
