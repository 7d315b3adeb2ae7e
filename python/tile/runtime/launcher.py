"""Launching a bundle's ``main`` launches on user buffers.

A :class:`Kernel` is a bundle loaded on one device: its modules loaded (the
cubin, or the PTX when the cubin's machine code does not run on the device,
as tile-run does), its functions resolved with their dynamic shared memory
raised past 48 KiB where needed, its scratch buffers allocated once per
stream (two streams running it at once do not share them), and
for every launch a parameter block whose pointer slots are refilled on
each call (in C, runtime.native's _fastlaunch, where it can be built; else
through ctypes), through cuLaunchKernel, or cuLaunchKernelEx for a launch in
thread-block clusters or a dependent one (programmatic dependent launch).
Calling it checks every argument against the bundle (shape,
dtype, device, contiguity: errors name the argument), allocates the outputs
with torch.empty when torch is there (else the caller passes ``out=``),
encodes the tensor maps over the arguments, and launches on the current
torch stream (or ``stream=``).

Arguments are torch tensors (``data_ptr()``) or any object with
``__cuda_array_interface__`` (CuPy, Numba, ...).
"""

from __future__ import annotations

import ctypes
import threading
import weakref
from typing import Dict, List, Optional, Sequence, Tuple

from ..dtypes import from_typestr
from ..errors import ArgumentError, LaunchError
from . import driver as _driver
from . import native as _native
from .bundle import Bundle, Buffer, tensor_map_view

try:  # torch is optional: outputs and the current stream come from it.
    import torch as _torch
except ImportError:  # pragma: no cover - CPU CI has no torch
    _torch = None

#: The f8 dtypes by the names torch and ml_dtypes give them.
_NAMED_F8 = {"float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2"}

_TORCH_DTYPES: Dict[object, str] = {}
if _torch is not None:
    _TORCH_DTYPES = {_torch.float32: "f32", _torch.float16: "f16",
                     _torch.bfloat16: "bf16", _torch.float64: "f64",
                     _torch.int32: "i32", _torch.int64: "i64", _torch.int8: "i8"}
    # The f8 types where this torch build has them (2.1 and later).
    _TORCH_DTYPES.update({getattr(_torch, n): d for n, d in _NAMED_F8.items()
                          if getattr(_torch, n, None) is not None})
    # Quantized weights' bytes (dtypes.STORAGE): uint8 always, OCP MX's
    # scale type where this torch build has it (2.7 and later).
    _TORCH_DTYPES[_torch.uint8] = "u8"
    if getattr(_torch, "float8_e8m0fnu", None) is not None:
        _TORCH_DTYPES[_torch.float8_e8m0fnu] = "f8e8m0fnu"


def torch_available() -> bool:
    return _torch is not None


def is_torch_tensor(x) -> bool:
    return _torch is not None and isinstance(x, _torch.Tensor)


def current_stream_function():
    """device index -> the raw CUstream of torch's current stream there."""
    raw = getattr(_torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw
    return lambda device_index: _torch.cuda.current_stream(device_index).cuda_stream


def _current_stream(device_index: int) -> int:
    """The raw CUstream of torch's current stream on the device (0 without
    torch: the legacy default stream)."""
    if _torch is None:
        return 0
    raw = getattr(_torch._C, "_cuda_getCurrentRawStream", None)
    if raw is not None:
        return raw(device_index)
    return _torch.cuda.current_stream(device_index).cuda_stream


class ArgInfo:
    """What the runtime knows of one argument: pointer, shape, dtype name,
    strides in elements (None = contiguous), device index (None = unknown)."""

    __slots__ = ("ptr", "shape", "dtype", "strides", "device")

    def __init__(self, ptr, shape, dtype, strides, device):
        self.ptr, self.shape, self.dtype = ptr, shape, dtype
        self.strides, self.device = strides, device


def describe(x, name: str) -> ArgInfo:
    """ArgInfo of a torch tensor or a __cuda_array_interface__ object."""
    if is_torch_tensor(x):
        if not x.is_cuda:
            raise ArgumentError(f"argument '{name}' is on {x.device}, not on a "
                                "CUDA device")
        dtype = _TORCH_DTYPES.get(x.dtype)
        if dtype is None:
            raise ArgumentError(f"argument '{name}' has unsupported dtype {x.dtype}")
        return ArgInfo(x.data_ptr(), tuple(x.shape), dtype, tuple(x.stride()),
                       x.get_device())
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is None:
        raise ArgumentError(
            f"argument '{name}' is a {type(x).__name__}: expected a CUDA torch "
            "tensor or an object with __cuda_array_interface__")
    typestr = cai.get("typestr", "")
    dt = from_typestr(typestr)
    dtype = dt.name if dt else None
    if dtype is None:
        # numpy has no typestr for bf16 or the f8 types; ml_dtypes arrays
        # name theirs (exactly: float8_e4m3fnuz is another format).
        text = str(getattr(x, "dtype", ""))
        dtype = "bf16" if "bfloat16" in text else _NAMED_F8.get(text)
    if dtype is None:
        raise ArgumentError(f"argument '{name}' has unsupported typestr "
                            f"'{typestr}'")
    shape = tuple(cai["shape"])
    strides = cai.get("strides")
    if strides is not None:
        itemsize = _itemsize(dtype)
        if any(s % itemsize for s in strides):
            raise ArgumentError(f"argument '{name}' has strides {strides} that "
                                "are not whole elements")
        strides = tuple(s // itemsize for s in strides)
    return ArgInfo(int(cai["data"][0]), shape, dtype, strides, None)


def _itemsize(name: str) -> int:
    from ..dtypes import dtype

    return dtype(name).itemsize


def _contiguous_strides(shape: Sequence[int]) -> Tuple[int, ...]:
    out, stride = [], 1
    for d in reversed(shape):
        out.append(stride)
        stride *= d
    return tuple(reversed(out))


def _squeezed(shape: Sequence[int]) -> Tuple[int, ...]:
    kept = tuple(d for d in shape if d != 1)
    return kept if kept else (1,)


#: Every buffer a kernel takes starts on a 16-byte boundary: the kernels
#: move 16-byte runs (and the TMA needs it).
ALIGNMENT = 16


def misaligned(name: str, ptr: int, offset: Optional[int] = None) -> ArgumentError:
    where = f" (a view at storage offset {offset})" if offset else ""
    return ArgumentError(
        f"argument '{name}' starts at address {ptr:#x}{where}, not a multiple "
        f"of {ALIGNMENT} bytes: the kernels move {ALIGNMENT}-byte runs; pass "
        ".clone()")


def check_torch_tensors(function: str, named, device_index: int) -> None:
    """Before a call is compiled or launched: every (name, torch tensor) in
    `named` is on cuda:`device_index`, contiguous and 16-byte aligned."""
    for name, x in named:
        if not x.is_cuda or x.get_device() != device_index:
            raise ArgumentError(
                f"{function}(): argument '{name}' is on {x.device}, not on "
                f"cuda:{device_index} (where the first tensor argument is)")
        if not x.is_contiguous():
            raise ArgumentError(
                f"{function}(): argument '{name}' is not contiguous (strides "
                f"{list(x.stride())}); pass .contiguous()")
        if x.data_ptr() % ALIGNMENT:
            raise misaligned(name, x.data_ptr(), x.storage_offset())


def check_argument(info: ArgInfo, buf: Buffer, name: str,
                   logical_shape: Optional[Tuple[int, ...]] = None,
                   dtype: Optional[str] = None) -> None:
    """Raises ArgumentError naming `name` unless `info` fits `buf`: its
    shape (or `logical_shape`) and dtype, or `dtype` where the compile's
    argument had a type the bundle does not name (a uint8 weight: the
    bundle's buffer is i8 bytes)."""
    want_shape = tuple(logical_shape) if logical_shape is not None else buf.shape
    if info.shape != want_shape and not (
            logical_shape is None and _squeezed(info.shape) == _squeezed(buf.shape)):
        raise ArgumentError(f"argument '{name}' has shape {list(info.shape)} but "
                            f"the kernel was compiled for {list(want_shape)}")
    want = dtype or buf.dtype.name
    if info.dtype != want:
        raise ArgumentError(f"argument '{name}' has dtype {info.dtype} but the "
                            f"kernel was compiled for {want}")
    if info.strides is not None and info.shape:
        expected = _contiguous_strides(info.shape)
        # Strides of unit dimensions do not matter.
        if any(s != e for s, e, d in zip(info.strides, expected, info.shape)
               if d != 1):
            raise ArgumentError(
                f"argument '{name}' is not contiguous (strides "
                f"{list(info.strides)}, expected {list(expected)}); pass "
                ".contiguous()")
    if not buf.contiguous:
        raise LaunchError(f"buffer '{buf.name}' has a padded layout; the "
                          "Python runtime passes only contiguous tensors")
    if info.ptr % ALIGNMENT:
        raise misaligned(name, info.ptr)


def check_no_aliasing(inputs: Sequence[Tuple[str, int, int]],
                      outputs: Sequence[Tuple[str, int, int]]) -> None:
    """Raises ArgumentError where an output given with out= (name, address,
    size in bytes) shares bytes with an input or an earlier output: a
    kernel reads its inputs while it writes its outputs (a row's values
    after another program stored them, a split-K sum from scratch), so
    k(x, out=x) is no in-place update but a wrong result."""
    for k, (name, ptr, size) in enumerate(outputs):
        for other, optr, osize in list(inputs) + list(outputs[:k]):
            if ptr < optr + osize and optr < ptr + size:
                raise ArgumentError(
                    f"output '{name}' shares memory with '{other}': the "
                    "kernel may read it after writing the output; pass an "
                    "output of its own")


def check_output_device(info: ArgInfo, device: int, name: str) -> None:
    """Raises ArgumentError unless output `name` is on cuda:`device` (where
    the kernel runs; a kernel writing another device's memory faults, or
    with peer access writes it unordered)."""
    if info.device is not None and info.device != device:
        raise ArgumentError(f"output '{name}' is on cuda:{info.device} but the "
                            f"kernel runs on cuda:{device}")


def _target_loads(target: str, cc: Tuple[int, int]) -> str:
    """'cubin', 'ptx', or raises: tile-run's rule (docs/bundle-format.md)."""
    digits, suffix = target[3:], ""
    if not digits[-1].isdigit():
        digits, suffix = digits[:-1], digits[-1]
    major, minor = int(digits[:-1]), int(digits[-1])
    if suffix == "a":
        cubin_runs = cc == (major, minor)
    else:
        cubin_runs = cc[0] == major and cc[1] >= minor
    if cubin_runs:
        return "cubin"
    if not suffix and (cc[0] > major or (cc[0] == major and cc[1] >= minor)):
        return "ptx"
    need = (f"exactly {major}.{minor}" if suffix == "a"
            else f"{major}.{minor} or later")
    raise LaunchError(f"the kernel was compiled for {target}, which needs "
                      f"compute capability {need}, but the device has "
                      f"{cc[0]}.{cc[1]}; compile for this device "
                      f"(target='{default_target(cc)}')")


def default_target(cc: Tuple[int, int]) -> str:
    """The target the frontend compiles for on a device: sm_90a on Hopper
    (9.0: TMA and wgmma), else sm_80 (runs everywhere from 8.0 on, through
    the PTX where the machine code differs)."""
    if cc == (9, 0):
        return "sm_90a"
    return "sm_80"


class _PreparedLaunch:
    __slots__ = ("function", "grid", "block", "smem", "values", "params",
                 "slots", "entry", "cluster", "dependent", "ex_config")

    def __init__(self, function, launch, slots):
        self.function = function
        self.grid = launch.grid
        self.block = launch.block
        self.smem = launch.smem
        self.entry = launch.entry
        self.cluster = tuple(launch.cluster)  # (1, 1, 1): none
        self.dependent = launch.dependent
        #: The ctypes path's cuLaunchKernelEx configuration where the launch
        #: runs in thread-block clusters or is dependent (its stream set per
        #: call), else None: cuLaunchKernel. (The C path builds its own from
        #: the same numbers, _fast_launcher.)
        self.ex_config = (_driver.launch_config(
            launch.grid, launch.block, launch.cluster, launch.smem,
            launch.dependent)
            if _driver.needs_launch_ex(launch.cluster, launch.dependent)
            else None)
        n = max(len(slots), 1)
        self.values = (ctypes.c_uint64 * n)()
        base = ctypes.addressof(self.values)
        self.params = (ctypes.c_void_p * n)(*[base + 8 * i for i in range(n)])
        self.slots = slots  # per argument: ("in", i) / ("out", i) / ("scratch", name) / ("tmap", j)


class _TensorMapSlots:
    """Encoded descriptors of one tensormap, by the address they describe.

    Each descriptor has a slot in device memory and a page-locked host copy
    it is written from, by an asynchronous copy on the launch's stream:
    ordered before the launch, and recorded in a CUDA graph being captured
    (which then copies it again on every replay). A cached descriptor is
    never rewritten. When every slot is taken, the device is synchronized
    and the slots reused, except the ones a capture used, which its graph
    may still read (or rewrite): those are kept for good. A capture can
    neither synchronize nor allocate device memory, so the first block is
    allocated with the kernel and a capture that finds no free slot is an
    error (BLOCK distinct addresses of one tensor map in one capture)."""

    BLOCK = 256

    def __init__(self, drv, name: str = ""):
        self.drv = drv
        self.name = name
        self.blocks: List[Tuple[int, int]] = []    # (device, host) bases
        self.free: List[Tuple[int, int]] = []      # (device, host) slots
        #: address -> [device slot, host slot, kept for a graph]
        self.by_address: Dict[int, list] = {}
        self._grow()

    def _grow(self) -> None:
        device = self.drv.alloc(128 * self.BLOCK)
        try:
            host = self.drv.alloc_host(128 * self.BLOCK)
        except BaseException:
            self.drv.free(device)
            raise
        self.blocks.append((device, host))
        self.free.extend((device + 128 * i, host + 128 * i)
                         for i in reversed(range(self.BLOCK)))

    def get(self, address: int, encode, stream: int) -> int:
        entry = self.by_address.get(address)
        if entry is not None:
            if not entry[2] and self.drv.stream_capturing(stream):
                entry[2] = True  # a graph launches with it: keep it
            return entry[0]
        capturing = self.drv.stream_capturing(stream)
        if not self.free:
            reusable = [a for a, e in self.by_address.items() if not e[2]]
            if capturing:
                raise LaunchError(
                    f"a CUDA graph capture gave tensor map '{self.name}' more "
                    f"than {len(self.by_address)} addresses; capture fewer "
                    "calls per graph, or run them once before capturing")
            if not reusable:
                self._grow()
            else:
                self.drv.synchronize()  # no launch still reads them
                for a in reusable:
                    device, host, _ = self.by_address.pop(a)
                    self.free.append((device, host))
        device, host = self.free.pop()
        ctypes.memmove(host, encode(address), 128)
        self.drv.copy_to_device_async(device, host, 128, stream)
        self.by_address[address] = [device, host, capturing]
        return device

    def release(self) -> None:
        for device, host in self.blocks:
            self.drv.free(device)
            self.drv.free_host(host)
        self.blocks, self.free, self.by_address = [], [], {}


class Kernel:
    """A bundle loaded on a device, ready to launch on user buffers.

    ``Kernel(bundle)`` loads on the current device (torch's, else 0);
    ``kernel(*inputs, out=None, stream=None)`` launches and returns the
    outputs (one tensor, or a tuple when there are several).
    """

    def __init__(self, bundle: Bundle, device: Optional[int] = None,
                 input_names: Optional[Sequence[str]] = None,
                 input_shapes: Optional[Sequence[Tuple[int, ...]]] = None,
                 output_shapes: Optional[Sequence[Tuple[int, ...]]] = None,
                 input_dtypes: Optional[Sequence[str]] = None):
        self.bundle = bundle
        self.inputs = bundle.inputs
        self.outputs = bundle.outputs
        self.input_names = list(input_names or [b.name for b in self.inputs])
        self.input_shapes = list(input_shapes) if input_shapes else None
        # The compile's argument dtypes where the bundle's differ (a uint8
        # weight is an i8 buffer): what the arguments must be.
        self.input_dtypes = list(input_dtypes) if input_dtypes else None
        self.output_shapes = [tuple(s) for s in output_shapes] \
            if output_shapes else [b.shape for b in self.outputs]
        if device is None:
            device = (_torch.cuda.current_device()
                      if _torch is not None and _torch.cuda.is_available() else 0)
        self.device = device
        drv = _driver.get()
        self._drv = drv
        if _torch is not None and _torch.cuda.is_available():
            _torch.cuda.init()  # torch's primary context exists and is current
        drv.use_primary_context(device)
        handle = drv.device(device)
        self.compute_capability = drv.compute_capability(handle)
        if bundle.tensormaps and self.compute_capability[0] < 9:
            raise LaunchError("the kernel uses TMA tensor maps, which need "
                              "compute capability 9.0 or later")
        if any(l.has_cluster for l in bundle.main_launches) and \
                self.compute_capability[0] < 9:
            raise LaunchError("the kernel runs in thread-block clusters, which "
                              "need compute capability 9.0 or later")
        if any(l.dependent for l in bundle.main_launches) and \
                self.compute_capability[0] < 9:
            raise LaunchError("the kernel's launches overlap (programmatic "
                              "dependent launch), which needs compute "
                              "capability 9.0 or later")
        self.loaded_from = _target_loads(bundle.target, self.compute_capability)
        max_smem = drv.attribute(
            _driver.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, handle)

        self._modules: Dict[str, int] = {}
        self._scratch: List[int] = []  # every allocation, for close()
        #: Scratch buffers by name, and their allocations per stream: two
        #: streams running one kernel at once must not share them.
        self._scratch_buffers: Dict[str, Buffer] = {}
        self._scratch_by_stream: Dict[int, Dict[str, int]] = {}
        self._tmaps: List[_TensorMapSlots] = []
        self._launches: List[_PreparedLaunch] = []
        #: The C launch path (None: ctypes), see _fast_launcher.
        self._fast = None
        self._launch_lock = threading.Lock()  # the ctypes path's parameters
        #: Scratch of the last launch captured into a CUDA graph.
        self._captured_scratch: Dict[str, object] = {}
        try:
            self._load(bundle, drv, max_smem)
            self._fast = self._fast_launcher()
        except BaseException:
            self.close()
            raise

    def _load(self, bundle: Bundle, drv, max_smem: int) -> None:
        for m in bundle.modules:
            # Only modules the main stage uses: reference kernels stay unloaded.
            if not any(l.module == m.name for l in bundle.main_launches):
                continue
            image = m.cubin if self.loaded_from == "cubin" else m.ptx
            if not image:
                raise LaunchError(f"module '{m.name}' has no {self.loaded_from}")
            self._modules[m.name] = drv.load_module(
                image, f"the {self.loaded_from} of module '{m.name}'")

        in_index = {b.name: i for i, b in enumerate(self.inputs)}
        out_index = {b.name: i for i, b in enumerate(self.outputs)}
        tmap_index = {t.name: j for j, t in enumerate(bundle.tensormaps)}
        self._tmap_sources = []
        for t in bundle.tensormaps:
            buf = bundle.buffer(t.buffer)
            if buf.name in in_index:
                source = ("in", in_index[buf.name])
            elif buf.name in out_index:
                source = ("out", out_index[buf.name])
            else:
                source = ("scratch", buf.name)
            self._tmap_sources.append((t, buf, source))
            self._tmaps.append(_TensorMapSlots(drv, t.name))

        def scratch_ptr(buf: Buffer) -> str:
            """Scratch buffers: allocated per stream on its first launch
            (_scratch_on), for good."""
            self._scratch_buffers[buf.name] = buf
            return buf.name

        functions: Dict[Tuple[str, str], int] = {}
        for launch in bundle.main_launches:
            key = (launch.module, launch.entry)
            f = functions.get(key)
            if f is None:
                f = drv.function(self._modules[launch.module], launch.entry)
                functions[key] = f
                static = drv.function_attribute(
                    f, _driver.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)
                need = max(l.smem for l in bundle.main_launches
                           if (l.module, l.entry) == key)
                if need + static > max_smem:
                    raise LaunchError(
                        f"kernel '{launch.entry}' needs {need} bytes of dynamic "
                        f"and {static} of static shared memory, more than the "
                        f"device's {max_smem} per block")
                if need > 48 * 1024:
                    drv.set_function_attribute(
                        f, _driver.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                        need)
            slots = []
            for arg in launch.args:
                if arg in in_index:
                    slots.append(("in", in_index[arg]))
                elif arg in out_index:
                    slots.append(("out", out_index[arg]))
                elif arg in tmap_index:
                    slots.append(("tmap", tmap_index[arg]))
                else:
                    buf = bundle.buffer(arg)
                    if buf is None or buf.role not in ("scratch", "zeroed"):
                        raise LaunchError(f"launch of '{launch.entry}' passes "
                                          f"'{arg}', which the main stage lacks")
                    slots.append(("scratch", scratch_ptr(buf)))
            self._launches.append(_PreparedLaunch(f, launch, slots))
        # Scratch that only a tensor map reads (the kernels get the map).
        for _, buf, (kind, _) in self._tmap_sources:
            if kind == "scratch":
                scratch_ptr(buf)

    _SLOT_KINDS = {"in": 0, "out": 1, "scratch": 2, "tmap": 3}

    def _fast_launcher(self):
        """The launches as a _fastlaunch.Launcher, or None where the module
        is not built or the driver is a stand-in without raw addresses.
        A launch in thread-block clusters or a dependent one goes through
        cuLaunchKernelEx there too, with the configuration the C code builds
        once from its grid, block, shared memory, cluster and dependence
        (the stream set per call)."""
        module = _native.get()
        address = getattr(self._drv, "launch_kernel_address", None)
        if module is None or address is None:
            return None
        needs_ex = any(p.ex_config is not None for p in self._launches)
        ex_address = getattr(self._drv, "launch_kernel_ex_address", None)
        if needs_ex and ex_address is None:
            return None  # a stand-in driver without cuLaunchKernelEx's address
        self._scratch_names = list(self._scratch_buffers)
        scratch_index = {n: i for i, n in enumerate(self._scratch_names)}

        def slot(kind, index):
            return (self._SLOT_KINDS[kind],
                    scratch_index[index] if kind == "scratch" else index)

        launches = [(p.function, tuple(p.grid), tuple(p.block), p.smem,
                     tuple(p.cluster), bool(p.dependent),
                     [slot(k, i) for k, i in p.slots])
                    for p in self._launches]
        tmaps = [slot(*source) for _, _, source in self._tmap_sources]
        # Callbacks through a weak reference: the Launcher is not tracked by
        # the garbage collector, so it must not keep this Kernel alive.
        ref = weakref.ref(self)

        def describe(j, address, stream):
            return ref()._tensor_map_at(j, address, stream)

        def scratch_on(stream, capturing):
            kernel = ref()
            scratch = (kernel._capture_scratch(stream) if capturing
                       else kernel._scratch_on(stream))
            return [scratch[n] for n in kernel._scratch_names]

        def on_error(code, index, retried):
            return ref()._launch_failed(code, index, retried)

        capturing = getattr(self._drv, "stream_is_capturing_address", None)
        return module.Launcher(address(),
                               ex_address() if needs_ex else 0,
                               capturing() if capturing else 0,
                               launches, tmaps,
                               len(self._scratch_names), describe, scratch_on,
                               on_error)

    def _tensor_map_at(self, j: int, address: int, stream: int) -> int:
        """The device address of tensor map j's descriptor over `address`
        (encoded and cached on first use, written on `stream`)."""
        t, _, (kind, index) = self._tmap_sources[j]
        if address % 16:
            raise ArgumentError(
                f"the buffer behind tensor map '{t.name}' ("
                f"{self._arg_name(kind, index)}) is at 0x{address:x}, not "
                "16-byte aligned as TMA needs")
        return self._tmaps[j].get(address, lambda a: self._encode(j, a), stream)

    def _launch_failed(self, code: int, index: int, retried: bool) -> bool:
        """True: try launch `index` once more (a thread that has not touched
        CUDA yet: the primary context is now bound); else raises."""
        if code == _driver.CUDA_ERROR_INVALID_CONTEXT and not retried:
            self._drv.use_primary_context(self.device)
            return True
        p = self._launches[index]
        call = "cuLaunchKernel" if p.ex_config is None else "cuLaunchKernelEx"
        self._drv.check(code, f"{call}('{p.entry}')")
        return False

    def _capture_scratch(self, stream: int) -> Dict[str, int]:
        """Scratch for one launch while its stream captures a CUDA graph:
        from torch's allocator, which serves a capture from the graph's
        private pool (the memory stays the graph's for its replays; a
        cuMemAlloc is not allowed while capturing). Held until the next
        captured launch of this kernel has been issued."""
        if _torch is None:
            raise LaunchError("capturing a CUDA graph of a kernel with scratch "
                              "buffers needs torch's allocator")
        device = _torch.device("cuda", self.device)
        tensors = {name: _torch.empty(buf.nbytes, dtype=_torch.uint8,
                                      device=device)
                   for name, buf in self._scratch_buffers.items()}
        self._captured_scratch = tensors
        # A `zeroed` buffer is zeroed on the launch's stream, which records
        # a memset node before the kernels: every replay starts from zero.
        for name, buf in self._scratch_buffers.items():
            if buf.role == "zeroed":
                self._drv.zero_async(tensors[name].data_ptr(), buf.nbytes,
                                     stream)
        return {name: t.data_ptr() for name, t in tensors.items()}

    def _scratch_for(self, stream: int) -> Dict[str, int]:
        if not self._scratch_buffers:
            return {}
        if self._drv.stream_capturing(stream):
            return self._capture_scratch(stream)
        return self._scratch_on(stream)

    def _scratch_on(self, stream: int) -> Dict[str, int]:
        """This stream's scratch buffers, allocated on its first launch."""
        scratch = self._scratch_by_stream.get(stream)
        if scratch is None:
            scratch = {}
            for name, buf in self._scratch_buffers.items():
                scratch[name] = self._drv.alloc(buf.nbytes)
                self._scratch.append(scratch[name])
                if buf.role == "zeroed":  # left zero by every launch
                    self._drv.zero_async(scratch[name], buf.nbytes, stream)
            self._scratch_by_stream[stream] = scratch
        return scratch

    # -- launching -------------------------------------------------------------
    def _encode(self, j: int, address: int) -> bytes:
        t, buf, _ = self._tmap_sources[j]
        shape, strides = tensor_map_view(buf.shape, buf.strides, len(t.box))
        return self._drv.encode_tensor_map(buf.dtype.name, address, shape,
                                           strides, buf.dtype.itemsize,
                                           t.box, t.swizzle)

    def allocate_outputs(self, device_index: int):
        if _torch is None:
            raise LaunchError("torch is not available to allocate the outputs; "
                              "pass them with out=")
        device = _torch.device("cuda", device_index)
        return [_torch.empty(shape, dtype=b.dtype.torch(), device=device)
                for b, shape in zip(self.outputs, self.output_shapes)]

    def launch_pointers(self, in_ptrs: Sequence[int], out_ptrs: Sequence[int],
                        stream: int) -> None:
        """Launches every main launch on raw device pointers, in order."""
        if self._fast is not None:
            self._fast.launch_pointers(in_ptrs, out_ptrs, stream)
            return
        scratch = self._scratch_for(stream)
        tmap_ptrs = []
        for j, (_, _, (kind, index)) in enumerate(self._tmap_sources):
            address = (in_ptrs[index] if kind == "in" else out_ptrs[index]
                       if kind == "out" else scratch[index])
            tmap_ptrs.append(self._tensor_map_at(j, address, stream))
        launch = self._drv.launch_raw
        for i, p in enumerate(self._launches):
            retried = False
            while True:
                # The parameter block is the kernel's, and ctypes lets go of
                # the GIL in the call: one thread at a time fills and
                # launches it.
                with self._launch_lock:
                    values = p.values
                    for s, (kind, index) in enumerate(p.slots):
                        values[s] = (in_ptrs[index] if kind == "in" else
                                     out_ptrs[index] if kind == "out" else
                                     scratch[index] if kind == "scratch" else
                                     tmap_ptrs[index])
                    config = p.ex_config
                    if config is None:
                        code = launch(p.function, p.grid[0], p.grid[1],
                                      p.grid[2], p.block[0], p.block[1],
                                      p.block[2], p.smem, stream, p.params,
                                      None)
                    else:
                        config.hStream = stream or None
                        code = self._drv.launch_ex_raw(config, p.function,
                                                       p.params, None)
                if not code or not self._launch_failed(code, i, retried) \
                        or retried:
                    break
                retried = True

    def _arg_name(self, kind: str, index) -> str:
        if kind == "in":
            return f"argument '{self.input_names[index]}'"
        if kind == "out":
            return f"output #{index}"
        return f"scratch '{index}'"

    def __call__(self, *args, out=None, stream: Optional[int] = None):
        if len(args) != len(self.inputs):
            raise ArgumentError(f"expected {len(self.inputs)} arguments "
                                f"({', '.join(self.input_names)}) but got "
                                f"{len(args)}")
        in_ptrs = []
        device = None
        for i, (x, buf) in enumerate(zip(args, self.inputs)):
            name = self.input_names[i]
            info = describe(x, name)
            check_argument(info, buf, name,
                           self.input_shapes[i] if self.input_shapes else None,
                           self.input_dtypes[i] if self.input_dtypes else None)
            if info.device is not None:
                if device is None:
                    device = info.device
                elif info.device != device:
                    raise ArgumentError(f"argument '{name}' is on cuda:"
                                        f"{info.device} but others on cuda:{device}")
            in_ptrs.append(info.ptr)
        if device is None:
            device = self.device
        if device != self.device:
            raise ArgumentError(f"the arguments are on cuda:{device} but the "
                                f"kernel was loaded on cuda:{self.device}")
        outputs = self._outputs(out, device)
        out_ptrs = []
        for k, (o, buf) in enumerate(zip(outputs, self.outputs)):
            info = describe(o, f"out[{k}]")
            check_argument(info, buf, f"out[{k}]", self.output_shapes[k])
            check_output_device(info, device, f"out[{k}]")
            out_ptrs.append(info.ptr)
        if out is not None:
            check_no_aliasing(
                [(n, p, b.nbytes) for n, p, b in
                 zip(self.input_names, in_ptrs, self.inputs)],
                [(f"out[{k}]", p, b.nbytes) for k, (p, b) in
                 enumerate(zip(out_ptrs, self.outputs))])
        if stream is None:
            stream = _current_stream(device)
        self.launch_pointers(in_ptrs, out_ptrs, stream)
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    def _outputs(self, out, device: int):
        if out is None:
            return self.allocate_outputs(device)
        outputs = list(out) if isinstance(out, (list, tuple)) else [out]
        if len(outputs) != len(self.outputs):
            raise ArgumentError(f"out= has {len(outputs)} tensors but the "
                                f"kernel has {len(self.outputs)} outputs")
        return outputs

    def describe_launches(self) -> List[dict]:
        return [l.describe() for l in self.bundle.main_launches]

    def close(self) -> None:
        """Frees scratch and descriptor memory and unloads the modules."""
        drv = self._drv
        self._fast = None
        for p in self._scratch:
            drv.free(p)
        for t in self._tmaps:
            t.release()
        for m in self._modules.values():
            drv.unload_module(m)
        self._scratch, self._tmaps, self._modules = [], [], {}
        self._scratch_by_stream = {}

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
