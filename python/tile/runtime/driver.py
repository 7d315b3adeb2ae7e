"""The CUDA driver API through ctypes (libcuda.so.1): no toolkit, no torch.

Only what the runtime needs: initialization and the primary context,
modules and functions, memory, tensor maps (TMA descriptors) and launches.
Every call is checked; a failure raises :class:`tile.errors.CudaError`
naming the call and the driver's error name and text.

:func:`get` returns the process-wide :class:`Driver`; tests may install a
stand-in with :func:`set_driver`.
"""

from __future__ import annotations

import ctypes
import os
import threading
from ctypes import (POINTER, byref, c_char, c_char_p, c_int, c_size_t,
                    c_uint, c_ubyte, c_uint32, c_uint64, c_void_p)
from typing import Optional

from ..errors import CudaError

CUresult = c_int
CUdevice = c_int
CUdeviceptr = c_uint64
CUcontext = c_void_p
CUmodule = c_void_p
CUfunction = c_void_p
CUstream = c_void_p

CUDA_SUCCESS = 0
CUDA_ERROR_INVALID_CONTEXT = 201
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8

# cuTensorMapEncodeTiled's enums (cuda.h): CUtensorMapDataType by bundle
# dtype. TMA moves bytes, so i8 and the f8 types are UINT8 (0).
TENSOR_MAP_DATA_TYPE = {"i8": 0, "f8e4m3fn": 0, "f8e5m2": 0, "i32": 3,
                        "i64": 5, "f16": 6, "f32": 7, "f64": 8, "bf16": 9}
TENSOR_MAP_SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
CU_TENSOR_MAP_INTERLEAVE_NONE = 0
CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2
CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0

# cuLaunchKernelEx's launch attributes (CUlaunchAttributeID in cuda.h):
# thread-block clusters, and programmatic dependent launch (a launch that
# may start while the one before it on the stream finishes).
CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6


class CUlaunchAttributeValue(ctypes.Union):
    """cuda.h's 64-byte union; only clusterDim and
    programmaticStreamSerializationAllowed are set here. Its pointer
    members (an event, a window's base) make it 8-byte aligned."""
    _fields_ = [("pad", c_char * 64), ("clusterDim", c_uint * 3),
                ("programmaticStreamSerializationAllowed", c_int),
                ("_align", c_void_p)]


class CUlaunchAttribute(ctypes.Structure):
    # cuda.h: {id; char pad[8 - sizeof(CUlaunchAttributeID)]; value;}
    _fields_ = [("id", c_int), ("pad", c_char * 4),
                ("value", CUlaunchAttributeValue)]


class CUlaunchConfig(ctypes.Structure):
    _fields_ = [("gridDimX", c_uint), ("gridDimY", c_uint),
                ("gridDimZ", c_uint), ("blockDimX", c_uint),
                ("blockDimY", c_uint), ("blockDimZ", c_uint),
                ("sharedMemBytes", c_uint), ("hStream", c_void_p),
                ("attrs", POINTER(CUlaunchAttribute)), ("numAttrs", c_uint)]


def needs_launch_ex(cluster=(1, 1, 1), dependent: bool = False) -> bool:
    """A launch in thread-block clusters or a dependent one goes through
    cuLaunchKernelEx: cuLaunchKernel has no way to name either."""
    return tuple(cluster) != (1, 1, 1) or bool(dependent)


def launch_config(grid, block, cluster, smem: int,
                  dependent: bool = False) -> CUlaunchConfig:
    """cuLaunchKernelEx's configuration of a launch: its attributes are
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION where it runs in clusters of
    `cluster` blocks (other than 1 1 1), then
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION where it is
    `dependent`, in the order tile-run gives them. The caller sets hStream
    before each launch."""
    attributes = (CUlaunchAttribute * 2)()
    count = 0
    if tuple(cluster) != (1, 1, 1):
        attributes[count].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
        attributes[count].value.clusterDim[:] = list(cluster)
        count += 1
    if dependent:
        attributes[count].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION
        attributes[count].value.programmaticStreamSerializationAllowed = 1
        count += 1
    config = CUlaunchConfig(grid[0], grid[1], grid[2], block[0], block[1],
                            block[2], smem)
    # A pointer into the array keeps the array alive, and the config the
    # pointer.
    config.attrs = ctypes.cast(attributes, POINTER(CUlaunchAttribute))
    config.numAttrs = count
    return config


# (name in libcuda, argtypes). Versioned names are those cuda.h maps to.
_FUNCTIONS = {
    "cuInit": ("cuInit", [c_uint]),
    "cuGetErrorName": ("cuGetErrorName", [CUresult, POINTER(c_char_p)]),
    "cuGetErrorString": ("cuGetErrorString", [CUresult, POINTER(c_char_p)]),
    "cuDeviceGetCount": ("cuDeviceGetCount", [POINTER(c_int)]),
    "cuDeviceGet": ("cuDeviceGet", [POINTER(CUdevice), c_int]),
    "cuDeviceGetAttribute": ("cuDeviceGetAttribute",
                             [POINTER(c_int), c_int, CUdevice]),
    "cuDevicePrimaryCtxRetain": ("cuDevicePrimaryCtxRetain",
                                 [POINTER(CUcontext), CUdevice]),
    "cuCtxGetCurrent": ("cuCtxGetCurrent", [POINTER(CUcontext)]),
    "cuCtxSetCurrent": ("cuCtxSetCurrent", [CUcontext]),
    "cuCtxGetDevice": ("cuCtxGetDevice", [POINTER(CUdevice)]),
    "cuCtxSynchronize": ("cuCtxSynchronize", []),
    "cuModuleLoadData": ("cuModuleLoadData", [POINTER(CUmodule), c_void_p]),
    "cuModuleUnload": ("cuModuleUnload", [CUmodule]),
    "cuModuleGetFunction": ("cuModuleGetFunction",
                            [POINTER(CUfunction), CUmodule, c_char_p]),
    "cuFuncGetAttribute": ("cuFuncGetAttribute",
                           [POINTER(c_int), c_int, CUfunction]),
    "cuFuncSetAttribute": ("cuFuncSetAttribute", [CUfunction, c_int, c_int]),
    "cuMemAlloc": ("cuMemAlloc_v2", [POINTER(CUdeviceptr), c_size_t]),
    "cuMemFree": ("cuMemFree_v2", [CUdeviceptr]),
    "cuMemcpyHtoD": ("cuMemcpyHtoD_v2", [CUdeviceptr, c_void_p, c_size_t]),
    "cuMemcpyDtoH": ("cuMemcpyDtoH_v2", [c_void_p, CUdeviceptr, c_size_t]),
    "cuMemcpyHtoDAsync": ("cuMemcpyHtoDAsync_v2",
                          [CUdeviceptr, c_void_p, c_size_t, CUstream]),
    "cuMemsetD8Async": ("cuMemsetD8Async", [CUdeviceptr, c_ubyte, c_size_t,
                                            CUstream]),
    "cuMemAllocHost": ("cuMemAllocHost_v2", [POINTER(c_void_p), c_size_t]),
    "cuMemFreeHost": ("cuMemFreeHost", [c_void_p]),
    "cuStreamIsCapturing": ("cuStreamIsCapturing", [CUstream, POINTER(c_int)]),
    "cuStreamSynchronize": ("cuStreamSynchronize", [CUstream]),
    "cuTensorMapEncodeTiled": ("cuTensorMapEncodeTiled", [
        c_void_p, c_int, c_uint32, c_void_p, POINTER(c_uint64),
        POINTER(c_uint64), POINTER(c_uint32), POINTER(c_uint32), c_int, c_int,
        c_int, c_int]),
    "cuLaunchKernel": ("cuLaunchKernel", [
        CUfunction, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint,
        CUstream, c_void_p, c_void_p]),
    "cuLaunchKernelEx": ("cuLaunchKernelEx", [
        POINTER(CUlaunchConfig), CUfunction, c_void_p, c_void_p]),
}


class Driver:
    """libcuda.so.1, loaded and initialized. Methods wrap the driver calls
    the runtime makes and raise CudaError on failure."""

    def __init__(self, library: str = "libcuda.so.1"):
        try:
            self._lib = ctypes.CDLL(library)
        except OSError as e:
            raise CudaError(f"cannot load the CUDA driver ({library}): {e}",
                            call="dlopen") from None
        self._fn = {}
        for name, (symbol, argtypes) in _FUNCTIONS.items():
            try:
                f = getattr(self._lib, symbol)
            except AttributeError:
                raise CudaError(f"the CUDA driver has no {symbol} (too old?)",
                                call=symbol) from None
            f.argtypes = argtypes
            f.restype = CUresult
            self._fn[name] = f
        # The hot path calls these without the dictionary.
        self.launch_raw = self._fn["cuLaunchKernel"]
        self.launch_ex_raw = self._fn["cuLaunchKernelEx"]
        self.check(self._fn["cuInit"](0), "cuInit(0)")

    # -- errors ----------------------------------------------------------------
    def error_text(self, code: int) -> str:
        name, text = c_char_p(), c_char_p()
        self._fn["cuGetErrorName"](code, byref(name))
        self._fn["cuGetErrorString"](code, byref(text))
        n = name.value.decode() if name.value else f"CUDA error {code}"
        t = text.value.decode() if text.value else ""
        return f"{n} ({t})" if t else n

    def check(self, code: int, call: str) -> None:
        if code != CUDA_SUCCESS:
            raise CudaError(f"{call} failed: {self.error_text(code)}",
                            call=call.split("(")[0], code=code)

    # -- devices and contexts ----------------------------------------------
    def device_count(self) -> int:
        n = c_int(0)
        self.check(self._fn["cuDeviceGetCount"](byref(n)), "cuDeviceGetCount")
        return n.value

    def device(self, ordinal: int) -> int:
        d = CUdevice(0)
        self.check(self._fn["cuDeviceGet"](byref(d), ordinal),
                   f"cuDeviceGet({ordinal})")
        return d.value

    def attribute(self, attribute: int, device: int) -> int:
        v = c_int(0)
        self.check(self._fn["cuDeviceGetAttribute"](byref(v), attribute, device),
                   f"cuDeviceGetAttribute({attribute})")
        return v.value

    def compute_capability(self, device: int):
        return (self.attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device),
                self.attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device))

    def current_context(self) -> Optional[int]:
        ctx = CUcontext()
        self.check(self._fn["cuCtxGetCurrent"](byref(ctx)), "cuCtxGetCurrent")
        return ctx.value

    def context_device(self) -> int:
        d = CUdevice(0)
        self.check(self._fn["cuCtxGetDevice"](byref(d)), "cuCtxGetDevice")
        return d.value

    def use_primary_context(self, ordinal: int) -> int:
        """Makes device `ordinal`'s primary context (the one torch uses)
        current on this thread, unless a context of that device already is."""
        ctx = self.current_context()
        if ctx:
            if self.context_device() == self.device(ordinal):
                return ctx
        device = self.device(ordinal)
        primary = CUcontext()
        self.check(self._fn["cuDevicePrimaryCtxRetain"](byref(primary), device),
                   "cuDevicePrimaryCtxRetain")
        self.check(self._fn["cuCtxSetCurrent"](primary), "cuCtxSetCurrent")
        return primary.value

    def synchronize(self) -> None:
        self.check(self._fn["cuCtxSynchronize"](), "cuCtxSynchronize")

    def stream_synchronize(self, stream: int) -> None:
        self.check(self._fn["cuStreamSynchronize"](c_void_p(stream or None)),
                   "cuStreamSynchronize")

    # -- modules -----------------------------------------------------------
    def load_module(self, image: bytes, what: str) -> int:
        """cuModuleLoadData on a cubin or NUL-terminated PTX."""
        buffer = ctypes.create_string_buffer(image, len(image) + 1)
        module = CUmodule()
        code = self._fn["cuModuleLoadData"](byref(module), buffer)
        if code != CUDA_SUCCESS:
            raise CudaError(f"the driver refused {what} ({len(image)} bytes): "
                            f"{self.error_text(code)}",
                            call="cuModuleLoadData", code=code)
        return module.value

    def unload_module(self, module: int) -> None:
        self._fn["cuModuleUnload"](c_void_p(module))

    def function(self, module: int, entry: str) -> int:
        f = CUfunction()
        self.check(self._fn["cuModuleGetFunction"](byref(f), c_void_p(module),
                                                   entry.encode()),
                   f"cuModuleGetFunction('{entry}')")
        return f.value

    def function_attribute(self, function: int, attribute: int) -> int:
        v = c_int(0)
        self.check(self._fn["cuFuncGetAttribute"](byref(v), attribute,
                                                  c_void_p(function)),
                   f"cuFuncGetAttribute({attribute})")
        return v.value

    def set_function_attribute(self, function: int, attribute: int,
                               value: int) -> None:
        self.check(self._fn["cuFuncSetAttribute"](c_void_p(function), attribute,
                                                  value),
                   f"cuFuncSetAttribute({attribute}, {value})")

    # -- memory --------------------------------------------------------------
    def alloc(self, nbytes: int) -> int:
        p = CUdeviceptr(0)
        self.check(self._fn["cuMemAlloc"](byref(p), max(int(nbytes), 1)),
                   f"cuMemAlloc({nbytes})")
        return p.value

    def free(self, ptr: int) -> None:
        self._fn["cuMemFree"](CUdeviceptr(ptr))

    def copy_to_device(self, dst: int, src, nbytes: int) -> None:
        self.check(self._fn["cuMemcpyHtoD"](CUdeviceptr(dst), src, nbytes),
                   "cuMemcpyHtoD")

    def alloc_host(self, nbytes: int) -> int:
        """Page-locked host memory (an asynchronous copy's source, which a
        CUDA graph may read again on every replay)."""
        p = c_void_p()
        self.check(self._fn["cuMemAllocHost"](byref(p), max(int(nbytes), 1)),
                   f"cuMemAllocHost({nbytes})")
        return p.value

    def free_host(self, ptr: int) -> None:
        self._fn["cuMemFreeHost"](c_void_p(ptr))

    def copy_to_device_async(self, dst: int, src: int, nbytes: int,
                             stream: int) -> None:
        """cuMemcpyHtoDAsync from page-locked `src` on `stream` (recorded as
        a copy node when the stream is capturing a graph)."""
        self.check(self._fn["cuMemcpyHtoDAsync"](CUdeviceptr(dst), c_void_p(src),
                                                 nbytes, c_void_p(stream or None)),
                   "cuMemcpyHtoDAsync")

    def zero_async(self, dst: int, nbytes: int, stream: int) -> None:
        """cuMemsetD8Async(dst, 0) on `stream`: a `zeroed` scratch buffer's
        first contents, ordered before the launches that use it."""
        self.check(self._fn["cuMemsetD8Async"](CUdeviceptr(dst), 0, nbytes,
                                               c_void_p(stream or None)),
                   "cuMemsetD8Async")

    def stream_capturing(self, stream: int) -> bool:
        """`stream` is capturing a CUDA graph. An error (the legacy stream
        while another one captures) counts as not: the launch reports it."""
        status = c_int(0)
        code = self._fn["cuStreamIsCapturing"](c_void_p(stream or None),
                                               byref(status))
        return code == CUDA_SUCCESS and status.value == 1

    def stream_is_capturing_address(self) -> int:
        """The address of cuStreamIsCapturing (for the C launch path)."""
        return ctypes.cast(self._fn["cuStreamIsCapturing"], ctypes.c_void_p).value

    def copy_to_host(self, dst, src: int, nbytes: int) -> None:
        self.check(self._fn["cuMemcpyDtoH"](dst, CUdeviceptr(src), nbytes),
                   "cuMemcpyDtoH")

    # -- tensor maps -----------------------------------------------------------
    def encode_tensor_map(self, dtype: str, address: int, shape, strides,
                          itemsize: int, box, swizzle: int) -> bytes:
        """A 128-byte CUtensorMap over row-major `shape` at `address`
        (dimensions are passed innermost first, as the driver wants)."""
        rank = len(shape)
        global_dim = (c_uint64 * 5)()
        global_strides = (c_uint64 * 5)()
        box_dim = (c_uint32 * 5)()
        element_strides = (c_uint32 * 5)()
        for i in range(rank):
            d = rank - 1 - i
            global_dim[i] = shape[d]
            box_dim[i] = box[d]
            element_strides[i] = 1
            if i > 0:
                global_strides[i - 1] = strides[d] * itemsize
        # CUtensorMap is 64-byte aligned: carve an aligned 128 bytes.
        raw = ctypes.create_string_buffer(128 + 64)
        base = ctypes.addressof(raw)
        aligned = (base + 63) & ~63
        code = self._fn["cuTensorMapEncodeTiled"](
            c_void_p(aligned), TENSOR_MAP_DATA_TYPE[dtype], rank,
            c_void_p(address), global_dim, global_strides, box_dim,
            element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
            TENSOR_MAP_SWIZZLE[swizzle], CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)
        if code != CUDA_SUCCESS:
            raise CudaError(
                f"cuTensorMapEncodeTiled failed ({dtype} {list(shape)}, box "
                f"{list(box)}, swizzle {swizzle or 'none'}, address "
                f"0x{address:x}): {self.error_text(code)}",
                call="cuTensorMapEncodeTiled", code=code)
        return ctypes.string_at(aligned, 128)

    # -- launches --------------------------------------------------------------
    def launch_kernel_address(self) -> int:
        """The address of the driver's cuLaunchKernel (for the C launch
        path, runtime.native, which then needs no CUDA library of its own)."""
        return ctypes.cast(self.launch_raw, ctypes.c_void_p).value

    def launch_kernel_ex_address(self) -> int:
        """The address of the driver's cuLaunchKernelEx (for the C launch
        path's launches in thread-block clusters and dependent ones)."""
        return ctypes.cast(self.launch_ex_raw, ctypes.c_void_p).value

    def launch(self, function: int, grid, block, smem: int, stream: int,
               params, cluster=(1, 1, 1), dependent: bool = False) -> None:
        """cuLaunchKernel; in thread-block clusters (`cluster` other than
        1 1 1) or `dependent` (programmatic dependent launch),
        cuLaunchKernelEx, which alone can name them."""
        if not needs_launch_ex(cluster, dependent):
            code = self.launch_raw(function, grid[0], grid[1], grid[2],
                                   block[0], block[1], block[2], smem, stream,
                                   params, None)
            call = "cuLaunchKernel"
        else:
            config = launch_config(grid, block, cluster, smem, dependent)
            config.hStream = stream or None
            code = self.launch_ex_raw(config, function, params, None)
            call = "cuLaunchKernelEx"
        if code != CUDA_SUCCESS:
            self.check(code, call)


_driver: Optional[Driver] = None
_driver_error: Optional[CudaError] = None
_lock = threading.Lock()


def get() -> Driver:
    """The process's Driver (loaded on first use). Raises CudaError when
    there is no usable driver."""
    global _driver, _driver_error
    if _driver is not None:
        return _driver
    with _lock:
        if _driver is None:
            if _driver_error is not None:
                raise _driver_error
            try:
                _driver = Driver(os.environ.get("TILE_LIBCUDA", "libcuda.so.1"))
            except CudaError as e:
                _driver_error = e
                raise
    return _driver


def set_driver(driver) -> None:
    """Installs `driver` (tests: a stand-in with Driver's methods)."""
    global _driver, _driver_error
    _driver, _driver_error = driver, None


def device_available() -> bool:
    """True when the driver loads, initializes and sees a device."""
    try:
        return get().device_count() > 0
    except CudaError:
        return False
