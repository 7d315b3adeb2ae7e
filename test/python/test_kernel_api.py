"""The kernel-level API (tile.kernel): tracing into tile-level IR, loops,
errors naming the user's line, compiling at the tile level for sm_80 and
sm_90a, the cache, the launcher on a stand-in driver, and launches on a GPU
checked against torch (skipped without a CUDA device and torch)."""

import inspect
import json
import os
import re

import pytest

import tile
import tile.kernel as tk
from tile import cache
from tile.runtime import driver as rdriver

import tile_kernels as K
from conftest import run_python
from fakecuda import FakeArray, FakeDriver

ADD_SIG = [("f32", (1000, 3001))] * 3
MM_SIG = K.GPU_SHAPES["matmul"][0]


def line_of(fn, text):
    """Absolute line number of the first line of `fn` containing `text`."""
    fn = getattr(fn, "fn", fn)
    lines, first = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return first + i
    raise AssertionError(text)


def strip_locs(text):
    return re.sub(r" loc\([^)]*\)", "", text)


# ---------------------------------------------------------------------------
# Tracing
# ---------------------------------------------------------------------------

def test_decorator_and_module_are_one():
    assert callable(tile.kernel) and tile.kernel is tk
    assert isinstance(K.add, tk.KernelFunction)
    assert "grid=" in repr(K.add) and "threads=128" in repr(K.add)


def test_trace_add():
    tr = K.add.trace(*ADD_SIG)
    ir = strip_locs(tr.text)
    assert ir.startswith("func.func @add(%X: memref<1000x3001xf32>, "
                         "%Y: memref<1000x3001xf32>, %Out: memref<1000x3001xf32>) {")
    # One tile.kernel with the grid the lambda computed (ceil(1000/64),
    # ceil(3001/64)) over the three buffers, as tile-tile writes it.
    assert ("tile.kernel @add_0 grid [16, 47] threads 128 (%X, %Y, %Out) : "
            "memref<1000x3001xf32>, memref<1000x3001xf32>, memref<1000x3001xf32> {"
            in ir)
    assert ir.count("tile.program_id") == 2 and "tile.program_id 1" in ir
    # pm * 64 is one value, used by both loads and the store.
    muls = re.findall(r"(%\d+) = arith.muli", ir)
    assert len(muls) == 2
    loads = re.findall(r"tile.load %k_(\w+)\[(%\d+), (%\d+)\] : memref<1000x3001xf32> "
                       r"-> !tile.tile<64x64xf32>", ir)
    assert [l[0] for l in loads] == ["X", "Y"] and all(l[1:] == tuple(muls) for l in loads)
    assert "tile.map" in ir and "arith.addf" in ir
    assert re.search(r"tile.store %\d+, %k_Out\[%\d+, %\d+\] : !tile.tile<64x64xf32>, "
                     r"memref<1000x3001xf32>", ir)
    assert tr.written == {2}
    # Every op is located at the user's line in this kernel's file.
    store_line = line_of(K.add, "tk.store(Out")
    assert re.search(r"tile.store .* loc\(\"%s\":%d:\d+\)" % (
        re.escape(K.add.fn.__code__.co_filename), store_line), tr.text)


def test_trace_matmul_loop_is_an_scf_for():
    ir = strip_locs(K.matmul.trace(*MM_SIG).text)
    assert "tile.kernel @matmul_0 grid [5, 3] threads 128" in ir
    zero = re.search(r"(%\d+) = tile.splat %\d+ : f32 -> !tile.tile<64x64xf32>", ir)
    loop = re.search(r"(%\d+) = scf.for (%\d+) = %\d+ to %\d+ step %\d+ "
                     r"iter_args\((%\d+) = (%\d+)\) -> \(!tile.tile<64x64xf32>\) \{", ir)
    assert zero and loop and loop.group(4) == zero.group(1)
    iv, acc = loop.group(2), loop.group(3)
    body = ir[loop.end():ir.index("scf.yield")]
    assert re.search(r"tile.load %%k_A\[%%\d+, %s\] : memref<257x192xbf16> -> "
                     r"!tile.tile<64x32xbf16>" % iv, body)
    assert re.search(r"tile.load %%k_B\[%s, %%\d+\] : memref<192x136xbf16> -> "
                     r"!tile.tile<32x64xbf16>" % iv, body)
    assert re.search(r"tile.dot %%\d+, %%\d+, %s : !tile.tile<64x32xbf16>, "
                     r"!tile.tile<32x64xbf16> -> !tile.tile<64x64xf32>" % acc, body)
    assert "arith.constant 192 : index" in ir and "arith.constant 32 : index" in ir
    after = ir[ir.index("scf.yield"):]
    assert re.search(r"tile.cast %s : !tile.tile<64x64xf32> -> "
                     r"!tile.tile<64x64xbf16>" % loop.group(1), after)


def test_trace_softmax_reductions_and_broadcasts():
    ir = strip_locs(K.softmax.trace(("f32", (333, 1025)), ("f32", (333, 1025))).text)
    assert "grid [167] threads 128" in ir
    assert ("{padding = 0xFF800000 : f32} : memref<333x1025xf32> -> "
            "!tile.tile<2x2048xf32>") in ir
    assert "arith.constant 0xFF800000 : f32" in ir  # max's identity
    assert ir.count("tile.reduce") == 2 and "arith.maximumf" in ir
    assert re.findall(r"tile.broadcast %\d+ \[1\] : !tile.tile<2xf32> -> "
                      r"!tile.tile<2x2048xf32>", ir).__len__() == 2
    # bf16: padded with bf16's -inf, computed in f32, stored as bf16.
    ir = strip_locs(K.softmax.trace(("bf16", (100, 4097)), ("bf16", (100, 4097)),
                                    1).text)
    assert "{padding = 0xFF80 : bf16}" in ir and "grid [100]" in ir
    assert "tile.cast" in ir and "!tile.tile<1x8192xbf16>" in ir


def test_loop_carried_values():
    @tile.kernel(grid=(2,), threads=64)
    def loops(X, Y):
        p = tk.program_id(0)
        scale = tk.full((64,), 2.0)        # used in the loop, never reassigned
        acc = tk.zeros((64,))
        off = 0                            # an int the loop changes: an index
        for i in tk.range(0, 4):
            x = tk.load(X, (p * 64 + i * 128,), (64,))
            acc = acc + x * scale
            off = off + 64
            for j in tk.range(2):          # nested loop, carries acc
                acc = acc * 0.5
        tk.store(Y, (off,), acc)

    ir = strip_locs(loops.trace(("f32", (1000,)), ("f32", (1000,))).text)
    outer = re.search(r"(%\d+):2 = scf.for %\d+ = %\d+ to %\d+ step %\d+ "
                      r"iter_args\(%\d+ = %\d+, %\d+ = %\d+\) -> "
                      r"\(!tile.tile<64xf32>, index\)", ir)
    assert outer, ir
    assert len(re.findall(r"scf.for", ir)) == 2
    inner = re.search(r"= scf.for %\d+ = %\d+ to %\d+ step %\d+ iter_args\("
                      r"%\d+ = %\d+\) -> \(!tile.tile<64xf32>\)", ir)
    assert inner
    # The loop-invariant tile is used directly, not carried.
    splat = re.search(r"(%\d+) = tile.splat %\d+ : f32 -> !tile.tile<64xf32>", ir)
    assert re.search(r"tile.map \(%%\d+, %s\)" % splat.group(1), ir)
    assert f"tile.store {outer.group(1)}#0, %k_Y[{outer.group(1)}#1]" in ir


def test_fori_and_loop_invariant_carry():
    @tile.kernel(grid=(1,), threads=32)
    def f(X, Y):
        t = tk.load(X, (0,), (32,))
        s = tk.fori(0, 10, 1, (t, tk.zeros((32,))),
                    lambda k, keep, acc: (keep, acc + keep))
        tk.store(Y, (0,), s[1] + s[0])

    ir = strip_locs(f.trace(("f32", (32,)), ("f32", (32,))).text)
    # `keep` is returned unchanged: only `acc` is carried.
    assert re.search(r"= scf.for %\d+ = %\d+ to %\d+ step %\d+ iter_args\(%\d+ = "
                     r"%\d+\) -> \(!tile.tile<32xf32>\)", ir), ir


def test_tk_map_and_math():
    @tile.kernel(grid=(4,), threads=128)
    def f(X, Y):
        x = tk.load(X, (tk.program_id(0) * 256,), (256,))
        y = tk.map(lambda v: tk.maximum(v * 2.0 + 1.0, 0.0) - tk.exp(-v), x)
        tk.store(Y, (tk.program_id(0) * 256,), tk.sigmoid(y) ** 2)

    ir = strip_locs(f.trace(("f32", (1000,)), ("f32", (1000,))).text)
    start = ir.index("tile.map")
    first = ir[start:ir.index("}", start)]
    for op in ("arith.mulf", "arith.addf", "arith.maximumf", "math.exp",
               "arith.negf", "arith.subf"):
        assert op in first, op
    assert ir.count("tile.map") == 3


def test_keys_are_deterministic():
    a = K.matmul.trace(*MM_SIG)
    b = tk.KernelFunction(K.matmul.fn, grid=K.matmul.grid).trace(*MM_SIG)
    assert a.key_text == b.key_text and "loc(" not in a.key_text
    opts = K.matmul.options("sm_90a")
    assert "level=tile" in opts.canonical()
    key = cache.cache_key(a.key_text, opts.canonical(), "sm_90a")
    assert key == cache.cache_key(b.key_text, opts.canonical(), "sm_90a")
    # The level is part of the key.
    other = tile.compiler.CompileOptions(target="sm_90a")
    assert cache.cache_key(a.key_text, other.canonical(), "sm_90a") != key


def test_grid_forms():
    def body(X, Y):
        tk.store(Y, (0,), tk.load(X, (0,), (32,)))

    sig = [("f32", (100,)), ("f32", (100,))]
    assert tk.KernelFunction(body, grid=3, threads=32).trace(*sig).grid == (3,)
    assert tk.KernelFunction(body, grid=lambda X: (X.shape[0] // 32,),
                             threads=32).trace(*sig).grid == (3,)
    assert tk.KernelFunction(body, grid=lambda n: (n, 2),
                             threads=32).trace(*sig).grid == (100, 2)
    k = tk.KernelFunction(body, grid=(1,), threads=32)
    assert k[(5, 2)].trace(*sig).grid == (5, 2)
    with pytest.raises(tile.TraceError, match="grid must be 1 to 3 positive ints"):
        tk.KernelFunction(body, grid=(0,), threads=32).trace(*sig)
    with pytest.raises(tile.TraceError, match="threads must be a multiple of 32"):
        tk.KernelFunction(body, grid=(1,), threads=100)


def test_shape_symbols_are_checked():
    with pytest.raises(tile.ShapeError, match="K is 192 in 'A' but 190 in 'B'"):
        K.matmul.trace(("bf16", (257, 192)), ("bf16", (190, 136)),
                       ("bf16", (257, 136)))


# ---------------------------------------------------------------------------
# Errors name the user's line
# ---------------------------------------------------------------------------

def test_load_of_the_wrong_rank():
    @tile.kernel(grid=(1,), threads=128)
    def f(X, Y):
        x = tk.load(X, (0, 0), (64,))
        tk.store(Y, (0, 0), x)

    with pytest.raises(tile.ShapeError) as e:
        f.trace(("f32", (64, 64)), ("f32", (64, 64)))
    assert e.value.location.line == line_of(f, "x = tk.load(X")
    assert e.value.location.file == __file__
    assert "tile.load" in e.value.op
    assert "needs a tile of rank 2" in str(e.value)
    assert "x = tk.load(X, (0, 0), (64,))" in str(e.value)  # the source line


def test_dot_shape_mismatch():
    @tile.kernel(grid=(1,), threads=128)
    def f(A, B, C):
        a = tk.load(A, (0, 0), (64, 32))
        b = tk.load(B, (0, 0), (16, 64))
        c = tk.dot(a, b)
        tk.store(C, (0, 0), c)

    with pytest.raises(tile.ShapeError) as e:
        f.trace(("f32", (64, 32)), ("f32", (16, 64)), ("f32", (64, 64)))
    assert e.value.location.line == line_of(f, "c = tk.dot(a, b)")
    assert "tile.dot" in e.value.op
    assert "inner dimensions differ: [64, 32] @ [16, 64]" in str(e.value)


def test_mixing_dtypes():
    @tile.kernel(grid=(1,), threads=128)
    def f(X, Y, Z):
        s = tk.load(X, (0,), (128,)) + tk.load(Y, (0,), (128,))
        tk.store(Z, (0,), s)

    with pytest.raises(tile.DTypeError) as e:
        f.trace(("bf16", (128,)), ("f32", (128,)), ("f32", (128,)))
    assert e.value.location.line == line_of(f, "s = tk.load(X")
    assert "different dtypes (bf16 and f32)" in str(e.value)

    @tile.kernel(grid=(1,), threads=128)
    def g(X, Y):
        tk.store(Y, (0,), tk.load(X, (0,), (128,)))

    with pytest.raises(tile.DTypeError, match=r"store value.to\(tk.bf16\)") as e:
        g.trace(("f32", (128,)), ("bf16", (128,)))
    assert e.value.location.line == line_of(g, "tk.store(Y")


@pytest.mark.parametrize("case,exc,message", [
    ("threads", tile.ShapeError, "cannot be spread over the kernel's 128 threads"),
    ("index_in_tile", tile.UnsupportedOpError, "an index cannot enter tile arithmetic"),
    ("branch", tile.UnsupportedOpError, "known only on the GPU"),
    ("axis", tile.ShapeError, "not a dimension of the grid"),
    ("slice", tile.UnsupportedOpError, "cannot be indexed or sliced"),
    ("float_carry", tile.TraceError, "'s' is a Python float that the loop body changes"),
    ("loop_local", tile.TraceError, "'tmp' is assigned inside the tk.range loop"),
    ("carry_shape", tile.ShapeError, "a loop-carried tile keeps its shape"),
])
def test_trace_errors(case, exc, message):
    def f(X, Y):
        p = tk.program_id(0)
        x = tk.load(X, (0, 0), (64, 64))
        if case == "threads":
            x = tk.load(X, (0, 0), (3, 64))
        if case == "index_in_tile":
            x = x * p
        if case == "branch":
            if p:
                pass
        if case == "axis":
            tk.program_id(2)
        if case == "slice":
            x = x[0:2, :]
        if case == "float_carry":
            s = 0.0
            for k in tk.range(4):
                s = s + 1.0
        if case == "loop_local":
            for k in tk.range(4):
                x = tk.load(X, (k, 0), (64, 64))
                tmp = x * 2.0
            x = tmp
        if case == "carry_shape":
            acc = tk.zeros((64, 64))
            for k in tk.range(4):
                acc = acc.sum(axis=0)
        tk.store(Y, (0, 0), x)

    kern = tk.KernelFunction(f, grid=(2,), threads=128)
    with pytest.raises(exc, match=re.escape(message)) as e:
        kern.trace(("f32", (64, 64)), ("f32", (64, 64)))
    assert e.value.location is not None and e.value.location.file == __file__
    assert line_of(f, "def f") < e.value.location.line <= line_of(f, "tk.store(Y")


def test_nothing_stored_and_returned_values():
    def f(X, Y):
        return tk.load(X, (0,), (32,))

    with pytest.raises(tile.TraceError, match="returns a value"):
        tk.KernelFunction(f, grid=(1,), threads=32).trace(("f32", (32,)),
                                                          ("f32", (32,)))


def test_break_is_rejected_at_its_line():
    def f(X, Y):
        for k in tk.range(4):
            break

    with pytest.raises(tile.TraceError, match="`break` is not supported") as e:
        tk.KernelFunction(f, grid=(1,), threads=32).trace(("f32", (32,)),
                                                          ("f32", (32,)))
    assert e.value.location.line == line_of(f, "break")


def test_range_without_the_rewrite_points_to_fori():
    def f(X, Y):
        rng = tk.range  # a local alias: the rewrite cannot see through it
        for k in rng(4):
            pass

    with pytest.raises(tile.TraceError, match="use tk.fori"):
        tk.KernelFunction(f, grid=(1,), threads=32).trace(("f32", (32,)),
                                                          ("f32", (32,)))


# ---------------------------------------------------------------------------
# Compiling at the tile level (no GPU)
# ---------------------------------------------------------------------------

@pytest.mark.compiler
@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
def test_compile_add_bundle(target):
    ck = K.add.compile(ADD_SIG, target=target)
    assert isinstance(ck, tk.CompiledTileKernel) and not ck.from_cache
    b = ck.bundle
    assert b.target == target and b.function == "add"
    assert [(x.name, x.role, x.shape) for x in b.buffers] == [
        ("in0", "in", (1000, 3001)), ("in1", "in", (1000, 3001)),
        ("out0", "out", (1000, 3001))]
    assert not b.checks and all(l.stage == "main" for l in b.launches)
    assert ck.launches == [{"stage": "main", "module": "add_0", "entry": "add_0",
                            "grid": [16, 47, 1], "block": [128, 1, 1],
                            "smem": 0, "args": ["in0", "in1", "out0"]}]
    assert "level=tile" in b.options and "level=tile" in ck.options
    assert set(ck.stages) >= {"traced", "tile", "nvvm", "ptx"}
    assert "tensor" not in ck.stages and "reference" not in ck.stages
    assert "tile.kernel @add_0" in ck.stages["tile"]
    assert f".target {target}" in ck.ptx and ".visible .entry add_0" in ck.ptx
    assert ck.roles == ["in", "in", "out"]
    assert "out Out: f32[1000, 3001]" in str(ck)
    meta = json.load(open(ck.path[:-len(".tilebundle")] + ".json"))
    assert meta["function"] == "add" and meta["outputs"] == []
    assert "level=tile" in meta["options"]


@pytest.mark.compiler
@pytest.mark.parametrize("target,mark", [("sm_80", "mma.sync"),
                                         ("sm_90a", "wgmma.mma_async")])
def test_compile_matmul_uses_tensor_cores(target, mark):
    ck = K.matmul.compile(MM_SIG, target=target)
    assert mark in ck.ptx and ck.bundle.compute_class == "tc-bf16"
    assert "diagnostics" not in ck.stages
    ck = K.matmul_bias_relu.compile(K.GPU_SHAPES["matmul_bias_relu"][0],
                                    target=target)
    assert mark in ck.ptx


@pytest.mark.compiler
@pytest.mark.parametrize("target", ["sm_80", "sm_90a"])
def test_compile_other_kernels(target):
    for name, sigs in K.GPU_SHAPES.items():
        for sig in sigs:
            ck = getattr(K, name).compile(sig, target=target)
            assert ck.bundle.main_launches and not ck.bundle.checks


@pytest.mark.compiler
@pytest.mark.parametrize("target,mark", [("sm_80", "mma.sync"),
                                         ("sm_90a", "wgmma.mma_async")])
def test_every_dot_takes_the_tensor_cores(target, mark):
    """Kernels that are not a plain C = A @ B reach the tensor cores too: an
    accumulator that starts from C, a K loop that does not start at 0; the
    kernel around the dot keeps its own meaning (GPU tests check it)."""
    ck = K.matmul_partial_k.compile(K.GPU_SHAPES["matmul_partial_k"][0],
                                    target=target)
    assert mark in ck.ptx
    # 32 x 32 tiles on 4 warps are too small for wgmma (a warpgroup holds
    # 64 rows): mma.sync, tensor cores still.
    ck = K.matmul_accumulate.compile(K.GPU_SHAPES["matmul_accumulate"][0],
                                     target=target)
    assert "mma.sync" in ck.ptx
    # mma="simt" asks for the SIMT path explicitly.
    ck = tk.KernelFunction(K.matmul.fn, grid=K.matmul.grid, mma="simt").compile(
        MM_SIG, target=target)
    assert mark not in ck.ptx and "mma=simt" in ck.options


@pytest.mark.compiler
def test_cache_and_a_second_process(cache_dir):
    # Fresh KernelFunctions: K.add may hold the kernel in memory already.
    first = tk.KernelFunction(K.add.fn, grid=K.add.grid).compile(ADD_SIG,
                                                                target="sm_80")
    again = tk.KernelFunction(K.add.fn, grid=K.add.grid).compile(ADD_SIG,
                                                                target="sm_80")
    assert not first.from_cache and again.from_cache
    assert cache.stats["compiles"] == 1 and again.key == first.key
    code = ("import tile_kernels as K, tile\n"
            f"ck = K.add.compile({ADD_SIG!r}, target='sm_80')\n"
            "print('FROM_CACHE', ck.from_cache, tile.cache.stats['compiles'])\n")
    r = run_python(code, TILE_CACHE_DIR=cache_dir)
    assert r.returncode == 0, r.stderr
    assert "FROM_CACHE True 0" in r.stdout


@pytest.mark.compiler
def test_inspect_and_dump(tmp_path, monkeypatch):
    monkeypatch.setenv("TILE_DUMP", str(tmp_path / "dump"))
    fresh = tk.KernelFunction(K.softmax.fn, grid=K.softmax.grid)
    ck = fresh.inspect(("f32", (333, 1025)), ("f32", (333, 1025)),
                       target="sm_80")
    assert ck.ir.startswith("func.func @softmax(") and "loc(" in ck.ir
    assert ck.launches[0]["grid"] == [167, 1, 1]
    folder = tmp_path / "dump" / f"softmax-{ck.key[:12]}"
    names = sorted(os.listdir(folder))
    assert {"traced.mlir", "tile.mlir", "nvvm.mlir", "kernels.ptx",
            "launches.txt", "bundle-header.txt", "kernel.tilebundle"} <= set(names)
    assert "level=tile" in (folder / "bundle-header.txt").read_text()


@pytest.mark.compiler
def test_compiler_diagnostics_map_to_the_user_line():
    """What the trace does not catch, the verifier does: its diagnostic
    comes back at the user's line, naming the op. (The trace checks what
    it can, so the IR is corrupted here to reach the verifier.)"""
    tr = K.add.trace(*ADD_SIG)
    bad = re.sub(r"(tile.store %\d+, %k_Out\[%\d+), (%\d+)\]", r"\1]", tr.text)
    assert bad != tr.text
    with pytest.raises(tile.CompilationError) as e:
        tile.compiler.compile_ir(bad, tr.function_name, K.add.options("sm_80"),
                                 op_table=tr.builder.op_table)
    err = e.value
    assert err.location.line == line_of(K.add, "tk.store(Out")
    assert "tile.store" in err.op and "expected 2 indices" in str(err)


@pytest.mark.compiler
def test_launch_on_a_fake_driver():
    """The call path without torch or a GPU: trace, compile for the fake
    device (sm_90a), load, launch with every buffer in its slot."""
    fake = FakeDriver()
    rdriver.set_driver(fake)
    try:
        x = FakeArray((1000, 3001), "<f4", 0x6000_0000)
        y = FakeArray((1000, 3001), "<f4", 0x6100_0000)
        out = FakeArray((1000, 3001), "<f4", 0x6200_0000)
        assert K.add(x, y, out) is None
        launch = fake.launches[-1]
        assert launch[1] == (16, 47, 1) and launch[2] == (128, 1, 1)
        assert launch[5] == [0x6000_0000, 0x6100_0000, 0x6200_0000]
        hits = cache.stats["memory_hits"]
        K.add(x, y, out)  # the second call only launches
        assert len(fake.launches) == 2 and cache.stats["memory_hits"] == hits + 1
        loaded = K.add.inspect(*ADD_SIG, target="sm_90a").load(0)
        with pytest.raises(tile.ArgumentError, match=r"argument 'Out' has shape "
                           r"\[1000, 3000\] but the kernel was compiled for"):
            loaded(x, y, FakeArray((1000, 3000), "<f4", 0x6300_0000))
        # An output in the middle: buffers go to their in / out slots.
        a = FakeArray((256, 64), "<f4", 0x7000_0000)
        c = FakeArray((256, 32), "<f4", 0x7100_0000)
        b = FakeArray((64, 32), "<f4", 0x7200_0000)

        @tile.kernel(grid=(4,), threads=128)
        def mid(A, C, B):
            m0 = tk.program_id(0) * 64
            tk.store(C, (m0, 0), tk.dot(tk.load(A, (m0, 0), (64, 64)),
                                        tk.load(B, (0, 0), (64, 32))))

        mid(a, c, b)
        ck = mid.inspect(a, c, b, target="sm_90a")
        assert ck.roles == ["in", "out", "in"]
        ptr = {"in0": 0x7000_0000, "out0": 0x7100_0000, "in1": 0x7200_0000}
        assert fake.launches[-1][5] == [ptr[n] for n in ck.launches[0]["args"]]
    finally:
        rdriver.set_driver(None)


# ---------------------------------------------------------------------------
# On a GPU, against torch
# ---------------------------------------------------------------------------

def _torch():
    return pytest.importorskip("torch")


def rel_err(out, ref):
    out, ref = out.double(), ref.double()
    assert not out.isnan().any(), "NaN in the output"
    return ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()


def rand(shape, dtype):
    torch = _torch()
    dt = {"f32": torch.float32, "bf16": torch.bfloat16}[dtype]
    return torch.randn(*shape, device="cuda", dtype=dt)


@pytest.mark.gpu
@pytest.mark.parametrize("sig", K.GPU_SHAPES["add"], ids=str)
def test_gpu_add(sig):
    torch = _torch()
    x, y = rand(sig[0][1], sig[0][0]), rand(sig[1][1], sig[1][0])
    out = torch.full_like(x, float("nan"))
    K.add(x, y, out)
    torch.testing.assert_close(out, x + y)


@pytest.mark.gpu
@pytest.mark.parametrize("sig", K.GPU_SHAPES["softmax"], ids=str)
def test_gpu_softmax(sig):
    torch = _torch()
    x = rand(sig[0][1], sig[0][0]) * 3
    y = torch.full_like(x, float("nan"))
    K.softmax(x, y, *sig[2:])
    ref = torch.softmax(x.float(), -1)
    if x.dtype == torch.float32:
        torch.testing.assert_close(y, ref, rtol=2e-5, atol=1e-6)
    else:
        assert rel_err(y, ref) < 1e-2


@pytest.mark.gpu
@pytest.mark.parametrize("sig", K.GPU_SHAPES["matmul"], ids=str)
def test_gpu_matmul(sig):
    torch = _torch()
    (da, sa), (db, sb), (dc, sc) = sig
    a, b = rand(sa, da), rand(sb, db) / sa[1] ** 0.5
    c = torch.full(sc, float("nan"), device="cuda", dtype=a.dtype)
    K.matmul(a, b, c)
    ref = a.float() @ b.float()
    assert rel_err(c, ref) < (1e-2 if da == "bf16" else 1e-5)


@pytest.mark.gpu
def test_gpu_matmul_bias_relu_and_accumulate():
    torch = _torch()
    (_, sa), (_, sb), (_, sbias), (_, sc) = K.GPU_SHAPES["matmul_bias_relu"][0]
    a, b = rand(sa, "bf16"), rand(sb, "bf16") / sa[1] ** 0.5
    bias = rand(sbias, "bf16")
    c = torch.full(sc, float("nan"), device="cuda", dtype=torch.bfloat16)
    K.matmul_bias_relu(a, b, bias, c)
    ref = torch.relu(a.float() @ b.float() + bias.float())
    assert rel_err(c, ref) < 1e-2

    (_, sa), (_, sb), (_, sc), (_, sd) = K.GPU_SHAPES["matmul_accumulate"][0]
    a, b = rand(sa, "bf16"), rand(sb, "bf16") / sa[1] ** 0.5
    c = rand(sc, "f32")
    d = torch.full(sd, float("nan"), device="cuda")
    K.matmul_accumulate(a, b, c, d)
    torch.testing.assert_close(d, c + a.float() @ b.float(), rtol=1e-4, atol=1e-4)

    (_, sa), (_, sb), (_, sc) = K.GPU_SHAPES["matmul_partial_k"][0]
    a, b = rand(sa, "bf16"), rand(sb, "bf16") / sa[1] ** 0.5
    c = torch.full(sc, float("nan"), device="cuda", dtype=torch.bfloat16)
    K.matmul_partial_k(a, b, c)
    assert rel_err(c, a[:, 32:].float() @ b[32:, :].float()) < 1e-2


@pytest.mark.gpu
def test_gpu_argument_errors():
    torch = _torch()
    x = rand((1000, 3001), "f32")
    with pytest.raises(tile.ArgumentError, match="argument 'Out' is not contiguous"):
        K.add(x, x, torch.empty(3001, 1000, device="cuda").t())
    with pytest.raises(tile.ArgumentError, match="must be on a CUDA device"):
        K.add(x.cpu(), x.cpu(), x.cpu())


@pytest.mark.compiler
@pytest.mark.parametrize("grid,dim,most", [((2**32 + 1,), 0, 2**31 - 1),
                                           ((1, 65536), 1, 65535)])
def test_grid_past_cuda_limits_is_an_error(grid, dim, most):
    """A grid CUDA cannot launch is a compile error, not a bundle whose
    launch is truncated to another grid."""
    @tile.kernel(grid=grid, threads=32)
    def big(X, Y):
        tk.store(Y, (0,), tk.load(X, (0,), (32,)))

    with pytest.raises(tile.CompilationError,
                       match=f"programs along grid dimension {dim} but the GPU "
                             f"allows at most {most}"):
        big.compile([("f32", (32,)), ("f32", (32,))], target="sm_90a")
