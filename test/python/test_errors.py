"""Errors a user can act on: trace-time checks and compiler diagnostics,
each naming the user's source line and the op."""

import inspect

import os

import pytest

import tile
import tile.language as tl


def line_of(fn, text):
    """Absolute line number of the first line of `fn` containing `text`."""
    lines, first = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return first + i
    raise AssertionError(text)


def test_matmul_shape_mismatch_names_the_line():
    def f(x, w):
        h = x + 1.0
        y = h @ w
        return y

    with pytest.raises(tile.ShapeError) as e:
        tile.jit(f).trace(("bf16", (64, 32)), ("bf16", (16, 64)))
    err = e.value
    assert err.location.line == line_of(f, "y = h @ w")
    assert err.location.file == __file__
    assert "tile.matmul" in err.op
    assert "inner dimensions differ: [64, 32] @ [16, 64]" in str(err)
    assert "y = h @ w" in str(err)  # the source line is shown


def test_broadcast_mismatch():
    def f(x, b):
        return x + b

    with pytest.raises(tile.ShapeError) as e:
        tile.jit(f).trace(("f32", (8, 16)), ("f32", (8,)))
    assert e.value.location.line == line_of(f, "return x + b")
    assert "[8, 16] and [8] do not broadcast" in str(e.value)


def test_matmul_dtype_mismatch():
    def f(x, w):
        return x @ w

    with pytest.raises(tile.DTypeError, match=r"bf16 @ f32\); cast one with .to\(\)"):
        tile.jit(f).trace(("bf16", (16, 16)), ("f32", (16, 16)))


def test_unsupported_ops():
    cases = [
        (lambda x: x[0], "indexing"),
        (lambda x: x.transpose(0, 0) + 1.0, "only the last two dimensions swap"),
        (lambda x: x.reshape(4, 16) + 1.0, "reshape"),
        (lambda x: x + 1.0 if x > 0 else x, "as a condition"),
        (lambda x: x * (x > 0), "use tl.where"),
        (lambda x: (x > 0) & x, "combines two conditions"),
        (lambda x: tl.where(x, x, 0.0), "must be a comparison"),
        (lambda x: tl.gelu(x, approximate="exact"), "expected 'none' or 'tanh'"),
        (lambda x: x.sum(axis=None), "several axes"),
    ]
    for fn, words in cases:
        with pytest.raises(tile.UnsupportedOpError, match=words):
            tile.jit(fn).trace(("f32", (8, 8)))


def test_attention_errors():
    sig = [("bf16", (2, 64, 32))] * 3
    sdpa = tl.scaled_dot_product_attention
    with pytest.raises(tile.UnsupportedOpError, match="attn_mask is not supported"):
        tile.jit(lambda q, k, v: sdpa(q, k, v, attn_mask=q)).trace(*sig)
    with pytest.raises(tile.UnsupportedOpError, match="dropout"):
        tile.jit(lambda q, k, v: sdpa(q, k, v, dropout_p=0.1)).trace(*sig)
    with pytest.raises(tile.DTypeError, match="bf16 or f16"):
        tile.jit(lambda q, k, v: sdpa(q, k, v)).trace(*[("f32", (2, 64, 32))] * 3)
    with pytest.raises(tile.ShapeError, match=r"expected query \[..., L, D\]"):
        tile.jit(lambda q, k, v: sdpa(q, k, v)).trace(
            ("bf16", (2, 64, 32)), ("bf16", (2, 64, 16)), ("bf16", (2, 64, 32)))
    with pytest.raises(tile.ShapeError, match="same batch dimensions"):
        tile.jit(lambda a, b: a @ b).trace(("bf16", (2, 64, 32)), ("bf16", (3, 32, 64)))


def test_results_must_be_computed():
    with pytest.raises(tile.TraceError, match="argument returned unchanged"):
        tile.jit(lambda x: x).trace(("f32", (8, 8)))
    with pytest.raises(tile.TraceError, match="returns nothing"):
        tile.jit(lambda x: None).trace(("f32", (8, 8)))

    def twice(x):
        y = x + 1.0
        return y, y

    with pytest.raises(tile.TraceError, match="are the same tensor"):
        tile.jit(twice).trace(("f32", (8, 8)))


def test_bad_signatures():
    with pytest.raises(tile.DTypeError, match="unsupported argument dtype"):
        tile.jit(lambda x: x + 1.0).trace(("i32", (8, 8)))
    with pytest.raises(TypeError, match="unknown dtype"):
        tile.jit(lambda x: x + 1.0).trace(("f8", (8, 8)))
    with pytest.raises(tile.ArgumentError, match="missing a required argument"):
        tile.jit(lambda x, y: x + y).trace(("f32", (8, 8)))


@pytest.mark.compiler
def test_compiler_error_maps_to_the_user_line():
    def f(x):
        y = tl.exp(x)
        return y

    with pytest.raises(tile.CompilationError) as e:
        tile.compile(f, [("f32", (4, 8, 16))], target="sm_90a")
    err = e.value
    assert err.location.file == __file__
    assert err.location.line == line_of(f, "y = tl.exp(x)")
    assert "`exp` (tile.map)" in err.op
    assert "tiling supports results of rank 1 or 2 but got rank 3" in str(err)
    assert "see current operation" not in str(err)
    assert err.diagnostics and err.diagnostics[0]["severity"] == "error"
    assert "tile.map" in err.ir  # the IR that was compiled travels along


@pytest.mark.compiler
def test_compile_failure_leaves_a_reproducer_that_replays(cache_dir):
    import shlex
    import subprocess

    from conftest import BUILD

    def f(x):
        return tl.exp(x)

    # A pass fails (tile-tile): MLIR's reproducer of the failing pipeline,
    # replayed by tile-opt --run-reproducer with the same error.
    with pytest.raises(tile.CompilationError) as e:
        tile.compile(f, [("f32", (4, 8, 16))], target="sm_90a")
    path = e.value.reproducer
    assert path and os.path.exists(path) and path.startswith(str(cache_dir))
    assert f"reproducer: {path} (replay: tile-opt --run-reproducer {path})" in str(e.value)
    run = subprocess.run([os.path.join(BUILD, "bin", "tile-opt"), "--run-reproducer",
                          path, "-o", os.devnull], capture_output=True, text=True)
    assert run.returncode != 0
    assert "tiling supports results of rank 1 or 2 but got rank 3" in run.stderr

    # No pipeline ran (its options do not parse): the traced IR is the
    # reproducer, replayed by the tile-compile command the message names.
    with pytest.raises(tile.CompilationError) as e:
        tile.compile(f, [("f32", (64, 64))], target="sm_80", tile_options="threads=abc")
    message = str(e.value)
    assert e.value.reproducer and "(replay: tile-compile " in message
    command = shlex.split(message.split("(replay: ", 1)[1].rsplit(")", 1)[0])
    command[0] = os.path.join(BUILD, "bin", "tile-compile")
    command[-1] = os.path.join(os.path.dirname(e.value.reproducer), "out.tilebundle")
    run = subprocess.run(command, capture_output=True, text=True)
    assert run.returncode != 0 and "bad pass pipeline" in run.stderr


@pytest.mark.compiler
def test_compiler_option_error_is_located():
    def f(x):
        return tl.exp(x) * 2.0

    with pytest.raises(tile.CompilationError) as e:
        tile.compile(f, [("f32", (64, 64))], target="sm_80", tile_options="threads=100")
    assert e.value.location.line == line_of(f, "return tl.exp(x)")
    assert "expected threads to be a power of two" in str(e.value)

    with pytest.raises(tile.CompilationError, match="bad pass pipeline"):
        tile.compile(f, [("f32", (64, 64))], target="sm_80", tile_options="threads=abc")


@pytest.mark.compiler
def test_native_module_raises_with_location():
    native = tile.compiler.native()
    with pytest.raises(native.CompileError) as e:
        native.compile("func.func @f(%a: tensor<4xf32> {\n", "", {}, "bad.mlir")
    message, diagnostics = e.value.args
    assert message.startswith("bad.mlir:1:")
    assert diagnostics[0]["file"] == "bad.mlir" and diagnostics[0]["line"] == 1
    with pytest.raises(ValueError, match="unknown compile option"):
        native.compile("", "", {"chips": "sm_80"})


@pytest.mark.parametrize("signature,error,message", [
    (("f32", (4.5, 4)), tile.ShapeError, r"expected integer sizes but got \[4.5, 4\]"),
    (("f32", (True, 4)), tile.ShapeError, r"expected integer sizes but got \[True, 4\]"),
    ("f32[4,4", tile.ShapeError, "expected a signature like 'bf16\\[4096,4096\\]'"),
    ("f32[4,x]", tile.ShapeError, "expected a signature like"),
    (("f99", (4, 4)), tile.DTypeError, "unknown dtype 'f99'"),
])
def test_bad_signatures_are_tile_errors(signature, error, message):
    """A bad signature entry is a tile error (not a TypeError from inside
    the frontend), and a size of 4.5 or True is not quietly 4 or 1."""
    @tile.jit
    def f(x):
        return x * 2.0

    with pytest.raises(error, match=message):
        f.trace(signature)


def test_float_axis_names_the_line():
    def f(x):
        return x.sum(1.0)

    with pytest.raises(tile.ShapeError, match="expected an integer axis but got 1.0") as e:
        tile.jit(f).trace(("f32", (4, 4)))
    assert f":{line_of(f, 'x.sum')}:" in str(e.value)


def test_constant_past_f32_is_infinity():
    """x + 1e300 rounds the constant to f32 as torch does (inf), instead of
    an OverflowError from inside the frontend."""
    @tile.jit
    def f(x):
        return x + 1e300

    assert "0x7F800000" in f.trace(("f16", (4, 4))).text
