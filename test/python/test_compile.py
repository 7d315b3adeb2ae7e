"""Compiling in-process: bundles, stages, the disk cache, AOT, inspection."""

import json

import pytest

import tile
import tile.language as tl
from tile import cache
from tile.runtime import bundle as rb

import kernels
from conftest import run_python

pytestmark = pytest.mark.compiler

SIG = [("f32", (100, 300)), ("f32", (300,))]


def test_bundle_and_stages():
    ck = kernels.scale_add.compile(SIG, target="sm_90a")
    assert not ck.from_cache and ck.compile_seconds > 0
    b = ck.bundle
    assert b.target == "sm_90a" and b.function == "scale_add"
    assert [(x.name, x.dtype.name, x.shape) for x in b.inputs] == [
        ("in0", "f32", (100, 300)), ("in1", "f32", (300,))]
    assert [(x.name, x.shape) for x in b.outputs] == [("out0", (100, 300))]
    assert b.main_launches and all(m.cubin for m in b.modules)
    assert set(ck.stages) >= {"traced", "tensor", "tile", "reference", "nvvm", "ptx"}
    assert "tile.kernel @scale_add_0" in ck.stages["tile"]
    assert "gpu.module @scale_add_0" in ck.stages["nvvm"]
    assert ".target sm_90a" in ck.ptx and ".visible .entry scale_add_0" in ck.ptx
    assert ck.launches[0]["entry"] == "scale_add_0"
    assert set(ck.launches[0]) == {"stage", "module", "entry", "grid", "block",
                                   "smem", "args"}
    # Stored in the cache with metadata.
    meta = json.load(open(ck.path[:-len(".tilebundle")] + ".json"))
    assert meta["function"] == "scale_add" and meta["target"] == "sm_90a"
    assert meta["outputs"] == [{"dtype": "f32", "shape": [100, 300]}]
    assert rb.parse(open(ck.path, "rb").read()).function == "scale_add"


@pytest.mark.parametrize("fn,sig", [
    ("bias_add", [("f32", (1000, 3001)), ("f32", (3001,))]),
    ("row_scale", [("bf16", (257, 1)), ("bf16", (257, 4096))]),
    ("col_broadcast", [("f32", (64, 48)), ("f32", (64, 1))]),
])
def test_broadcast_is_read_inside_one_kernel(fn, sig):
    # x + bias, s * x, x / s: the broadcast is never materialized (tile-fuse).
    ck = getattr(kernels, fn).compile(sig, target="sm_90a")
    assert len(ck.bundle.main_launches) == 1
    assert not [b for b in ck.bundle.buffers if b.role == "scratch"
                and not b.name.startswith("ref.")]
    assert "tile.broadcast" in ck.stages["tile"]


def test_memory_and_disk_cache_in_process():
    kernels.scale_add.compile(SIG, target="sm_80")
    kernels.scale_add.compile(SIG, target="sm_80")
    assert cache.stats["compiles"] == 1 and cache.stats["memory_hits"] == 1
    # Another JITFunction of the same source: a disk hit, no compile.
    again = tile.jit(kernels.scale_add.fn).compile(SIG, target="sm_80")
    assert again.from_cache and cache.stats["compiles"] == 1
    assert cache.stats["disk_hits"] == 1
    # Other options or target: another key.
    other = tile.compile(kernels.scale_add, SIG, target="sm_80",
                         tile_options="threads=128")
    assert other.key != again.key and cache.stats["compiles"] == 2


def test_second_process_compiles_nothing(cache_dir):
    first = kernels.softmax.compile([("f32", (64, 1000))], target="sm_90a")
    code = ("import kernels, tile\n"
            "ck = kernels.softmax.compile([('f32', (64, 1000))], target='sm_90a')\n"
            "print('KEY', ck.key, ck.from_cache, tile.cache.stats['compiles'])\n")
    r = run_python(code, TILE_LOG=1, TILE_CACHE_DIR=cache_dir)
    assert r.returncode == 0, r.stderr
    assert f"KEY {first.key} True 0" in r.stdout
    assert f"tile: cache hit {first.key[:16]} softmax(x: f32[64, 1000]) for sm_90a" \
        in r.stderr


def test_aot_without_gpu_fills_cache_for_each_target(cache_dir):
    sig = [("bf16", (256, 128)), ("bf16", (128, 512)), ("bf16", (512,))]
    a = tile.compile(kernels.bias_gelu, sig, target="sm_90a")
    b = tile.compile(kernels.bias_gelu, sig, target="sm_80")
    assert a.key != b.key
    files = sorted(p.name for p in cache_dir.rglob("*.tilebundle"))
    assert files == sorted([a.key + ".tilebundle", b.key + ".tilebundle"])
    # Hopper: a TMA/wgmma kernel with its tensor maps; Ampere: none.
    assert a.bundle.tensormaps and a.bundle.compute_class == "tc-bf16"
    assert "wgmma" in a.ptx
    assert not b.bundle.tensormaps


def test_inspect_and_dump(tmp_path, monkeypatch):
    monkeypatch.setenv("TILE_DUMP", str(tmp_path / "dump"))
    ck = kernels.layernorm.inspect(("bf16", (64, 256)), ("f32", (256,)),
                                   ("f32", (256,)), target="sm_90a")
    text = str(ck)
    assert "layernorm for sm_90a" in text and "launch layernorm_0" in text
    folder = tmp_path / "dump" / f"layernorm-{ck.key[:12]}"
    names = sorted(p.name for p in folder.iterdir())
    assert names == sorted(["traced.mlir", "tensor.mlir", "tile.mlir",
                            "reference.mlir", "nvvm.mlir", "kernels.ptx",
                            "launches.txt", "bundle-header.txt",
                            "kernel.tilebundle"])
    assert (folder / "bundle-header.txt").read_text().startswith("TILEBUNDLE 2\n")


def test_many_ops_compile():
    for fn, sig in [
        (kernels.chain, [("f32", (257, 129)), ("f32", (257, 129))]),
        (kernels.row_stats, [("bf16", (40, 50))]),
        (kernels.col_broadcast, [("f32", (64, 48)), ("f32", (64, 1))]),
        (kernels.rmsnorm, [("bf16", (33, 200)), ("bf16", (200,))]),
        (kernels.mlp, [("bf16", (256, 128)), ("bf16", (128, 512)),
                       ("bf16", (512,)), ("bf16", (512, 128)), ("bf16", (128,)),
                       ("bf16", (128,)), ("bf16", (128,))]),
    ]:
        ck = fn.compile(sig, target="sm_90a")
        assert ck.bundle.main_launches, fn


def test_two_elementwise_producers():
    """(x * 2) + (y * 3): two producers feeding one op (tile-fuse once
    crashed here); run in a child so that a crash cannot take pytest down."""
    code = ("import tile\n"
            "def f(x, y):\n"
            "    return (x * 2.0) + (y * 3.0)\n"
            "ck = tile.compile(f, [('f32', (64, 64)), ('f32', (64, 64))], target='sm_80')\n"
            "print('OK', len(ck.launches))\n")
    r = run_python(code)
    assert r.returncode == 0 and "OK" in r.stdout, r.stderr[-2000:]


def test_fast_math_and_pipeline_options():
    """fast_math and pipeline_options reach the compiler, change the key, and
    leave the reference exact."""
    sig = [("bf16", (256, 1000))]
    exact = tile.compile(kernels.softmax, sig, target="sm_90a")
    fast = tile.compile(kernels.softmax, sig, target="sm_90a", fast_math=True)
    assert fast.key != exact.key
    main = lambda ck: ck.ptx.split("// module softmax_ref")[0]  # noqa: E731
    assert "div.approx.f32" in main(fast) and "div.approx.f32" not in main(exact)
    assert "div.approx" not in fast.ptx.split("// module softmax_ref")[1]

    mm_sig = [("bf16", (512, 512)), ("bf16", (512, 512))]

    @tile.jit
    def mm(a, b):
        return (a @ b).to(tl.bf16)

    default = mm.inspect(*mm_sig, target="sm_90a")
    three = tile.compile(mm, mm_sig, target="sm_90a",
                         pipeline_options="sms=3")
    assert [l["grid"] for l in default.launches] == [[64, 1, 1]]  # 512^2 in 64 x 64 blocks
    assert [l["grid"] for l in three.launches] == [[3, 1, 1]]
    with pytest.raises(tile.CompilationError, match="may not hold a brace"):
        tile.compile(mm, mm_sig, target="sm_90a",
                     pipeline_options="sms=3} ,canonicalize{")
    with pytest.raises(tile.CompilationError, match="no such option bogus|bad pass pipeline"):
        tile.compile(mm, mm_sig, target="sm_90a", pipeline_options="bogus=1")


def test_lineinfo_names_the_users_lines(cache_dir):
    """lineinfo=True: the PTX's .file is this file, its .loc lines the
    lines of the traced ops (Nsight Compute's source view); off by
    default."""
    import inspect
    import re

    import tile.language as tl

    def scaled_exp(x):
        y = tl.exp(x) * 3.0
        return y

    line = inspect.getsourcelines(scaled_exp)[1] + 1
    ck = tile.compile(scaled_exp, [("f32", (256, 300))], target="sm_90a",
                      lineinfo=True)
    files = re.findall(r'\.file\s+(\d+) "([^"]+)"', ck.ptx)
    assert [f for _, f in files] == [__file__]
    assert re.search(rf"\.loc\s+{files[0][0]} {line} \d+", ck.ptx)
    assert "line-info=1" in ck.options and ".target sm_90a\n" in ck.ptx
    plain = tile.compile(scaled_exp, [("f32", (256, 300))], target="sm_90a")
    assert ".loc" not in plain.ptx


def test_tuning_db(tmp_path, monkeypatch):
    """A tuning database's config reaches the compiler (tuning_db= or
    $TILE_TUNING_DB), and its contents are part of the cache key."""
    sig = [("bf16", (16, 4096)), ("bf16", (4096, 4096))]

    @tile.jit
    def proj(x, w):
        return (x @ w).to(tl.bf16)

    config = ("#tile.config<block = [64, 256, 64], threads = 128, mma = wgmma, "
              "instr = [64, 256, 16], warps = [4, 1], stages = 5, persistent = true, "
              "group_rows = 8, warp_specialize = true, split_k = 4>")
    entry = dict(tile_tuning=1, schedule=1, op="tile.matmul", chip="sm_90a",
                 sms=132, m=16, n=4096, k=4096, lhs="bf16", rhs="bf16",
                 result="f32", config=config)
    db = tmp_path / "tuning.jsonl"
    db.write_text(json.dumps(entry) + "\n")
    monkeypatch.delenv("TILE_TUNING_DB", raising=False)
    default = proj.inspect(*sig, target="sm_90a")
    tuned = tile.compile(proj, sig, target="sm_90a", tuning_db=str(db))
    # The heuristic's 64 x 64 blocks in 2 K ranges, against the recorded
    # 64 x 256 in 4: 16 column blocks x 4 ranges.
    assert [l["grid"] for l in default.launches][0] == [128, 1, 1]
    assert [l["grid"] for l in tuned.launches][0] == [64, 1, 1]
    assert tuned.key != default.key
    monkeypatch.setenv("TILE_TUNING_DB", str(db))
    from_env = tile.compile(proj, sig, target="sm_90a")
    assert from_env.key == tuned.key
    entry["config"] = config.replace("split_k = 4", "split_k = 2")
    db.write_text(json.dumps(entry) + "\n")
    retuned = tile.compile(proj, sig, target="sm_90a")
    assert retuned.key != tuned.key
    assert [l["grid"] for l in retuned.launches][0] == [32, 1, 1]


def test_bad_cache_entries_are_rebuilt_or_refused(cache_dir):
    """A cache entry is checked before it is used: a bundle of another op
    under this key, or a truncated one, is reported with its path and
    rebuilt; without the compiler it is an error, never launched."""
    # Fresh JITFunctions: no in-memory hits from earlier tests' caches.
    first = tile.jit(kernels.scale_add.fn).compile(SIG, target="sm_80")
    other = tile.jit(kernels.softmax.fn).compile([("f32", (64, 1000))],
                                                 target="sm_80")
    assert first.path.startswith(str(cache_dir))
    good = open(first.path, "rb").read()

    def lookup():
        return tile.jit(kernels.scale_add.fn).compile(SIG, target="sm_80")

    for bad in (open(other.path, "rb").read(), good[:len(good) // 2]):
        with open(first.path, "wb") as f:
            f.write(bad)
        compiles = cache.stats["compiles"]
        again = lookup()
        assert not again.from_cache and cache.stats["compiles"] == compiles + 1
        assert again.bundle.function == "scale_add"
        assert open(first.path, "rb").read() == good  # rewritten

    with open(first.path, "wb") as f:
        f.write(open(other.path, "rb").read())
    code = ("import kernels, tile\n"
            f"kernels.scale_add.compile({SIG!r}, target='sm_80')\n")
    r = run_python(code, TILE_CACHE_DIR=cache_dir, TILE_DISABLE_COMPILER=1)
    assert r.returncode != 0
    assert "BundleError" in r.stderr and first.path in r.stderr
    assert "it holds softmax for sm_80, not scale_add for sm_80" in r.stderr


def test_tile_past_the_bounds_is_a_located_error():
    # A 4096 x 4096 register tile over 128 threads once took 24 GB to
    # compile; the kernel verifier now refuses it at the user's line.
    import tile.kernel as tk

    @tile.kernel(grid=(1,), threads=128)
    def big(x, y):
        t = tk.load(x, (0, 0), (4096, 4096))
        tk.store(y, (0, 0), t)

    with pytest.raises(tile.CompilationError,
                       match=r"test_compile.py:\d+:\d+: error: in `load`.*"
                             r"at most 1024 a thread"):
        big.compile([("f32", (4096, 4096)), ("f32", (4096, 4096))],
                    target="sm_90a")


def test_fp8_linear_reaches_fp8_wgmma():
    # tl.scaled_matmul with W [N, K] transposed: one kernel on fp8 wgmma
    # (e4m3 x e5m2 here), the scales loaded once per program.
    sig = [("f8e4m3fn", (300, 544)), ("f8e5m2", (1040, 544)),
           ("f32", (1,)), ("f32", (1,))]
    ck = kernels.fp8_linear.compile(sig, target="sm_90a")
    assert ck.bundle.compute_class == "tc-fp8"
    assert [x.dtype.name for x in ck.bundle.inputs] == [
        "f8e4m3fn", "f8e5m2", "f32", "f32"]
    assert "wgmma.mma_async.sync.aligned.m64n" in ck.ptx
    assert "k32.f32.e4m3.e5m2" in ck.ptx
    assert "memref.load" in ck.stages["tile"]


def test_fp8_block_scales_are_one_kernel():
    # DeepSeek-V3's block scales in torch's layouts: one kernel on fp8
    # wgmma (the scale and weight transposes read as stored), each K step's
    # product started from zero (scale-d 0) and added with one fma per
    # element; a scale tensor without its unit dimension (one 128-row block
    # of A) compiles too.
    sig = [("f8e4m3fn", (1000, 544)), ("f8e4m3fn", (1040, 544)),
           ("f32", (5, 1000)), ("f32", (9, 5))]
    ck = kernels.fp8_linear_blocks.compile(sig, target="sm_90a")
    assert ck.bundle.compute_class == "tc-fp8"
    assert len(ck.bundle.main_launches) == 1
    assert "k32.f32.e4m3.e4m3" in ck.ptx
    assert "fma.rn.f32" in ck.ptx
    f = tile.jit(lambda x, w, sa, sb: tl.scaled_matmul(x, w.mT, sa, sb,
                                                       out_dtype=tl.f32))
    ck = f.compile([("f8e4m3fn", (100, 320)), ("f8e5m2", (200, 320)),
                    ("f32", (1, 3)), ("f32", (3, 200))], target="sm_90a")
    assert len(ck.bundle.main_launches) == 1
    assert "memref.expand_shape" in ck.stages["tile"]


def test_decode_linear_is_one_kernel():
    # x [1, K] @ w.mT: one row-group kernel reading w as stored, no
    # transpose kernel, no scratch; a wide K walks the row in chunks.
    for k in (4096, 60001):
        ck = kernels.decode_linear.compile([("bf16", (1, k)), ("bf16", (300, k))],
                                           target="sm_90a")
        assert len(ck.bundle.main_launches) == 1
        assert not [b for b in ck.bundle.buffers if b.role == "scratch"
                    and not b.name.startswith("ref.")]
        # The bundle's output is the IR's [N]; the call returns [1, N].
        assert [o.shape for o in ck.bundle.outputs] == [(300,)]


def test_int4_mma_layout_reads_fragments():
    # layout="mma": the unpack takes AWQ's nibble order (one lop3 a pair of
    # values), the matmul k_runs = 32. On sm_80, mma.sync: x's fragments by
    # ldmatrix, the weight's as each thread's 16 bytes. (That no byte
    # permutes remain is ptxas's doing: bench/RESULTS.md counts them in the
    # SASS.) On sm_90a at 16 rows, the transposed product: the weight's
    # runs are wgmma's register A (m64n16k16), x its B.
    sig = [("bf16", (16, 4096)), ("i8", (1024, 2048)), ("bf16", (32, 1024))]
    ck = kernels.int4_linear_mma.compile(sig, target="sm_80")
    assert len(ck.bundle.main_launches) == 1
    assert "ldmatrix.sync.aligned" in ck.ptx
    assert "mma.sync.aligned.m16n8k16" in ck.ptx
    assert "0x000f000f, 0x43084308, 0x6a" in ck.ptx
    ck = kernels.int4_linear_mma.compile(sig, target="sm_90a")
    assert len(ck.bundle.main_launches) == 1
    assert "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16" in ck.ptx
    assert "mma.sync" not in ck.ptx
    assert "0x000f000f, 0x43084308, 0x6a" in ck.ptx


def test_mxfp4_mma_layout_reads_fragments():
    # MXFP4's layout="mma": runs of 8 (a block of 32, one scale group), the
    # codes bit by bit in each word (tile.unpack bits), one kernel: on sm_80 the weight's fragments as
    # each thread's bytes and x's by ldmatrix; on sm_90a the transposed
    # product (wgmma, the weight as its register A).
    sig = [("bf16", (16, 4096)), ("i8", (1000, 2048)), ("i8", (1000, 128))]
    ck = kernels.mxfp4_linear_mma.compile(sig, target="sm_80")
    assert len(ck.bundle.main_launches) == 1
    assert "ldmatrix.sync.aligned" in ck.ptx
    assert "mma.sync.aligned.m16n8k16" in ck.ptx
    ck = kernels.mxfp4_linear_mma.compile(sig, target="sm_90a")
    assert len(ck.bundle.main_launches) == 1
    assert "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16" in ck.ptx
    # Each pair of codes placed by rotating its word (tile-packed-dequant
    # on the bits' order), kept by 0x81C081C0.
    assert "shf.l.wrap.b32" in ck.ptx
    assert "-2118090304" in ck.ptx


def test_mxfp4_bytes_as_uint8_and_e8m0_compile_alike():
    # qweight as uint8 and scales as float8_e8m0fnu: the same kernel as
    # int8 bytes, its buffers declared i8 in the bundle.
    sig = [("bf16", (16, 4096)), ("i8", (1000, 2048)), ("i8", (1000, 128))]
    ck = kernels.mxfp4_linear_mma.compile(sig, target="sm_90a")
    cu = kernels.mxfp4_linear_mma.compile(
        [sig[0], ("u8", sig[1][1]), ("f8e8m0fnu", sig[2][1])],
        target="sm_90a")
    assert cu.ptx == ck.ptx
    assert [b.dtype.name for b in cu.bundle.buffers] == \
        [b.dtype.name for b in ck.bundle.buffers]


def test_int4_weight_is_one_kernel():
    # tl.quantized_matmul: the unpack, the scales' repeat and the
    # dequantizing map join the matmul's kernel (mma.sync, the packed bytes
    # copied by cp.async), no [N, K] weight in memory; at M = 16 against a
    # deep K, split-K adds the partial sums in the kernel.
    sig = [("bf16", (16, 4096)), ("i8", (1024, 2048)), ("f32", (32, 1024))]
    ck = kernels.int4_linear.compile(sig, target="sm_90a")
    assert len(ck.bundle.main_launches) == 1
    assert "mma.sync.aligned.m16n8k16" in ck.ptx
    assert "cp.async" in ck.ptx
    # The 4-bit fields are and-ed out in place into f32s (the field at bit
    # 0 xor 2^23 + 8's bits: 0x4B000008), with no extract and no
    # conversion (tile-small-int-to-float).
    assert "xor.b32" in ck.ptx and "1258291208" in ck.ptx
    assert "bfe.s32" not in ck.ptx and "cvt.rn.f32.s" not in ck.ptx
    # With bf16 scales, in bf16 pairs (tile-packed-dequant): 136 + q from
    # one lop3 (and with 0x000F000F, xor with 0x43084308), minus 136,
    # times the scale.
    sig = [("bf16", (16, 4096)), ("i8", (1024, 2048)), ("bf16", (32, 1024))]
    ptx = kernels.int4_linear.compile(sig, target="sm_90a").ptx
    assert "lop3.b32" in ptx and "0x000f000f, 0x43084308, 0x6a" in ptx
    assert "add.rn.bf16x2" in ptx
    assert "mul.rn.bf16x2" in ptx
