"""tile.language: the tensor-level DSL, traced into tile IR.

A function decorated with ``@tile.jit`` is called once per signature with
symbolic :class:`Tensor` arguments; each operation on them appends one
tensor-level tile op to the IR, located at the user's source line::

    import tile
    import tile.language as tl

    @tile.jit
    def bias_gelu(x, w, b):            # x: [M, K] bf16, w: [K, N] bf16, b: [N]
        return tl.gelu(x @ w + b).to(tl.bf16)

What each construct becomes:

- ``a @ b``: ``tile.matmul`` (rank 2, or leading batch dimensions equal in
  both; operands of one type among f16, bf16, f32; the result is f32, the
  accumulator). ``x.mT``, ``x.transpose(-2, -1)``, ``x.T`` (rank 2):
  ``tile.transpose``.
- ``scaled_dot_product_attention(q, k, v, is_causal=..., scale=...,
  enable_gqa=...)``: torch's, written out as the math tile-fuse makes one
  FlashAttention kernel of (so is the same math written with ``@``,
  ``.mT``, ``softmax``). Grouped-query K and V (fewer heads) go through
  ``repeat_interleave`` (``tile.repeat``), which the kernel reads in place.
- ``+ - * /``, unary ``-``, ``abs``, ``exp``, ``tanh``, ``sqrt``, ``rsqrt``,
  ``log``, ``sigmoid``, ``maximum``, ``minimum``, ``relu``, ``gelu`` (tanh
  form), ``silu``, ``x ** p``: one ``tile.map`` each; ``tile-fuse`` fuses
  chains of them (and a matmul's epilogue) into one kernel. Map bodies
  compute in f32; f16/bf16 operands are extended and the result rounded.
  Mixed operand types promote to f32; a Python scalar takes the tensor's
  type (as in torch).
- numpy broadcasting of ``[N]``, ``[1, N]`` or ``[M, 1]`` against
  ``[M, N]``: a ``tile.broadcast`` per use (so fusion can absorb it).
- ``x.to(dtype)``: ``tile.cast``.
- ``x.sum/max/min/mean(axis, keepdim=False)``: ``tile.reduce`` in f32 (the
  input is cast to f32 first), identities 0, -inf, +inf; the result is f32.
- helpers ``softmax``, ``layernorm``, ``rmsnorm`` built from the above
  (statistics in f32, result in the input's dtype, as torch does).

Shapes are static (each call signature is its own trace). Unit dimensions
are logical only: the IR drops them (``[M, 1]`` is ``tensor<M x f32>``), so
``keepdim=True`` results and ``[M, 1]`` inputs broadcast without a reshape.
"""

from __future__ import annotations

import builtins
import numbers
import os
import sys
import threading
from typing import Callable, List, Optional, Sequence, Tuple

from . import _ir
from .dtypes import (DType, FLOAT8, STORAGE, TRACEABLE, bf16,
                     dtype as _as_dtype, f16, f32, f8e4m3fn, f8e5m2,
                     f8e8m0fnu, i8, u8)
from .errors import (DTypeError, ShapeError, SourceLocation, TraceError,
                     UnsupportedOpError)

__all__ = [
    "Tensor", "f32", "f16", "bf16", "float32", "float16", "bfloat16",
    "matmul", "exp", "log", "tanh", "sqrt", "rsqrt", "abs", "neg", "sigmoid",
    "erf", "log1p", "expm1", "sin", "cos", "pow", "where", "Condition",
    "maximum", "minimum", "relu", "gelu", "silu", "cast",
    "sum", "max", "min", "mean", "softmax", "layernorm", "rmsnorm",
    "transpose", "repeat_interleave", "scaled_dot_product_attention",
    "float8_e4m3fn", "float8_e5m2", "scaled_matmul", "quantized_matmul",
    "int8",
]

float32, float16, bfloat16 = f32, f16, bf16
int8, uint8 = i8, u8
float8_e4m3fn, float8_e5m2, float8_e8m0fnu = f8e4m3fn, f8e5m2, f8e8m0fnu
Shape = Tuple[int, ...]

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------------------
# Source locations
# ---------------------------------------------------------------------------

def _frame_column(frame) -> int:
    """1-based column of the instruction `frame` is executing (3.11+)."""
    code = frame.f_code
    try:
        positions = code.co_positions()
    except AttributeError:  # Python < 3.11
        return 1
    index = frame.f_lasti // 2
    for i, pos in enumerate(positions):
        if i == index:
            col = pos[2]
            return col + 1 if col is not None else 1
    return 1


def user_location() -> Optional[SourceLocation]:
    """The innermost frame outside this package: the user's line."""
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.abspath(filename).startswith(_PACKAGE_DIR + os.sep):
            return SourceLocation(filename, frame.f_lineno, _frame_column(frame))
        frame = frame.f_back
    return None


# ---------------------------------------------------------------------------
# The trace
# ---------------------------------------------------------------------------

_state = threading.local()


class Trace:
    """One traced function: its builder, arguments and results."""

    def __init__(self, name: str, loc: Optional[SourceLocation]):
        self.builder = _ir.FunctionBuilder(name, loc)
        self.inputs: List["Tensor"] = []
        self.outputs: List["Tensor"] = []
        self.text = ""           # IR with locations: what is compiled
        self.key_text = ""       # IR without locations: what the cache keys on

    @property
    def function_name(self) -> str:
        return self.builder.name


def _current_trace() -> Optional[Trace]:
    return getattr(_state, "trace", None)


def _squeeze(shape: Shape) -> Shape:
    """The IR shape of a logical shape: unit dimensions dropped."""
    kept = tuple(d for d in shape if d != 1)
    return kept if kept else (1,)


class Tensor:
    """A symbolic tensor of a trace: a logical ``shape`` and a ``dtype``.

    Supports ``@ + - * / **``, unary ``-``, ``abs()``, comparisons are not
    supported. Use the functions of tile.language (``tl.exp(x)``) or the
    methods (``x.exp()``, ``x.sum(-1)``, ``x.to(tl.bf16)``).
    """

    __slots__ = ("_trace", "_value", "shape", "dtype", "_arg_name",
                 "_transpose_of")

    def __init__(self, trace: Trace, value: _ir.Value, shape: Shape,
                 dtype: DType, arg_name: Optional[str] = None):
        self._trace = trace
        self._value = value
        self.shape = tuple(shape)
        self.dtype = dtype
        self._arg_name = arg_name
        self._transpose_of = None  # the tensor this one is the .mT of

    # -- description --------------------------------------------------------
    @property
    def ndim(self) -> int:
        return len(self.shape)

    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    def __repr__(self) -> str:
        return (f"tile.Tensor(shape={list(self.shape)}, dtype={self.dtype}, "
                f"ir={self._value.name})")

    # -- arithmetic ---------------------------------------------------------
    def __matmul__(self, other):
        return matmul(self, other, _op="@")

    def __rmatmul__(self, other):
        return matmul(other, self, _op="@")

    def __add__(self, other):
        return _binary("+", "arith.addf", self, other)

    def __radd__(self, other):
        return _binary("+", "arith.addf", other, self)

    def __sub__(self, other):
        return _binary("-", "arith.subf", self, other)

    def __rsub__(self, other):
        return _binary("-", "arith.subf", other, self)

    def __mul__(self, other):
        return _binary("*", "arith.mulf", self, other)

    def __rmul__(self, other):
        return _binary("*", "arith.mulf", other, self)

    def __truediv__(self, other):
        return _binary("/", "arith.divf", self, other)

    def __rtruediv__(self, other):
        return _binary("/", "arith.divf", other, self)

    def __pow__(self, exponent):
        return pow(self, exponent)

    def __neg__(self):
        return neg(self, _op="-x")

    def __pos__(self):
        return self

    def __abs__(self):
        return abs(self, _op="abs()")

    # -- methods ------------------------------------------------------------
    def to(self, dtype) -> "Tensor":
        return cast(self, dtype, _op=".to")

    def exp(self):
        return exp(self)

    def log(self):
        return log(self)

    def tanh(self):
        return tanh(self)

    def sqrt(self):
        return sqrt(self)

    def rsqrt(self):
        return rsqrt(self)

    def sigmoid(self):
        return sigmoid(self)

    def erf(self):
        return erf(self)

    def log1p(self):
        return log1p(self)

    def expm1(self):
        return expm1(self)

    def sin(self):
        return sin(self)

    def cos(self):
        return cos(self)

    def relu(self):
        return relu(self)

    def sum(self, axis: int = -1, keepdim: bool = False):
        return _reduce(self, axis, keepdim, "sum")

    def max(self, axis: int = -1, keepdim: bool = False):
        return _reduce(self, axis, keepdim, "max")

    def min(self, axis: int = -1, keepdim: bool = False):
        return _reduce(self, axis, keepdim, "min")

    def mean(self, axis: int = -1, keepdim: bool = False):
        return _reduce(self, axis, keepdim, "mean")

    # -- what is not supported, said clearly ------------------------------
    def _unsupported(self, what: str, hint: str = ""):
        raise UnsupportedOpError(
            f"{what} is not supported on tile tensors" + (f"; {hint}" if hint else ""),
            location=user_location())

    def __getitem__(self, index):
        self._unsupported("indexing / slicing (x[...])",
                          "pass the slice as its own argument")

    def __setitem__(self, index, value):
        self._unsupported("item assignment (x[...] = v)",
                          "tile tensors are values; compute a new one")

    @property
    def T(self):
        """A rank-2 tensor transposed (``tile.transpose``)."""
        if self.ndim != 2:
            self._unsupported(f"x.T of a rank-{self.ndim} tensor",
                              "use x.mT or x.transpose(-2, -1)")
        return transpose(self, 0, 1)

    @property
    def mT(self):
        """The last two dimensions swapped, as torch's ``x.mT``."""
        return transpose(self, -2, -1)

    def repeat_interleave(self, repeats: int, dim: int) -> "Tensor":
        return repeat_interleave(self, repeats, dim)

    def transpose(self, dim0: int, dim1: int):
        return transpose(self, dim0, dim1)

    def reshape(self, *args):
        self._unsupported("reshape", "pass the operand in the shape you need")

    view = reshape

    def __bool__(self):
        self._unsupported(
            "using a tensor as a condition (if / while / and / or)",
            "shapes are static; values are not known while tracing")

    def __iter__(self):
        self._unsupported("iterating over a tensor")

    def __len__(self):
        return self.shape[0]

    # Comparisons give a Condition: a mask for tl.where, or .to(dtype).
    def __lt__(self, other):
        return Condition.compare("<", self, other)

    def __le__(self, other):
        return Condition.compare("<=", self, other)

    def __gt__(self, other):
        return Condition.compare(">", self, other)

    def __ge__(self, other):
        return Condition.compare(">=", self, other)

    def __eq__(self, other):  # noqa: D105 - a Condition, as torch's
        return Condition.compare("==", self, other)

    def __ne__(self, other):
        return Condition.compare("!=", self, other)

    __hash__ = object.__hash__

    # torch.exp(x) on a tile tensor: a clear error rather than torch's.
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", str(func))
        raise UnsupportedOpError(
            f"torch.{name} cannot be traced; use the tile.language "
            f"equivalent (tl.{name}) if there is one",
            location=user_location(), op=f"torch.{name}")

    def __array__(self, *args, **kwargs):
        raise UnsupportedOpError("converting a tile tensor to numpy is not "
                                 "possible while tracing (values are not known)",
                                 location=user_location(), op="numpy")

    __array_ufunc__ = None  # numpy defers to the reflected operators


# ---------------------------------------------------------------------------
# Helpers shared by the ops
# ---------------------------------------------------------------------------

def _trace_of(*operands) -> Trace:
    trace = None
    for x in operands:
        if isinstance(x, Tensor):
            if trace is None:
                trace = x._trace
            elif x._trace is not trace:
                raise TraceError("operands come from different traces",
                                 location=user_location())
    if trace is None:
        raise TraceError("expected at least one tile tensor operand",
                         location=user_location())
    if _current_trace() is not trace:
        raise TraceError("a tile tensor was used outside the function that "
                         "traced it (do not keep tensors between calls)",
                         location=user_location())
    return trace


_PREDICATES = {"<": "olt", "<=": "ole", ">": "ogt", ">=": "oge",
               "==": "oeq", "!=": "une"}


class Condition:
    """An elementwise comparison (``x > 0``, ``a == b``) or a combination of
    comparisons (``&``, ``|``, ``~``): a boolean mask, as torch's, that is
    computed inside the map that uses it (``tl.where(c, x, y)``,
    ``c.to(dtype)``) rather than stored as a tensor of its own."""

    def __init__(self, kind: str, operands: Sequence, loc):
        self.kind = kind          # a comparison, "&", "|" or "~"
        self.operands = list(operands)
        self.loc = loc

    @staticmethod
    def compare(op: str, lhs, rhs) -> "Condition":
        loc = user_location()
        for x in (lhs, rhs):
            _check_operand(x, op, loc)
        return Condition(op, [lhs, rhs], loc)

    def leaves(self) -> List:
        """The tensors and scalars the comparisons read, in order."""
        out = []
        for x in self.operands:
            out.extend(x.leaves() if isinstance(x, Condition) else [x])
        return out

    def emit(self, scalars, names) -> str:
        """The i1 value, from `names` (an iterator over the leaves' f32
        names, in leaves() order)."""
        if self.kind in _PREDICATES:
            lhs, rhs = next(names), next(names)
            return scalars.compare(_PREDICATES[self.kind], lhs, rhs)
        values = [x.emit(scalars, names) for x in self.operands]
        if self.kind == "~":
            return scalars.logical("arith.xori", values[0], scalars.true())
        return scalars.logical("arith.andi" if self.kind == "&" else "arith.ori",
                               *values)

    def _combine(self, kind: str, other) -> "Condition":
        if not isinstance(other, Condition):
            raise UnsupportedOpError(
                f"'{kind}' combines two conditions (comparisons), not "
                f"{type(other).__name__}", location=user_location(), op=kind)
        return Condition(kind, [self, other], user_location())

    def __and__(self, other):
        return self._combine("&", other)

    def __or__(self, other):
        return self._combine("|", other)

    def __invert__(self):
        return Condition("~", [self], user_location())

    def __bool__(self):
        raise UnsupportedOpError(
            "using a comparison of tensors as a condition (if / while / and "
            "/ or): shapes are static; values are not known while tracing "
            "(use tl.where, and & | ~ to combine)", location=user_location(),
            op="bool()")

    def to(self, dtype) -> "Tensor":
        """1 where true, 0 where false, as torch's ``mask.to(dtype)``."""
        return where(self, 1.0, 0.0, _dtype=_as_dtype(dtype))

    def float(self) -> "Tensor":
        return self.to(f32)


def where(condition: Condition, x, y, *, _dtype: Optional[DType] = None) -> Tensor:
    """``x`` where ``condition`` holds, else ``y`` (torch.where): one
    tile.map that computes the condition and selects."""
    loc = user_location()
    if not isinstance(condition, Condition):
        raise UnsupportedOpError(
            "tl.where's condition must be a comparison of tensors (x > 0, "
            "a == b, combined with & | ~)", location=loc, op="where")
    leaves = condition.leaves()
    operands = leaves + [x, y]
    if not any(isinstance(v, Tensor) for v in operands):
        raise UnsupportedOpError("tl.where needs at least one tensor",
                                 location=loc, op="where")
    chosen = [v.dtype for v in (x, y) if isinstance(v, Tensor)]
    dtype = _dtype or (_promote(chosen) if chosen else f32)

    def body(s, *names):
        it = iter(names)
        cond = condition.emit(s, it)
        return s.select(cond, next(it), next(it))

    return _elementwise("where", operands, body, result_dtype=dtype)


def _is_scalar(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _check_storage(x, op: str, loc) -> None:
    """Int8 tensors are quantized weights' storage: only
    tl.quantized_matmul reads them."""
    if isinstance(x, Tensor) and x.dtype in STORAGE:
        raise DTypeError(f"{x.dtype} tensors hold quantized weights: read them "
                         "with tl.quantized_matmul", location=loc, op=op)


def _check_operand(x, op: str, loc) -> None:
    _check_storage(x, op, loc)
    if isinstance(x, Tensor) or _is_scalar(x):
        return
    if isinstance(x, Condition):
        raise UnsupportedOpError(
            f"a comparison is a condition, not a tensor: use tl.where(c, x, "
            f"y) or c.to(dtype) before '{op}'", location=loc, op=op)
    raise UnsupportedOpError(
        f"operand of type {type(x).__name__} is not a tile tensor or a Python "
        f"number (tensors must be arguments of the traced function)",
        location=loc, op=op)


def broadcast_shapes(shapes: Sequence[Shape], op: str, loc) -> Shape:
    """numpy's broadcasting rule; a ShapeError naming both shapes."""
    rank = len(shapes[0]) if shapes else 0
    for s in shapes:
        rank = len(s) if len(s) > rank else rank
    out = []
    for i in range(rank):
        size = 1
        for s in shapes:
            d = s[i - rank + len(s)] if i - rank + len(s) >= 0 else 1
            if d == 1:
                continue
            if size != 1 and d != size:
                raise ShapeError(
                    "shapes " + " and ".join(str(list(s)) for s in shapes) +
                    " do not broadcast (dimension "
                    f"{i - rank} is {size} in one and {d} in another)",
                    location=loc, op=op)
            size = d
        out.append(size)
    return tuple(out)


def _expand(x: Tensor, shape: Shape, op: str, loc) -> _ir.Value:
    """x's IR value broadcast to the logical `shape` (a tile.broadcast when
    dimensions must be inserted: one per use, so that tile-fuse can take it
    into the consumer's kernel)."""
    if x.shape == shape:
        return x._value
    padded = (1,) * (len(shape) - len(x.shape)) + x.shape
    out_ir = _squeeze(shape)
    inserted, position = [], 0
    kept = 0
    for want, have in zip(shape, padded):
        if want == 1:
            continue
        if have == 1:
            inserted.append(position)
        else:
            kept += 1
        position += 1
    if not inserted:
        return x._value
    # kept == 0: a one-element tensor (a per-tensor scale) broadcast from
    # its 0-d IR value, which the kernel loads once per program.
    trace = x._trace
    return trace.builder.broadcast(x._value, out_ir, inserted, loc, op)


def _promote(dtypes: Sequence[DType]) -> DType:
    first = dtypes[0]
    return first if all(d == first for d in dtypes) else f32


def _elementwise(op: str, operands: Sequence, body: Callable[..., str],
                 result_dtype: Optional[DType] = None) -> Tensor:
    """One tile.map over tensors and scalars: scalars become constants in
    the body; tensors are broadcast to the common shape."""
    loc = user_location()
    for x in operands:
        _check_operand(x, op, loc)
    trace = _trace_of(*operands)
    tensors = [x for x in operands if isinstance(x, Tensor)]
    shape = broadcast_shapes([t.shape for t in tensors], op, loc)
    dtype = result_dtype or _promote([t.dtype for t in tensors])
    values = [_expand(t, shape, op, loc) for t in tensors]

    def map_body(scalars, *args):
        it = iter(args)
        names = [next(it) if isinstance(x, Tensor) else scalars.const(float(x))
                 for x in operands]
        return body(scalars, *names)

    value = trace.builder.map(values, dtype, map_body, loc, op)
    return Tensor(trace, value, shape, dtype)


def _binary(op: str, opname: str, a, b) -> Tensor:
    return _elementwise(op, [a, b], lambda s, x, y: s.op(opname, x, y))


def _unary(op: str, fn: Callable[..., str], x) -> Tensor:
    if not isinstance(x, Tensor):
        raise UnsupportedOpError(
            f"expected a tile tensor but got {type(x).__name__}",
            location=user_location(), op=op)
    return _elementwise(op, [x], fn)


# ---------------------------------------------------------------------------
# Operations
# ---------------------------------------------------------------------------

def matmul(a: Tensor, b: Tensor, *, _op: str = "matmul",
           _k_runs: int = 0) -> Tensor:
    """``a @ b``: [..., M, K] @ [..., K, N] (the same leading batch
    dimensions, or none) accumulated and returned in f32."""
    loc = user_location()
    op = f"`{_op}` (tile.matmul)"
    for x in (a, b):
        if not isinstance(x, Tensor):
            raise UnsupportedOpError(
                f"expected tile tensors but got {type(x).__name__}",
                location=loc, op=op)
    trace = _trace_of(a, b)
    if a.ndim < 2 or a.ndim != b.ndim or a.shape[:-2] != b.shape[:-2]:
        raise ShapeError(f"expected operands of rank 2, or of one rank with the "
                         f"same batch dimensions, but got {list(a.shape)} @ "
                         f"{list(b.shape)}", location=loc, op=op)
    if a.shape[-1] != b.shape[-2]:
        raise ShapeError(f"inner dimensions differ: {list(a.shape)} @ "
                         f"{list(b.shape)}", location=loc, op=op)
    # fp8 operands may mix the two formats (e4m3 x e5m2), as wgmma's do.
    if a.dtype != b.dtype and not (a.dtype in FLOAT8 and b.dtype in FLOAT8):
        raise DTypeError(f"operands have different dtypes ({a.dtype} @ "
                         f"{b.dtype}); cast one with .to()", location=loc, op=op)
    _check_storage(a, op, loc)
    if a.dtype not in TRACEABLE:
        raise DTypeError(f"expected f16, bf16, f32 or fp8 operands but got "
                         f"{a.dtype}", location=loc, op=op)
    # Unit batch dimensions are dropped in the IR like any other. A product
    # with M = 1 or N = 1 (decode: one token against a weight) is a
    # matrix-vector product, memory-bound: rows of the matrix times the
    # broadcast vector, summed along K in f32 (a row group: one kernel that
    # reads the matrix once).
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    if a.ndim == 2 and (m == 1) != (n == 1) and k > 1:
        return _matrix_vector(a, b, op)
    if 1 in a.shape[-2:] or 1 in b.shape[-2:]:
        raise UnsupportedOpError(
            f"matmul with a unit dimension ({list(a.shape)} @ {list(b.shape)}) "
            "is not supported (M = 1 or N = 1 alone are, on rank-2 operands)",
            location=loc, op=op)
    value = trace.builder.matmul(a._value, b._value, loc, _op, _k_runs)
    return Tensor(trace, value, a.shape[:-1] + (b.shape[-1],), f32)


def _matrix_vector(a: Tensor, b: Tensor, op: str) -> Tensor:
    """a @ b with a [1, K] or b [K, 1]: the matrix's rows times the vector,
    summed in f32, shaped [1, N] or [M, 1]. The matrix is read along K:
    for x @ w.mT (w [N, K], torch's Linear weight) w as stored; a b [K, N]
    given as it is goes through its transpose (a kernel of its own)."""
    trace = _trace_of(a, b)
    if a.shape[0] == 1:
        vector = a                                     # [1, K]
        rows = b._transpose_of
        rows = rows if rows is not None else transpose(b, -2, -1)   # [N, K]
        shape = (1, rows.shape[0])
    else:
        rows = a                                       # [M, K]
        # b [K, 1] has the IR of a [K] vector: seen as [1, K] it broadcasts
        # along the rows.
        vector = Tensor(trace, b._value, (1, b.shape[0]), b.dtype)
        shape = (rows.shape[0], 1)
    products = _elementwise(op, [rows, vector],
                            lambda s, x, y: s.op("arith.mulf", x, y),
                            result_dtype=f32)
    total = _reduce(products, -1, False, "sum")
    return Tensor(trace, total._value, shape, f32)


def scaled_matmul(a: Tensor, b: Tensor, scale_a: Tensor, scale_b: Tensor, *,
                  out_dtype=bf16) -> Tensor:
    """``torch._scaled_mm(a, b, scale_a, scale_b, out_dtype=...)``: the fp8
    product of a [M, K] and b [K, N] (e4m3fn or e5m2, mixed allowed),
    accumulated in f32, scaled, in `out_dtype`. The scales are f32, by
    their shapes (as _scaled_mm tells its recipes):

    - per tensor: ``[1]``; per row of a: ``[M, 1]``; per column of b:
      ``[1, N]``: the product times the scales, in the epilogue;
    - blocks (DeepSeek-V3's): scale_a ``[M, ceil(K / 128)]`` (1x128: a row
      and 128 of K) or ``[ceil(M / 128), ceil(K / 128)]`` (128x128);
      scale_b ``[ceil(K / 128), ceil(N / 128)]`` (128x128) or
      ``[ceil(K / 128), N]`` (a column and 128 of K). Each 128-deep step's
      product is promoted into the f32 sum with its scales.

    As for _scaled_mm, b is best given as ``w.mT`` for a weight w [N, K]:
    the tensor cores read fp8 B K-major only (sm_90a); another b runs on
    SIMT. torch's block scales are M-major (scale_a with strides (1, M)):
    pass the contiguous ``[ceil(K / 128), M]`` tensor and write
    ``scale_a.mT`` here (and ``scale_b = sw.mT`` for sw [N / 128, K / 128]);
    the kernel reads them as stored."""
    loc = user_location()
    op = "`scaled_matmul` (tile.matmul)"
    for x in (a, b, scale_a, scale_b):
        if not isinstance(x, Tensor):
            raise UnsupportedOpError(
                f"expected tile tensors but got {type(x).__name__}",
                location=loc, op=op)
    if a.dtype not in FLOAT8 or b.dtype not in FLOAT8:
        raise DTypeError(f"expected fp8 operands (f8e4m3fn, f8e5m2) but got "
                         f"{a.dtype} and {b.dtype}", location=loc, op=op)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ShapeError(f"expected [M, K] and [K, N] operands but got "
                         f"{list(a.shape)} and {list(b.shape)}", location=loc,
                         op=op)
    m, k, n = a.shape[0], a.shape[1], b.shape[1]
    target = _dtype_of(out_dtype, op, loc, "produce")
    epilogue = {"scale_a": [(1,), (m, 1)], "scale_b": [(1,), (1, n)]}
    if scale_a.shape in epilogue["scale_a"] and \
            scale_b.shape in epilogue["scale_b"]:
        for name, scale in (("scale_a", scale_a), ("scale_b", scale_b)):
            if scale.dtype != f32:
                raise DTypeError(f"expected {name} of f32 but got "
                                 f"{scale.dtype}", location=loc, op=op)
        product = matmul(a, b, _op="scaled_matmul")
        return _elementwise(
            op, [product, scale_a, scale_b],
            lambda s, x, p, q: s.op("arith.mulf", x, s.op("arith.mulf", p, q)),
            result_dtype=target)
    kb = -(-k // _SCALE_BLOCK)
    blocks_a = {(m, kb): 1, (-(-m // _SCALE_BLOCK), kb): _SCALE_BLOCK}
    blocks_b = {(kb, -(-n // _SCALE_BLOCK)): _SCALE_BLOCK, (kb, n): 1}
    if scale_a.shape not in blocks_a or scale_b.shape not in blocks_b:
        raise ShapeError(
            f"expected scale_a of shape [1], [{m}, 1] (per row), [{m}, {kb}] "
            f"(1x128 blocks) or [{-(-m // _SCALE_BLOCK)}, {kb}] (128x128), "
            f"and scale_b of shape [1], [1, {n}] (per column), "
            f"[{kb}, {-(-n // _SCALE_BLOCK)}] (128x128) or [{kb}, {n}], but got "
            f"{list(scale_a.shape)} and {list(scale_b.shape)}",
            location=loc, op=op)
    for name, scale in (("scale_a", scale_a), ("scale_b", scale_b)):
        if scale.dtype != f32:
            raise DTypeError(f"expected {name} of f32 but got {scale.dtype}",
                             location=loc, op=op)
    if 1 in (m, k, n):
        raise UnsupportedOpError(
            f"block scales need M, K and N above 1 but got [{m}, {k}] @ "
            f"[{k}, {n}]", location=loc, op=op)
    trace = _trace_of(a, b, scale_a, scale_b)
    block = (blocks_a[scale_a.shape], _SCALE_BLOCK, blocks_b[scale_b.shape])
    value = trace.builder.block_scaled_matmul(
        a._value, b._value, scale_a._value, scale_b._value, block, loc,
        "scaled_matmul")
    return cast(Tensor(trace, value, (m, n), f32), target,
                _op="scaled_matmul")


#: The formats tl.quantized_matmul reads: the decode of each value, the
#: stored bytes per row of K values, and whether scales are e8m0 bytes.
_QUANT_FORMATS = ("int4", "int8", "mxfp4")


def _decode_lines(fmt: str, names) -> Tuple[List[str], str]:
    """The map body lines that turn value q (i8) into f32 `w` (before the
    scale): int4 / int8 signed integers; mxfp4 e2m1 (sign bit 3, exponent
    bits 2-1, mantissa bit 0: (1 + m / 2) 2^(e - 1), or m / 2 where e = 0).
    The e2m1 bits put at f32's bits 24-22 (sign at 31) read as the value
    times 2^-126, a subnormal for e = 0, so one exact multiply by 2^126
    restores it: five integer ops where a decode by cases takes about
    fourteen (bench/RESULTS.md, MXFP4 decode, 2026-12-03)."""
    q, w = names["q"], names["w"]
    if fmt != "mxfp4":
        return [f"{w} = arith.sitofp {q} : i8 to f32"], w
    n = names["tmp"]
    lines = [
        f"{n}c7 = arith.constant 7 : i32", f"{n}c8 = arith.constant 8 : i32",
        f"{n}c22 = arith.constant 22 : i32", f"{n}c28 = arith.constant 28 : i32",
        f"{n}two126 = arith.constant 0x7E800000 : f32",
        f"{n}u = arith.extui {q} : i8 to i32",
        f"{n}low = arith.andi {n}u, {n}c7 : i32",
        f"{n}mag = arith.shli {n}low, {n}c22 : i32",
        f"{n}sign = arith.andi {n}u, {n}c8 : i32",
        f"{n}sbit = arith.shli {n}sign, {n}c28 : i32",
        f"{n}bits = arith.ori {n}mag, {n}sbit : i32",
        f"{n}raw = arith.bitcast {n}bits : i32 to f32",
        f"{w} = arith.mulf {n}raw, {n}two126 : f32",
    ]
    return lines, w


def quantized_matmul(x: Tensor, qweight: Tensor, scales: Tensor,
                     zeros: Optional[Tensor] = None, *, group_size: int = 128,
                     format: str = "int4", layout: str = "rows",
                     out_dtype=None) -> Tensor:
    """``x @ W.mT`` for a weight W [N, K] stored quantized and dequantized
    in the matmul's K loop (never written out; docs/quantization.md):

    - ``"int4"``: qweight int8 or uint8 [N, K / 2], two signed 4-bit
      values per byte along K (low nibble first), scales [K / group_size,
      N] (GPTQ's orientation), W = (q - zeros) * scales;
    - ``"int8"``: qweight int8 [N, K], scales as for int4;
    - ``"mxfp4"``: qweight int8 or uint8 [N, K / 2], two e2m1 values per
      byte; scales [N, K / 32] of e8m0 (2^(e - 127)): float8_e8m0fnu, or
      its bytes as uint8 or int8; group_size 32, no zeros.

    ``layout="mma"``: qweight's bytes in the order tile.quant.pack_int4(w,
    layout="mma") (K and group_size multiples of 128) or pack_mxfp4(w,
    layout="mma") (K a multiple of 32) writes, each thread's bytes its
    mma.sync B fragments (tile.matmul k_runs = 32 for int4, 8 for mxfp4:
    a block of 32, one scale group), int4 in AWQ's nibble order
    (tile.unpack interleaved), mxfp4 bit by bit (tile.unpack bits =
    tile.quant.MXFP4_MMA_BITS, where a rotation and an and place a pair of
    e2m1 values in bf16): the same math, fewer instructions a value.

    Scales and zero points are f32, bf16 or f16 tensors (zeros of the
    scales' shape). x is bf16 or f16 [M, K] with M of 2 or more; W is
    rounded to x's dtype. tile.quant's packing helpers produce these
    layouts from a float weight. Returns out_dtype (default: x's)."""
    loc = user_location()
    op = "`quantized_matmul` (tile.matmul of a dequantized weight)"
    for t in (x, qweight, scales) + ((zeros,) if zeros is not None else ()):
        if not isinstance(t, Tensor):
            raise UnsupportedOpError(f"expected tile tensors but got "
                                     f"{type(t).__name__}", location=loc, op=op)
    if format not in _QUANT_FORMATS:
        raise UnsupportedOpError(f"unknown format {format!r} (expected one of "
                                 f"{', '.join(_QUANT_FORMATS)})",
                                 location=loc, op=op)
    if x.dtype not in (bf16, f16) or x.ndim != 2:
        raise DTypeError(f"expected x of bf16 or f16, [M, K], but got "
                         f"{x.dtype} {list(x.shape)}", location=loc, op=op)
    m, k = x.shape
    # Packed codes are bytes, int8 or uint8; int8 weights are signed values.
    codes = (i8,) if format == "int8" else (i8, u8)
    if qweight.dtype not in codes or qweight.ndim != 2:
        raise DTypeError(f"expected an {' or '.join(t.torch_name for t in codes)} "
                         f"qweight [N, K{'' if format == 'int8' else ' / 2'}] "
                         f"but got {qweight.dtype} {list(qweight.shape)}",
                         location=loc, op=op)
    n = qweight.shape[0]
    packed = format != "int8"
    if layout not in ("rows", "mma"):
        raise UnsupportedOpError(f"unknown layout {layout!r} (expected 'rows' "
                                 f"or 'mma')", location=loc, op=op)
    if format == "mxfp4" and group_size != 32:
        raise ShapeError(f"mxfp4 has one scale per 32 values, not "
                         f"group_size={group_size}", location=loc, op=op)
    if isinstance(group_size, bool) or not isinstance(group_size, int) or \
            group_size < 16 or group_size & (group_size - 1):
        raise ShapeError(f"expected a group_size that is a power of two of "
                         f"16 or more but got {group_size!r}", location=loc, op=op)
    if layout == "mma" and format == "mxfp4" and k % 32:
        raise ShapeError(f"layout='mma' of mxfp4 needs K a multiple of 32 "
                         f"but got K = {k}", location=loc, op=op)
    if layout == "mma" and format != "mxfp4" and (
            format != "int4" or k % 128 or group_size % 128):
        raise ShapeError(f"layout='mma' is int4's with K and group_size "
                         f"multiples of 128 (or mxfp4's) but got {format}, "
                         f"K = {k}, group_size = {group_size}",
                         location=loc, op=op)
    want = (n, k // 2) if packed else (n, k)
    if (packed and k % 2) or qweight.shape != want:
        raise ShapeError(f"expected qweight of shape {list(want)} for x "
                         f"{list(x.shape)} ({format}) but got "
                         f"{list(qweight.shape)}", location=loc, op=op)
    groups = -(-k // group_size)
    if format == "mxfp4":
        if scales.dtype not in STORAGE or scales.shape != (n, groups):
            raise ShapeError(f"expected e8m0 scales as float8_e8m0fnu, uint8 "
                             f"or int8 [{n}, {groups}] but got {scales.dtype} "
                             f"{list(scales.shape)}", location=loc, op=op)
        if zeros is not None:
            raise UnsupportedOpError("mxfp4 has no zero points",
                                     location=loc, op=op)
    else:
        for name, t in (("scales", scales), ("zeros", zeros)):
            if t is None:
                continue
            if t.dtype not in (f32, bf16, f16) or t.shape != (groups, n):
                raise ShapeError(f"expected {name} of f32, bf16 or f16 "
                                 f"[{groups}, {n}] (one per {group_size} of K "
                                 f"and column) but got {t.dtype} "
                                 f"{list(t.shape)}", location=loc, op=op)
    if k % group_size:
        raise ShapeError(f"K = {k} is not a multiple of group_size = "
                         f"{group_size}", location=loc, op=op)
    if 1 in (m, n, k, groups):
        raise UnsupportedOpError(
            f"quantized_matmul needs M, N, K and the groups above 1 but got "
            f"x {list(x.shape)} and {groups} groups (M = 1: pad x to 2 rows)",
            location=loc, op=op)
    from . import quant
    trace = _trace_of(x, qweight, scales, *([zeros] if zeros is not None else []))
    b = trace.builder
    q = b.unpack(qweight._value, format == "int4", loc,
                 interleaved=layout == "mma" and format == "int4",
                 bits=(quant.MXFP4_MMA_BITS
                       if layout == "mma" and format == "mxfp4" else None)
                 ) if packed else qweight._value

    def per_value(t: Tensor) -> _ir.Value:
        # One per group of K of each row of W: [N, groups] repeated along K.
        v = t._value if format == "mxfp4" else b.transpose(t._value, loc, op)
        return b.repeat(v, 1, group_size, loc, op)

    inputs = [q, per_value(scales)]
    if zeros is not None:
        inputs.append(per_value(zeros))
    args = [b.fresh() for _ in inputs]
    # The body's own names: %dq<n>_...
    t = "%dq" + b.fresh()[1:] + "_"
    names = {"q": args[0], "w": t + "w", "tmp": t}
    lines, w = _decode_lines(format, names)

    def as_f32(value: str, dtype: DType, name: str) -> str:
        if dtype == f32:
            return value
        lines.append(f"{t}{name} = arith.extf {value} : {dtype.mlir} to f32")
        return t + name

    if format == "mxfp4":
        # e8m0 as the OCP spec reads it, 2^(e - 127), made as bf16 bits:
        # the byte moved to the exponent field (e << 7); e = 0 is 2^-127
        # (the bf16 subnormal 0x40, which the max picks: every other
        # byte's bits are larger), and e = 255 (0x7F80, inf) is NaN: s +
        # (s - s) is s for a finite s and NaN for inf (two bf16 adds a
        # pair of scales; bf16 arithmetic keeps subnormals). The scale is
        # a bf16, so tile-hoist-broadcast-math carries it as one (decoded
        # once a scale) and tile-packed-dequant multiplies by it in bf16.
        lines += [f"{t}c7s = arith.constant 7 : i16",
                  f"{t}tiny = arith.constant 64 : i16",
                  f"{t}e = arith.extui {args[1]} : i8 to i16",
                  f"{t}sb = arith.shli {t}e, {t}c7s : i16",
                  f"{t}sz = arith.maxui {t}sb, {t}tiny : i16",
                  f"{t}sh = arith.bitcast {t}sz : i16 to bf16",
                  f"{t}nanish = arith.subf {t}sh, {t}sh : bf16",
                  f"{t}sn = arith.addf {t}sh, {t}nanish : bf16",
                  f"{t}scale = arith.extf {t}sn : bf16 to f32"]
        scale = f"{t}scale"
    else:
        scale = as_f32(args[1], scales.dtype, "scale")
    if zeros is not None:
        zero = as_f32(args[2], zeros.dtype, "zero")
        lines.append(f"{t}c = arith.subf {w}, {zero} : f32")
        w = f"{t}c"
    lines.append(f"{t}v = arith.mulf {w}, {scale} : f32")
    lines.append(f"{t}h = arith.truncf {t}v : f32 to {x.dtype.mlir}")
    weight = b.raw_map(inputs, x.dtype, lines, args, f"{t}h", loc, op)
    wt = transpose(Tensor(trace, weight, (n, k), x.dtype), -2, -1)
    runs = quant.MMA_RUNS[format] if layout == "mma" else 0
    product = matmul(x, wt, _op="quantized_matmul", _k_runs=runs)
    target = x.dtype if out_dtype is None else _dtype_of(out_dtype, op, loc,
                                                         "produce")
    return cast(product, target, _op="quantized_matmul")


#: The K extent (and the M or N extent of 128x128 blocks) of one block
#: scale, as torch._scaled_mm's blockwise recipes and DeepSeek-V3 use.
_SCALE_BLOCK = 128


def _dtype_of(dtype, op: str, loc, verb: str) -> DType:
    """The tensor dtype `dtype` names, else a located DTypeError ("cannot
    `verb` ...")."""
    try:
        target = _as_dtype(dtype)
    except TypeError as e:
        raise DTypeError(str(e), location=loc, op=op) from None
    if target not in TRACEABLE:
        raise DTypeError(f"cannot {verb} {target}: tile tensors are f32, "
                         "f16, bf16, f8e4m3fn or f8e5m2", location=loc, op=op)
    return target


def transpose(x: Tensor, dim0: int, dim1: int) -> Tensor:
    """x with dimensions `dim0` and `dim1` swapped: the last two only
    (``tile.transpose``; a K^T feeding a matmul is read as stored)."""
    loc = user_location()
    op = "transpose (tile.transpose)"
    if not isinstance(x, Tensor):
        raise UnsupportedOpError(f"expected a tile tensor but got "
                                 f"{type(x).__name__}", location=loc, op=op)
    for d in (dim0, dim1):
        if isinstance(d, bool) or not isinstance(d, numbers.Integral) or \
                not -x.ndim <= d < x.ndim:
            raise ShapeError(f"dimension {d!r} is out of range for shape "
                             f"{list(x.shape)}", location=loc, op=op)
    if x.ndim < 2 or sorted((dim0 % x.ndim, dim1 % x.ndim)) != [x.ndim - 2, x.ndim - 1]:
        raise UnsupportedOpError(
            f"only the last two dimensions swap (got {dim0}, {dim1} of "
            f"{list(x.shape)})", location=loc, op=op)
    if 1 in x.shape[-2:]:
        raise UnsupportedOpError(f"transposing a unit dimension "
                                 f"({list(x.shape)}) is not supported",
                                 location=loc, op=op)
    trace = _trace_of(x)
    value = trace.builder.transpose(x._value, loc, "transpose")
    result = Tensor(trace, value, x.shape[:-2] + (x.shape[-1], x.shape[-2]),
                    x.dtype)
    # What it transposes: a matrix-vector product reads x as stored.
    result._transpose_of = x
    return result


def repeat_interleave(x: Tensor, repeats: int, dim: int) -> Tensor:
    """torch's ``x.repeat_interleave(repeats, dim)`` with an int `repeats`:
    each slice along `dim` `repeats` times in a row. Fused into attention
    as grouped-query K and V (the kernel reads the shared head, no copy);
    elsewhere it has no kernel yet."""
    loc = user_location()
    op = "repeat_interleave"
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise UnsupportedOpError(f"repeats must be a positive int, got "
                                 f"{repeats!r}", location=loc, op=op)
    if isinstance(dim, bool) or not isinstance(dim, int) or \
            not -x.ndim <= dim < x.ndim:
        raise ShapeError(f"dim {dim!r} is out of range for a tensor of rank "
                         f"{x.ndim}", location=loc, op=op)
    dim %= x.ndim
    if repeats == 1:
        return x
    shape = x.shape[:dim] + (x.shape[dim] * repeats,) + x.shape[dim + 1:]
    trace = _trace_of(x)
    if x.shape[dim] == 1:
        # A unit dimension is not in the IR: inserting it is a broadcast.
        return Tensor(trace, _expand(x, shape, op, loc), shape, x.dtype)
    ir_dim = builtins.sum(1 for d in x.shape[:dim] if d != 1)
    return Tensor(trace, trace.builder.repeat(x._value, ir_dim, repeats, loc, op),
                  shape, x.dtype)


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask=None, dropout_p: float = 0.0,
                                 is_causal: bool = False,
                                 scale: Optional[float] = None,
                                 enable_gqa: bool = False) -> Tensor:
    """torch's ``F.scaled_dot_product_attention`` on [..., S, D] tensors of
    one 16-bit type: softmax(Q K^T * scale [+ causal mask]) V, with scale
    1 / sqrt(D) by default and the causal mask top-left aligned (key <=
    query). tile-fuse makes it one FlashAttention kernel. With
    ``enable_gqa``, key and value may have fewer heads (dimension -3) than
    query, a divisor of them: each K/V head serves that many query heads in
    a row, read in place. ``attn_mask`` and dropout are not supported."""
    loc = user_location()
    op = "scaled_dot_product_attention"
    if attn_mask is not None:
        raise UnsupportedOpError("attn_mask is not supported; use is_causal",
                                 location=loc, op=op)
    if dropout_p:
        raise UnsupportedOpError("dropout is not supported", location=loc, op=op)
    for x in (query, key, value):
        if not isinstance(x, Tensor):
            raise UnsupportedOpError(f"expected tile tensors but got "
                                     f"{type(x).__name__}", location=loc, op=op)
    if not (query.dtype == key.dtype == value.dtype) or query.dtype not in (bf16, f16):
        raise DTypeError(f"expected query, key and value of one type, bf16 or "
                         f"f16, but got {query.dtype}, {key.dtype}, "
                         f"{value.dtype}", location=loc, op=op)
    if enable_gqa and query.ndim >= 3 and key.ndim == query.ndim and \
            value.ndim == query.ndim and key.shape[-3] != query.shape[-3]:
        heads, kv_heads = query.shape[-3], key.shape[-3]
        if heads % kv_heads or value.shape[-3] != kv_heads:
            raise ShapeError(f"enable_gqa needs key and value heads that divide "
                             f"the query's {heads} but got {kv_heads} and "
                             f"{value.shape[-3]}", location=loc, op=op)
        key = repeat_interleave(key, heads // kv_heads, -3)
        value = repeat_interleave(value, heads // kv_heads, -3)
    if key.shape != value.shape[:-1] + (key.shape[-1],) or \
            query.shape[:-2] != key.shape[:-2] or query.shape[-1] != key.shape[-1]:
        raise ShapeError(f"expected query [..., L, D], key [..., S, D] and value "
                         f"[..., S, Dv] but got {list(query.shape)}, "
                         f"{list(key.shape)}, {list(value.shape)}",
                         location=loc, op=op)
    d = query.shape[-1]
    scale = 1.0 / d ** 0.5 if scale is None else float(scale)
    scores = matmul(query, key.mT, _op=op)
    trace = _trace_of(scores)
    if is_causal:
        x = Tensor(trace, trace.builder.causal_mask(scores._value, scale, loc),
                   scores.shape, f32)
    else:
        x = scores * scale
    # The row softmax written out as tile-fuse's attention groups expect it:
    # exp(x - max) in one map, divided by its row sum, cast to V's type.
    m = x.max(-1, keepdim=True)
    e = _elementwise(op, [x, m], lambda s, a, b: s.op("math.exp",
                                                     s.op("arith.subf", a, b)))
    p = (e / e.sum(-1, keepdim=True)).to(value.dtype)
    return matmul(p, value, _op=op).to(query.dtype)


def cast(x: Tensor, dtype, *, _op: str = "cast") -> Tensor:
    """``x.to(dtype)``: tile.cast (round to nearest even)."""
    loc = user_location()
    op = f"`{_op}` (tile.cast)"
    if not isinstance(x, Tensor):
        raise UnsupportedOpError(f"expected a tile tensor but got "
                                 f"{type(x).__name__}", location=loc, op=op)
    _check_storage(x, op, loc)
    target = _dtype_of(dtype, op, loc, "cast to")
    if target == x.dtype:
        return x
    trace = _trace_of(x)
    return Tensor(trace, trace.builder.cast(x._value, target, loc, _op),
                  x.shape, target)


def neg(x, *, _op: str = "neg"):
    return _unary(_op, lambda s, v: s.op("arith.negf", v), x)


def abs(x, *, _op: str = "abs"):  # noqa: A001 - mirrors torch.abs
    return _unary(_op, lambda s, v: s.op("math.absf", v), x)


def _math_function(name: str):
    """tl.<name>: math.<name> elementwise, in one tile.map."""
    def function(x):
        return _unary(name, lambda s, v: s.op(f"math.{name}", v), x)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"Elementwise {name} (math.{name}), in one tile.map."
    return function


exp, log, tanh, sqrt, rsqrt, erf, log1p, expm1, sin, cos = (
    _math_function(name) for name in
    ("exp", "log", "tanh", "sqrt", "rsqrt", "erf", "log1p", "expm1", "sin",
     "cos"))


def _sigmoid_body(s, v):
    e = s.op("math.exp", s.op("arith.negf", v))
    return s.op("arith.divf", s.const(1.0), s.op("arith.addf", s.const(1.0), e))


def sigmoid(x):
    return _unary("sigmoid", _sigmoid_body, x)


def relu(x):
    return _unary("relu", lambda s, v: s.op("arith.maximumf", v, s.const(0.0)), x)


def _gelu_tanh_body(s, v):
    # 0.5 * v * (1 + tanh(sqrt(2/pi) * (v + 0.044715 v^3)))
    v3 = s.op("arith.mulf", s.op("arith.mulf", v, v), v)
    inner = s.op("arith.addf", v, s.op("arith.mulf", v3, s.const(0.044715)))
    t = s.op("math.tanh", s.op("arith.mulf", inner, s.const(0.7978845608028654)))
    half = s.op("arith.mulf", s.op("arith.addf", t, s.const(1.0)), s.const(0.5))
    return s.op("arith.mulf", v, half)


def _gelu_erf_body(s, v):
    # 0.5 * v * (1 + erf(v / sqrt(2)))
    e = s.op("math.erf", s.op("arith.mulf", v, s.const(0.7071067811865476)))
    half = s.op("arith.mulf", s.op("arith.addf", e, s.const(1.0)), s.const(0.5))
    return s.op("arith.mulf", v, half)


def gelu(x, approximate: str = "none"):
    """GELU as torch's F.gelu: ``approximate='none'`` (the default) through
    erf, ``'tanh'`` the tanh form; one tile.map either way."""
    if approximate not in ("none", "tanh"):
        raise UnsupportedOpError(
            f"gelu(approximate={approximate!r}): expected 'none' or 'tanh', "
            "as torch's F.gelu", location=user_location(), op="gelu")
    return _unary("gelu", _gelu_erf_body if approximate == "none"
                  else _gelu_tanh_body, x)


def silu(x):
    """x * sigmoid(x), in one tile.map."""
    return _unary("silu", lambda s, v: s.op(
        "arith.mulf", v, _sigmoid_body(s, v)), x)


def maximum(a, b):
    return _elementwise("maximum", [a, b],
                        lambda s, x, y: s.op("arith.maximumf", x, y))


def minimum(a, b):
    return _elementwise("minimum", [a, b],
                        lambda s, x, y: s.op("arith.minimumf", x, y))


def pow(x, exponent):  # noqa: A001 - mirrors torch.pow
    """``x ** p`` for a Python number p (2 is a multiply)."""
    loc = user_location()
    if not _is_scalar(exponent):
        raise UnsupportedOpError("only a Python number exponent is supported",
                                 location=loc, op="**")
    if exponent == 2:
        return _unary("**", lambda s, v: s.op("arith.mulf", v, v), x)
    if exponent == 1:
        return x
    return _elementwise("**", [x, exponent],
                        lambda s, v, p: s.op("math.powf", v, p))


_REDUCTIONS = {
    "sum": ("arith.addf", 0.0),
    "mean": ("arith.addf", 0.0),
    "max": ("arith.maximumf", float("-inf")),
    "min": ("arith.minimumf", float("inf")),
}


def _reduce(x: Tensor, axis, keepdim: bool, kind: str) -> Tensor:
    loc = user_location()
    op = f"{kind} (tile.reduce)"
    if not isinstance(x, Tensor):
        raise UnsupportedOpError(f"expected a tile tensor but got "
                                 f"{type(x).__name__}", location=loc, op=op)
    _check_storage(x, op, loc)
    if axis is None or isinstance(axis, (tuple, list)):
        raise UnsupportedOpError(
            "reducing over several axes (or all) is not supported; reduce "
            "one axis at a time", location=loc, op=op)
    import numbers

    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise ShapeError(f"expected an integer axis but got {axis!r}",
                         location=loc, op=op)
    if not -x.ndim <= axis < x.ndim:
        raise ShapeError(f"axis {axis} is out of range for shape "
                         f"{list(x.shape)}", location=loc, op=op)
    axis %= x.ndim
    trace = _trace_of(x)
    shape = x.shape[:axis] + ((1,) if keepdim else ()) + x.shape[axis + 1:]
    size = x.shape[axis]
    xf = x if x.dtype == f32 else Tensor(
        trace, trace.builder.cast(x._value, f32, loc, kind), x.shape, f32)
    if size == 1:  # nothing to combine
        return Tensor(trace, xf._value, shape, f32)
    if len(_squeeze(x.shape)) < 2:
        raise UnsupportedOpError(
            f"reducing {list(x.shape)} to a single value is not supported "
            "(reductions keep at least one dimension)", location=loc, op=op)
    dim = builtins.sum(1 for d in x.shape[:axis] if d != 1)
    combiner, init = _REDUCTIONS[kind]
    value = trace.builder.reduce(xf._value, dim, combiner, init, loc, kind)
    result = Tensor(trace, value, shape, f32)
    if kind == "mean":
        n = float(size)
        result = _elementwise("mean", [result],
                              lambda s, v: s.op("arith.divf", v, s.const(n)))
    return result


def sum(x: Tensor, axis: int = -1, keepdim: bool = False) -> Tensor:  # noqa: A001
    return _reduce(x, axis, keepdim, "sum")


def max(x: Tensor, axis: int = -1, keepdim: bool = False) -> Tensor:  # noqa: A001
    return _reduce(x, axis, keepdim, "max")


def min(x: Tensor, axis: int = -1, keepdim: bool = False) -> Tensor:  # noqa: A001
    return _reduce(x, axis, keepdim, "min")


def mean(x: Tensor, axis: int = -1, keepdim: bool = False) -> Tensor:
    return _reduce(x, axis, keepdim, "mean")


def softmax(x: Tensor, axis: int = -1) -> Tensor:
    """exp(x - max) / sum, in f32; the result has x's dtype."""
    xf = x.to(f32)
    e = exp(xf - xf.max(axis, keepdim=True))
    y = e / e.sum(axis, keepdim=True)
    return y.to(x.dtype)


def layernorm(x: Tensor, weight: Optional[Tensor] = None,
              bias: Optional[Tensor] = None, eps: float = 1e-5) -> Tensor:
    """Layer norm over the last axis (mean and variance in f32, biased
    variance as torch), times weight plus bias; the result has x's dtype."""
    xf = x.to(f32)
    centered = xf - xf.mean(-1, keepdim=True)
    var = (centered * centered).mean(-1, keepdim=True)
    y = centered * rsqrt(var + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y.to(x.dtype)


#: torch.finfo(dtype).eps, F.rms_norm's default eps.
_MACHINE_EPSILON = {"f32": 2.0 ** -23, "f16": 2.0 ** -10, "bf16": 2.0 ** -7}


def rmsnorm(x: Tensor, weight: Optional[Tensor] = None,
            eps: Optional[float] = None) -> Tensor:
    """x / sqrt(mean(x^2) + eps) over the last axis, times weight; in f32,
    the result has x's dtype. eps defaults as torch's F.rms_norm: the
    machine epsilon of x's dtype."""
    if eps is None:
        eps = _MACHINE_EPSILON[x.dtype.name]
    xf = x.to(f32)
    y = xf * rsqrt((xf * xf).mean(-1, keepdim=True) + eps)
    if weight is not None:
        y = y * weight
    return y.to(x.dtype)


# ---------------------------------------------------------------------------
# Tracing a function
# ---------------------------------------------------------------------------

class TensorSpec:
    """A traced argument: logical shape and dtype."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: Sequence[int], dtype):
        import numbers

        # Integers only: int(4.5) would quietly be 4, and True is an int.
        bad = [d for d in shape
               if isinstance(d, bool) or not isinstance(d, numbers.Integral)]
        if bad:
            raise ShapeError(f"expected integer sizes but got {list(shape)}")
        self.shape = tuple(int(d) for d in shape)
        try:
            self.dtype = _as_dtype(dtype)
        except TypeError as e:
            raise DTypeError(str(e)) from None
        if self.dtype not in TRACEABLE + STORAGE:
            raise DTypeError(f"unsupported argument dtype {self.dtype} "
                             "(expected f32, f16, bf16, f8e4m3fn, f8e5m2, or "
                             "int8, uint8 or f8e8m0fnu for quantized "
                             "weights)")
        if not self.shape or any(d < 1 for d in self.shape):
            raise ShapeError(f"expected a shape of positive sizes, rank >= 1, "
                             f"but got {list(self.shape)}")

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __repr__(self):
        return f"TensorSpec({list(self.shape)}, {self.dtype})"


def _def_location(fn) -> Optional[SourceLocation]:
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    return SourceLocation(code.co_filename, code.co_firstlineno, 1)


def trace(fn: Callable, params: Sequence[Tuple[str, object]],
          name: Optional[str] = None) -> Trace:
    """Traces `fn` on `params`: (name, TensorSpec or constant) pairs in
    positional order. Constants (Python numbers, strings, None, ...) are
    passed as they are and specialize the trace."""
    if _current_trace() is not None:
        raise TraceError("tile functions cannot be traced inside one another; "
                         "call the inner function's Python body directly",
                         location=user_location())
    t = Trace(name or getattr(fn, "__name__", "kernel"), _def_location(fn))
    args = []
    for pname, spec in params:
        if isinstance(spec, TensorSpec):
            value = t.builder.add_argument(pname, _squeeze(spec.shape),
                                           spec.dtype, t.builder.loc)
            tensor = Tensor(t, value, spec.shape, spec.dtype, arg_name=pname)
            t.inputs.append(tensor)
            args.append(tensor)
        else:
            args.append(spec)
    _state.trace = t
    try:
        result = fn(*args)
    finally:
        _state.trace = None
    return_loc = _def_location(fn)
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    if not results or result is None:
        raise TraceError(f"function '{t.function_name}' returns nothing; "
                         "return the tensor(s) it computes", location=return_loc)
    seen = {}
    for i, r in enumerate(results):
        if not isinstance(r, Tensor) or r._trace is not t:
            raise TraceError(f"result #{i} of '{t.function_name}' is a "
                             f"{type(r).__name__}, not a tensor computed by "
                             "the function", location=return_loc)
        if r._arg_name is not None or any(r._value is a._value for a in t.inputs):
            raise TraceError(f"result #{i} of '{t.function_name}' is an "
                             "argument returned unchanged; a kernel must "
                             "compute its results", location=return_loc)
        if id(r._value) in seen:
            raise TraceError(f"results #{seen[id(r._value)]} and #{i} of "
                             f"'{t.function_name}' are the same tensor",
                             location=return_loc)
        seen[id(r._value)] = i
    t.outputs = results
    values = [r._value for r in results]
    t.text = t.builder.render(values, return_loc, with_locations=True)
    t.key_text = t.builder.render(values, return_loc, with_locations=False)
    return t
