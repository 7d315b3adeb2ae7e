"""Element types of tile tensors.

The frontend traces f32, f16, bf16 and the FP8 formats f8e4m3fn and
f8e5m2 (``tile.f32`` ...; fp8 math is done in f32, each result rounded to
the fp8 format, satfinite). The runtime also knows the other element types
a bundle may declare (f64, i32, i64, i8), with their sizes, for buffers it
allocates, and the bytes of quantized weights that arrive as uint8 or
float8_e8m0fnu (u8, f8e8m0fnu: i8 buffers in a bundle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class DType:
    """An element type: ``name`` as the bundle spells it ("bf16"),
    ``itemsize`` in bytes, the torch dtype's attribute name, the
    ``__cuda_array_interface__`` typestr (None where numpy has none), and
    the MLIR spelling where it is not ``name`` ("f8E4M3FN")."""

    name: str
    itemsize: int
    torch_name: str
    typestr: Optional[str]
    is_float: bool = True
    mlir_name: Optional[str] = None

    def __repr__(self) -> str:
        return f"tile.{self.name}"

    def __str__(self) -> str:
        return self.name

    @property
    def mlir(self) -> str:
        return self.mlir_name or self.name

    def torch(self):
        """The torch dtype (imports torch)."""
        import torch

        return getattr(torch, self.torch_name)


f32 = DType("f32", 4, "float32", "<f4")
f16 = DType("f16", 2, "float16", "<f2")
bf16 = DType("bf16", 2, "bfloat16", None)
f64 = DType("f64", 8, "float64", "<f8")
i32 = DType("i32", 4, "int32", "<i4", is_float=False)
i64 = DType("i64", 8, "int64", "<i8", is_float=False)
i8 = DType("i8", 1, "int8", "|i1", is_float=False)
# The FP8 formats (torch.float8_e4m3fn, torch.float8_e5m2; numpy has none).
f8e4m3fn = DType("f8e4m3fn", 1, "float8_e4m3fn", None, mlir_name="f8E4M3FN")
f8e5m2 = DType("f8e5m2", 1, "float8_e5m2", None, mlir_name="f8E5M2")

# Bytes of quantized weights that are not int8 values: packed codes as
# uint8 (how MX and most packers store them) and OCP MX's scale type
# (torch.float8_e8m0fnu, 2^(e - 127)). Kernels read them as i8 bytes, so
# a bundle declares their buffers i8.
u8 = DType("u8", 1, "uint8", "|u1", is_float=False, mlir_name="i8")
f8e8m0fnu = DType("f8e8m0fnu", 1, "float8_e8m0fnu", None, is_float=False,
                  mlir_name="i8")

#: Types a traced tensor may have.
TRACEABLE = (f32, f16, bf16, f8e4m3fn, f8e5m2)
#: Storage of quantized weights: arguments only tl.quantized_matmul reads
#: (int8 values, int4 and e2m1 pairs as int8 or uint8, e8m0 scales as
#: int8, uint8 or float8_e8m0fnu).
STORAGE = (i8, u8, f8e8m0fnu)
#: The storage types whose bytes are not int8 values (read as i8 bytes).
BYTES = (u8, f8e8m0fnu)
#: The FP8 formats.
FLOAT8 = (f8e4m3fn, f8e5m2)
#: Every type a bundle buffer may have, by bundle name.
BY_NAME = {t.name: t for t in (f32, f16, bf16, f64, i32, i64, i8, f8e4m3fn,
                               f8e5m2)}

_ALIASES = {
    "float32": f32, "fp32": f32, "float": f32,
    "float16": f16, "fp16": f16, "half": f16,
    "bfloat16": bf16,
    "float64": f64, "double": f64,
    "int32": i32, "int64": i64, "int8": i8,
    "float8_e4m3fn": f8e4m3fn, "float8_e5m2": f8e5m2,
    "uint8": u8, "float8_e8m0fnu": f8e8m0fnu,
}
_STORAGE_NAMES = {t.name: t for t in BYTES}
_BY_TYPESTR = {t.typestr: t for t in (*BY_NAME.values(), *_STORAGE_NAMES.values())
               if t.typestr}
_BY_TORCH_NAME = {t.torch_name: t
                  for t in (*BY_NAME.values(), *_STORAGE_NAMES.values())}


def dtype(x) -> DType:
    """A DType from a DType, a name ("bf16", "bfloat16", "float32"), a torch
    dtype or a numpy dtype. Raises TypeError for anything else."""
    if isinstance(x, DType):
        return x
    if isinstance(x, str):
        t = BY_NAME.get(x) or _STORAGE_NAMES.get(x) or _ALIASES.get(x)
        if t is not None:
            return t
        raise TypeError(f"unknown dtype '{x}' (expected one of "
                        f"{', '.join(sorted([*BY_NAME, *_STORAGE_NAMES]))})")
    text = str(x)  # torch.bfloat16 -> "torch.bfloat16"; numpy -> "float32"
    if text.startswith("torch."):
        t = _BY_TORCH_NAME.get(text[len("torch."):])
        if t is not None:
            return t
    t = BY_NAME.get(text) or _STORAGE_NAMES.get(text) or _ALIASES.get(text)
    if t is not None:
        return t
    raise TypeError(f"unsupported dtype {x!r}")


def from_typestr(typestr: str) -> Optional[DType]:
    """The DType of a ``__cuda_array_interface__`` typestr, or None."""
    return _BY_TYPESTR.get(typestr.replace("=", "<"))
