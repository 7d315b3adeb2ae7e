"""tile: define fused GPU ops in Python, compile them, launch them.

    import tile
    import tile.language as tl

    @tile.jit
    def bias_gelu(x, w, b):
        return tl.gelu(x @ w + b).to(tl.bf16)

    y = bias_gelu(x, w, b)          # torch tensors on a CUDA device

or the tile program itself, Triton-style (``import tile.kernel as tk``;
``@tile.kernel(grid=..., threads=...)``, see tile.kernel).

Modules: tile.language (the traced DSL), tile.kernel (the kernel-level
API: program ids, tile loads/stores, dot, loops), tile.jit (decorator, cache,
launch), tile.compiler (the in-process compiler, native), tile.runtime
(bundles and launches; pure Python, no compiler), tile.cache (the bundle
cache). docs/python.md is the guide.

Importing tile loads neither the native compiler nor the CUDA driver: both
are loaded when first needed.
"""

__version__ = "0.1.0"

from . import language  # noqa: E402
from .dtypes import DType, bf16, f16, f32  # noqa: E402
from .errors import (ArgumentError, BundleError, CompilationError,  # noqa: E402
                     CompilerUnavailableError, CudaError, DTypeError,
                     LaunchError, ShapeError, SourceLocation, TileError,
                     TraceError, UnsupportedOpError)
from .jit import CompiledKernel, JITFunction, compile, function, jit  # noqa: E402
from .language import TensorSpec  # noqa: E402
from .record import compile_record, record  # noqa: E402
from . import kernel  # noqa: E402  (tile.kernel: a module and the decorator)
from . import quant  # noqa: E402  (packing helpers for tl.quantized_matmul)
from .tune import tune  # noqa: E402  (autotuning a matmul into a database)

__all__ = [
    "jit", "function", "compile", "JITFunction", "CompiledKernel", "TensorSpec",
    "record", "compile_record", "tune",
    "kernel", "quant",
    "language", "DType", "f32", "f16", "bf16",
    "TileError", "TraceError", "ShapeError", "DTypeError", "UnsupportedOpError",
    "CompilationError", "CompilerUnavailableError", "BundleError",
    "LaunchError", "ArgumentError", "CudaError", "SourceLocation",
]
