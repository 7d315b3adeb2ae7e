"""tile.kernel: write the tile program yourself (the kernel-level API).

Where ``@tile.jit`` takes tensor math and lets the compiler tile it, a
``@tile.kernel`` function *is* the program one block runs, as in Triton: it
reads its program ids, loads tiles from the buffers it is given, computes
on them and stores tiles back::

    import tile
    import tile.kernel as tk

    @tile.kernel(grid=lambda M, N: (tk.cdiv(M, 64), tk.cdiv(N, 64)), threads=128)
    def add(X: tk.Buffer, Y: tk.Buffer, Out: tk.Buffer):
        pm, pn = tk.program_id(0), tk.program_id(1)
        x = tk.load(X, (pm * 64, pn * 64), (64, 64))   # masked at the edges
        y = tk.load(Y, (pm * 64, pn * 64), (64, 64))
        tk.store(Out, (pm * 64, pn * 64), x + y)

    add(x, y, out)                  # torch tensors; the caller passes every buffer

Tracing runs the function once per signature on symbolic values and emits
tile-level IR: a host ``func.func`` over memref arguments holding one
``tile.kernel`` with the grid and thread count (the form ``tile-tile``
produces), every op located at the user's line. It is compiled at the tile
level (``CompileOptions.level="tile"``: tile-to-nvvm and the binaries, no
tiling, no reference kernels), cached on disk like ``@tile.jit`` kernels,
and launched through the same runtime.

What a kernel body sees and does:

- arguments: tensors become :class:`Buffer` (``.shape``, ``.dtype``: static
  Python values); anything else is a compile-time constant;
- ``tk.program_id(axis)`` is an :class:`Index` (``arith`` on ``index``:
  ``+ - * // %`` with ints and other indices; ``tk.num_programs(axis)`` is a
  Python int);
- ``tk.load(buf, offsets, shape, padding=0.0)`` reads a :class:`Tile`
  whose first element is at ``offsets``; elements outside the buffer read
  ``padding``. ``tk.store(buf, offsets, tile)`` writes the elements that
  fall inside;
- tiles: ``+ - * /``, unary ``-``, ``abs``, ``** 2``, ``tk.exp log sqrt
  rsqrt tanh sigmoid relu maximum minimum`` (one ``tile.map`` each, in f32
  inside), ``tk.map(fn, *tiles)`` for a body of your own,
  ``.to(dtype)`` (``tile.cast``), ``.sum/.max/.min/.mean(axis,
  keepdim)`` (``tile.reduce``, in f32), numpy broadcasting with
  ``t[:, None]`` / ``t[None, :]`` (``tile.broadcast``),
  ``tk.dot(a, b, acc)`` (``tile.dot``, f32 accumulator), ``tk.zeros`` /
  ``tk.full`` (``tile.splat``);
- ``for k in tk.range(lo, hi, step):`` becomes an ``scf.for`` whose
  loop-carried values are the variables the body reassigns (tile._loops);
  ``tk.fori(lo, hi, step, init, body)`` is the explicit form. A plain
  Python ``for`` over ``range`` unrolls at trace time.

Errors a user makes (a load of the wrong rank, a dot of mismatched shapes,
mixed dtypes, an unsupported construct) raise :class:`tile.TileError`
subclasses naming the line while tracing; what only the compiler can see
comes back as a :class:`tile.CompilationError` at the line of the op.
"""

from __future__ import annotations

import builtins
import functools
import inspect as _inspect
import math
import numbers
import os
import sys
import threading
import types
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from . import _loops
from . import cache as _cache
from . import compiler as _compiler
from . import language as _language
from ._kernel_ir import KernelBuilder, memref_type, scalar_literal, tile_type
from .dtypes import (BYTES, DType, TRACEABLE, bf16, dtype as _as_dtype, f16,
                     f32)
from .jit import (DEFAULT_TARGET, CompiledKernel, _device_target,
                  _get_compiled, _bind_arguments, _specs_of, _call_key_of)
from .errors import (ArgumentError, DTypeError, ShapeError, SourceLocation,
                     TraceError, UnsupportedOpError)
from .language import TensorSpec, user_location
from .runtime import launcher as _launcher

__all__ = [
    "kernel", "jit", "KernelFunction", "Buffer", "Index", "Tile",
    "program_id", "num_programs", "load", "store", "zeros", "full", "dot",
    "cast", "map", "broadcast_to", "exp", "log", "sqrt", "rsqrt", "tanh",
    "sigmoid", "relu", "abs", "maximum", "minimum", "sum", "max", "min",
    "mean", "range", "fori", "cdiv", "next_power_of_2",
    "f32", "f16", "bf16", "float32", "float16", "bfloat16",
]

float32, float16, bfloat16 = f32, f16, bf16
Shape = Tuple[int, ...]

_state = threading.local()


# ---------------------------------------------------------------------------
# The trace
# ---------------------------------------------------------------------------

class KernelTrace:
    """One traced kernel: the builder, the buffers, and what was stored."""

    def __init__(self, name: str, loc, grid: Sequence[int], threads: int):
        self.builder = KernelBuilder(name, loc, grid, threads)
        self.loc = loc
        self.grid = tuple(grid)
        self.threads = threads
        self.buffers: List["Buffer"] = []
        self.written: set = set()  # indices into buffers
        self.outputs: list = []    # the kernel API returns nothing
        self.text = ""
        self.key_text = ""

    @property
    def function_name(self) -> str:
        return self.builder.name

    @property
    def kernel_name(self) -> str:
        return self.builder.kernel_name


def _current() -> Optional[KernelTrace]:
    return getattr(_state, "trace", None)


def _trace_for(op: str, loc) -> KernelTrace:
    tr = _current()
    if tr is None:
        raise TraceError(f"tk.{op} is only available while a @tile.kernel "
                         "function is traced", location=loc, op=f"tk.{op}")
    return tr


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _is_int(x) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


class _Undef:
    """A variable a tk.range body assigns that had no value before."""

    def __repr__(self):
        return "<undefined before the loop>"


_UNDEF = _Undef()


class _LoopLocal:
    """A tile or index assigned only inside a tk.range body, seen after it."""

    def __init__(self, name: str, loc):
        self._name = name
        self._loc = loc

    def error(self) -> TraceError:
        return TraceError(
            f"'{self._name}' is assigned inside the tk.range loop at line "
            f"{self._loc.line} and has no value after it (only variables "
            "defined before the loop carry values out of it); define it "
            "before the loop", location=user_location())

    def __getattr__(self, name):
        raise self.error()

    def __repr__(self):
        return f"<'{self._name}': local to the tk.range loop at line {self._loc.line}>"


def _check_live(x, op: str, loc) -> None:
    """`x` (a Tile or Index) belongs to this trace and a region still open."""
    tr = _current()
    if x._trace is not tr:
        raise TraceError("a tile or index of another kernel (or of an earlier "
                         "trace) was used; values do not outlive their trace",
                         location=loc, op=op)
    if x._scope not in tr.builder.live_regions():
        raise TraceError(
            f"this value was computed inside a tk.range loop body (line "
            f"{x._loc.line if x._loc else '?'}) and does not exist outside it; "
            "carry it through a variable defined before the loop",
            location=loc, op=op)


# ---------------------------------------------------------------------------
# Values: buffers, indices, tiles
# ---------------------------------------------------------------------------

class _BufferAnnotation:
    """``tk.Buffer["M", "N"]``: a buffer whose dimensions bind shape symbols
    (checked across arguments, passed to a grid function by name)."""

    def __init__(self, dims):
        self.dims = tuple(dims)

    def __repr__(self):
        return f"tk.Buffer[{', '.join(builtins.map(repr, self.dims))}]"


class Buffer:
    """A kernel argument: a device buffer with a static ``shape`` and
    ``dtype`` (a memref in the IR). Load tiles from it and store tiles
    into it; it has no arithmetic of its own.

    As an annotation, ``X: tk.Buffer`` documents the argument and
    ``X: tk.Buffer["M", "K"]`` names its dimensions.
    """

    __slots__ = ("name", "shape", "dtype", "_trace", "_host", "_body", "_index",
                 "_type")

    def __init__(self, trace, name, shape, dtype, host, body, index):
        self._trace = trace
        self.name = name
        self.shape = tuple(shape)
        self.dtype = dtype
        self._host = host
        self._body = body
        self._index = index
        self._type = memref_type(self.shape, dtype)

    def __class_getitem__(cls, dims):
        return _BufferAnnotation(dims if isinstance(dims, tuple) else (dims,))

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def numel(self) -> int:
        return math.prod(self.shape)

    def __repr__(self):
        return f"tk.Buffer({self.name}: {self.dtype}{list(self.shape)})"

    def _no_math(self, *args):
        raise UnsupportedOpError(
            f"buffer '{self.name}' is memory, not a value: load a tile from it "
            "with tk.load(buffer, offsets, shape)", location=user_location())

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _no_math
    __truediv__ = __rtruediv__ = __matmul__ = __neg__ = __getitem__ = _no_math


def _index_value(x, op: str, loc) -> str:
    """The IR name of an index operand (an Index or a Python int)."""
    if isinstance(x, Index):
        _check_live(x, op, loc)
        return x._v
    if _is_int(x):
        return _current().builder.index_constant(int(x), loc)
    if isinstance(x, _LoopLocal):
        raise x.error()
    raise TraceError(f"expected an index (a program id, a loop index or a "
                     f"Python int) but got {type(x).__name__}"
                     + (f" {x!r}" if _is_number(x) else ""),
                     location=loc, op=op)


_INDEX_OPS = {"+": "addi", "-": "subi", "*": "muli", "//": "divsi", "%": "remsi"}


class Index:
    """A scalar ``index`` of the program: a program id, a loop index, or
    arithmetic on them (``+ - * // %`` with ints or indices; ``//`` and
    ``%`` truncate toward zero, as in C). Its value is known only on the
    GPU: it cannot decide Python control flow."""

    __slots__ = ("_trace", "_v", "_scope", "_loc")

    def __init__(self, trace, value: str, scope: int, loc):
        self._trace = trace
        self._v = value
        self._scope = scope
        self._loc = loc

    def _like(self, value: str, scope: int) -> "Index":
        return Index(self._trace, value, scope, self._loc)

    def __repr__(self):
        return f"tk.Index({self._v})"

    def _binary(self, sym: str, a, b) -> "Index":
        loc = user_location()
        op = f"`{sym}` (arith.{_INDEX_OPS[sym]})"
        if not (isinstance(a, Index) or _is_int(a)) or not (
                isinstance(b, Index) or _is_int(b)):
            other = b if a is self else a
            if isinstance(other, Tile):
                raise UnsupportedOpError(
                    "an index cannot enter tile arithmetic (tiles hold "
                    "floats; there is no index-to-tile op)", location=loc, op=op)
            _index_value(other, op, loc)  # raises the right error
        # Identities keep the IR small (and offsets recognizable).
        if _is_int(b):
            if (sym in ("+", "-") and b == 0) or (sym in ("*", "//") and b == 1):
                return a if isinstance(a, Index) else self
            if sym == "*" and b == 0:
                return 0  # type: ignore[return-value]
        if _is_int(a) and sym in ("+", "*"):
            if (sym == "+" and a == 0) or (sym == "*" and a == 1):
                return b
            if sym == "*" and a == 0:
                return 0  # type: ignore[return-value]
        tr = _trace_for("index arithmetic", loc)
        an, bn = _index_value(a, op, loc), _index_value(b, op, loc)
        name = tr.builder.index_op(_INDEX_OPS[sym], an, bn, loc, sym)
        return Index(tr, name, tr.builder.region.id, loc)

    def __add__(self, o):
        return self._binary("+", self, o)

    def __radd__(self, o):
        return self._binary("+", o, self)

    def __sub__(self, o):
        return self._binary("-", self, o)

    def __rsub__(self, o):
        return self._binary("-", o, self)

    def __mul__(self, o):
        return self._binary("*", self, o)

    def __rmul__(self, o):
        return self._binary("*", o, self)

    def __floordiv__(self, o):
        return self._binary("//", self, o)

    def __rfloordiv__(self, o):
        return self._binary("//", o, self)

    def __mod__(self, o):
        return self._binary("%", self, o)

    def __rmod__(self, o):
        return self._binary("%", o, self)

    def __neg__(self):
        return self._binary("-", 0, self)

    def __pos__(self):
        return self

    def __truediv__(self, other):
        raise UnsupportedOpError("indices divide with // (truncating); there "
                                 "is no `/` on indices", location=user_location(),
                                 op="/")

    __rtruediv__ = __truediv__

    def _unknown(self, *args):
        raise UnsupportedOpError(
            "an index's value is known only on the GPU: it cannot be compared, "
            "converted to a Python number, or decide Python control flow "
            "(loops over it: tk.range)", location=user_location())

    __bool__ = __index__ = __int__ = __float__ = _unknown
    __lt__ = __le__ = __gt__ = __ge__ = _unknown

    def __eq__(self, other):
        self._unknown()

    __ne__ = __eq__
    __hash__ = object.__hash__


class Tile:
    """A tile of values held by the program's threads: a static logical
    ``shape`` (rank 1 or 2) and a ``dtype`` (f32, f16, bf16).

    ``t[:, None]`` and ``t[None, :]`` add a unit dimension for broadcasting
    (nothing is emitted: the IR keeps the tile as it is and broadcasts it
    where it is used)."""

    __slots__ = ("_trace", "_v", "shape", "dtype", "_dims", "_scope", "_loc")

    def __init__(self, trace, value: str, shape, dtype: DType, dims, scope: int,
                 loc):
        self._trace = trace
        self._v = value
        self.shape = tuple(shape)
        self.dtype = dtype
        self._dims = tuple(dims)   # logical positions the IR value has
        self._scope = scope
        self._loc = loc

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def _ir_shape(self) -> Shape:
        return tuple(self.shape[i] for i in self._dims)

    @property
    def _type(self) -> str:
        return tile_type(self._ir_shape, self.dtype)

    def _like(self, value: str, scope: int) -> "Tile":
        return Tile(self._trace, value, self.shape, self.dtype, self._dims,
                    scope, self._loc)

    def numel(self) -> int:
        return math.prod(self.shape)

    def __repr__(self):
        return f"tk.Tile({list(self.shape)}, {self.dtype}, ir={self._v})"

    # -- arithmetic (one tile.map each) ---------------------------------------
    def __add__(self, o):
        return _binary("+", "arith.addf", self, o)

    def __radd__(self, o):
        return _binary("+", "arith.addf", o, self)

    def __sub__(self, o):
        return _binary("-", "arith.subf", self, o)

    def __rsub__(self, o):
        return _binary("-", "arith.subf", o, self)

    def __mul__(self, o):
        return _binary("*", "arith.mulf", self, o)

    def __rmul__(self, o):
        return _binary("*", "arith.mulf", o, self)

    def __truediv__(self, o):
        return _binary("/", "arith.divf", self, o)

    def __rtruediv__(self, o):
        return _binary("/", "arith.divf", o, self)

    def __neg__(self):
        return _elementwise("-x", [self], lambda s, v: s.op("arith.negf", v))

    def __pos__(self):
        return self

    def __abs__(self):
        return abs(self)

    def __pow__(self, p):
        loc = user_location()
        if not _is_number(p):
            raise UnsupportedOpError("only a Python number exponent is supported",
                                     location=loc, op="**")
        if p == 2:
            return _elementwise("**", [self], lambda s, v: s.op("arith.mulf", v, v))
        if p == 1:
            return self
        return _elementwise("**", [self, float(p)],
                            lambda s, v, e: s.op("math.powf", v, e))

    def __matmul__(self, other):
        return dot(self, other)

    # -- methods -------------------------------------------------------------
    def to(self, dtype) -> "Tile":
        return cast(self, dtype, _op=".to")

    def sum(self, axis: int = -1, keepdim: bool = False):
        return _reduce(self, axis, keepdim, "sum")

    def max(self, axis: int = -1, keepdim: bool = False):
        return _reduce(self, axis, keepdim, "max")

    def min(self, axis: int = -1, keepdim: bool = False):
        return _reduce(self, axis, keepdim, "min")

    def mean(self, axis: int = -1, keepdim: bool = False):
        return _reduce(self, axis, keepdim, "mean")

    def __getitem__(self, index):
        """``t[:, None]`` / ``t[None, :]`` (/ ``t[:, :]``): unit dimensions
        for broadcasting; nothing else."""
        loc = user_location()
        items = index if isinstance(index, tuple) else (index,)
        full = slice(None)
        if any(not (i is None or i == full) for i in items) or \
                builtins.sum(1 for i in items if i is not None) != self.ndim:
            raise UnsupportedOpError(
                "tiles cannot be indexed or sliced; load the part you need, "
                "and use t[:, None] / t[None, :] to add a unit dimension",
                location=loc, op="[]")
        shape, dims, old = [], [], 0
        for i in items:
            if i is None:
                shape.append(1)
            else:
                if old in self._dims:
                    dims.append(len(shape))
                shape.append(self.shape[old])
                old += 1
        if len(shape) > 2:
            raise UnsupportedOpError(f"tiles have rank 1 or 2; [{len(shape)} "
                                     "dimensions] is too many", location=loc,
                                     op="[]")
        _check_live(self, "[]", loc)
        return Tile(self._trace, self._v, shape, self.dtype, dims, self._scope,
                    self._loc)

    def _unsupported(self, *args):
        raise UnsupportedOpError(
            "tile values are known only on the GPU: no comparisons, no Python "
            "control flow on them, no conversion to numbers or numpy",
            location=user_location())

    __bool__ = __iter__ = __float__ = __int__ = __index__ = _unsupported
    __lt__ = __le__ = __gt__ = __ge__ = __array__ = _unsupported

    def __eq__(self, other):
        self._unsupported()

    __ne__ = __eq__
    __hash__ = object.__hash__
    __array_ufunc__ = None

    @property
    def T(self):
        raise UnsupportedOpError("tiles have no transpose; load the operand in "
                                 "the layout you need", location=user_location(),
                                 op=".T")


# ---------------------------------------------------------------------------
# Tile checks shared by the ops
# ---------------------------------------------------------------------------

def _as_tile(x, op: str, loc) -> Tile:
    if isinstance(x, Tile):
        _check_live(x, op, loc)
        return x
    if isinstance(x, _LoopLocal):
        raise x.error()
    if isinstance(x, Buffer):
        raise UnsupportedOpError(f"buffer '{x.name}' is not a tile; load one "
                                 "with tk.load(buffer, offsets, shape)",
                                 location=loc, op=op)
    raise UnsupportedOpError(f"expected a tile but got {type(x).__name__}",
                             location=loc, op=op)


def _check_shape(shape, op: str, loc, what: str = "tile") -> Shape:
    """A tile shape: rank 1 or 2, positive ints, and an element count that
    the program's threads divide (or that divides them)."""
    try:
        shape = tuple(shape)
    except TypeError:
        shape = (shape,)
    if not shape or len(shape) > 2 or not all(_is_int(d) and d > 0 for d in shape):
        raise ShapeError(f"expected a {what} shape of 1 or 2 positive ints but "
                         f"got {shape!r}", location=loc, op=op)
    shape = tuple(int(d) for d in shape)
    threads = _current().threads
    n = math.prod(shape)
    if n % threads and threads % n:
        raise ShapeError(
            f"a {what} of {list(shape)} ({n} elements) cannot be spread over "
            f"the kernel's {threads} threads (one count must divide the other: "
            "use powers of two, e.g. tk.next_power_of_2)", location=loc, op=op)
    return shape


def _new_tile(value: str, shape, dtype, dims, loc) -> Tile:
    tr = _current()
    return Tile(tr, value, shape, dtype, dims, tr.builder.region.id, loc)


def _broadcast_shape(tiles: Sequence[Tile], op: str, loc) -> Tuple[Shape, Tuple[int, ...]]:
    """numpy's rule on logical shapes; the result's materialized positions."""
    rank = builtins.max(t.ndim for t in tiles)
    shape = []
    for i in builtins.range(rank):
        size = 1
        for t in tiles:
            j = i - (rank - t.ndim)
            d = t.shape[j] if j >= 0 else 1
            if d == 1:
                continue
            if size != 1 and d != size:
                raise ShapeError(
                    "tile shapes " + " and ".join(str(list(t.shape)) for t in tiles)
                    + f" do not broadcast (dimension {i} is {size} in one and "
                    f"{d} in another); add unit dimensions with t[:, None] or "
                    "t[None, :]", location=loc, op=op)
            size = d
        shape.append(size)
    dims = sorted({p + rank - t.ndim for t in tiles for p in t._dims})
    return tuple(shape), tuple(dims)


def _expand(t: Tile, shape: Shape, dims: Tuple[int, ...], op: str, loc) -> str:
    """`t`'s IR value broadcast to the logical `shape` whose materialized
    positions are `dims` (a tile.broadcast where dimensions are inserted)."""
    offset = len(shape) - t.ndim
    mine = tuple(p + offset for p in t._dims)
    for p in t._dims:
        if t.shape[p] != shape[p + offset]:
            raise ShapeError(
                f"a {list(t.shape)} tile cannot broadcast to {list(shape)}: its "
                f"dimension {p} of size 1 is a real (loaded) dimension; load a "
                "rank-1 tile and add the unit dimension with t[:, None] / "
                "t[None, :]", location=loc, op=op)
    if mine == dims:
        return t._v
    inserted = [dims.index(q) for q in dims if q not in mine]
    tr = _current()
    result_type = tile_type([shape[q] for q in dims], t.dtype)
    return tr.builder.broadcast(t._v, t._type, inserted, result_type, loc, op)


def _elementwise(op: str, operands: Sequence, body: Callable[..., str],
                 loc=None) -> Tile:
    """One tile.map over tiles and Python numbers (constants in the body)."""
    loc = loc or user_location()
    tr = _trace_for(op, loc)
    tiles = []
    for x in operands:
        if _is_number(x):
            continue
        if isinstance(x, Index):
            raise UnsupportedOpError(
                "an index cannot enter tile arithmetic (tiles hold floats; "
                "there is no index-to-tile op)", location=loc, op=op)
        tiles.append(_as_tile(x, op, loc))
    if not tiles:
        raise UnsupportedOpError("expected at least one tile operand",
                                 location=loc, op=op)
    dtypes = []
    for t in tiles:
        if t.dtype not in dtypes:
            dtypes.append(t.dtype)
    if len(dtypes) > 1:
        raise DTypeError(
            "operands have different dtypes (" + " and ".join(builtins.map(str, dtypes))
            + "); cast one with .to(dtype)", location=loc, op=op)
    dtype = dtypes[0]
    shape, dims = _broadcast_shape(tiles, op, loc)
    _check_shape([shape[q] for q in dims], op, loc)
    values = []
    for t in tiles:
        name = _expand(t, shape, dims, op, loc)
        values.append((name, tile_type([shape[q] for q in dims], dtype), dtype))

    def map_body(scalars, *args):
        it = iter(args)
        names = [next(it) if not _is_number(x) else scalars.const(float(x))
                 for x in operands]
        return body(scalars, *names)

    result_type = tile_type([shape[q] for q in dims], dtype)
    name = tr.builder.map(values, dtype, result_type, map_body, loc, op)
    return _new_tile(name, shape, dtype, dims, loc)


def _binary(op: str, opname: str, a, b) -> Tile:
    return _elementwise(op, [a, b], lambda s, x, y: s.op(opname, x, y))


# ---------------------------------------------------------------------------
# Scalar bodies: tk.map(fn, *tiles) and the math functions on them
# ---------------------------------------------------------------------------

class _Scalar:
    """An f32 value inside a tk.map body."""

    __slots__ = ("_body", "_name")

    def __init__(self, body, name: str):
        self._body = body
        self._name = name

    def _op(self, opname: str, *others):
        names = [self._name]
        for o in others:
            if isinstance(o, _Scalar):
                names.append(o._name)
            elif _is_number(o):
                names.append(self._body.const(float(o)))
            else:
                raise UnsupportedOpError(
                    f"a tk.map body computes on its scalars and Python numbers, "
                    f"not on {type(o).__name__}", location=user_location(),
                    op="tk.map")
        return _Scalar(self._body, self._body.op(opname, *names))

    def _rop(self, opname: str, other):
        if not _is_number(other):
            return NotImplemented
        c = _Scalar(self._body, self._body.const(float(other)))
        return c._op(opname, self)

    def __add__(self, o):
        return self._op("arith.addf", o)

    def __radd__(self, o):
        return self._rop("arith.addf", o)

    def __sub__(self, o):
        return self._op("arith.subf", o)

    def __rsub__(self, o):
        return self._rop("arith.subf", o)

    def __mul__(self, o):
        return self._op("arith.mulf", o)

    def __rmul__(self, o):
        return self._rop("arith.mulf", o)

    def __truediv__(self, o):
        return self._op("arith.divf", o)

    def __rtruediv__(self, o):
        return self._rop("arith.divf", o)

    def __neg__(self):
        return self._op("arith.negf")

    def __abs__(self):
        return self._op("math.absf")

    def __pow__(self, p):
        if p == 2:
            return self._op("arith.mulf", self)
        return self._op("math.powf", p)

    def _unsupported(self, *args):
        raise UnsupportedOpError("a tk.map body cannot compare or branch on its "
                                 "values (use tk.maximum / tk.minimum)",
                                 location=user_location(), op="tk.map")

    __bool__ = __lt__ = __le__ = __gt__ = __ge__ = _unsupported


def _math(op: str, x, fn: Callable[..., str], *extra):
    """A math function on a tile (one tile.map) or on a tk.map scalar."""
    if isinstance(x, _Scalar):
        body = x._body
        return _Scalar(body, fn(body, x._name, *[
            e._name if isinstance(e, _Scalar) else body.const(float(e))
            for e in extra]))
    return _elementwise(op, [x, *extra], fn)


def exp(x):
    return _math("exp", x, lambda s, v: s.op("math.exp", v))


def log(x):
    return _math("log", x, lambda s, v: s.op("math.log", v))


def sqrt(x):
    return _math("sqrt", x, lambda s, v: s.op("math.sqrt", v))


def rsqrt(x):
    return _math("rsqrt", x, lambda s, v: s.op("math.rsqrt", v))


def tanh(x):
    return _math("tanh", x, lambda s, v: s.op("math.tanh", v))


def _sigmoid_body(s, v):
    e = s.op("math.exp", s.op("arith.negf", v))
    return s.op("arith.divf", s.const(1.0), s.op("arith.addf", s.const(1.0), e))


def sigmoid(x):
    return _math("sigmoid", x, _sigmoid_body)


def relu(x):
    return _math("relu", x, lambda s, v: s.op("arith.maximumf", v, s.const(0.0)))


def abs(x):  # noqa: A001 - mirrors the builtin
    return _math("abs", x, lambda s, v: s.op("math.absf", v))


def maximum(a, b):
    if isinstance(a, _Scalar) or isinstance(b, _Scalar):
        first, other = (a, b) if isinstance(a, _Scalar) else (b, a)
        return first._op("arith.maximumf", other)
    return _binary("maximum", "arith.maximumf", a, b)


def minimum(a, b):
    if isinstance(a, _Scalar) or isinstance(b, _Scalar):
        first, other = (a, b) if isinstance(a, _Scalar) else (b, a)
        return first._op("arith.minimumf", other)
    return _binary("minimum", "arith.minimumf", a, b)


def map(fn: Callable, *tiles, dtype=None) -> Tile:  # noqa: A001 - tile.map
    """One tile.map applying ``fn`` elementwise: ``fn`` gets one scalar per
    tile (in f32) and returns one, built with ``+ - * /``, numbers and the
    tk math functions (``tk.map(lambda x, y: tk.exp(x) * y + 1.0, a, b)``).
    The result has the tiles' dtype (or ``dtype``)."""
    loc = user_location()
    if not callable(fn):
        raise UnsupportedOpError("tk.map(fn, *tiles): fn must be callable",
                                 location=loc, op="tk.map")
    result_dtype = None
    if dtype is not None:
        try:
            result_dtype = _as_dtype(dtype)
        except TypeError as e:
            raise DTypeError(str(e), location=loc, op="tk.map") from None

    def body(scalars, *names):
        out = fn(*[_Scalar(scalars, n) for n in names])
        if _is_number(out):
            return scalars.const(float(out))
        if not isinstance(out, _Scalar):
            raise UnsupportedOpError(
                f"a tk.map function must return a scalar expression, not "
                f"{type(out).__name__}", location=loc, op="tk.map")
        return out._name

    t = _elementwise("tk.map", list(tiles), body, loc=loc)
    if result_dtype is not None and result_dtype != t.dtype:
        t = cast(t, result_dtype, _op="tk.map")
    return t


# ---------------------------------------------------------------------------
# Program ids, memory, constants, dot, casts, reductions, broadcasts
# ---------------------------------------------------------------------------

def program_id(axis: int = 0) -> Index:
    """This program's coordinate along grid dimension ``axis``."""
    loc = user_location()
    tr = _trace_for("program_id", loc)
    if not _is_int(axis) or not 0 <= axis < len(tr.grid):
        raise ShapeError(f"axis {axis!r} is not a dimension of the grid "
                         f"{list(tr.grid)}", location=loc, op="tk.program_id")
    name = tr.builder.program_id(int(axis), loc)
    return Index(tr, name, tr.builder.region.id, loc)


def num_programs(axis: int = 0) -> int:
    """The grid's size along ``axis`` (a Python int: grids are static)."""
    loc = user_location()
    tr = _trace_for("num_programs", loc)
    if not _is_int(axis) or not 0 <= axis < len(tr.grid):
        raise ShapeError(f"axis {axis!r} is not a dimension of the grid "
                         f"{list(tr.grid)}", location=loc, op="tk.num_programs")
    return tr.grid[axis]


def _as_buffer(buf, op: str, loc) -> Buffer:
    if isinstance(buf, Buffer):
        if buf._trace is not _current():
            raise TraceError("a buffer of another trace was used", location=loc,
                             op=op)
        return buf
    raise UnsupportedOpError(f"expected a buffer (a kernel argument) but got "
                             f"{type(buf).__name__}", location=loc, op=op)


def _offsets(buf: Buffer, offsets, op: str, loc) -> List[str]:
    if isinstance(offsets, (Index, numbers.Integral)):
        offsets = (offsets,)
    try:
        offsets = tuple(offsets)
    except TypeError:
        raise TraceError(f"offsets must be a tuple of indices or ints, not "
                         f"{type(offsets).__name__}", location=loc, op=op) from None
    if len(offsets) != buf.ndim:
        raise ShapeError(f"buffer '{buf.name}' has rank {buf.ndim} "
                         f"({list(buf.shape)}) but {len(offsets)} offsets were "
                         "given", location=loc, op=op)
    return [_index_value(o, op, loc) for o in offsets]


def load(buf: Buffer, offsets, shape, padding: float = 0.0) -> Tile:
    """The ``shape`` tile of ``buf`` whose first element is at ``offsets``
    (one index or int per dimension); elements outside ``buf`` read
    ``padding`` (0 unless given: -inf before a max, ...)."""
    loc = user_location()
    op = "tk.load (tile.load)"
    tr = _trace_for("load", loc)
    buf = _as_buffer(buf, op, loc)
    try:
        tshape = tuple(shape)
    except TypeError:
        tshape = (shape,)
    if len(tshape) != buf.ndim:
        raise ShapeError(f"a load from buffer '{buf.name}' ({list(buf.shape)}, "
                         f"rank {buf.ndim}) needs a tile of rank {buf.ndim} but "
                         f"the shape given is {list(tshape)}", location=loc, op=op)
    tshape = _check_shape(tshape, op, loc)
    names = _offsets(buf, offsets, op, loc)
    if not _is_number(padding):
        raise TraceError(f"padding must be a Python number, not "
                         f"{type(padding).__name__}", location=loc, op=op)
    pad = None
    if float(padding) != 0.0 or math.copysign(1.0, float(padding)) < 0:
        pad = f"{scalar_literal(padding, buf.dtype)} : {buf.dtype.mlir}"
    ttype = tile_type(tshape, buf.dtype)
    name = tr.builder.load(buf._body, buf._type, names, ttype, pad, loc)
    return _new_tile(name, tshape, buf.dtype, builtins.range(len(tshape)), loc)


def store(buf: Buffer, offsets, value: Tile) -> None:
    """Writes ``value`` into ``buf`` with its first element at ``offsets``;
    elements that fall outside ``buf`` are not written. The tile's dtype
    must be the buffer's (``value.to(buf.dtype)``)."""
    loc = user_location()
    op = "tk.store (tile.store)"
    tr = _trace_for("store", loc)
    buf = _as_buffer(buf, op, loc)
    value = _as_tile(value, op, loc)
    if value.ndim != buf.ndim or len(value._dims) != value.ndim:
        raise ShapeError(f"a store into buffer '{buf.name}' ({list(buf.shape)}, "
                         f"rank {buf.ndim}) needs a tile of rank {buf.ndim} but "
                         f"got {list(value.shape)}"
                         + ("" if len(value._dims) == value.ndim else
                            " (with a unit dimension added by indexing)"),
                         location=loc, op=op)
    if value.dtype != buf.dtype:
        raise DTypeError(f"the tile is {value.dtype} but buffer '{buf.name}' is "
                         f"{buf.dtype}; store value.to(tk.{buf.dtype})",
                         location=loc, op=op)
    names = _offsets(buf, offsets, op, loc)
    tr.builder.store(value._v, value._type, buf._body, buf._type, names, loc)
    tr.written.add(buf._index)


def _dtype_arg(dtype, op: str, loc) -> DType:
    try:
        d = _as_dtype(dtype)
    except TypeError as e:
        raise DTypeError(str(e), location=loc, op=op) from None
    if d not in TRACEABLE:
        raise DTypeError(f"tiles are f32, f16 or bf16, not {d}", location=loc,
                         op=op)
    return d


def full(shape, value: float, dtype=f32) -> Tile:
    """A tile of ``shape`` with every element ``value`` (tile.splat)."""
    loc = user_location()
    op = "tk.full (tile.splat)"
    tr = _trace_for("full", loc)
    d = _dtype_arg(dtype, op, loc)
    s = _check_shape(shape, op, loc)
    if not _is_number(value):
        raise TraceError(f"the value must be a Python number, not "
                         f"{type(value).__name__}", location=loc, op=op)
    name = tr.builder.splat(scalar_literal(value, d), d, tile_type(s, d), loc,
                            "tk.full")
    return _new_tile(name, s, d, builtins.range(len(s)), loc)


def zeros(shape, dtype=f32) -> Tile:
    """A tile of zeros (tile.splat): the usual accumulator."""
    return full(shape, 0.0, dtype)


def dot(a: Tile, b: Tile, acc: Optional[Tile] = None) -> Tile:
    """``acc + a @ b`` (tile.dot) for an [M, K] and a [K, N] tile of one
    dtype (f16, bf16 or f32) and an f32 [M, N] accumulator (zeros when
    omitted). The result is f32."""
    loc = user_location()
    op = "tk.dot (tile.dot)"
    tr = _trace_for("dot", loc)
    a, b = _as_tile(a, op, loc), _as_tile(b, op, loc)
    for name, t in (("a", a), ("b", b)):
        if t.ndim != 2 or len(t._dims) != 2:
            raise ShapeError(f"expected rank-2 tiles but {name} is "
                             f"{list(t.shape)}", location=loc, op=op)
    if a.shape[1] != b.shape[0]:
        raise ShapeError(f"inner dimensions differ: {list(a.shape)} @ "
                         f"{list(b.shape)}", location=loc, op=op)
    if a.dtype != b.dtype:
        raise DTypeError(f"operands have different dtypes ({a.dtype} @ "
                         f"{b.dtype}); cast one with .to()", location=loc, op=op)
    out_shape = (a.shape[0], b.shape[1])
    if acc is None:
        acc = zeros(out_shape, f32)
    acc = _as_tile(acc, op, loc)
    if acc.shape != out_shape or len(acc._dims) != 2:
        raise ShapeError(f"the accumulator is {list(acc.shape)} but "
                         f"{list(a.shape)} @ {list(b.shape)} is "
                         f"{list(out_shape)}", location=loc, op=op)
    if acc.dtype != f32:
        raise DTypeError(f"the accumulator must be f32 but is {acc.dtype}",
                         location=loc, op=op)
    name = tr.builder.dot(a._v, a._type, b._v, b._type, acc._v, acc._type, loc)
    return _new_tile(name, out_shape, f32, (0, 1), loc)


def cast(x: Tile, dtype, *, _op: str = "tk.cast") -> Tile:
    """``x.to(dtype)``: tile.cast (round to nearest even)."""
    loc = user_location()
    op = f"{_op} (tile.cast)"
    tr = _trace_for("cast", loc)
    x = _as_tile(x, op, loc)
    d = _dtype_arg(dtype, op, loc)
    if d == x.dtype:
        return x
    name = tr.builder.cast(x._v, x._type, tile_type(x._ir_shape, d), loc, _op)
    return _new_tile(name, x.shape, d, x._dims, loc)


def broadcast_to(x: Tile, shape) -> Tile:
    """``x`` broadcast to ``shape`` by numpy's rule (tile.broadcast)."""
    loc = user_location()
    op = "tk.broadcast_to (tile.broadcast)"
    _trace_for("broadcast_to", loc)
    x = _as_tile(x, op, loc)
    s = _check_shape(shape, op, loc)
    if x.ndim > len(s):
        raise ShapeError(f"cannot broadcast {list(x.shape)} to {list(s)}",
                         location=loc, op=op)
    target, _ = _broadcast_shape([x, Tile(x._trace, "", s, x.dtype, (),
                                          x._scope, loc)], op, loc)
    if target != s:
        raise ShapeError(f"cannot broadcast {list(x.shape)} to {list(s)}",
                         location=loc, op=op)
    dims = tuple(builtins.range(len(s)))
    name = _expand(x, s, dims, op, loc)
    return _new_tile(name, s, x.dtype, dims, loc)


_REDUCTIONS = {
    "sum": ("arith.addf", 0.0),
    "mean": ("arith.addf", 0.0),
    "max": ("arith.maximumf", float("-inf")),
    "min": ("arith.minimumf", float("inf")),
}


def _reduce(x, axis, keepdim: bool, kind: str) -> Tile:
    loc = user_location()
    op = f"{kind} (tile.reduce)"
    _trace_for(kind, loc)
    x = _as_tile(x, op, loc)
    if not _is_int(axis) or not -x.ndim <= axis < x.ndim:
        raise ShapeError(f"axis {axis!r} is out of range for a {list(x.shape)} "
                         "tile", location=loc, op=op)
    axis = int(axis) % x.ndim
    xf = cast(x, f32, _op=kind) if x.dtype != f32 else x
    shape = x.shape[:axis] + ((1,) if keepdim else ()) + x.shape[axis + 1:]

    def renumber(dims):
        out = []
        for p in dims:
            if p == axis:
                continue
            out.append(p if (p < axis or keepdim) else p - 1)
        return tuple(out)

    if axis not in x._dims:  # a unit dimension added by indexing
        return _new_tile(xf._v, shape, f32, renumber(x._dims), loc)
    if len(x._dims) != 2:
        raise UnsupportedOpError(
            f"reducing a rank-1 tile ({list(x.shape)}) to a single value is not "
            "supported: reductions take a rank-2 tile to a rank-1 one",
            location=loc, op=op)
    ir_dim = x._dims.index(axis)
    out_ir = tuple(d for i, d in enumerate(xf._ir_shape) if i != ir_dim)
    _check_shape(out_ir, op, loc)
    combiner, init = _REDUCTIONS[kind]
    tr = _current()
    name = tr.builder.reduce(xf._v, xf._type, ir_dim, combiner, init,
                             tile_type(out_ir, f32), loc, kind)
    result = _new_tile(name, shape, f32, renumber(x._dims), loc)
    if kind == "mean":
        n = float(x.shape[axis])
        result = _elementwise("mean", [result],
                              lambda s, v: s.op("arith.divf", v, s.const(n)),
                              loc=loc)
    return result


def sum(x, axis: int = -1, keepdim: bool = False) -> Tile:  # noqa: A001
    return _reduce(x, axis, keepdim, "sum")


def max(x, axis: int = -1, keepdim: bool = False) -> Tile:  # noqa: A001
    return _reduce(x, axis, keepdim, "max")


def min(x, axis: int = -1, keepdim: bool = False) -> Tile:  # noqa: A001
    return _reduce(x, axis, keepdim, "min")


def mean(x, axis: int = -1, keepdim: bool = False) -> Tile:
    return _reduce(x, axis, keepdim, "mean")


def cdiv(a, b):
    """Ceiling division: ints give an int (grids), indices an index."""
    if _is_int(a) and _is_int(b):
        return -(-int(a) // int(b))
    return (a + (b - 1)) // b


def next_power_of_2(n: int) -> int:
    """The smallest power of two >= n (tile sizes must be powers of two)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


# ---------------------------------------------------------------------------
# Loops
# ---------------------------------------------------------------------------

class _Range:
    """``tk.range(...)``: the iterable of a loop that becomes scf.for."""

    __slots__ = ("lo", "hi", "step", "loc")

    def __init__(self, lo, hi, step, loc):
        self.lo, self.hi, self.step, self.loc = lo, hi, step, loc

    def __iter__(self):
        raise TraceError(
            "this tk.range loop was not rewritten into an scf.for: that needs "
            "the kernel's source (inspect.getsource) and `tk.range` named "
            "through a module-level or closure name; use tk.fori(lo, hi, step, "
            "init, body) instead", location=self.loc, op="tk.range")


def range(*args) -> _Range:  # noqa: A001 - mirrors the builtin
    """``for k in tk.range(stop)`` / ``(start, stop[, step])``: a loop
    traced into ``scf.for``; bounds are ints or indices, a constant step is
    positive. Variables the body reassigns are carried from iteration to
    iteration (they must keep their shape and dtype)."""
    loc = user_location()
    _trace_for("range", loc)
    if not 1 <= len(args) <= 3:
        raise TraceError(f"tk.range takes 1 to 3 arguments, got {len(args)}",
                         location=loc, op="tk.range")
    lo, hi, step = (0, args[0], 1) if len(args) == 1 else (
        (args[0], args[1], 1) if len(args) == 2 else args)
    for v in (lo, hi, step):
        if not (isinstance(v, Index) or _is_int(v)):
            raise TraceError(f"tk.range bounds are ints or indices, not "
                             f"{type(v).__name__}", location=loc, op="tk.range")
    if _is_int(step) and step <= 0:
        raise TraceError(f"tk.range needs a positive step, got {step}",
                         location=loc, op="tk.range")
    return _Range(lo, hi, step, loc)


def _same_kind(init, out) -> bool:
    if isinstance(init, Tile):
        return isinstance(out, Tile)
    return isinstance(out, Index)


def _for_loop(rng, body: Callable, inits: Sequence, names: Sequence[str],
              line: int, column: int, loc: Optional[SourceLocation] = None):
    """The target of a rewritten ``for k in tk.range(...)`` loop (see
    tile._loops): traces `body(k, *values)` into an scf.for; returns the
    variables' values after the loop. The loop is located at `line` and
    `column` of the body's file (or at `loc`)."""
    if loc is None:
        filename = getattr(getattr(body, "__code__", None), "co_filename",
                           "<kernel>")
        loc = SourceLocation(filename, line, column)
    if not isinstance(rng, _Range):
        raise TraceError("a tk.range loop needs tk.range(...) as its iterable",
                         location=loc, op="scf.for")
    tr = _trace_for("range", loc)
    values = list(inits)
    for _ in builtins.range(3):
        result = _trace_loop(tr, rng, body, values, names, loc)
        if isinstance(result, tuple):
            return result
        for i in result:  # ints that became indices: start them as indices
            values[i] = Index(tr, tr.builder.index_constant(values[i], loc),
                              tr.builder.region.id, loc)
    raise TraceError("internal error: the loop's variables did not settle",
                     location=loc, op="scf.for")


def _trace_loop(tr: KernelTrace, rng: _Range, body, values, names, loc):
    b = tr.builder
    op = "tk.range (scf.for)"
    lo, hi, step = (_index_value(v, op, loc) for v in (rng.lo, rng.hi, rng.step))
    iv = b.fresh()
    region = b.open_region()
    proxies: Dict[int, Any] = {}
    try:
        args = []
        for i, v in enumerate(values):
            if isinstance(v, (Tile, Index)):
                _check_live(v, op, loc)
                p = v._like(b.fresh(), region.id)
                proxies[i] = p
                args.append(p)
            elif isinstance(v, _LoopLocal):
                args.append(_UNDEF)  # reassigned in a later loop: fresh again
            else:
                args.append(v)
        outs = body(Index(tr, iv, region.id, loc), *args)
    finally:
        if b.stack and b.stack[-1] is region:
            b.close_region(region)
    if not isinstance(outs, tuple) or len(outs) != len(values):
        raise TraceError("internal error: a loop body returned "
                         f"{outs!r}", location=loc, op=op)
    live = b.live_regions() | {region.id}
    results = list(values)
    carried, substitutions, promote = [], {}, []
    for i, (name, init, out) in enumerate(zip(names, values, outs)):
        if i in proxies:
            p = proxies[i]
            if out is p:
                substitutions[p._v] = init._v
                continue
            if isinstance(p, Index) and _is_int(out):  # `i = 0` in the body
                out = Index(tr, b.index_constant(int(out), loc), b.region.id, loc)
            if not _same_kind(init, out):
                raise TraceError(
                    f"'{name}' is a {type(init).__name__.lower()} before the "
                    f"loop and a {type(out).__name__} at the end of its body; "
                    "a loop-carried variable keeps its kind", location=loc, op=op)
            if out._scope not in live:
                raise TraceError(f"'{name}' is set to a value of an inner loop "
                                 "body", location=loc, op=op)
            if isinstance(init, Tile) and (out.shape != init.shape or
                                           out._dims != init._dims):
                raise ShapeError(
                    f"'{name}' is a {list(init.shape)} tile before the loop and "
                    f"{list(out.shape)} at the end of its body; a loop-carried "
                    "tile keeps its shape", location=loc, op=op)
            if isinstance(init, Tile) and out.dtype != init.dtype:
                raise DTypeError(
                    f"'{name}' is {init.dtype} before the loop and {out.dtype} "
                    "at the end of its body; a loop-carried tile keeps its "
                    "dtype (cast with .to())", location=loc, op=op)
            carried.append((i, p, init, out))
        elif init is _UNDEF or isinstance(init, _LoopLocal):
            if isinstance(out, (Tile, Index)):
                results[i] = _LoopLocal(name, loc)
            else:
                results[i] = out
        elif out is init or (_is_number(init) and _is_number(out) and
                             type(init) is type(out) and init == out):
            continue
        elif _is_int(init) and (isinstance(out, Index) or _is_int(out)):
            promote.append(i)  # an int the body changes: carry it as an index
        elif isinstance(out, Tile) and _is_number(init):
            raise TraceError(
                f"'{name}' is the number {init!r} before the loop and a tile in "
                f"it; start it as a tile (tk.full(shape, {init!r}))",
                location=loc, op=op)
        else:
            raise TraceError(
                f"'{name}' is a Python {type(init).__name__} that the loop body "
                "changes; the body is traced once, so it would not change from "
                "iteration to iteration on the GPU. Use the loop index, an "
                "index computed from it, or a tile", location=loc, op=op)
    if promote:
        return promote
    iter_args = [(p._v, init._v, "index" if isinstance(p, Index) else p._type)
                 for _, p, init, _ in carried]
    yields = [out._v for _, _, _, out in carried]
    names_out = b.for_loop(lo, hi, step, iv, region, iter_args, yields,
                           substitutions, loc)
    for (i, p, init, out), r in zip(carried, names_out):
        results[i] = init._like(r, b.region.id)
        results[i]._loc = loc
    return tuple(results)


def fori(lo, hi, step, init, body: Callable):
    """``for k in [lo, hi) step step`` as an scf.for with explicit
    loop-carried values: ``body(k, *carry)`` returns the next ``carry``
    (tiles or indices; one value or a tuple, as ``init``). Returns the
    values after the loop::

        acc = tk.fori(0, K, 32, tk.zeros((64, 64)),
                      lambda k, acc: tk.dot(tk.load(A, (m0, k), (64, 32)),
                                            tk.load(B, (k, n0), (32, 64)), acc))
    """
    loc = user_location()
    rng = range(lo, hi, step)
    single = not isinstance(init, (tuple, list))
    inits = [init] if single else list(init)
    for i, v in enumerate(inits):
        if not isinstance(v, (Tile, Index)) and not _is_int(v):
            raise TraceError(f"tk.fori carries tiles and indices; init[{i}] is "
                             f"a {type(v).__name__} (for a float, start a tile: "
                             "tk.full(shape, value))", location=loc, op="tk.fori")

    def wrapped(k, *carry):
        out = body(k, *carry)
        outs = [out] if single else out
        if not isinstance(outs, (tuple, list)) or len(outs) != len(inits):
            raise TraceError(f"the tk.fori body must return {len(inits)} "
                             f"value(s), like init, but returned {out!r}",
                             location=loc, op="tk.fori")
        return tuple(outs)

    names = [f"init[{i}]" if not single else "init" for i in builtins.range(len(inits))]
    out = _for_loop(rng, wrapped, inits, names, 0, 0,
                    loc or SourceLocation("<kernel>", 0, 0))
    return out[0] if single else out


# ---------------------------------------------------------------------------
# Tracing a kernel
# ---------------------------------------------------------------------------

class _GridArg:
    """What a grid function gets for a buffer argument: shape and dtype."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name, spec: TensorSpec):
        self.name, self.shape, self.dtype = name, spec.shape, spec.dtype

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return f"{self.name}: {self.dtype}{list(self.shape)}"


def _annotation_dims(fn, pname):
    ann = getattr(fn, "__annotations__", {}).get(pname)
    if isinstance(ann, str):
        try:
            ann = eval(ann, fn.__globals__)  # noqa: S307 - the user's annotation
        except Exception:  # noqa: BLE001 - not ours to judge
            return None
    return ann.dims if isinstance(ann, _BufferAnnotation) else None


def _shape_symbols(fn, params, loc) -> Dict[str, int]:
    symbols: Dict[str, int] = {}
    where: Dict[str, str] = {}
    for pname, spec in params:
        dims = _annotation_dims(fn, pname)
        if dims is None or not isinstance(spec, TensorSpec):
            continue
        if len(dims) != len(spec.shape):
            raise ShapeError(f"'{pname}' is annotated with {len(dims)} "
                             f"dimensions {list(dims)} but has shape "
                             f"{list(spec.shape)}", location=loc)
        for sym, size in zip(dims, spec.shape):
            if _is_int(sym):
                if sym != size:
                    raise ShapeError(f"'{pname}' must have size {sym} where it "
                                     f"has {size} ({list(spec.shape)})",
                                     location=loc)
                continue
            if sym in symbols and symbols[sym] != size:
                raise ShapeError(f"{sym} is {symbols[sym]} in '{where[sym]}' but "
                                 f"{size} in '{pname}'", location=loc)
            symbols[sym], where[sym] = size, pname
    return symbols


def _eval_grid(grid, fn, params, loc) -> Tuple[int, ...]:
    symbols = _shape_symbols(fn, params, loc)
    value = grid
    if callable(grid):
        try:
            sig = _inspect.signature(grid)
        except (TypeError, ValueError):
            sig = None
        by_name = {n: (_GridArg(n, s) if isinstance(s, TensorSpec) else s)
                   for n, s in params}
        kwargs, unknown = {}, []
        for p in (sig.parameters.values() if sig else []):
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            if p.name in by_name:
                kwargs[p.name] = by_name[p.name]
            elif p.name in symbols:
                kwargs[p.name] = symbols[p.name]
            elif p.default is p.empty:
                unknown.append(p.name)
        try:
            if unknown and not kwargs:
                # lambda M, N: ... -- the first buffer's dimensions.
                first = next((s for _, s in params if isinstance(s, TensorSpec)),
                             None)
                if first is None:
                    raise TraceError("the grid function's parameters name no "
                                     "argument and there is no buffer",
                                     location=loc)
                value = grid(*first.shape)
            elif unknown:
                raise TraceError(
                    f"grid parameter(s) {', '.join(unknown)} name no kernel "
                    "argument or shape symbol (the grid function gets arguments "
                    "and tk.Buffer[...] symbols by name, or the first buffer's "
                    "dimensions positionally)", location=loc)
            else:
                value = grid(**kwargs)
        except TraceError:
            raise
        except TypeError as e:
            raise TraceError(f"calling the grid function failed: {e}",
                             location=loc) from None
    if _is_int(value):
        value = (value,)
    try:
        value = tuple(value)
    except TypeError:
        value = None
    if not value or len(value) > 3 or not all(_is_int(v) and v >= 1 for v in value):
        raise TraceError(f"the grid must be 1 to 3 positive ints, got {grid!r}"
                         + (f" -> {value!r}" if callable(grid) else ""),
                         location=loc)
    return tuple(int(v) for v in value)


def _def_location(fn) -> Optional[SourceLocation]:
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    return SourceLocation(code.co_filename, code.co_firstlineno, 1)


def trace_kernel(fn: Callable, body: Callable, params, name: str, grid,
                 threads: int) -> KernelTrace:
    """Traces `body` (`fn` with its loops rewritten) on `params`: (name,
    TensorSpec or constant) pairs in positional order."""
    if _current() is not None or _language._current_trace() is not None:
        raise TraceError("tile functions cannot be traced inside one another",
                         location=user_location())
    loc = _def_location(fn)
    grid = _eval_grid(grid, fn, params, loc)
    tr = KernelTrace(name, loc, grid, threads)
    args = []
    for pname, spec in params:
        if isinstance(spec, TensorSpec) and spec.dtype in BYTES:
            # Bytes that mean something else than int8 (uint8, e8m0): the
            # kernel would read them as signed int8.
            raise DTypeError(f"argument '{pname}' is {spec.dtype}: a kernel "
                             "reads bytes as int8 (pass x.view(torch.int8)); "
                             "uint8 and float8_e8m0fnu are for "
                             "tl.quantized_matmul", location=loc)
        if isinstance(spec, TensorSpec):
            host, kbody = tr.builder.add_argument(pname, spec.shape, spec.dtype, loc)
            buf = Buffer(tr, pname, spec.shape, spec.dtype, host, kbody,
                         len(tr.buffers))
            tr.buffers.append(buf)
            args.append(buf)
        else:
            args.append(spec)
    _state.trace = tr
    try:
        result = body(*args)
    finally:
        _state.trace = None
    if result is not None:
        raise TraceError(f"kernel '{tr.function_name}' returns a value; kernels "
                         "write their results with tk.store", location=loc)
    if not tr.written:
        raise TraceError(f"kernel '{tr.function_name}' stores into no buffer "
                         "(tk.store); it would compute nothing", location=loc)
    tr.text = tr.builder.render(loc, loc, with_locations=True)
    tr.key_text = tr.builder.render(loc, loc, with_locations=False)
    return tr


# ---------------------------------------------------------------------------
# Compiled kernels and launching
# ---------------------------------------------------------------------------

class CompiledTileKernel(CompiledKernel):
    """A compiled @tile.kernel: every argument is a buffer the caller
    passes (``input_names`` / ``input_specs``, in order); the bundle marks
    those the kernel stores into as ``out``."""

    @property
    def roles(self) -> List[str]:
        return [b.role for b in self.bundle.buffers if b.role in ("in", "out")]

    def summary(self) -> str:
        how = ("from the cache" if self.from_cache
               else f"compiled in {self.compile_seconds:.2f} s")
        lines = [f"{self.function} for {self.target} (tile kernel, key "
                 f"{self.key[:16]}, {how})"]
        for name, spec, role in zip(self.input_names, self.input_specs,
                                    self.roles):
            lines.append(f"  {'out' if role == 'out' else 'in '} {name}: "
                         f"{spec.dtype}{list(spec.shape)}")
        for l in self.launches:
            lines.append(f"  launch {l['entry']}: grid {l['grid']} block "
                         f"{l['block']} smem {l['smem']} args {' '.join(l['args'])}")
        return "\n".join(lines)

    __str__ = summary

    def load(self, device: Optional[int] = None) -> "LoadedKernel":
        return LoadedKernel(self, device)


class LoadedKernel:
    """A compiled kernel loaded on a device: ``loaded(*buffers, stream=None)``
    launches it on the buffers (torch tensors or __cuda_array_interface__
    objects, in argument order)."""

    def __init__(self, compiled: CompiledTileKernel, device: Optional[int] = None):
        self.compiled = compiled
        bundle = compiled.bundle
        self.kernel = _launcher.Kernel(bundle, device=device)
        self.device = self.kernel.device
        buffers = [b for b in bundle.buffers if b.role in ("in", "out")]
        if len(buffers) != len(compiled.input_specs):
            raise ArgumentError(
                f"the bundle of {compiled.function} has {len(buffers)} buffers "
                f"but the kernel takes {len(compiled.input_specs)}")
        self.slots = []
        n_in = n_out = 0
        for buf, spec, name in zip(buffers, compiled.input_specs,
                                   compiled.input_names):
            if buf.shape != spec.shape or buf.dtype != spec.dtype:
                raise ArgumentError(
                    f"the bundle's buffer {buf.name} ({buf.dtype}"
                    f"{list(buf.shape)}) does not match argument '{name}' "
                    f"({spec.dtype}{list(spec.shape)})")
            if buf.role == "out":
                self.slots.append(("out", n_out))
                n_out += 1
            else:
                self.slots.append(("in", n_in))
                n_in += 1
        self.n_in, self.n_out = n_in, n_out
        self.names = list(compiled.input_names)
        self.specs = list(compiled.input_specs)
        self.torch_dtypes = ([s.dtype.torch() for s in self.specs]
                             if _launcher.torch_available() else [])

    def pointers(self, args) -> Tuple[List[int], List[int]]:
        ins, outs = [0] * self.n_in, [0] * self.n_out
        for i, (x, (kind, k)) in enumerate(zip(args, self.slots)):
            name, spec = self.names[i], self.specs[i]
            if _launcher.is_torch_tensor(x):
                if not x.is_cuda or x.get_device() != self.device:
                    raise ArgumentError(f"argument '{name}' is on {x.device}, not "
                                        f"on cuda:{self.device}")
                if not x.is_contiguous():
                    raise ArgumentError(
                        f"argument '{name}' is not contiguous (strides "
                        f"{list(x.stride())}); pass .contiguous()")
                if x.shape != spec.shape or x.dtype != self.torch_dtypes[i]:
                    raise ArgumentError(
                        f"argument '{name}' is {_as_dtype(x.dtype)}"
                        f"{list(x.shape)} but the kernel was compiled for "
                        f"{spec.dtype}{list(spec.shape)}")
                ptr = x.data_ptr()
                if ptr % _launcher.ALIGNMENT:
                    raise _launcher.misaligned(name, ptr, x.storage_offset())
            else:
                info = _launcher.describe(x, name)
                buf = (self.kernel.outputs if kind == "out" else self.kernel.inputs)[k]
                _launcher.check_argument(info, buf, name, spec.shape)
                ptr = info.ptr
            if kind == "out":
                outs[k] = ptr
            else:
                ins[k] = ptr
        return ins, outs

    def __call__(self, *args, stream: Optional[int] = None) -> None:
        if len(args) != len(self.slots):
            raise ArgumentError(f"expected {len(self.slots)} buffers "
                                f"({', '.join(self.names)}) but got {len(args)}")
        ins, outs = self.pointers(args)
        if stream is None:
            stream = _launcher._current_stream(self.device)
        self.kernel.launch_pointers(ins, outs, stream)


class KernelFunction:
    """A @tile.kernel function: traced per signature, compiled at the tile
    level, cached, launched on the buffers it is called with.

    ``f(*args, stream=None)`` launches (returns None); ``f[grid](*args)``
    overrides the grid; ``f.compile(signature, target=...)`` compiles ahead
    of time; ``f.inspect(*args)`` returns the CompiledTileKernel (``.ir``,
    ``.stages``, ``.ptx``, ``.launches``); ``f.trace(*args).text`` is the
    traced IR.
    """

    def __init__(self, fn: Callable, *, grid, threads: int = 128,
                 target: Optional[str] = None, mma: str = "auto",
                 features: str = "+ptx80", name: Optional[str] = None,
                 fast_math: bool = False, pipeline_options: str = ""):
        if isinstance(fn, KernelFunction):
            fn = fn.fn
        loc = _def_location(fn)
        if not _is_int(threads) or not 32 <= threads <= 1024 or threads % 32:
            raise TraceError(f"threads must be a multiple of 32 in [32, 1024], "
                             f"got {threads!r}", location=loc)
        if mma not in ("auto", "simt"):
            raise TraceError(f"mma must be 'auto' or 'simt', got {mma!r}",
                             location=loc)
        if grid is None:
            raise TraceError("@tile.kernel needs grid= (a tuple of ints, or a "
                             "function of the arguments)", location=loc)
        self.fn = fn
        self.grid = grid
        self.threads = int(threads)
        self.target = target
        self.mma = mma
        self.features = features
        self.fast_math = bool(fast_math)
        self.pipeline_options = pipeline_options
        self.name = name or getattr(fn, "__name__", "kernel")
        self._signature = _inspect.signature(fn)
        self._params = list(self._signature.parameters)
        self._nparams = len(self._params)
        self._body: Optional[Callable] = None
        self._compiled: Dict[Tuple, CompiledTileKernel] = {}
        self._launches: Dict[Tuple, Tuple[LoadedKernel, List[int]]] = {}
        self._grids: Dict[Any, "KernelFunction"] = {}
        functools.update_wrapper(self, fn)

    # -- tracing -------------------------------------------------------------
    def _traced_body(self) -> Callable:
        if self._body is None:
            self._body = _loops.rewrite(self.fn, range, _for_loop, _UNDEF)
        return self._body

    def _bind(self, args, kwargs) -> Tuple:
        return _bind_arguments(self, args, kwargs)

    def _params_of(self, values) -> List[Tuple[str, Any]]:
        return _specs_of(self._params, values)

    def options(self, target: Optional[str] = None) -> _compiler.CompileOptions:
        return _compiler.CompileOptions(
            target=target or self.target or os.environ.get("TILE_TARGET")
            or DEFAULT_TARGET,
            features=self.features, level="tile", mma=self.mma,
            fast_math=self.fast_math, pipeline_options=self.pipeline_options)

    def _trace_params(self, params) -> KernelTrace:
        return trace_kernel(self.fn, self._traced_body(), params, self.name,
                            self.grid, self.threads)

    def trace(self, *args, **kwargs) -> KernelTrace:
        """Traces on tensors or signature entries; ``.text`` is the IR."""
        return self._trace_params(self._params_of(self._bind(args, kwargs)))

    # -- compiling -------------------------------------------------------------
    def _compile_params(self, params, options) -> CompiledTileKernel:
        memo = (tuple((n, s) if isinstance(s, TensorSpec) else (n, "const", repr(s))
                      for n, s in params), options)
        compiled = self._compiled.get(memo)
        if compiled is not None:
            _cache.stats["memory_hits"] += 1
            return compiled
        tr = self._trace_params(params)
        compiled = _get_compiled(tr, options, params, cls=CompiledTileKernel)
        self._compiled[memo] = compiled
        return compiled

    def compile(self, signature: Optional[Sequence] = None, *,
                target: Optional[str] = None, **kwargs) -> CompiledTileKernel:
        """Ahead of time (no GPU needed): one entry per parameter, as for
        @tile.jit (("bf16", (M, N)), a TensorSpec, a tensor, or a constant)."""
        values = self._bind(tuple(signature or ()), kwargs)
        return self._compile_params(self._params_of(values), self.options(target))

    def inspect(self, *args, target: Optional[str] = None,
                **kwargs) -> CompiledTileKernel:
        values = self._bind(args, kwargs)
        if target is None and self.target is None:
            cuda = [v for v in values if _launcher.is_torch_tensor(v) and v.is_cuda]
            if cuda:
                target = _device_target(cuda[0].get_device())
        return self._compile_params(self._params_of(values), self.options(target))

    # -- launching -------------------------------------------------------------
    def __getitem__(self, grid) -> "KernelFunction":
        """``kernel[grid](*args)``: the same kernel with another grid."""
        key = grid if not callable(grid) else ("callable", id(grid))
        try:
            hash(key)
        except TypeError:
            key = repr(grid)
        other = self._grids.get(key)
        if other is None:
            other = KernelFunction(self.fn, grid=grid, threads=self.threads,
                                   target=self.target, mma=self.mma,
                                   features=self.features, name=self.name,
                                   fast_math=self.fast_math,
                                   pipeline_options=self.pipeline_options)
            other._body = self._body
            self._grids[key] = other
        return other

    def _call_key(self, args) -> Tuple:
        return _call_key_of(self.name, args, "buffer")

    def __call__(self, *args, stream: Optional[int] = None, **kwargs) -> None:
        if kwargs or len(args) != self._nparams:
            args = self._bind(args, kwargs)
        key = self._call_key(args)
        entry = self._launches.get(key)
        if entry is None:
            entry = self._specialize(args, key)
        else:
            _cache.stats["memory_hits"] += 1
        loaded, positions = entry
        loaded(*[args[i] for i in positions], stream=stream)

    def _specialize(self, args, key):
        device_index = None
        for a in args:
            if _launcher.is_torch_tensor(a):
                if not a.is_cuda:
                    raise ArgumentError(f"{self.name}(): buffers must be on a "
                                        f"CUDA device, not {a.device}")
                device_index = a.get_device()
                break
        if device_index is not None:
            _launcher.check_torch_tensors(
                self.name, [(n, a) for n, a in zip(self._params, args)
                            if _launcher.is_torch_tensor(a)], device_index)
        if device_index is None:
            device_index = 0
            if _launcher.torch_available():
                import torch

                if torch.cuda.is_available():
                    device_index = torch.cuda.current_device()
        target = self.target or os.environ.get("TILE_TARGET") or \
            _device_target(device_index)
        params = self._params_of(args)
        compiled = self._compile_params(params, self.options(target))
        loaded = compiled.load(device_index)
        positions = [i for i, (_, s) in enumerate(params) if isinstance(s, TensorSpec)]
        self._launches[key] = (loaded, positions)
        return loaded, positions

    def __repr__(self) -> str:
        return f"<tile.kernel {self.name} grid={self.grid!r} threads={self.threads}>"


def kernel(fn: Optional[Callable] = None, **options):
    """Decorator: ``@tile.kernel(grid=..., threads=128)`` (also
    ``target=``, ``mma="auto"|"simt"``, ``name=``). ``grid`` is a tuple of
    ints or a function returning one, called at trace time with the
    arguments it names (buffers as objects with ``.shape`` / ``.dtype``,
    constants as values, ``tk.Buffer["M", ...]`` symbols as ints) or, when
    its parameters name none of them, with the first buffer's dimensions
    (``grid=lambda M, N: ...``)."""
    if fn is None:
        return lambda f: KernelFunction(f, **options)
    return KernelFunction(fn, **options)


jit = kernel


class _KernelModule(types.ModuleType):
    """``tile.kernel`` is this module and the decorator at once:
    ``import tile.kernel as tk`` for the ops, ``@tile.kernel(...)`` to
    declare a kernel."""

    def __call__(self, fn: Optional[Callable] = None, **options):
        return kernel(fn, **options)


sys.modules[__name__].__class__ = _KernelModule
