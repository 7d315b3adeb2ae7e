"""The runtime without a GPU: bundle parsing, the launcher's logic on a
stand-in driver, and importing/launching with the compiler hidden."""

import ctypes
import gc
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import textwrap

import pytest

import tile
from tile import runtime
from tile.runtime import bundle as rb
from tile.runtime import driver as rdriver
from tile.runtime import launcher
from tile.runtime import native

import kernels
from conftest import run_python
from fakecuda import FakeArray, FakeDriver


def serialize(b: rb.Bundle) -> bytes:
    out = b.header().encode()
    for m in b.modules:
        out += m.ptx + m.cubin
    return out


def sample_bundle() -> rb.Bundle:
    """A Hopper-like bundle: a TMA matmul (two tensor maps, 193 KiB of
    dynamic shared memory) then an elementwise kernel through scratch."""
    f32, bf16 = tile.f32, tile.bf16
    b = rb.Bundle(target="sm_90a", function="mm", source_hash="ab" * 32,
                  options="chip=sm_90a features=+ptx80", compute_class="tc-bf16",
                  flops=2.0 * 256 * 128 * 64)
    b.buffers = [
        rb.Buffer("in0", "in", bf16, (256, 64), (64, 1)),
        rb.Buffer("in1", "in", bf16, (64, 128), (128, 1)),
        rb.Buffer("in2", "in", f32, (128,), (1,)),
        rb.Buffer("out0", "out", bf16, (256, 128), (128, 1)),
        rb.Buffer("tmp0", "scratch", f32, (256, 128), (128, 1)),
        rb.Buffer("out0.ref", "ref", bf16, (256, 128), (128, 1)),
    ]
    b.tensormaps = [rb.TensorMap("tmp.tma0", "in0", (128, 64), 128),
                    rb.TensorMap("tmp.tma1", "in1", (64, 64), 128)]
    b.modules = [rb.Module("mm_0", b".version 8.0\n", b"\x7fELF-cubin-0"),
                 rb.Module("mm_1", b".version 8.0\n", b"\x7fELF-cubin-1"),
                 rb.Module("mm_ref_0", b"", b"\x7fELF-ref")]
    b.launches = [
        rb.Launch("main", "mm_0", "mm_0", (2, 1, 1), (384, 1, 1), 197632,
                  ("tmp.tma0", "tmp.tma1", "tmp0")),
        rb.Launch("main", "mm_1", "mm_1", (128, 1, 1), (256, 1, 1), 0,
                  ("tmp0", "in2", "out0")),
        rb.Launch("reference", "mm_ref_0", "mm_ref_0", (64, 1, 1), (256, 1, 1),
                  0, ("in0", "in1", "in2", "out0.ref")),
    ]
    b.checks = [rb.Check("out0", "out0.ref", 0.01)]
    return b


def test_parse_round_trip():
    data = serialize(sample_bundle())
    b = rb.parse(data)
    end = data.index(b"\nend fnv1a ")
    assert b.header().encode() == data[:data.index(b"\n", end + 1) + 1]
    assert data[end + 11:end + 27].decode() == rb.fnv1a64(data[:end + 1])
    assert [x.name for x in b.inputs] == ["in0", "in1", "in2"]
    assert b.tensormaps[0].box == (128, 64) and b.tensormaps[0].swizzle == 128
    assert b.modules[1].cubin == b"\x7fELF-cubin-1"
    assert [l.entry for l in b.main_launches] == ["mm_0", "mm_1"]
    assert b.flops == 4194304 and b.checks[0].tolerance == 0.01
    assert rb.fnv1a64(b"") == "cbf29ce484222325"


def test_tensormap_box_of_lower_rank_views_rows():
    # An attention kernel's K [B, H, S, D] read as rows [B * H * S, D]: the
    # box's rank merges the leading dimensions; strides that do not merge
    # are rejected.
    assert rb.tensor_map_view((2, 3, 1000, 64), (192000, 64000, 64, 1), 2) == (
        [6000, 64], [64, 1])
    assert rb.tensor_map_view((2, 3, 1000, 64), (192000, 64000, 64, 1), 4) == (
        [2, 3, 1000, 64], [192000, 64000, 64, 1])
    assert rb.tensor_map_view((4, 64), (128, 1), 1) is None
    assert rb.tensor_map_view((4, 64), (64, 1), 3) is None
    b = sample_bundle()
    b.buffers[0] = rb.Buffer("in0", "in", tile.bf16, (2, 128, 64), (8192, 64, 1))
    assert rb.parse(serialize(b)).tensormaps[0].box == (128, 64)
    b.buffers[0] = rb.Buffer("in0", "in", tile.bf16, (2, 128, 64), (16384, 64, 1))
    with pytest.raises(rb.BundleError, match="does not fit buffer rank 3"):
        rb.parse(serialize(b))


@pytest.mark.parametrize("edit,message", [
    (lambda d: d.replace(b"TILEBUNDLE 2", b"TILEBUNDLE 1"), "unsupported bundle version '1'"),
    (lambda d: d.replace(b"buffer in2 in f32", b"buffer in2 in f7"), "unknown dtype 'f7'"),
    (lambda d: d.replace(b"class tc-bf16", b"class tc-fp7"),
     "unknown compute class 'tc-fp7' (expected simt-f32, tc-bf16, tc-f16, tc-tf32 or tc-fp8)"),
    (lambda d: d.replace(b"class tc-bf16\n", b"class tc-bf16\nfrobnicate 1\n"), "unknown keyword"),
    (lambda d: d[:-3], "bytes early (truncated)"),
    (lambda d: d + b"xx", "2 bytes after the last section"),
    (lambda d: d.replace(b"ELF-cubin-1", b"ELF-cubin-X"), "cubin of module 'mm_1' has FNV-1a .+ (corrupt file)"),
    # The PTX runs where the cubin does not (sm_80 on Hopper): hashed too.
    (lambda d: d.replace(b".version 8.0\n\x7fELF-cubin-1", b".version 8.1\n\x7fELF-cubin-1"),
     "PTX of module 'mm_1' has FNV-1a .+ (corrupt file)"),
    # A header edit that breaks no rule: the header's own FNV-1a.
    (lambda d: d.replace(b"grid 128 1 1", b"grid 129 1 1"),
     "the header has FNV-1a .+ but its 'end' line says"),
    (lambda d: d.replace(b"\nend fnv1a ", b"\nend crc32 "), "expected 'end fnv1a HASH'"),
    (lambda d: d.replace(b"args tmp0 in2 out0", b"args tmp0 in9 out0"), "'in9' is not a buffer"),
    (lambda d: d.replace(b"box 128x64 swizzle 128", b"box 128x65 swizzle 128"), "not a multiple of 16"),
    (lambda d: d.replace(b"box 64x64 swizzle 128", b"box 64x128 swizzle 128"), "exceeds the swizzle span"),
    (lambda d: d.replace(b"target sm_90a", b"target gfx90a"), "bad target"),
    # CUDA's grid limits, as tile-run checks them (ctypes would truncate).
    (lambda d: d.replace(b"grid 128 1 1", b"grid 4294967297 1 1"),
     "grid dimension 0 is 4294967297, past CUDA's limit of 2147483647"),
    (lambda d: d.replace(b"grid 128 1 1", b"grid 128 65536 1"),
     "grid dimension 1 is 65536, past CUDA's limit of 65535"),
])
def test_parse_rejects(edit, message):
    with pytest.raises(tile.BundleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rb.parse(edit(serialize(sample_bundle())))


def test_bundle_line_numbers_in_errors():
    data = serialize(sample_bundle()).replace(b"buffer in2 in f32", b"buffer in2 in f7")
    with pytest.raises(tile.BundleError, match=r"^error: bundle line 10: "):
        rb.parse(data)


def f8_bundle() -> rb.Bundle:
    """An FP8 GEMM: e4m3fn and e5m2 operands under 128-byte-swizzled tensor
    maps (128 f8 = 128 bytes innermost), a bf16 output."""
    b = rb.Bundle(target="sm_90a", function="mm8", source_hash="cd" * 32,
                  options="chip=sm_90a", compute_class="tc-fp8",
                  flops=2.0 * 128 * 128 * 128)
    b.buffers = [
        rb.Buffer("in0", "in", tile.dtypes.f8e4m3fn, (128, 128), (128, 1)),
        rb.Buffer("in1", "in", tile.dtypes.f8e5m2, (128, 128), (128, 1)),
        rb.Buffer("out0", "out", tile.bf16, (128, 128), (128, 1)),
        rb.Buffer("out0.ref", "ref", tile.bf16, (128, 128), (128, 1)),
    ]
    b.tensormaps = [rb.TensorMap("tmp.tma0", "in0", (64, 128), 128),
                    rb.TensorMap("tmp.tma1", "in1", (64, 128), 128)]
    b.modules = [rb.Module("mm8_0", b".version 8.0\n", b"\x7fELF-fp8"),
                 rb.Module("mm8_ref_0", b"", b"\x7fELF-ref")]
    b.launches = [
        rb.Launch("main", "mm8_0", "mm8_0", (4, 1, 1), (384, 1, 1), 0,
                  ("tmp.tma0", "tmp.tma1", "out0")),
        rb.Launch("reference", "mm8_ref_0", "mm8_ref_0", (64, 1, 1), (256, 1, 1),
                  0, ("in0", "in1", "out0.ref")),
    ]
    b.checks = [rb.Check("out0", "out0.ref", 0.01)]
    return b


def test_f8_dtypes_and_class():
    data = serialize(f8_bundle())
    assert b"\nclass tc-fp8\n" in data
    assert b"\nbuffer in0 in f8e4m3fn 128x128 128x1\n" in data
    assert b"\nbuffer in1 in f8e5m2 128x128 128x1\n" in data
    b = rb.parse(data)
    assert b.compute_class == "tc-fp8"
    e4m3, e5m2 = b.buffers[0].dtype, b.buffers[1].dtype
    assert (e4m3.name, e4m3.itemsize, e4m3.mlir, e4m3.torch_name) == (
        "f8e4m3fn", 1, "f8E4M3FN", "float8_e4m3fn")
    assert (e5m2.name, e5m2.itemsize, e5m2.mlir, e5m2.torch_name) == (
        "f8e5m2", 1, "f8E5M2", "float8_e5m2")
    assert b.buffers[0].nbytes == 128 * 128
    assert tile.dtypes.dtype("float8_e4m3fn") is e4m3
    # A box row of 129 f8 is 129 bytes: not a multiple of 16.
    with pytest.raises(tile.BundleError, match="innermost box extent 129 bytes"):
        rb.parse(data.replace(b"box 64x128 swizzle 128", b"box 64x129 swizzle 128", 1))
    # TMA copies every bundle dtype, the f8 types as UINT8 (0) like i8.
    assert set(tile.dtypes.BY_NAME) <= set(rdriver.TENSOR_MAP_DATA_TYPE)
    assert [rdriver.TENSOR_MAP_DATA_TYPE[n] for n in ("i8", "f8e4m3fn", "f8e5m2")] == [0, 0, 0]


def test_torch_f8_dtypes():
    torch = pytest.importorskip("torch")
    for name, dtype in (("float8_e4m3fn", "f8e4m3fn"), ("float8_e5m2", "f8e5m2")):
        if hasattr(torch, name):
            assert launcher._TORCH_DTYPES[getattr(torch, name)] == dtype
            assert tile.dtypes.BY_NAME[dtype].torch() is getattr(torch, name)
    # Every torch dtype the launcher takes is a bundle dtype, or the bytes
    # of a quantized weight (dtypes.BYTES: uint8, float8_e8m0fnu), of the
    # same size.
    for t, name in launcher._TORCH_DTYPES.items():
        assert name in tile.dtypes.BY_NAME or tile.dtypes.dtype(name) in tile.dtypes.BYTES
        assert t.itemsize == tile.dtypes.dtype(name).itemsize


def test_target_rules():
    assert launcher._target_loads("sm_90a", (9, 0)) == "cubin"
    assert launcher._target_loads("sm_80", (9, 0)) == "ptx"
    assert launcher._target_loads("sm_80", (8, 6)) == "cubin"
    with pytest.raises(tile.LaunchError, match="exactly 9.0"):
        launcher._target_loads("sm_90a", (10, 0))
    with pytest.raises(tile.LaunchError, match="8.0 or later"):
        launcher._target_loads("sm_80", (7, 5))
    assert launcher.default_target((9, 0)) == "sm_90a"
    assert launcher.default_target((8, 0)) == "sm_80"


@pytest.fixture(params=["c", "ctypes"])
def fake_driver(request, monkeypatch):
    """The stand-in driver, under each launch path: the C one
    (runtime.native) and ctypes."""
    if request.param == "ctypes":
        monkeypatch.setattr(native, "get", lambda: None)
    else:
        require_native()
    fake = FakeDriver()
    rdriver.set_driver(fake)
    yield fake
    rdriver.set_driver(None)


def require_native():
    """The C path where it can be built (a C compiler and Python.h); a
    machine without them launches through ctypes, tested on its own."""
    if native.get() is None:
        if native.can_build():
            pytest.fail(f"the C launch path did not build: {native.why_not}")
        pytest.skip(f"no C compiler or Python.h here: {native.why_not}")


def loaded_sample(fake_driver):
    k = runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0)
    assert (k._fast is not None) == (native.get() is not None)
    return k


def sample_arguments():
    return (BF16Array((256, 64), "<V2", 0x5000_0000),
            BF16Array((64, 128), "<V2", 0x5100_0000),
            FakeArray((128,), "<f4", 0x5200_0000))


def test_launch_retries_once_in_a_new_context(fake_driver):
    """CUDA_ERROR_INVALID_CONTEXT (a thread that has not used CUDA): the
    primary context is bound and the launch tried once more; another error,
    or the same twice, is a CudaError naming the kernel."""
    k = loaded_sample(fake_driver)
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    fake_driver.launch_results = (rdriver.CUDA_ERROR_INVALID_CONTEXT,)
    k(*sample_arguments(), out=out)
    assert [c for c in fake_driver.calls if c[0] == "use_primary_context"][-1:] == [
        ("use_primary_context", (0,))]
    assert len(fake_driver.launches) == 3  # the failed one, again, the second
    fake_driver.launch_results = (0, 700)
    with pytest.raises(rdriver.CudaError, match=r"cuLaunchKernel\('mm_1'\)"):
        k(*sample_arguments(), out=out)
    fake_driver.launch_results = (rdriver.CUDA_ERROR_INVALID_CONTEXT,) * 2
    with pytest.raises(rdriver.CudaError, match=r"cuLaunchKernel\('mm_0'\)"):
        k(*sample_arguments(), out=out)


def test_misaligned_tensor_map_buffer(fake_driver):
    k = loaded_sample(fake_driver)
    with pytest.raises(tile.ArgumentError, match="tensor map 'tmp.tma0' .argument "
                       "'in0'. is at 0x50000008, not 16-byte aligned"):
        k.launch_pointers([0x5000_0008, 0x5100_0000, 0x5200_0000], [0x5300_0000], 0)
    assert not fake_driver.launches


def test_kernel_launch_on_fake_driver(fake_driver):
    k = runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0)
    # Only main-stage modules load; the big kernel gets its smem raised.
    loads = [c for c in fake_driver.calls if c[0] == "load_module"]
    assert [c[1][0] for c in loads] == ["the cubin of module 'mm_0'",
                                        "the cubin of module 'mm_1'"]
    sets = [c for c in fake_driver.calls if c[0] == "set_function_attribute"]
    assert len(sets) == 1 and sets[0][1][1:] == (8, 197632)

    a = FakeArray((256, 64), "<V2", 0x5000_0000)
    b = FakeArray((64, 128), "<V2", 0x5100_0000)
    # Without a bf16 typestr the dtype is unknown: a clear error.
    with pytest.raises(tile.ArgumentError, match="argument 'in0' has unsupported typestr"):
        k(a, b, FakeArray((128,)), out=FakeArray((256, 128), "<V2"))


class BF16Array(FakeArray):
    dtype = "bfloat16"


def test_kernel_arguments_and_tensor_maps(fake_driver):
    k = runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0)
    a = BF16Array((256, 64), "<V2", 0x5000_0000)
    b = BF16Array((64, 128), "<V2", 0x5100_0000)
    bias = FakeArray((128,), "<f4", 0x5200_0000)
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    k(a, b, bias, out=out, stream=7)
    k(a, b, bias, out=out, stream=7)
    # Two launches per call, on the given stream, in file order.
    assert [l[1] for l in fake_driver.launches] == [(2, 1, 1), (128, 1, 1)] * 2
    assert all(l[4] == 7 for l in fake_driver.launches)
    (f0, _, block0, smem0, _, args0), (_, _, _, _, _, args1) = fake_driver.launches[:2]
    assert block0 == (384, 1, 1) and smem0 == 197632
    # Tensor maps: encoded once per address (the second call reuses them),
    # innermost dimension first, and passed as device pointers to copies.
    assert fake_driver.encoded == [
        ("bf16", 0x5000_0000, (256, 64), (64, 1), 2, (128, 64), 128),
        ("bf16", 0x5100_0000, (64, 128), (128, 1), 2, (64, 64), 128)]
    assert fake_driver.copies[args0[0]][:8] == (0x5000_0000).to_bytes(8, "little")
    assert fake_driver.copies[args0[1]][:8] == (0x5100_0000).to_bytes(8, "little")
    scratch = args0[2]
    assert args1 == [scratch, 0x5200_0000, 0x5300_0000]
    assert fake_driver.launches[2][5] == args0  # same pointers on the 2nd call
    # Another stream gets scratch buffers of its own (a call running there
    # at the same time must not write this stream's partial results).
    k(a, b, bias, out=out, stream=8)
    args0_8, args1_8 = fake_driver.launches[4][5], fake_driver.launches[5][5]
    assert args0_8[2] != scratch and args1_8[0] == args0_8[2]
    k(a, b, bias, out=out, stream=7)
    assert fake_driver.launches[6][5] == args0


class F8Array(FakeArray):
    """An ml_dtypes-style array: no typestr of its own, a dtype name."""

    def __init__(self, name, *args):
        super().__init__(*args)
        self.dtype = name


def test_f8_tensor_maps(fake_driver):
    k = runtime.Kernel(rb.parse(serialize(f8_bundle())), device=0)
    a = F8Array("float8_e4m3fn", (128, 128), "|V1", 0x5000_0000)
    b = F8Array("float8_e5m2", (128, 128), "|V1", 0x5100_0000)
    out = BF16Array((128, 128), "<V2", 0x5300_0000)
    k(a, b, out=out)
    assert fake_driver.encoded == [
        ("f8e4m3fn", 0x5000_0000, (128, 128), (128, 1), 1, (64, 128), 128),
        ("f8e5m2", 0x5100_0000, (128, 128), (128, 1), 1, (64, 128), 128)]
    # The operands' formats are not interchangeable, and a similar name is
    # another format.
    with pytest.raises(tile.ArgumentError, match="argument 'in1' has dtype "
                       "f8e4m3fn but the kernel was compiled for f8e5m2"):
        k(a, F8Array("float8_e4m3fn", (128, 128), "|V1", 0x5100_0000), out=out)
    with pytest.raises(tile.ArgumentError, match="argument 'in0' has unsupported typestr"):
        k(F8Array("float8_e4m3fnuz", (128, 128), "|V1", 0x5000_0000), b, out=out)


def test_kernel_argument_errors_name_the_argument(fake_driver):
    k = runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0,
                       input_names=["x", "w", "bias"])
    a = BF16Array((256, 64), "<V2", 0x5000_0000)
    b = BF16Array((64, 128), "<V2", 0x5100_0000)
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    with pytest.raises(tile.ArgumentError, match=r"argument 'bias' has shape \[127\] but"):
        k(a, b, FakeArray((127,)), out=out)
    with pytest.raises(tile.ArgumentError, match="argument 'bias' has dtype f16 but"):
        k(a, b, FakeArray((128,), "<f2"), out=out)
    with pytest.raises(tile.ArgumentError, match="argument 'w' is not contiguous"):
        k(a, BF16Array((64, 128), "<V2", 0x5100_0000, strides=(2, 128)),
          FakeArray((128,)), out=out)
    with pytest.raises(tile.ArgumentError, match="expected 3 arguments"):
        k(a, b, out=out)
    with pytest.raises(tile.ArgumentError, match="argument .x. starts at address 0x50000002, not a multiple of 16 bytes"):
        k(BF16Array((256, 64), "<V2", 0x5000_0002), b, FakeArray((128,)), out=out)
    with pytest.raises(tile.ArgumentError, match="is a list"):
        k([1.0], b, FakeArray((128,)), out=out)
    if not runtime.torch_available():
        with pytest.raises(tile.LaunchError, match="pass them with out="):
            k(a, b, FakeArray((128,)))


def test_tensor_maps_need_hopper(fake_driver):
    fake_driver.cc = (8, 0)
    with pytest.raises(tile.LaunchError, match="compute capability 9.0"):
        runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0)


@pytest.mark.compiler
def test_jit_call_on_fake_driver(fake_driver):
    """The whole @tile.jit path without torch or a GPU: trace, compile for
    the (fake) device's target, load, launch; a second call only launches."""
    tiny = tile.jit(kernels.tiny.fn)  # loaded on this test's driver
    x = FakeArray((64, 48), "<f4", 0x6000_0000)
    y = FakeArray((64, 48), "<f4", 0x6100_0000)
    r = tiny(x, out=y)
    assert r is y
    n = len(fake_driver.launches)
    assert n >= 1 and fake_driver.launches[-1][5][-2:] == [0x6000_0000, 0x6100_0000]
    tiny(x, out=y)
    assert len(fake_driver.launches) == 2 * n
    assert tile.cache.stats["compiles"] == 1
    with pytest.raises(tile.ArgumentError, match=r"out\[0\]' has shape \[64, 47\]"):
        tiny(x, out=FakeArray((64, 47), "<f4", 0x6200_0000))


@pytest.mark.compiler
def test_record_then_compile_fills_the_cache(fake_driver, tmp_path, monkeypatch):
    """tile.record writes each new signature a program calls; compiling the
    record into another cache gives the kernels the calls need, found there
    without compiling."""
    log = tmp_path / "signatures.jsonl"
    x = FakeArray((64, 48), "<f4", 0x6000_0000)
    y = FakeArray((64, 48), "<f4", 0x6100_0000)
    with tile.record(str(log)):
        kernels.tiny(x, out=y)
        kernels.tiny(x, out=y)  # the same signature: recorded once
        kernels.scale_add(FakeArray((100, 300), "<f4", 0x6200_0000),
                          FakeArray((300,), "<f4", 0x6300_0000),
                          out=FakeArray((100, 300), "<f4", 0x6400_0000))
    kernels.tiny(FakeArray((32, 48), "<f4", 0x6500_0000),
                 out=FakeArray((32, 48), "<f4", 0x6600_0000))  # outside: not recorded
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["qualname"], e["signature"][0]["shape"]) for e in entries] == [
        ("tiny", [64, 48]), ("scale_add", [100, 300])]
    assert all(e["target"] == "sm_90a" and e["module"] == "kernels" for e in entries)

    monkeypatch.setenv("TILE_CACHE_DIR", str(tmp_path / "aot-cache"))
    compiled = tile.compile_record(str(log))
    assert [c.function for c in compiled] == ["tiny", "scale_add"]
    again = tile.compile_record(str(log))
    assert all(c.from_cache for c in again)


HIDDEN = textwrap.dedent("""
    import sys
    class Block:  # the native module cannot be imported
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[-1] == "_tilecc":
                raise ImportError("hidden by the test")
    sys.meta_path.insert(0, Block())
""")


@pytest.mark.compiler
def test_runtime_and_cache_without_the_compiler(cache_dir, tmp_path):
    sig = [("f32", (64, 48))]
    # A fresh JITFunction: kernels.tiny may hold this kernel in memory from
    # an earlier test, which would leave this test's cache empty.
    ck = tile.jit(kernels.tiny.fn).compile(sig, target="sm_90a")
    path = tmp_path / "tiny.tilebundle"
    path.write_bytes(ck.bundle_bytes)
    code = HIDDEN + textwrap.dedent(f"""
        import tile.runtime as rt
        b = rt.load_bundle({str(path)!r})
        print("PARSED", b.function, b.target, [x.shape for x in b.inputs])
        import tile, kernels
        assert "_tilecc" not in sys.modules and "tile._tilecc" not in sys.modules
        print("COMPILER", tile.compiler.available())
        ck = kernels.tiny.compile({sig!r}, target="sm_90a")
        print("CACHED", ck.from_cache, ck.key, tile.cache.stats["compiles"])
        try:
            kernels.tiny.compile([("f32", (64, 49))], target="sm_90a")
        except tile.CompilerUnavailableError as e:
            print("UNAVAILABLE", "no cached kernel for tiny(x: f32[64, 49])" in str(e))
        # A launch from the cache, on the stand-in driver.
        import fakecuda
        from tile.runtime import driver
        fake = fakecuda.FakeDriver()
        driver.set_driver(fake)
        kernels.tiny(fakecuda.FakeArray((64, 48)),
                     out=fakecuda.FakeArray((64, 48), ptr=0x7100_0000))
        print("LAUNCHED", len(fake.launches), tile.cache.stats)
    """)
    r = run_python(code, TILE_CACHE_DIR=cache_dir)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "PARSED tiny sm_90a [(64, 48)]" in out
    assert "COMPILER False" in out
    assert f"CACHED True {ck.key} 0" in out
    assert "UNAVAILABLE True" in out
    assert "LAUNCHED 1" in out and "'compiles': 0" in out


@pytest.mark.compiler
def test_compiled_mlp_on_fake_driver(fake_driver):
    """A real Hopper bundle (layernorm, then two TMA/wgmma matmuls whose
    A operands are scratch buffers, each storing its tile through the TMA:
    tensormaps over the intermediate and the output too): every pointer
    resolves."""
    sig = kernels.GPU_SHAPES["mlp"][0]
    ck = tile.jit(kernels.mlp.fn).compile(sig, target="sm_90a")
    assert any(ck.bundle.buffer(t.buffer).role == "scratch"
               for t in ck.bundle.tensormaps)
    k = ck.load(0)
    ptrs = [0x1_0000_0000 * (i + 1) for i in range(len(sig))]
    args = [BF16Array(shape, "<V2", p) for (_, shape), p in zip(sig, ptrs)]
    out = BF16Array((256, 128), "<V2", 0x9_0000_0000)
    k(*args, out=out)
    scratch = {c[1][1] for c in fake_driver.calls if c[0] == "alloc"}
    arenas = [(c[1][1], c[1][0]) for c in fake_driver.calls if c[0] == "alloc"]
    for e in fake_driver.encoded:
        address = e[1]
        assert address in set(ptrs) | {0x9_0000_0000} or any(
            base <= address < base + size for base, size in arenas), hex(address)
    assert any(e[1] == 0x9_0000_0000 for e in fake_driver.encoded)
    for l in fake_driver.launches:
        for v in l[5]:
            assert v in scratch | set(ptrs) | {0x9_0000_0000} or v in fake_driver.copies
    assert len(fake_driver.launches) == len(ck.launches)


class PlainTensor:
    """What the C call path reads of a torch tensor, without torch."""

    def __init__(self, shape, dtype, ptr, contiguous=True, device=0,
                 itemsize=2):
        self.shape, self.dtype, self.ptr = tuple(shape), dtype, ptr
        self.contiguous, self.device = contiguous, device
        self.nbytes = itemsize * math.prod(self.shape)

    def is_contiguous(self):
        return self.contiguous

    def data_ptr(self):
        return self.ptr

    def get_device(self):
        return self.device


def test_c_call_path_takes_only_its_signature():
    """_fastlaunch's call(): the arguments of its signature (tensors of the
    given type, shapes and dtypes on the device, contiguous and 16-byte
    aligned; constants equal to its own) launch from C, with outputs from
    the allocator given, or out= when it fits; anything else is
    NotImplemented, for the Python path to look up, accept or reject with
    its located error."""
    require_native()
    fake = FakeDriver()
    rdriver.set_driver(fake)
    try:
        k = runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0)
        allocated = []

        def empty(shape, dtype, device):
            allocated.append((shape, dtype, device))
            return PlainTensor(shape, dtype, 0x9000_0000 + 0x10_0000 * len(allocated))

        def empty_like(x):
            allocated.append(("like", x.ptr))
            return PlainTensor(x.shape, x.dtype, 0x9000_0000 + 0x10_0000 * len(allocated))

        # Parameters (a, scale, b, bias): the constant is not a tensor.
        inputs = [(0, (256, 64), "bf16"), (2, (64, 128), "bf16"), (3, (128,), "f32")]
        by_empty = [((256, 128), "bf16", empty, -1, ((256, 128),),
                     {"dtype": "bf16", "device": "cuda:0"})]
        k._fast.set_call(4, PlainTensor, inputs, [(1, 1.5)], by_empty, 0,
                         lambda device: 42)
        a = PlainTensor((256, 64), "bf16", 0x5000_0000)
        b = PlainTensor((64, 128), "bf16", 0x5100_0000)
        bias = PlainTensor((128,), "f32", 0x5200_0000)
        r = k._fast.call((a, 1.5, b, bias), None, None)
        assert allocated == [((256, 128), "bf16", "cuda:0")]
        assert r.ptr == 0x9010_0000
        (_, _, _, _, s0, args0), (_, _, _, _, s1, args1) = fake.launches
        assert s0 == s1 == 42 and args1[1:] == [0x5200_0000, 0x9010_0000]
        assert [e[1] for e in fake.encoded] == [0x5000_0000, 0x5100_0000]
        out = PlainTensor((256, 128), "bf16", 0x5300_0000)
        assert k._fast.call((a, 1.5, b, bias), out, 7) is out
        assert fake.launches[-1][4] == 7 and fake.launches[-1][5][-1] == 0x5300_0000
        assert k._fast.call((a, 1.5, b, bias), [out], 7) is out
        assert len(fake.encoded) == 2  # the same addresses: no new descriptor
        n = len(fake.launches)
        for args, given in [
                ((PlainTensor((256, 64), "bf16", 0x5000_0000, contiguous=False),
                  1.5, b, bias), None),
                ((PlainTensor((256, 64), "bf16", 0x5000_0004), 1.5, b, bias), None),
                ((PlainTensor((256, 64), "bf16", 0x5000_0000, device=1), 1.5, b,
                  bias), None),
                ((PlainTensor((256, 64), "bf16", 0x5000_0000, device=-1), 1.5, b,
                  bias), None),
                ((PlainTensor((256, 63), "bf16", 0x5000_0000), 1.5, b, bias), None),
                ((PlainTensor((256, 64), "f16", 0x5000_0000), 1.5, b, bias), None),
                ((FakeArray((256, 64), "<V2", 0x5000_0000), 1.5, b, bias), None),
                ((a, 2.5, b, bias), None),   # another constant
                ((a, 1, b, bias), None),     # of another type
                ((a, 1.5, b), None),
                ((a, 1.5, b, bias), PlainTensor((256, 127), "bf16", 0x5300_0000)),
                ((a, 1.5, b, bias), PlainTensor((256, 128), "f32", 0x5300_0000)),
                ((a, 1.5, b, bias), PlainTensor((256, 128), "bf16", 0x5300_0000,
                                                device=1)),
                ((a, 1.5, b, bias), PlainTensor((256, 128), "bf16", 0x5300_0008)),
                ((a, 1.5, b, bias), (out, out)),
                # sharing bytes with an input (the Python path raises)
                ((a, 1.5, b, bias), PlainTensor((256, 128), "bf16",
                                                0x5000_0000 + 0x4000)),
                ((a, 1.5, b, bias), FakeArray((256, 128), "<V2", 0x5300_0000))]:
            assert k._fast.call(args, given, 7) is NotImplemented
        assert len(fake.launches) == n
        # A tensor map over a new address is described (and checked) again.
        moved = PlainTensor((256, 64), "bf16", 0x5400_0000)
        k._fast.call((moved, 1.5, b, bias), out, 7)
        assert [e[1] for e in fake.encoded][-1] == 0x5400_0000
        # An output allocated like an input (empty_like(bias) here).
        k._fast.set_call(4, PlainTensor, inputs, [(1, 1.5)],
                         [((256, 128), "bf16", empty_like, 3, (), None)], 0,
                         lambda device: 42)
        allocated.clear()
        k._fast.call((a, 1.5, b, bias), None, 7)
        assert allocated == [("like", 0x5200_0000)]
        with pytest.raises(ValueError, match="bad position"):
            k._fast.set_call(4, PlainTensor, [(4, (1,), "f32")], [], by_empty, 0, int)
        assert k._fast.call((a, 1.5, b, bias), None, 7) is NotImplemented
        del k  # the Launcher's callbacks hold the Kernel weakly
    finally:
        rdriver.set_driver(None)
    assert ("unload_module", (0x101,)) in fake.calls


def test_tensor_map_slots_under_graph_capture(monkeypatch):
    """Descriptors are written by asynchronous copies on the launch's
    stream from page-locked memory; the ones a CUDA graph capture used are
    never reused (its replays copy them again); a capture can neither
    synchronize nor allocate, so running out of slots there is an error."""
    monkeypatch.setattr(launcher._TensorMapSlots, "BLOCK", 3)
    fake = FakeDriver()
    slots = launcher._TensorMapSlots(fake, "tmp.tma0")
    encode = lambda a: a.to_bytes(8, "little") * 16  # noqa: E731
    a = slots.get(0x1000, encode, 5)
    assert fake.copies[a][:8] == (0x1000).to_bytes(8, "little")
    assert ("copy_to_device_async", (a, 5)) in fake.calls
    fake.capturing = {7}
    b = slots.get(0x2000, encode, 7)          # captured: kept for good
    assert slots.get(0x1000, encode, 7) == a  # a hit in a capture: kept too
    c = slots.get(0x3000, encode, 7)
    with pytest.raises(tile.LaunchError, match="capture gave tensor map "
                       "'tmp.tma0' more than 3 addresses"):
        slots.get(0x4000, encode, 7)
    assert ("synchronize", ()) not in fake.calls
    fake.capturing = frozenset()
    d = slots.get(0x4000, encode, 5)          # all kept: a new block
    assert len(slots.blocks) == 2 and ("synchronize", ()) not in fake.calls
    e = slots.get(0x5000, encode, 5)
    f = slots.get(0x6000, encode, 5)
    g = slots.get(0x7000, encode, 5)          # full: synchronize, reuse d's
    assert ("synchronize", ()) in fake.calls and g in {d, e, f}
    assert {a, b, c} == {slots.get(x, encode, 5) for x in (0x1000, 0x2000, 0x3000)}
    slots.release()
    assert len([c for c in fake.calls if c[0] == "free_host"]) == 2


def test_zeroed_scratch_is_zeroed_once_per_stream(fake_driver):
    """A `zeroed` buffer (split-K's arrival counters) is a scratch buffer
    that the launcher zero-fills on the launch's stream when it allocates
    it, once per stream (every launch leaves it zero); plain scratch is not
    filled."""
    b = sample_bundle()
    b.buffers.insert(5, rb.Buffer("tmp1", "zeroed", tile.dtypes.i32, (16,), (1,)))
    b.launches[1] = rb.Launch("main", "mm_1", "mm_1", (128, 1, 1),
                              (256, 1, 1), 0, ("tmp0", "tmp1", "in2", "out0"))
    text = serialize(b)
    assert "buffer tmp1 zeroed i32 16 1\n" in text.decode("latin-1")
    k = runtime.Kernel(rb.parse(text), device=0)
    a = BF16Array((256, 64), "<V2", 0x5000_0000)
    w = BF16Array((64, 128), "<V2", 0x5100_0000)
    bias = FakeArray((128,), "<f4", 0x5200_0000)
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    for stream in (7, 7, 8):
        k(a, w, bias, out=out, stream=stream)
    zeroed = [c[1] for c in fake_driver.calls if c[0] == "zero_async"]
    counters7 = fake_driver.launches[1][5][1]
    counters8 = fake_driver.launches[5][5][1]
    assert counters7 != counters8
    assert zeroed == [(counters7, 64, 7), (counters8, 64, 8)]


def test_capture_with_scratch_needs_torch(fake_driver):
    """While the stream captures a graph, scratch comes from torch's
    allocator (the graph's pool), never cuMemAlloc: without torch, a clear
    error; without capture, the per-stream scratch as before."""
    k = loaded_sample(fake_driver)
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    fake_driver.capturing = {9}
    if not runtime.torch_available():
        with pytest.raises(tile.LaunchError, match="capturing a CUDA graph of a "
                           "kernel with scratch buffers needs torch"):
            k(*sample_arguments(), out=out, stream=9)
    k(*sample_arguments(), out=out, stream=8)
    assert fake_driver.launches[-1][4] == 8


def test_zeroed_scratch_under_graph_capture(fake_driver, monkeypatch):
    """While a stream captures a CUDA graph, scratch comes from torch's
    allocator, and a `zeroed` buffer is zero-filled on the launch's own
    stream (a memset node ordered before the kernels in the graph), for
    every captured launch; plain scratch is not filled."""
    class FakeTensor:
        def __init__(self, address):
            self.address = address

        def data_ptr(self):
            return self.address

    class FakeTorch:
        uint8 = "uint8"
        next = 0x7000_0000

        class Tensor:  # no argument is one
            pass

        @staticmethod
        def device(kind, index):
            return (kind, index)

        @classmethod
        def empty(cls, nbytes, dtype, device):
            cls.next += 0x10_0000
            return FakeTensor(cls.next)

    b = sample_bundle()
    b.buffers.insert(5, rb.Buffer("tmp1", "zeroed", tile.dtypes.i32, (16,), (1,)))
    b.launches[1] = rb.Launch("main", "mm_1", "mm_1", (128, 1, 1),
                              (256, 1, 1), 0, ("tmp0", "tmp1", "in2", "out0"))
    k = runtime.Kernel(rb.parse(serialize(b)), device=0)
    monkeypatch.setattr(launcher, "_torch", FakeTorch)
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    fake_driver.capturing = {9}
    for _ in range(2):
        k(*sample_arguments(), out=out, stream=9)
    counters = [fake_driver.launches[i][5][1] for i in (1, 3)]
    zeroed = [c[1] for c in fake_driver.calls if c[0] == "zero_async"]
    assert zeroed == [(counters[0], 64, 9), (counters[1], 64, 9)]
    assert counters[0] != counters[1]


def test_a_callback_in_the_middle_of_a_launch(fake_driver):
    """A launch resolves its scratch and tensor maps through Python, which
    may run another call of the same kernel in between (another thread; here
    the callback itself, on another stream): each launch keeps the scratch
    of its own stream."""
    k = loaded_sample(fake_driver)
    a, b, bias = sample_arguments()
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    k(a, b, bias, out=out, stream=8)      # stream 8's scratch exists
    scratch8 = fake_driver.launches[-1][5][0]
    real = k._tensor_map_at
    nested = []

    def describe(j, address, stream):
        if not nested:
            nested.append(True)
            k(a, b, bias, out=out, stream=8)
        return real(j, address, stream)

    k._tensor_map_at = describe
    k(BF16Array((256, 64), "<V2", 0x5400_0000), b, bias, out=out, stream=7)
    *_, inner_mm1, outer_mm0, outer_mm1 = fake_driver.launches
    assert inner_mm1[4] == 8 and inner_mm1[5][0] == scratch8
    assert outer_mm0[4] == outer_mm1[4] == 7
    assert outer_mm1[5][0] == outer_mm0[5][2] != scratch8


# -- thread-block clusters ------------------------------------------------------

def cluster_bundle() -> rb.Bundle:
    """The sample with its matmul (grid 2 1 1) in clusters of two blocks."""
    b = sample_bundle()
    b.launches[0].cluster = (2, 1, 1)
    return b


def test_cluster_round_trip():
    # Without clusters the field is not written: old bundles stay the same.
    assert b"cluster" not in serialize(sample_bundle())
    data = serialize(cluster_bundle())
    assert (b"launch main mm_0 mm_0 grid 2 1 1 block 384 1 1 cluster 2 1 1 "
            b"smem 197632 args tmp.tma0 tmp.tma1 tmp0\n") in data
    b = rb.parse(data)
    assert [l.cluster for l in b.launches] == [(2, 1, 1), (1, 1, 1), (1, 1, 1)]
    assert [l.has_cluster for l in b.launches] == [True, False, False]
    assert serialize(b) == data
    assert b.launches[0].describe()["cluster"] == [2, 1, 1]
    assert "cluster" not in b.launches[1].describe()
    # Written out as 1 1 1, it reads as no cluster.
    plain = serialize(sample_bundle()).replace(b"block 256 1 1 smem 0 args tmp0",
                                               b"block 256 1 1 cluster 1 1 1 smem 0 args tmp0")
    assert not rb.parse(plain, verify_hashes=False).launches[1].has_cluster


@pytest.mark.parametrize("cluster,message", [
    (b"cluster 2 0 1", "bundle line 19: cluster dimension 1 is 0"),
    (b"cluster 3 1 1", "bundle line 19: grid dimension 0 (2) is not a multiple "
                       "of cluster dimension 0 (3)"),
    (b"cluster 2 1 1 block", "expected 'launch STAGE MODULE ENTRY grid X Y Z "
                             "block X Y Z [cluster X Y Z] [dependent] smem N "
                             "args ...'"),
    (b"cluster 2 x 1", "bundle line 19: malformed cluster size 'x'"),
    (b"cluster 4294967296 1 1", "bundle line 19: malformed cluster size '4294967296'"),
])
def test_cluster_rejects(cluster, message):
    data = serialize(cluster_bundle()).replace(b"cluster 2 1 1", cluster)
    with pytest.raises(tile.BundleError, match=re.escape(message)):
        rb.parse(data)


def test_cluster_of_more_than_eight_blocks():
    b = sample_bundle()
    b.launches[1].cluster = (4, 1, 1)  # grid 128 1 1
    assert rb.parse(serialize(b)).launches[1].cluster == (4, 1, 1)
    b.launches[1].cluster = (16, 1, 1)
    with pytest.raises(tile.BundleError, match=re.escape(
            "bundle line 20: cluster 16x1x1 has 16 blocks, more than the "
            "portable cluster size of 8")):
        rb.parse(serialize(b))


def test_launch_config_layout_is_cuda_h():
    """CUlaunchAttribute and CUlaunchConfig as cuda.h lays them out (CUDA 13):
    the attribute's 64-byte value union at offset 8, 72 bytes in all; the
    config's stream at 32, attributes at 40, their count at 48, 56 bytes;
    compared with the header itself where it and a C compiler are here."""
    layout = [ctypes.sizeof(rdriver.CUlaunchAttribute),
              rdriver.CUlaunchAttribute.value.offset,
              ctypes.sizeof(rdriver.CUlaunchAttributeValue),
              rdriver.CUlaunchAttributeValue.clusterDim.offset,
              rdriver.CUlaunchAttributeValue.programmaticStreamSerializationAllowed.offset,
              ctypes.sizeof(rdriver.CUlaunchConfig),
              rdriver.CUlaunchConfig.hStream.offset,
              rdriver.CUlaunchConfig.attrs.offset,
              rdriver.CUlaunchConfig.numAttrs.offset]
    assert layout == [72, 8, 64, 0, 0, 56, 32, 40, 48]
    include = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include")
    compiler = shutil.which("cc") or shutil.which("gcc")
    if not compiler or not os.path.exists(os.path.join(include, "cuda.h")):
        return
    program = textwrap.dedent("""\
        #include <cuda.h>
        #include <stddef.h>
        #include <stdio.h>
        int main(void) {
          printf("%zu %zu %zu %zu %zu %zu %zu %zu %zu %d %d\\n",
                 sizeof(CUlaunchAttribute), offsetof(CUlaunchAttribute, value),
                 sizeof(CUlaunchAttributeValue),
                 offsetof(CUlaunchAttributeValue, clusterDim),
                 offsetof(CUlaunchAttributeValue,
                          programmaticStreamSerializationAllowed),
                 sizeof(CUlaunchConfig), offsetof(CUlaunchConfig, hStream),
                 offsetof(CUlaunchConfig, attrs),
                 offsetof(CUlaunchConfig, numAttrs),
                 (int)CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
                 (int)CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION);
          return 0;
        }
        """)
    with tempfile.TemporaryDirectory() as tmp:
        source, binary = os.path.join(tmp, "layout.c"), os.path.join(tmp, "layout")
        with open(source, "w") as f:
            f.write(program)
        subprocess.run([compiler, "-I", include, source, "-o", binary], check=True)
        out = subprocess.run([binary], check=True, capture_output=True,
                             text=True).stdout.split()
    assert [int(v) for v in out] == layout + [
        rdriver.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION,
        rdriver.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION]


def launch_path() -> str:
    """The path the fake_driver fixture's kernels launch through."""
    return "c" if native.get() is not None else "ctypes"


def test_cluster_launch_goes_through_cuLaunchKernelEx(fake_driver):
    """A launch in clusters goes through cuLaunchKernelEx with its grid,
    block, shared memory, stream and cluster; the kernel's plain launch
    still through cuLaunchKernel. Both on the C path where it is built
    (the kernel is not sent to ctypes for its cluster), else ctypes."""
    k = runtime.Kernel(rb.parse(serialize(cluster_bundle())), device=0)
    path = launch_path()
    assert (k._fast is not None) == (path == "c")
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    k(*sample_arguments(), out=out, stream=7)
    assert fake_driver.launch_calls == [("cuLaunchKernelEx", (2, 1, 1)),
                                        ("cuLaunchKernel", None)]
    assert fake_driver.launch_paths == [path, path]
    assert not fake_driver.callback_errors
    (_, grid0, block0, smem0, stream0, args0), (_, _, _, _, stream1, args1) = \
        fake_driver.launches
    assert (grid0, block0, smem0, stream0, stream1) == (
        (2, 1, 1), (384, 1, 1), 197632, 7, 7)
    assert args1 == [args0[2], 0x5200_0000, 0x5300_0000]
    # The same launches as without the cluster, but for the call.
    plain = FakeDriver()
    rdriver.set_driver(plain)
    runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0)(
        *sample_arguments(), out=out, stream=7)
    assert plain.launch_calls == [("cuLaunchKernel", None)] * 2
    assert [l[:4] for l in plain.launches] == [l[:4] for l in fake_driver.launches]
    # The default stream; and a failure names the call and the kernel.
    k(*sample_arguments(), out=out, stream=0)
    assert fake_driver.launches[-2][4] == 0
    fake_driver.launch_results = (700,)
    with pytest.raises(rdriver.CudaError, match=r"cuLaunchKernelEx\('mm_0'\)"):
        k(*sample_arguments(), out=out)


def test_cluster_launch_retries_once_in_a_new_context(fake_driver):
    k = runtime.Kernel(rb.parse(serialize(cluster_bundle())), device=0)
    fake_driver.launch_results = (rdriver.CUDA_ERROR_INVALID_CONTEXT,)
    k(*sample_arguments(), out=BF16Array((256, 128), "<V2", 0x5300_0000))
    assert [c[0] for c in fake_driver.launch_calls] == [
        "cuLaunchKernelEx", "cuLaunchKernelEx", "cuLaunchKernel"]
    assert fake_driver.launch_paths == [launch_path()] * 3
    # The retry passes the same arguments (a refilled block, the same config).
    assert fake_driver.launches[0] == fake_driver.launches[1]
    # Twice: a CudaError naming cuLaunchKernelEx and the kernel.
    fake_driver.launch_results = (rdriver.CUDA_ERROR_INVALID_CONTEXT,) * 2
    with pytest.raises(rdriver.CudaError, match=r"cuLaunchKernelEx\('mm_0'\)"):
        k(*sample_arguments(), out=BF16Array((256, 128), "<V2", 0x5300_0000))


def every_launch_in_clusters() -> rb.Bundle:
    """The sample with both of its launches in clusters, of other shapes:
    the matmul (grid 2 1 1) in pairs, the elementwise kernel (grid 128 1 1)
    in fours."""
    b = sample_bundle()
    b.launches[0].cluster = (2, 1, 1)
    b.launches[1].cluster = (4, 1, 1)
    return b


def test_cluster_config_is_built_once_per_launch(fake_driver):
    """Each launch in clusters has its one CUlaunchConfig, made when the
    kernel is loaded, with its own grid, block, shared memory and cluster;
    a call sets only its stream (the legacy default stream as NULL)."""
    k = runtime.Kernel(rb.parse(serialize(every_launch_in_clusters())), device=0)
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    for stream in (7, 9, 0):
        k(*sample_arguments(), out=out, stream=stream)
    assert fake_driver.launch_calls == [("cuLaunchKernelEx", (2, 1, 1)),
                                        ("cuLaunchKernelEx", (4, 1, 1))] * 3
    assert fake_driver.launch_paths == [launch_path()] * 6
    assert [l[1:5] for l in fake_driver.launches] == [
        ((2, 1, 1), (384, 1, 1), 197632, s) if i == 0 else
        ((128, 1, 1), (256, 1, 1), 0, s)
        for s in (7, 9, 0) for i in (0, 1)]
    configs = fake_driver.ex_configs
    assert configs[0] != configs[1] and configs[2:] == configs[:2] * 2
    # The pointers are the plain sample's, launch for launch.
    plain = FakeDriver()
    rdriver.set_driver(plain)
    runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0)(
        *sample_arguments(), out=out, stream=7)
    assert [l[5] for l in plain.launches] == [l[5] for l in fake_driver.launches[:2]]
    assert not fake_driver.callback_errors


@pytest.fixture
def fake_c_driver():
    """The stand-in driver, under the C launch path alone."""
    require_native()
    fake = FakeDriver()
    rdriver.set_driver(fake)
    yield fake
    rdriver.set_driver(None)


def test_cluster_launch_on_the_C_path(fake_c_driver):
    """With the C module built, a kernel with a launch in clusters takes
    the C path: its launches go through the cuLaunchKernelEx and
    cuLaunchKernel whose addresses the driver gave the module (the fake's
    C-callable ones), never through ctypes."""
    fake_driver = fake_c_driver
    k = runtime.Kernel(rb.parse(serialize(cluster_bundle())), device=0)
    assert k._fast is not None
    k.launch_pointers([0x5000_0000, 0x5100_0000, 0x5200_0000], [0x5300_0000], 5)
    assert fake_driver.launch_paths == ["c", "c"]
    assert fake_driver.launch_calls == [("cuLaunchKernelEx", (2, 1, 1)),
                                        ("cuLaunchKernel", None)]
    (f0, grid0, block0, smem0, stream0, args0), \
        (f1, grid1, block1, smem1, stream1, args1) = fake_driver.launches
    assert (grid0, block0, smem0, stream0) == ((2, 1, 1), (384, 1, 1), 197632, 5)
    assert (grid1, block1, smem1, stream1) == ((128, 1, 1), (256, 1, 1), 0, 5)
    assert f0 == k._launches[0].function and f1 == k._launches[1].function
    assert args1 == [args0[2], 0x5200_0000, 0x5300_0000]
    # A launch error from the C path names cuLaunchKernelEx and the kernel.
    fake_driver.launch_results = (700,)
    with pytest.raises(rdriver.CudaError, match=r"cuLaunchKernelEx\('mm_0'\)"):
        k.launch_pointers([0x5000_0000, 0x5100_0000, 0x5200_0000],
                          [0x5300_0000], 5)
    assert fake_driver.launch_paths == ["c"] * 3
    assert not fake_driver.callback_errors


def test_C_launcher_checks_its_clusters(fake_c_driver):
    """_fastlaunch.Launcher: a launch in clusters needs cuLaunchKernelEx's
    address, and a cluster has no dimension of 0; a launch in clusters of
    1 1 1 is a plain one."""
    fake_driver = fake_c_driver
    module = native.get()
    address = fake_driver.launch_kernel_address()

    def make(ex_address, cluster):
        return module.Launcher(address, ex_address, 0,
                               [(0x42, (2, 1, 1), (128, 1, 1), 0, cluster,
                                 False, [(0, 0)])],
                               [], 0, None, None, None)

    with pytest.raises(ValueError, match="needs cuLaunchKernelEx"):
        make(0, (2, 1, 1))
    with pytest.raises(ValueError, match="cluster dimension is 0"):
        make(fake_driver.launch_kernel_ex_address(), (2, 0, 1))
    make(0, (1, 1, 1)).launch_pointers([0x5000_0000], [], 3)
    make(fake_driver.launch_kernel_ex_address(), (1, 1, 2)).launch_pointers(
        [0x5000_0000], [], 3)
    assert fake_driver.launch_calls == [("cuLaunchKernel", None),
                                        ("cuLaunchKernelEx", (1, 1, 2))]
    assert [l[:5] for l in fake_driver.launches] == [
        (0x42, (2, 1, 1), (128, 1, 1), 0, 3)] * 2
    assert [l[5] for l in fake_driver.launches] == [[0x5000_0000]] * 2


def test_fastlaunch_config_layout_is_cuda_h():
    """_fastlaunch.c's mirror of CUlaunchConfig, CUlaunchAttribute and
    CUlaunchAttributeValue (its asserts hold it to 56, 72 and 64 bytes and
    their offsets) compiled against cuda.h itself, where it and a C
    compiler are here: the sizes, offsets and the attribute's id agree."""
    include = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "include")
    compiler = native._compiler()
    if not compiler or not native.can_build() or \
            not os.path.exists(os.path.join(include, "cuda.h")):
        pytest.skip("no C compiler, Python.h or cuda.h here")
    import sysconfig
    done = subprocess.run(
        [compiler, "-fsyntax-only", "-std=c99", "-DTILE_FASTLAUNCH_CHECK_CUDA_H",
         "-I", sysconfig.get_paths()["include"], "-I", include, native._SOURCE],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert done.returncode == 0, done.stdout


def test_clusters_need_hopper(fake_driver):
    b = cluster_bundle()
    b.target = "sm_80"
    b.tensormaps = []  # which need Hopper too
    b.launches[0].args = ("in0", "in1", "tmp0")
    fake_driver.cc = (8, 9)
    with pytest.raises(tile.LaunchError, match="thread-block clusters, which "
                       "need compute capability 9.0"):
        runtime.Kernel(rb.parse(serialize(b)), device=0)
    b.launches[0].cluster = (1, 1, 1)
    runtime.Kernel(rb.parse(serialize(b)), device=0)


def test_driver_launch_picks_the_call():
    """Driver.launch: cuLaunchKernel for a plain launch, cuLaunchKernelEx
    with the cluster attribute for a launch in clusters."""
    fake = FakeDriver()
    drv = object.__new__(rdriver.Driver)  # no libcuda here
    drv.launch_raw, drv.launch_ex_raw = fake.launch_raw, fake.launch_ex_raw
    values = (ctypes.c_uint64 * 1)(0x5000_0000)
    params = (ctypes.c_void_p * 1)(ctypes.addressof(values))
    drv.launch(0x42, (8, 4, 2), (128, 1, 1), 1024, 5, params)
    drv.launch(0x42, (8, 4, 2), (128, 1, 1), 1024, 5, params, cluster=(1, 1, 2))
    assert fake.launch_calls == [("cuLaunchKernel", None),
                                 ("cuLaunchKernelEx", (1, 1, 2))]
    assert fake.launches[0] == fake.launches[1] == (
        0x42, (8, 4, 2), (128, 1, 1), 1024, 5, [0x5000_0000])


# -- programmatic dependent launch -----------------------------------------------

CLUSTER = rdriver.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
OVERLAP = rdriver.CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION


def dependent_bundle(cluster=False) -> rb.Bundle:
    """The sample with its elementwise kernel dependent on the matmul (it
    may start while the matmul finishes); with `cluster`, both launches in
    clusters too (the matmul in pairs, the elementwise kernel in fours)."""
    b = every_launch_in_clusters() if cluster else sample_bundle()
    b.launches[1].dependent = True
    return b


def test_dependent_round_trip():
    # Without it the keyword is not written: old bundles stay byte for byte.
    for plain in (sample_bundle(), cluster_bundle()):
        data = serialize(plain)
        assert b"dependent" not in data
        assert serialize(rb.parse(data)) == data
    assert (b"launch main mm_1 mm_1 grid 128 1 1 block 256 1 1 smem 0 args "
            b"tmp0 in2 out0\n") in serialize(sample_bundle())
    for cluster, fields in ((False, b""), (True, b"cluster 4 1 1 ")):
        data = serialize(dependent_bundle(cluster))
        assert (b"launch main mm_1 mm_1 grid 128 1 1 block 256 1 1 " + fields +
                b"dependent smem 0 args tmp0 in2 out0\n") in data
        assert data.count(b"dependent") == 1
        b = rb.parse(data)
        assert [l.dependent for l in b.launches] == [False, True, False]
        assert b.launches[1].cluster == ((4, 1, 1) if cluster else (1, 1, 1))
        assert b.launches[1].smem == 0
        assert b.launches[1].args == ("tmp0", "in2", "out0")
        assert serialize(b) == data
        assert b.launches[1].describe()["dependent"] is True
        assert "dependent" not in b.launches[0].describe()
        assert json.loads(json.dumps(b.launches[1].describe()))["dependent"]


def reference_first() -> rb.Bundle:
    """The sample with its reference launch first in the file."""
    b = sample_bundle()
    b.launches = [b.launches[2]] + b.launches[:2]
    return b


def dependent_at(bundle: rb.Bundle, index: int) -> rb.Bundle:
    bundle.launches[index].dependent = True
    return bundle


@pytest.mark.parametrize("data,message", [
    # lib/Runtime/Bundle.cpp's rules, with its messages.
    (lambda: serialize(dependent_at(sample_bundle(), 2)),
     "bundle line 21: a reference launch cannot be dependent (only main "
     "launches overlap the one before them)"),
    (lambda: serialize(dependent_at(sample_bundle(), 0)),
     "bundle line 19: the first main launch cannot be dependent (there is no "
     "main launch before it to overlap)"),
    # A reference launch before it does not count.
    (lambda: serialize(dependent_at(reference_first(), 1)),
     "bundle line 20: the first main launch cannot be dependent (there is no "
     "main launch before it to overlap)"),
    (lambda: serialize(dependent_at(reference_first(), 0)),
     "bundle line 19: a reference launch cannot be dependent (only main "
     "launches overlap the one before them)"),
    # Too short for it: the C++ reader's count (of the fields after
    # "launch") and the least it expects with `dependent`.
    (lambda: serialize(dependent_bundle()).replace(
        b"dependent smem 0 args tmp0 in2 out0", b"dependent smem 0"),
     "bundle line 20: 'launch' line has 14 fields (expected at least 15 with "
     "'dependent')"),
    (lambda: serialize(dependent_bundle(cluster=True)).replace(
        b"dependent smem 0 args tmp0 in2 out0", b"dependent smem 0"),
     "bundle line 20: 'launch' line has 18 fields (expected at least 19 with "
     "'dependent')"),
    # Only between the cluster (if any) and smem, and once.
    (lambda: serialize(dependent_bundle(cluster=True)).replace(
        b"cluster 4 1 1 dependent", b"dependent cluster 4 1 1"),
     "bundle line 20: expected 'launch STAGE MODULE ENTRY grid X Y Z block X Y "
     "Z [cluster X Y Z] [dependent] smem N args ...'"),
    (lambda: serialize(dependent_bundle()).replace(
        b"dependent smem 0 args", b"smem 0 dependent args"),
     "bundle line 20: expected 'launch STAGE MODULE ENTRY"),
    (lambda: serialize(dependent_bundle()).replace(
        b"dependent smem", b"dependent dependent smem"),
     "bundle line 20: expected 'launch STAGE MODULE ENTRY"),
    # Its kernel's griddepcontrol.wait exists from sm_90 on.
    (lambda: serialize(dependent_bundle()).replace(
        b"target sm_90a", b"target sm_80"),
     "bundle line 20: a dependent launch needs a target of sm_90 or later "
     "(griddepcontrol), but the bundle's is sm_80"),
], ids=["reference", "first-main", "first-main-after-reference",
        "reference-first", "short", "short-with-cluster", "before-cluster",
        "after-smem", "twice", "before-sm_90"])
def test_dependent_rejects(data, message):
    with pytest.raises(tile.BundleError, match=re.escape(message)):
        rb.parse(data())


def test_launch_config_attributes():
    """driver.launch_config: the cluster's attribute where there is one,
    then programmatic stream serialization's where the launch is dependent
    (tile-run's order); the config keeps its attributes alive."""
    def attributes(config):
        return [(config.attrs[i].id,
                 tuple(config.attrs[i].value.clusterDim)
                 if config.attrs[i].id == CLUSTER else
                 config.attrs[i].value.programmaticStreamSerializationAllowed)
                for i in range(config.numAttrs)]

    config = rdriver.launch_config((8, 4, 2), (128, 1, 1), (2, 1, 1), 1024,
                                   dependent=True)
    gc.collect()
    assert config.numAttrs == 2
    assert attributes(config) == [(CLUSTER, (2, 1, 1)), (OVERLAP, 1)]
    assert (config.gridDimX, config.gridDimY, config.gridDimZ,
            config.blockDimX, config.sharedMemBytes) == (8, 4, 2, 128, 1024)
    config = rdriver.launch_config((8, 4, 2), (128, 1, 1), (1, 1, 1), 0, True)
    assert config.numAttrs == 1 and attributes(config) == [(OVERLAP, 1)]
    config = rdriver.launch_config((8, 4, 2), (128, 1, 1), (1, 1, 2), 0)
    assert config.numAttrs == 1 and attributes(config) == [(CLUSTER, (1, 1, 2))]
    assert not rdriver.needs_launch_ex((1, 1, 1), False)
    assert rdriver.needs_launch_ex((1, 1, 1), True)
    assert rdriver.needs_launch_ex((1, 2, 1), False)


def test_dependent_launch_goes_through_cuLaunchKernelEx(fake_driver):
    """A dependent launch goes through cuLaunchKernelEx with one attribute,
    programmatic stream serialization allowed (1), and otherwise the plain
    launch's grid, block, shared memory, stream and arguments; the launch
    before it, and every launch of a bundle without it, through
    cuLaunchKernel. On the C path where it is built, else ctypes."""
    k = runtime.Kernel(rb.parse(serialize(dependent_bundle())), device=0)
    path = launch_path()
    assert (k._fast is not None) == (path == "c")
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    k(*sample_arguments(), out=out, stream=7)
    assert fake_driver.launch_calls == [("cuLaunchKernel", None),
                                        ("cuLaunchKernelEx", None)]
    assert fake_driver.launch_attributes == [None, [(OVERLAP, 1)]]
    assert fake_driver.launch_paths == [path, path]
    assert not fake_driver.callback_errors
    plain = FakeDriver()
    rdriver.set_driver(plain)
    runtime.Kernel(rb.parse(serialize(sample_bundle())), device=0)(
        *sample_arguments(), out=out, stream=7)
    assert plain.launch_calls == [("cuLaunchKernel", None)] * 2
    assert plain.launch_attributes == [None, None]
    assert plain.launches == fake_driver.launches
    # The config is built once; a call sets its stream (NULL: the legacy
    # default stream).
    k(*sample_arguments(), out=out, stream=0)
    assert fake_driver.launches[-1][4] == 0
    assert len(set(fake_driver.ex_configs)) == 1
    # A failure names cuLaunchKernelEx and the kernel.
    fake_driver.launch_results = (0, 700)
    with pytest.raises(rdriver.CudaError, match=r"cuLaunchKernelEx\('mm_1'\)"):
        k(*sample_arguments(), out=out)


def test_dependent_launch_in_clusters(fake_driver):
    """A dependent launch in clusters has two attributes: its cluster's
    dimensions, then programmatic stream serialization; the launch before
    it, in clusters alone, has one."""
    k = runtime.Kernel(rb.parse(serialize(dependent_bundle(cluster=True))),
                       device=0)
    out = BF16Array((256, 128), "<V2", 0x5300_0000)
    k(*sample_arguments(), out=out, stream=7)
    assert fake_driver.launch_calls == [("cuLaunchKernelEx", (2, 1, 1)),
                                        ("cuLaunchKernelEx", (4, 1, 1))]
    assert fake_driver.launch_attributes == [
        [(CLUSTER, (2, 1, 1))], [(CLUSTER, (4, 1, 1)), (OVERLAP, 1)]]
    assert fake_driver.launch_paths == [launch_path()] * 2
    assert [l[1:5] for l in fake_driver.launches] == [
        ((2, 1, 1), (384, 1, 1), 197632, 7), ((128, 1, 1), (256, 1, 1), 0, 7)]
    assert not fake_driver.callback_errors


def test_C_launcher_dependent_launches(fake_c_driver):
    """_fastlaunch.Launcher: a dependent launch needs cuLaunchKernelEx's
    address, and is given programmatic stream serialization after its
    cluster (if any); a launch that is neither goes through cuLaunchKernel."""
    fake_driver = fake_c_driver
    module = native.get()
    address = fake_driver.launch_kernel_address()
    ex_address = fake_driver.launch_kernel_ex_address()

    def make(ex_address, cluster, dependent):
        return module.Launcher(address, ex_address, 0,
                               [(0x42, (2, 1, 1), (128, 1, 1), 0, cluster,
                                 dependent, [(0, 0)])],
                               [], 0, None, None, None)

    with pytest.raises(ValueError, match="a dependent launch needs "
                       "cuLaunchKernelEx"):
        make(0, (1, 1, 1), True)
    with pytest.raises(ValueError, match="a launch in clusters needs "
                       "cuLaunchKernelEx"):
        make(0, (2, 1, 1), True)
    for cluster, dependent in (((1, 1, 1), True), ((2, 1, 1), True),
                               ((1, 1, 1), False)):
        make(ex_address, cluster, dependent).launch_pointers(
            [0x5000_0000], [], 3)
    assert fake_driver.launch_calls == [("cuLaunchKernelEx", None),
                                        ("cuLaunchKernelEx", (2, 1, 1)),
                                        ("cuLaunchKernel", None)]
    assert fake_driver.launch_attributes == [
        [(OVERLAP, 1)], [(CLUSTER, (2, 1, 1)), (OVERLAP, 1)], None]
    assert [l[:5] for l in fake_driver.launches] == [
        (0x42, (2, 1, 1), (128, 1, 1), 0, 3)] * 3
    assert not fake_driver.callback_errors


def test_driver_launch_of_a_dependent_launch():
    """Driver.launch: cuLaunchKernelEx for a dependent launch, with its
    cluster's attribute first where it has one."""
    fake = FakeDriver()
    drv = object.__new__(rdriver.Driver)  # no libcuda here
    drv.launch_raw, drv.launch_ex_raw = fake.launch_raw, fake.launch_ex_raw
    values = (ctypes.c_uint64 * 1)(0x5000_0000)
    params = (ctypes.c_void_p * 1)(ctypes.addressof(values))
    drv.launch(0x42, (8, 4, 2), (128, 1, 1), 1024, 5, params, dependent=True)
    drv.launch(0x42, (8, 4, 2), (128, 1, 1), 1024, 5, params, cluster=(1, 1, 2),
               dependent=True)
    drv.launch(0x42, (8, 4, 2), (128, 1, 1), 1024, 5, params, dependent=False)
    assert fake.launch_calls == [("cuLaunchKernelEx", None),
                                 ("cuLaunchKernelEx", (1, 1, 2)),
                                 ("cuLaunchKernel", None)]
    assert fake.launch_attributes == [
        [(OVERLAP, 1)], [(CLUSTER, (1, 1, 2)), (OVERLAP, 1)], None]
    assert fake.launches == [(0x42, (8, 4, 2), (128, 1, 1), 1024, 5,
                              [0x5000_0000])] * 3


def test_dependent_launches_need_hopper(fake_driver):
    # (A bundle may only have dependent launches on an sm_90 target or
    # later, whose cubin would not load here either: this refusal comes
    # first, naming the feature.)
    b = dependent_bundle()
    b.tensormaps = []  # which need Hopper too
    b.launches[0].args = ("in0", "in1", "tmp0")
    fake_driver.cc = (8, 9)
    with pytest.raises(tile.LaunchError, match=re.escape(
            "the kernel's launches overlap (programmatic dependent launch), "
            "which needs compute capability 9.0 or later")):
        runtime.Kernel(rb.parse(serialize(b)), device=0)
    b.launches[1].dependent = False
    with pytest.raises(tile.LaunchError, match=re.escape(
            "the kernel was compiled for sm_90a, which needs compute "
            "capability exactly 9.0")):
        runtime.Kernel(rb.parse(serialize(b)), device=0)


def test_output_on_another_device_is_rejected():
    # An out= tensor on another device than the kernel's: a kernel writing
    # that memory faults, or with peer access writes it unordered (an
    # audit; the C fast path rejected it and fell back to this check).
    on_one = launcher.ArgInfo(256, (4,), "float32", None, 1)
    with pytest.raises(tile.ArgumentError, match=r"output 'out\[0\]' is on cuda:1 but the kernel runs on cuda:0"):
        launcher.check_output_device(on_one, 0, "out[0]")
    launcher.check_output_device(on_one, 1, "out[0]")
    unknown = launcher.ArgInfo(256, (4,), "float32", None, None)
    launcher.check_output_device(unknown, 0, "out[0]")


def test_output_sharing_memory_is_rejected(fake_driver):
    """k(x, out=x) is no in-place update: a kernel may read an input after
    writing its output (an audit of the launch paths). An output that
    overlaps an input, even in part, is an ArgumentError naming both, and
    nothing is launched; an output right after an input is fine."""
    k = loaded_sample(fake_driver)
    a, b, bias = sample_arguments()  # in0 32 KiB at 0x5000_0000, in1 at 0x5100_0000
    before = len(fake_driver.launches)
    with pytest.raises(tile.ArgumentError, match=re.escape(
            "output 'out[0]' shares memory with 'in0': the kernel may read "
            "it after writing the output; pass an output of its own")):
        k(a, b, bias, out=BF16Array((256, 128), "<V2", 0x5000_0000 + 0x4000))
    with pytest.raises(tile.ArgumentError, match=r"shares memory with 'in1'"):
        k(a, b, bias, out=BF16Array((256, 128), "<V2", 0x5100_0000 - 0x8000))
    assert len(fake_driver.launches) == before
    k(a, b, bias, out=BF16Array((256, 128), "<V2", 0x5200_0000 + 512))
    assert len(fake_driver.launches) == before + 2


def test_check_no_aliasing_between_outputs():
    launcher.check_no_aliasing([("x", 0x1000, 256)],
                               [("out[0]", 0x1100, 256), ("out[1]", 0x1200, 64)])
    with pytest.raises(tile.ArgumentError,
                       match=r"output 'out\[1\]' shares memory with 'out\[0\]'"):
        launcher.check_no_aliasing([("x", 0x1000, 256)],
                                   [("out[0]", 0x1100, 256), ("out[1]", 0x11f0, 64)])
