"""Text emission of tensor-level tile IR (internal to the tracer).

The tracer (tile.language) calls a :class:`FunctionBuilder` once per
operation; the builder keeps the lines of one ``func.func`` and renders
them, with or without ``loc(...)`` locations. Rendering is deterministic:
the same Python function traced on the same shapes and dtypes gives the
same text, byte for byte, on every machine, which is what lets the bundle
cache key be computed from it without the compiler (tile.cache). The key
is taken from the text *without* locations, so that moving the source file
does not invalidate the cache.

Values are named ``%<param>`` for function arguments and ``%<n>`` for
everything else, with one counter for the whole function (map bodies
included), so no name shadows another.
"""

from __future__ import annotations

import math
import re
import struct
from typing import Callable, List, Optional, Sequence, Tuple

from .dtypes import DType, f32
from .errors import SourceLocation

Shape = Tuple[int, ...]


def tensor_type(shape: Sequence[int], dtype: DType) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype.mlir + ">"


def float_literal(value: float) -> str:
    """An f32 constant as MLIR reads it back exactly: decimal when finite
    (always with a '.', which MLIR's float grammar needs), else the bit
    pattern in hex."""
    try:
        rounded = struct.unpack("<f", struct.pack("<f", float(value)))[0]
    except OverflowError:  # past f32's range: rounds to infinity, as torch
        rounded = math.copysign(math.inf, float(value))
    if math.isinf(rounded) or math.isnan(rounded):
        bits = struct.unpack("<I", struct.pack("<f", rounded))[0]
        return f"0x{bits:08X}"
    text = repr(rounded)
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + ("e" + exponent if exponent else "")


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def loc_attr(loc: Optional[SourceLocation]) -> str:
    if loc is None:
        return "loc(unknown)"
    return f"loc({_quote(loc.file)}:{loc.line}:{loc.column})"


_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")


def symbol_name(name: str) -> str:
    """A function name MLIR accepts as a bare symbol ("<lambda>" -> "lambda")."""
    cleaned = re.sub(r"[^A-Za-z0-9_]", "_", name).strip("_") or "kernel"
    if not _SYMBOL.fullmatch(cleaned):
        cleaned = "k_" + cleaned
    return cleaned


class Value:
    """An SSA value of the function: its name and its IR type (the shape
    here is the IR shape; tile.language keeps the logical one)."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name: str, shape: Shape, dtype: DType):
        self.name = name
        self.shape = tuple(shape)
        self.dtype = dtype

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.dtype)

    def __repr__(self) -> str:
        return f"{self.name}: {self.type}"


class _Line:
    __slots__ = ("indent", "text", "loc")

    def __init__(self, indent: int, text: str, loc):
        self.indent = indent
        self.text = text
        self.loc = loc  # SourceLocation, or False for a line that takes none


class ScalarBody:
    """Builds the scalar region of a tile.map or tile.reduce: every value
    is an f32 SSA name (operands are extended on entry, the result
    truncated on exit by the caller)."""

    def __init__(self, builder: "FunctionBuilder", loc):
        self._builder = builder
        self._loc = loc
        self.lines: List[_Line] = []

    def _emit(self, text: str) -> None:
        self.lines.append(_Line(2, text, self._loc))

    def fresh(self) -> str:
        return self._builder.fresh()

    def const(self, value: float) -> str:
        name = self.fresh()
        self._emit(f"{name} = arith.constant {float_literal(value)} : f32")
        return name

    def op(self, opname: str, *operands: str) -> str:
        """One f32 op: ``arith.addf``, ``math.exp``, ... on f32 names."""
        name = self.fresh()
        self._emit(f"{name} = {opname} {', '.join(operands)} : f32")
        return name

    def compare(self, predicate: str, lhs: str, rhs: str) -> str:
        """An i1: ``arith.cmpf`` (ordered predicates: olt, ole, ogt, oge,
        oeq; une for !=, as torch's NaN != NaN is true)."""
        name = self.fresh()
        self._emit(f"{name} = arith.cmpf {predicate}, {lhs}, {rhs} : f32")
        return name

    def logical(self, opname: str, *operands: str) -> str:
        """An i1 op (``arith.andi``, ``arith.ori``, ``arith.xori``)."""
        name = self.fresh()
        self._emit(f"{name} = {opname} {', '.join(operands)} : i1")
        return name

    def true(self) -> str:
        name = self.fresh()
        self._emit(f"{name} = arith.constant true")
        return name

    def select(self, condition: str, lhs: str, rhs: str) -> str:
        name = self.fresh()
        self._emit(f"{name} = arith.select {condition}, {lhs}, {rhs} : f32")
        return name

    def extend(self, value: str, dtype: DType) -> str:
        if dtype == f32:
            return value
        name = self.fresh()
        self._emit(f"{name} = arith.extf {value} : {dtype.mlir} to f32")
        return name

    def truncate(self, value: str, dtype: DType) -> str:
        if dtype == f32:
            return value
        name = self.fresh()
        self._emit(f"{name} = arith.truncf {value} : f32 to {dtype.mlir}")
        return name


class FunctionBuilder:
    """The lines of one tensor-level ``func.func``."""

    def __init__(self, name: str, loc: Optional[SourceLocation] = None):
        self.name = symbol_name(name)
        self.loc = loc
        self.args: List[Tuple[Value, Optional[SourceLocation]]] = []
        self._lines: List[_Line] = []
        self._counter = 0
        #: (location, user-level op, IR op) of every op, in order: what a
        #: compiler diagnostic at a location is mapped back to.
        self.op_table: List[Tuple[Optional[SourceLocation], str, str]] = []

    def fresh(self) -> str:
        name = f"%{self._counter}"
        self._counter += 1
        return name

    def add_argument(self, name: str, shape: Shape, dtype: DType,
                     loc: Optional[SourceLocation]) -> Value:
        taken = {a.name for a, _ in self.args}
        base = name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else "arg"
        candidate, n = "%" + base, 0
        while candidate in taken:
            n += 1
            candidate = f"%{base}_{n}"
        value = Value(candidate, shape, dtype)
        self.args.append((value, loc))
        return value

    def _record(self, loc, user_op: str, ir_op: str) -> None:
        self.op_table.append((loc, user_op, ir_op))

    # -- tensor-level ops -------------------------------------------------

    def matmul(self, a: Value, b: Value, loc, user_op: str = "@",
               k_runs: int = 0) -> Value:
        """[..., M, K] @ [..., K, N]: leading batch dimensions equal
        (k_runs: B's rows in mma.sync's fragment runs, tile.matmul's)."""
        result = Value(self.fresh(), tuple(a.shape[:-1]) + (b.shape[-1],), f32)
        runs = f" k_runs = {k_runs}" if k_runs else ""
        self._lines.append(_Line(
            1, f"{result.name} = tile.matmul {a.name}, {b.name}{runs} : "
               f"({a.type}, {b.type}) -> {result.type}", loc))
        self._record(loc, user_op, "tile.matmul")
        return result

    def block_scaled_matmul(self, a: Value, b: Value, sa: Value, sb: Value,
                            block: Tuple[int, int, int], loc,
                            user_op: str) -> Value:
        """[M, K] @ [K, N], each product times its blocks' scales (block =
        [rows of A, K, columns of B] per scale)."""
        result = Value(self.fresh(), (a.shape[0], b.shape[1]), f32)
        self._lines.append(_Line(
            1, f"{result.name} = tile.matmul {a.name}, {b.name} scales("
               f"{sa.name}, {sb.name}) block [{block[0]}, {block[1]}, "
               f"{block[2]}] : ({a.type}, {b.type}, {sa.type}, {sb.type}) -> "
               f"{result.type}", loc))
        self._record(loc, user_op, "tile.matmul")
        return result

    def transpose(self, x: Value, loc, user_op: str = ".mT") -> Value:
        """The last two dimensions swapped."""
        shape = tuple(x.shape[:-2]) + (x.shape[-1], x.shape[-2])
        result = Value(self.fresh(), shape, x.dtype)
        self._lines.append(_Line(
            1, f"{result.name} = tile.transpose {x.name} : {x.type} -> "
               f"{result.type}", loc))
        self._record(loc, user_op, "tile.transpose")
        return result

    def repeat(self, x: Value, dim: int, times: int, loc,
               user_op: str = "repeat_interleave") -> Value:
        """Each slice along IR dimension `dim` repeated `times` times."""
        shape = tuple(x.shape[:dim]) + (x.shape[dim] * times,) + \
            tuple(x.shape[dim + 1:])
        result = Value(self.fresh(), shape, x.dtype)
        self._lines.append(_Line(
            1, f"{result.name} = tile.repeat {x.name} dim = {dim} times = "
               f"{times} : {x.type} -> {result.type}", loc))
        self._record(loc, user_op, "tile.repeat")
        return result

    def unpack(self, x: Value, signed: bool, loc,
               user_op: str = "quantized_matmul",
               interleaved: bool = False, bits=None) -> Value:
        """Two 4-bit values per byte along the last dimension (low nibble
        first, AWQ's order in each word: interleaved, or bit by bit in each
        word: bits, 32 word bits, bit b of value v at bits[4 v + b]), sign-
        or zero-extended to i8."""
        shape = tuple(x.shape[:-1]) + (2 * x.shape[-1],)
        result = Value(self.fresh(), shape, x.dtype)
        flag = (" signed" if signed else "") + (" interleaved" if interleaved else "")
        if bits is not None:
            flag += " bits = [" + ", ".join(str(b) for b in bits) + "]"
        self._lines.append(_Line(
            1, f"{result.name} = tile.unpack {x.name}{flag} : {x.type} -> "
               f"{result.type}", loc))
        self._record(loc, user_op, "tile.unpack")
        return result

    def raw_map(self, inputs: Sequence[Value], dtype: DType,
                body: Sequence[str], args: Sequence[str], out: str, loc,
                user_op: str) -> Value:
        """A tile.map whose body is given as lines over block arguments
        `args` (one per input, of the input's element type), yielding
        `out` of `dtype`: maps over integers (a dequantizing decode)."""
        result = Value(self.fresh(), inputs[0].shape, dtype)
        operands = ", ".join(v.name for v in inputs)
        types = ", ".join(v.type for v in inputs)
        header = ", ".join(f"{a}: {v.dtype.mlir}" for v, a in zip(inputs, args))
        self._lines.append(_Line(
            1, f"{result.name} = tile.map ({operands}) : ({types}) -> "
               f"{result.type} {{", False))
        self._lines.append(_Line(1, f"^bb0({header}):", False))
        for text in body:
            self._lines.append(_Line(2, text, loc))
        self._lines.append(_Line(2, f"tile.yield {out} : {dtype.mlir}", loc))
        self._lines.append(_Line(1, "}", loc))
        self._record(loc, user_op, "tile.map")
        return result

    def causal_mask(self, x: Value, scale: float, loc,
                    user_op: str = "is_causal") -> Value:
        """x * scale where the key (last dimension) is at most the query
        (the one before), -inf elsewhere: tile.iota positions compared in
        one tile.map (the causal score map tile-fuse's attention groups
        recognise)."""
        rank = len(x.shape)
        pos_type = "tensor<" + "x".join(str(d) for d in x.shape) + "xi32>"
        rows, cols = self.fresh(), self.fresh()
        self._lines.append(_Line(
            1, f"{rows} = tile.iota dim = {rank - 2} : {pos_type}", loc))
        self._lines.append(_Line(
            1, f"{cols} = tile.iota dim = {rank - 1} : {pos_type}", loc))
        result = Value(self.fresh(), x.shape, f32)
        a, i, j = self.fresh(), self.fresh(), self.fresh()
        c, ninf = self.fresh(), self.fresh()
        r, keep, m = self.fresh(), self.fresh(), self.fresh()
        self._lines.append(_Line(
            1, f"{result.name} = tile.map ({x.name}, {rows}, {cols}) : "
               f"({x.type}, {pos_type}, {pos_type}) -> {result.type} {{", False))
        self._lines.append(_Line(1, f"^bb0({a}: f32, {i}: i32, {j}: i32):", False))
        for text in (f"{c} = arith.constant {float_literal(scale)} : f32",
                     f"{ninf} = arith.constant 0xFF800000 : f32",
                     f"{r} = arith.mulf {a}, {c} : f32",
                     f"{keep} = arith.cmpi sle, {j}, {i} : i32",
                     f"{m} = arith.select {keep}, {r}, {ninf} : f32"):
            self._lines.append(_Line(2, text, loc))
        self._lines.append(_Line(2, f"tile.yield {m} : f32", loc))
        self._lines.append(_Line(1, "}", loc))
        self._record(loc, user_op, "tile.map")
        return result

    def cast(self, x: Value, dtype: DType, loc, user_op: str = ".to") -> Value:
        result = Value(self.fresh(), x.shape, dtype)
        self._lines.append(_Line(
            1, f"{result.name} = tile.cast {x.name} : {x.type} -> {result.type}",
            loc))
        self._record(loc, user_op, "tile.cast")
        return result

    def broadcast(self, x: Value, shape: Shape, dims: Sequence[int], loc,
                  user_op: str) -> Value:
        result = Value(self.fresh(), shape, x.dtype)
        dims_text = "[" + ", ".join(str(d) for d in dims) + "]"
        self._lines.append(_Line(
            1, f"{result.name} = tile.broadcast {x.name} {dims_text} : "
               f"{x.type} -> {result.type}", loc))
        self._record(loc, user_op, "tile.broadcast")
        return result

    def map(self, inputs: Sequence[Value], dtype: DType,
            body: Callable[..., str], loc, user_op: str) -> Value:
        """A tile.map over `inputs` (same IR shape): `body(scalars, *args)`
        gets a ScalarBody and one f32 name per input (in the order given,
        repeated inputs passed once to the map) and returns an f32 name."""
        unique: List[Value] = []
        for v in inputs:
            if all(v is not u and v.name != u.name for u in unique):
                unique.append(v)
        result = Value(self.fresh(), inputs[0].shape, dtype)
        block_args = [self.fresh() for _ in unique]
        scalars = ScalarBody(self, loc)
        extended = {u.name: scalars.extend(a, u.dtype)
                    for u, a in zip(unique, block_args)}
        out = body(scalars, *[extended[v.name] for v in inputs])
        out = scalars.truncate(out, dtype)
        operands = ", ".join(u.name for u in unique)
        types = ", ".join(u.type for u in unique)
        header = ", ".join(f"{a}: {u.dtype.mlir}"
                           for u, a in zip(unique, block_args))
        self._lines.append(_Line(
            1, f"{result.name} = tile.map ({operands}) : ({types}) -> "
               f"{result.type} {{", False))
        self._lines.append(_Line(1, f"^bb0({header}):", False))
        self._lines.extend(scalars.lines)
        self._lines.append(_Line(2, f"tile.yield {out} : {dtype.mlir}", loc))
        self._lines.append(_Line(1, "}", loc))
        self._record(loc, user_op, "tile.map")
        return result

    def reduce(self, x: Value, dim: int, combiner: str, init: float, loc,
               user_op: str) -> Value:
        """A tile.reduce of an f32 tensor along IR dimension `dim` with the
        f32 op `combiner` (``arith.addf``) and its identity `init`."""
        init_name = self.fresh()
        self._lines.append(_Line(
            1, f"{init_name} = arith.constant {float_literal(init)} : f32", loc))
        shape = x.shape[:dim] + x.shape[dim + 1:]
        result = Value(self.fresh(), shape, f32)
        a, b = self.fresh(), self.fresh()
        scalars = ScalarBody(self, loc)
        r = scalars.op(combiner, a, b)
        self._lines.append(_Line(
            1, f"{result.name} = tile.reduce {x.name}, {init_name} dim = {dim} : "
               f"{x.type}, f32 -> {result.type} {{", False))
        self._lines.append(_Line(1, f"^bb0({a}: f32, {b}: f32):", False))
        self._lines.extend(scalars.lines)
        self._lines.append(_Line(2, f"tile.yield {r} : f32", loc))
        self._lines.append(_Line(1, "}", loc))
        self._record(loc, user_op, "tile.reduce")
        return result

    # -- rendering -----------------------------------------------------------

    def render(self, results: Sequence[Value], return_loc,
               with_locations: bool = True) -> str:
        """The module text: one func.func returning `results`."""

        def at(loc) -> str:
            if loc is False or not with_locations:
                return ""
            return " " + loc_attr(loc)

        params = ", ".join(f"{v.name}: {v.type}{at(loc)}" for v, loc in self.args)
        result_types = ", ".join(v.type for v in results)
        out = [f"func.func @{self.name}({params}) -> ({result_types}) {{"]
        for line in self._lines:
            out.append("  " * line.indent + line.text + at(line.loc))
        names = ", ".join(v.name for v in results)
        out.append(f"  return {names} : {result_types}{at(return_loc)}")
        out.append("}" + at(self.loc))
        return "\n".join(out) + "\n"
