"""@tile.jit: trace on first call per signature, compile, cache, launch.

    @tile.jit
    def f(x, w, b): ...
    y = f(x, w, b)              # torch tensors: trace, compile (or load from
                                # the disk cache), launch; later calls with
                                # the same shapes/dtypes only launch
    f.compile([("bf16", (4096, 4096)), ...], target="sm_90a")   # ahead of time
    f.inspect(x, w, b)          # IR of every stage, PTX, launches

A call's *signature* is, per argument, (shape, dtype, device) for tensors
and the value itself for anything else (Python numbers, strings, None),
which is a compile-time constant of the trace. Each signature is traced
once per process; the trace's IR (without source locations), the options
and the target key the disk cache (tile.cache), so a second process, or a
GPU machine without the compiler, finds the bundle and compiles nothing.
"""

from __future__ import annotations

import functools
import inspect as _inspect
import os
import re
import time
from dataclasses import dataclass, field, replace as _replace
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import cache as _cache
from . import compiler as _compiler
from . import record as _record
from .dtypes import DType, dtype as _as_dtype
from .errors import (ArgumentError, BundleError, CompilerUnavailableError,
                     ShapeError)
from .language import TensorSpec, Trace, trace as _trace
from .runtime import bundle as _bundle
from .runtime import launcher as _launcher

try:
    import torch as _torch
except ImportError:  # pragma: no cover - CPU CI has no torch
    _torch = None

_TorchTensor = _torch.Tensor if _torch is not None else ()

#: The default target when none is given and no GPU says otherwise.
DEFAULT_TARGET = "sm_90a"


def _spec_of(value, name: str):
    """TensorSpec for a tensor-like or a signature entry, else the value
    itself (a constant)."""
    if isinstance(value, TensorSpec):
        return value
    if isinstance(value, _TorchTensor):
        return TensorSpec(tuple(value.shape), _as_dtype(value.dtype))
    cai = getattr(value, "__cuda_array_interface__", None)
    if cai is not None:
        info = _launcher.describe(value, name)
        return TensorSpec(info.shape, info.dtype)
    if isinstance(value, tuple) and len(value) == 2:
        a, b = value
        if isinstance(b, (tuple, list)) and isinstance(a, (str, DType)):
            return TensorSpec(b, a)
        if isinstance(a, (tuple, list)) and isinstance(b, (str, DType)):
            return TensorSpec(a, b)
    if isinstance(value, str) and "[" in value:
        # "bf16[4096,4096]"
        dt, _, dims = value.partition("[")
        parts = [d.strip() for d in dims[:-1].split(",")] if dims.endswith("]") else None
        if parts is None or not all(re.fullmatch(r"[0-9]+", d) for d in parts):
            raise ShapeError(f"argument '{name}': expected a signature like "
                             f"'bf16[4096,4096]' but got {value!r}")
        return TensorSpec([int(d) for d in parts], dt)
    return value


def _bind_arguments(fn, args, kwargs) -> Tuple:
    """The call's arguments in parameter order (the fast path when they are
    all positional); `fn` has `name`, `_signature`, `_params`, `_nparams`."""
    if kwargs or len(args) != fn._nparams:
        try:
            bound = fn._signature.bind(*args, **kwargs)
        except TypeError as e:
            raise ArgumentError(f"{fn.name}(): {e}") from None
        bound.apply_defaults()
        return tuple(bound.arguments[p] for p in fn._params)
    return tuple(args)


def _call_key_of(name: str, args, what: str) -> Tuple:
    """The in-memory cache key of a call: shape, dtype and device per tensor
    (torch or __cuda_array_interface__), the value itself per hashable
    constant. `what` names the accepted arrays in the error."""
    key = []
    for a in args:
        if isinstance(a, _TorchTensor):
            key.append((a.shape, a.dtype, a.device))
            continue
        cai = getattr(a, "__cuda_array_interface__", None)
        if cai is not None:
            key.append((tuple(cai["shape"]), cai["typestr"],
                        str(getattr(a, "dtype", ""))))
            continue
        try:
            hash(a)
        except TypeError:
            raise ArgumentError(
                f"{name}(): argument of type {type(a).__name__} is neither a "
                f"{what} nor a hashable constant") from None
        key.append(("const", type(a), a))
    return tuple(key)


def _specs_of(params: Sequence[str], values: Sequence) -> List[Tuple[str, Any]]:
    """(name, shape/dtype spec) per argument: what specializes a compile."""
    return [(name, _spec_of(v, name)) for name, v in zip(params, values)]


@dataclass
class CompiledKernel:
    """A kernel compiled (or found in the cache) for one signature and
    target: the bundle and what produced it."""

    function: str
    key: str
    target: str
    options: str
    bundle_bytes: bytes
    stages: Dict[str, str]
    ir: str
    input_names: List[str]
    input_specs: List[TensorSpec]
    output_specs: List[TensorSpec]
    from_cache: bool
    compile_seconds: float = 0.0
    path: str = ""
    _bundle: Optional[_bundle.Bundle] = field(default=None, repr=False)

    @property
    def bundle(self) -> _bundle.Bundle:
        if self._bundle is None:
            self._bundle = _bundle.parse(self.bundle_bytes)
        return self._bundle

    @property
    def ptx(self) -> str:
        if "ptx" in self.stages:
            return self.stages["ptx"]
        return "".join(f"// module {m.name}\n" + m.ptx.decode("utf-8", "replace")
                       for m in self.bundle.modules)

    @property
    def launches(self) -> List[dict]:
        """The main launches: module, entry, grid, block, smem, args."""
        return [l.describe() for l in self.bundle.main_launches]

    def load(self, device: Optional[int] = None) -> _launcher.Kernel:
        """The bundle loaded on a GPU, callable on tensors."""
        return _launcher.Kernel(
            self.bundle, device=device, input_names=self.input_names,
            input_shapes=[s.shape for s in self.input_specs],
            output_shapes=[s.shape for s in self.output_specs],
            input_dtypes=[s.dtype.name for s in self.input_specs])

    def summary(self) -> str:
        lines = [f"{self.function} for {self.target} (key {self.key[:16]}, "
                 f"{'from the cache' if self.from_cache else f'compiled in {self.compile_seconds:.2f} s'})"]
        for name, spec in zip(self.input_names, self.input_specs):
            lines.append(f"  in  {name}: {spec.dtype}{list(spec.shape)}")
        for i, spec in enumerate(self.output_specs):
            lines.append(f"  out #{i}: {spec.dtype}{list(spec.shape)}")
        for l in self.launches:
            lines.append(f"  launch {l['entry']}: grid {l['grid']} block "
                         f"{l['block']} smem {l['smem']} args {' '.join(l['args'])}")
        return "\n".join(lines)

    __str__ = summary

    def dump(self, directory: str) -> str:
        """Writes the stages, the PTX, the launches and the bundle into
        `directory`/<function>-<key[:12]>/; returns that folder."""
        folder = os.path.join(directory, f"{self.function}-{self.key[:12]}")
        os.makedirs(folder, exist_ok=True)
        files = {"traced.mlir": self.ir, "kernels.ptx": self.ptx,
                 "launches.txt": self.summary() + "\n",
                 "bundle-header.txt": self.bundle.header()}
        for stage in ("tensor", "tile", "reference", "nvvm"):
            if stage in self.stages:
                files[f"{stage}.mlir"] = self.stages[stage]
        for name, text in files.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(folder, "kernel.tilebundle"), "wb") as f:
            f.write(self.bundle_bytes)
        return folder


class _Specialization:
    """One signature on one device: the loaded kernel and a fast call."""

    __slots__ = ("compiled", "kernel", "tensor_positions", "names",
                 "out_shapes", "out_dtypes", "device_index", "device", "fast")

    def __init__(self, compiled: CompiledKernel, kernel: _launcher.Kernel,
                 params: List[Tuple[str, Any]], device_index: int):
        self.compiled = compiled
        self.kernel = kernel
        self.tensor_positions = [i for i, (_, s) in enumerate(params)
                                 if isinstance(s, TensorSpec)]
        self.names = compiled.input_names
        self.out_shapes = [s.shape for s in compiled.output_specs]
        self.out_dtypes = [s.dtype.torch() for s in compiled.output_specs] \
            if _torch is not None else []
        self.device_index = device_index
        self.device = (_torch.device("cuda", device_index)
                       if _torch is not None else None)
        #: The C call path (runtime.native): `fast(args, out, stream)` takes
        #: the calls of exactly this signature whose tensors are plain
        #: (contiguous, aligned torch tensors on the device) and answers
        #: NotImplemented for the others, which __call__ below checks.
        self.fast = None
        if kernel._fast is not None and _torch is not None:
            kernel._fast.set_call(
                len(params), _torch.Tensor,
                [(i, tuple(params[i][1].shape), params[i][1].dtype.torch())
                 for i in self.tensor_positions],
                [(i, v) for i, (_, v) in enumerate(params)
                 if not isinstance(v, TensorSpec)],
                [self._allocation(params, shape, dtype)
                 for shape, dtype in zip(self.out_shapes, self.out_dtypes)],
                device_index, _launcher.current_stream_function())
            self.fast = kernel._fast.call

    def _allocation(self, params, shape, dtype):
        """How the C path allocates an output: torch.empty_like of an input
        of the same shape and dtype where there is one (it skips
        torch.empty's keyword parsing, 2.5 us of 6.3 on the H200's host),
        else torch.empty."""
        for i in self.tensor_positions:
            spec = params[i][1]
            if tuple(spec.shape) == tuple(shape) and spec.dtype.torch() == dtype:
                return (tuple(shape), dtype, _torch.empty_like, i, (), None)
        return (tuple(shape), dtype, _torch.empty, -1, (tuple(shape),),
                {"dtype": dtype, "device": self.device})

    def __call__(self, args, out, stream):
        if self.fast is not None:
            result = self.fast(args, out, stream)
            if result is not NotImplemented:
                return result
        ptrs = []
        for k, i in enumerate(self.tensor_positions):
            x = args[i]
            if isinstance(x, _TorchTensor):
                if not x.is_contiguous():
                    raise ArgumentError(
                        f"argument '{self.names[k]}' is not contiguous (strides "
                        f"{list(x.stride())}); pass .contiguous()")
                ptr = x.data_ptr()
                if ptr % _launcher.ALIGNMENT:
                    raise _launcher.misaligned(self.names[k], ptr,
                                               x.storage_offset())
                ptrs.append(ptr)
            else:
                info = _launcher.describe(x, self.names[k])
                spec = self.compiled.input_specs[k]
                _launcher.check_argument(info, self.kernel.inputs[k],
                                         self.names[k], spec.shape,
                                         spec.dtype.name)
                ptrs.append(info.ptr)
        if out is None:
            if _torch is None:
                raise ArgumentError("torch is not available to allocate the "
                                    "outputs: pass them with out=")
            outs = [_torch.empty(s, dtype=d, device=self.device)
                    for s, d in zip(self.out_shapes, self.out_dtypes)]
        else:
            outs = self.kernel._outputs(out, self.device_index)
            for k, (o, buf) in enumerate(zip(outs, self.kernel.outputs)):
                info = _launcher.describe(o, f"out[{k}]")
                _launcher.check_argument(info, buf, f"out[{k}]",
                                         self.out_shapes[k])
                _launcher.check_output_device(info, self.device_index,
                                              f"out[{k}]")
        out_ptrs = [o.data_ptr() if isinstance(o, _TorchTensor)
                    else _launcher.describe(o, "out").ptr for o in outs]
        if out is not None:
            _launcher.check_no_aliasing(
                [(n, p, b.nbytes) for n, p, b in
                 zip(self.names, ptrs, self.kernel.inputs)],
                [(f"out[{k}]", p, b.nbytes) for k, (p, b) in
                 enumerate(zip(out_ptrs, self.kernel.outputs))])
        if stream is None:
            stream = _launcher._current_stream(self.device_index)
        self.kernel.launch_pointers(ptrs, out_ptrs, stream)
        return outs[0] if len(outs) == 1 else tuple(outs)


class JITFunction:
    """A traced, compiled, cached tile function (see module docstring)."""

    def __init__(self, fn: Callable, *, target: Optional[str] = None,
                 tile_options: str = "", fuse: bool = True,
                 features: str = "+ptx80", name: Optional[str] = None,
                 fast_math: bool = False, pipeline_options: str = "",
                 tuning_db: Optional[str] = None, lineinfo: bool = False,
                 autotune: bool = False):
        if isinstance(fn, JITFunction):
            fn = fn.fn
        self.fn = fn
        #: Tune each signature's matmul (tile.tune) before its first
        #: compile where the tuning database has no entry for it.
        self.autotune = bool(autotune)
        #: Line tables: the user's lines in the PTX (.loc) and cubin.
        self.lineinfo = bool(lineinfo)
        self.target = target
        self.tile_options = tile_options
        self.fuse = fuse
        self.fast_math = bool(fast_math)
        self.pipeline_options = pipeline_options
        #: None: $TILE_TUNING_DB, read when compiling; "": none.
        self.tuning_db = tuning_db
        self.features = features
        self.name = name or getattr(fn, "__name__", "kernel")
        self._signature = _inspect.signature(fn)
        self._params = list(self._signature.parameters)
        self._nparams = len(self._params)
        self._compiled: Dict[Tuple, CompiledKernel] = {}
        self._specializations: Dict[Tuple, _Specialization] = {}
        #: The C call of the last specialization called: tried first, it
        #: skips the signature lookup when a call repeats the last one's.
        self._last_fast = None
        functools.update_wrapper(self, fn)

    # -- signatures ------------------------------------------------------------
    def _bind(self, args, kwargs) -> Tuple:
        return _bind_arguments(self, args, kwargs)

    def _params_of(self, values: Sequence) -> List[Tuple[str, Any]]:
        return _specs_of(self._params, values)

    def options(self, target: Optional[str] = None) -> _compiler.CompileOptions:
        db = (self.tuning_db if self.tuning_db is not None
              else os.environ.get("TILE_TUNING_DB", ""))
        return _compiler.CompileOptions(
            target=target or self.target or os.environ.get("TILE_TARGET")
            or DEFAULT_TARGET,
            features=self.features, tile_options=self.tile_options,
            fuse=self.fuse, fast_math=self.fast_math,
            pipeline_options=self.pipeline_options, tuning_db=db,
            tuning_db_sha256=_compiler.file_sha256(db) if db else "",
            line_info=self.lineinfo)

    # -- tracing and compiling -----------------------------------------------
    def trace(self, *args, **kwargs) -> Trace:
        """Traces on tensors or signature entries; returns the Trace (its
        ``text`` is the IR that would be compiled)."""
        values = self._bind(args, kwargs)
        return _trace(self.fn, self._params_of(values), self.name)

    def _compile_params(self, params, options) -> CompiledKernel:
        memo_key = (tuple((n, s) if isinstance(s, TensorSpec)
                          else (n, "const", repr(s)) for n, s in params),
                    options)
        compiled = self._compiled.get(memo_key)
        if compiled is not None:
            _cache.stats["memory_hits"] += 1
            return compiled
        tr = _trace(self.fn, params, self.name)
        if self.autotune:
            options = self._autotuned(tr, options)
        compiled = _get_compiled(tr, options, params)
        self._compiled[memo_key] = compiled
        return compiled

    def _autotuned(self, tr: Trace, options: _compiler.CompileOptions
                   ) -> _compiler.CompileOptions:
        """`options` after tuning `tr`'s matmul into their tuning database
        where it has no entry (tile.tune), with the database's new hash."""
        from .tune import _database, tune_source

        db = _database(options.tuning_db)
        result = tune_source(tr.text, db=db, target=options.target)
        if not result["tuned"] and options.tuning_db:
            return options
        return _replace(options, tuning_db=db,
                                   tuning_db_sha256=_compiler.file_sha256(db))

    def compile(self, signature: Optional[Sequence] = None, *,
                target: Optional[str] = None, **kwargs) -> CompiledKernel:
        """Ahead of time: trace on `signature` (per parameter a
        ("bf16", (M, N)) pair, a TensorSpec, a tensor, or a constant) and
        compile for `target`, filling the cache. Needs no GPU."""
        values = self._bind(tuple(signature or ()), kwargs)
        return self._compile_params(self._params_of(values), self.options(target))

    def inspect(self, *args, target: Optional[str] = None, **kwargs) -> CompiledKernel:
        """The compiled kernel for these arguments (tensors or signature
        entries): ``.ir``, ``.stages`` (tensor, tile, reference, nvvm, ptx),
        ``.ptx``, ``.launches``, ``.bundle``; ``print()`` it for a summary."""
        values = self._bind(args, kwargs)
        if target is None and self.target is None and any(
                isinstance(v, _TorchTensor) and v.is_cuda for v in values):
            target = _device_target(next(v for v in values
                                         if isinstance(v, _TorchTensor)).get_device())
        return self._compile_params(self._params_of(values), self.options(target))

    # -- calling -------------------------------------------------------------------
    def _call_key(self, args) -> Tuple:
        return _call_key_of(self.name, args, "tensor")

    def __call__(self, *args, out=None, stream: Optional[int] = None, **kwargs):
        last = self._last_fast
        if last is not None and not kwargs and not _record.enabled:
            result = last(args, out, stream)
            if result is not NotImplemented:
                _cache.stats["memory_hits"] += 1
                return result
        if kwargs or len(args) != self._nparams:
            args = self._bind(args, kwargs)
        key = self._call_key(args)
        spec = self._specializations.get(key)
        if spec is None:
            spec = self._specialize(args, key)
        else:
            _cache.stats["memory_hits"] += 1
        if _record.enabled:
            _record.note(self, self._params_of(args), spec.compiled.target)
        self._last_fast = spec.fast
        return spec(args, out, stream)

    def _specialize(self, args, key) -> _Specialization:
        device_index = None
        for a in args:
            if isinstance(a, _TorchTensor):
                if not a.is_cuda:
                    raise ArgumentError(f"{self.name}(): tensor arguments must "
                                        f"be on a CUDA device, not {a.device}")
                device_index = a.get_device()
                break
        if device_index is not None:
            # Every tensor, before anything is compiled: the key holds the
            # devices, so later calls with this key need only the alignment
            # and contiguity checks of _Specialization.__call__.
            _launcher.check_torch_tensors(
                self.name, [(n, a) for n, a in zip(self._params, args)
                            if isinstance(a, _TorchTensor)], device_index)
        if device_index is None:
            device_index = (_torch.cuda.current_device()
                            if _torch is not None and _torch.cuda.is_available()
                            else 0)
        target = self.target or os.environ.get("TILE_TARGET") or \
            _device_target(device_index)
        params = self._params_of(args)
        compiled = self._compile_params(params, self.options(target))
        kernel = compiled.load(device_index)
        spec = _Specialization(compiled, kernel, params, device_index)
        self._specializations[key] = spec
        return spec

    def torch_op(self, name: str, *, outputs: int = 1,
                 schema: Optional[str] = None):
        """This function as the torch custom operator `name` ("lib::op"),
        for torch.compile graphs, CUDA graphs and autograd
        (tile/torch_op.py)."""
        from .torch_op import torch_op

        return torch_op(self, name, outputs=outputs, schema=schema)

    def __repr__(self) -> str:
        return f"<tile.jit {self.name}>"


def _device_target(device_index: int) -> str:
    from .runtime import driver as _driver

    drv = _driver.get()
    cc = drv.compute_capability(drv.device(device_index))
    return _launcher.default_target(cc)


_dumped = set()


def _get_compiled(tr: Trace, options: _compiler.CompileOptions,
                  params, cls=CompiledKernel) -> CompiledKernel:
    """From the disk cache, else compiled and stored (as a `cls`: the
    kernel API's traces give CompiledTileKernel)."""
    key = _cache.cache_key(tr.key_text, options.canonical(), options.target)
    input_names = [n for n, s in params if isinstance(s, TensorSpec)]
    input_specs = [s for _, s in params if isinstance(s, TensorSpec)]
    output_specs = [TensorSpec(o.shape, o.dtype) for o in tr.outputs]
    signature = ", ".join(f"{n}: {s.dtype}{list(s.shape)}"
                          for n, s in zip(input_names, input_specs))
    hit = _cache.load(key)
    have_compiler = _compiler.available()
    if hit is not None:
        data, meta = hit
        problem = _cache.entry_problem(key, data, meta, tr.function_name,
                                       options.target)
        if problem is not None:
            where = _cache._paths(key)[0]
            if not have_compiler:
                raise BundleError(
                    f"the cache entry {where} for {tr.function_name}"
                    f"({signature}) cannot be used: {problem}; the compiler "
                    f"is not available here to rebuild it "
                    f"({_compiler.unavailable_reason()})")
            _cache.log(f"cache entry {where} cannot be used: {problem}; "
                       "recompiling")
        stale = have_compiler and meta.get("compiler") not in (
            None, _compiler.fingerprint())
        if problem is None and not stale:
            _cache.stats["disk_hits"] += 1
            _cache.log(f"cache hit {key[:16]} {tr.function_name}({signature}) "
                       f"for {options.target}")
            compiled = cls(
                tr.function_name, key, options.target, options.canonical(),
                data, _cache.load_stages(key), tr.text, input_names,
                input_specs, output_specs, from_cache=True,
                path=_cache._paths(key)[0])
            _maybe_dump(compiled)
            return compiled
        elif problem is None:
            _cache.log(f"cache entry {key[:16]} was compiled by another "
                       "compiler build; recompiling")
    _cache.stats["misses"] += 1
    if not have_compiler:
        raise CompilerUnavailableError(
            f"no cached kernel for {tr.function_name}({signature}) on "
            f"{options.target} (key {key[:16]} in {_cache.cache_dir()}), and "
            f"the compiler is not available here "
            f"({_compiler.unavailable_reason()}). Compile it ahead of time "
            "where the compiler is (tile.compile(fn, signature, target=...)) "
            "and copy the cache directory, or build the compiler")
    _cache.log(f"compiling {tr.function_name}({signature}) for {options.target} "
               f"(key {key[:16]})")
    start = time.perf_counter()
    # A failure leaves its reproducer in the cache directory, named in the
    # error (the failing pipeline's, or the traced IR).
    reproducer = os.path.join(_cache.cache_dir(), "reproducers",
                              f"{tr.function_name}-{key[:16]}.mlir")
    data, stages = _compiler.compile_ir(
        tr.text, tr.function_name, options,
        source_name=f"<tile IR of {tr.function_name}>",
        op_table=tr.builder.op_table, reproducer=reproducer)
    seconds = time.perf_counter() - start
    _cache.stats["compiles"] += 1
    _cache.log(f"compiled {tr.function_name} in {seconds:.2f} s")
    if stages.get("diagnostics"):  # remarks: a matmul kept off tensor cores
        _cache.log(stages["diagnostics"].strip())
    stages = dict(stages, traced=tr.text)
    meta = {
        "function": tr.function_name, "target": options.target,
        "options": options.canonical(), "compiler": _compiler.fingerprint(),
        "inputs": [{"name": n, "dtype": s.dtype.name, "shape": list(s.shape)}
                   for n, s in zip(input_names, input_specs)],
        "outputs": [{"dtype": s.dtype.name, "shape": list(s.shape)}
                    for s in output_specs],
        "compile_seconds": round(seconds, 3),
        "source_hash": _bundle.parse(data).source_hash,
    }
    path = ""
    try:
        path = _cache.store(key, data, meta, stages)
    except OSError as e:  # a read-only cache still compiles
        _cache.log(f"cannot write the cache ({e})")
    compiled = cls(
        tr.function_name, key, options.target, options.canonical(), data,
        stages, tr.text, input_names, input_specs, output_specs,
        from_cache=False, compile_seconds=seconds, path=path)
    _maybe_dump(compiled)
    return compiled


def _maybe_dump(compiled: CompiledKernel) -> None:
    directory = os.environ.get("TILE_DUMP")
    if not directory or compiled.key in _dumped:
        return
    _dumped.add(compiled.key)
    folder = compiled.dump(directory)
    _cache.log(f"dumped {compiled.function} to {folder}")


def jit(fn: Optional[Callable] = None, **options):
    """Decorator: ``@tile.jit`` or ``@tile.jit(target=..., tile_options=...,
    fuse=..., fast_math=..., pipeline_options=..., tuning_db=...,
    lineinfo=...)``; ``lineinfo=True`` puts the user's lines in the PTX
    and cubin (Nsight Compute's source view).
    ``tuning_db`` (default: $TILE_TUNING_DB) is a tuning database written by
    python/tools/tile_tune.py or tile.tune (docs/tuning.md);
    ``autotune=True`` tunes each signature's matmul into it before its
    first compile where it has no entry (needs a GPU and tile-run here)."""
    if fn is None:
        return lambda f: JITFunction(f, **options)
    return JITFunction(fn, **options)


function = jit


def compile(fn, signature: Sequence, target: str = DEFAULT_TARGET,  # noqa: A001
            **options) -> CompiledKernel:
    """Ahead-of-time compile of `fn` (a plain function or a @tile.jit one)
    for `signature` and `target`; fills the cache. Needs no GPU."""
    if isinstance(fn, JITFunction):
        if options:
            fn = JITFunction(fn.fn, **{**dict(
                target=fn.target, tile_options=fn.tile_options, fuse=fn.fuse,
                features=fn.features, fast_math=fn.fast_math,
                pipeline_options=fn.pipeline_options,
                tuning_db=fn.tuning_db, lineinfo=fn.lineinfo,
                autotune=fn.autotune), **options})
        return fn.compile(signature, target=target)
    return JITFunction(fn, **options).compile(signature, target=target)
