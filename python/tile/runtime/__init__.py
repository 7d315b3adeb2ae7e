"""tile.runtime: load kernel bundles and launch them. No compiler needed.

Everything here is pure Python over the CUDA driver (ctypes on
libcuda.so.1): a GPU machine without LLVM/MLIR imports this, and
tile.jit launches from the bundle cache through it.

    from tile import runtime
    b = runtime.load_bundle("softmax.tilebundle")   # parse + validate
    k = runtime.Kernel(b)                           # load on the GPU
    y = k(x)                                        # launch on a torch tensor
"""

from .bundle import (Buffer, Bundle, Check, Launch, Module, TensorMap,
                     fnv1a64, load as load_bundle, parse as parse_bundle)
from .driver import CudaError, device_available
from .launcher import Kernel, default_target, torch_available

__all__ = [
    "Buffer", "Bundle", "Check", "Launch", "Module", "TensorMap", "fnv1a64",
    "load_bundle", "parse_bundle", "CudaError", "device_available", "Kernel",
    "default_target", "torch_available",
]
