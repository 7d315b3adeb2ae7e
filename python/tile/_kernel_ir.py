"""Text emission of tile-level IR for the kernel API (internal).

tile.kernel (the user-facing module) calls a :class:`KernelBuilder` once
per operation of a traced kernel; the builder keeps the lines of one host
``func.func`` over memref arguments holding one ``tile.kernel`` -- the form
``tile-tile`` produces -- and renders them with or without ``loc(...)``
locations. Like tile._ir it is deterministic: the same kernel traced on the
same signature gives the same text on every machine, so the cache key can
be computed without the compiler.

Values are ``%<param>`` for the host function's arguments, ``%k_<param>``
for the kernel body's (an isolated region may not reuse the names), and
``%<n>`` for everything else, one counter for the whole function.

Regions nest: the kernel body is the root region; an ``scf.for`` body is a
child region opened and closed around the traced loop body. A region keeps
its lines and a memo of index computations (constants, products of program
ids) so that ``pm * 64`` written twice is one SSA value -- which keeps the
IR readable and lets the matmul kernel recognizer see one offset.
"""

from __future__ import annotations

import math
import re
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ._ir import ScalarBody, float_literal, loc_attr, symbol_name
from .dtypes import DType, f32

Shape = Tuple[int, ...]


def tile_type(shape: Sequence[int], dtype: DType) -> str:
    return "!tile.tile<" + "".join(f"{d}x" for d in shape) + dtype.mlir + ">"


def memref_type(shape: Sequence[int], dtype: DType) -> str:
    return "memref<" + "".join(f"{d}x" for d in shape) + dtype.mlir + ">"


def scalar_literal(value: float, dtype: DType) -> str:
    """A float constant of `dtype` as MLIR reads it: decimal when finite
    (MLIR rounds it to the type), else the type's bit pattern in hex."""
    value = float(value)
    if dtype == f32 and math.isfinite(value) and abs(value) > 3.4028234663852886e38:
        value = math.copysign(math.inf, value)  # rounds to inf, as a cast does
    if math.isfinite(value):
        return float_literal(value) if dtype == f32 else _decimal(value)
    if dtype == f32:
        return float_literal(value)
    if dtype.name == "f16":
        bits = {float("inf"): 0x7C00, float("-inf"): 0xFC00}.get(value, 0x7E00)
    else:  # bf16
        bits = {float("inf"): 0x7F80, float("-inf"): 0xFF80}.get(value, 0x7FC0)
    return f"0x{bits:04X}"


def _decimal(value: float) -> str:
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    return mantissa + ("e" + exponent if exponent else "")


class Line:
    __slots__ = ("indent", "text", "loc")

    def __init__(self, indent: int, text: str, loc):
        self.indent = indent
        self.text = text
        self.loc = loc  # SourceLocation, None (unknown) or False (no loc)


class Region:
    """The lines of one region being traced, and its index memo."""

    __slots__ = ("id", "lines", "memo")

    def __init__(self, rid: int):
        self.id = rid
        self.lines: List[Line] = []
        self.memo: Dict[tuple, str] = {}


_NAME_END = r"(?![0-9A-Za-z_$.#])"


class KernelBuilder:
    """One host function holding one tile.kernel."""

    def __init__(self, func_name: str, loc, grid: Sequence[int], threads: int):
        self.name = symbol_name(func_name)
        self.kernel_name = f"{self.name}_0"
        self.loc = loc
        self.grid = tuple(grid)
        self.threads = threads
        #: (host name, body name, type, loc) per argument.
        self.args: List[Tuple[str, str, str, object]] = []
        self._counter = 0
        self._regions = 0
        self.root = self._new_region()
        self.stack: List[Region] = [self.root]
        #: (location, user-level op, IR op): compiler diagnostics map back.
        self.op_table: List[Tuple[object, str, str]] = []

    # -- names and regions ---------------------------------------------------
    def fresh(self) -> str:
        name = f"%{self._counter}"
        self._counter += 1
        return name

    def _new_region(self) -> Region:
        region = Region(self._regions)
        self._regions += 1
        return region

    @property
    def region(self) -> Region:
        return self.stack[-1]

    def live_regions(self) -> set:
        return {r.id for r in self.stack}

    def open_region(self) -> Region:
        region = self._new_region()
        self.stack.append(region)
        return region

    def close_region(self, region: Region) -> Region:
        assert self.stack[-1] is region, "regions closed out of order"
        self.stack.pop()
        return region

    def add_argument(self, name: str, shape: Shape, dtype: DType, loc) -> Tuple[str, str]:
        base = name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) else "arg"
        taken = {a[0] for a in self.args}
        host, n = "%" + base, 0
        while host in taken:
            n += 1
            host = f"%{base}_{n}"
        body = "%k_" + host[1:]
        self.args.append((host, body, memref_type(shape, dtype), loc))
        return host, body

    def emit(self, text: str, loc, user_op: Optional[str] = None,
             ir_op: Optional[str] = None) -> None:
        self.region.lines.append(Line(0, text, loc))
        if ir_op is not None:
            self.op_table.append((loc, user_op or ir_op, ir_op))

    def record(self, loc, user_op: str, ir_op: str) -> None:
        self.op_table.append((loc, user_op, ir_op))

    def memo_get(self, key: tuple) -> Optional[str]:
        for region in reversed(self.stack):
            name = region.memo.get(key)
            if name is not None:
                return name
        return None

    def memo_put(self, key: tuple, name: str) -> None:
        self.region.memo[key] = name

    # -- index arithmetic ----------------------------------------------------
    def index_constant(self, value: int, loc) -> str:
        key = ("const", int(value))
        name = self.memo_get(key)
        if name is None:
            name = self.fresh()
            self.emit(f"{name} = arith.constant {int(value)} : index", loc)
            self.memo_put(key, name)
        return name

    def index_op(self, op: str, a: str, b: str, loc, user_op: str) -> str:
        operands = (a, b) if op not in ("addi", "muli") else tuple(sorted((a, b)))
        key = (op,) + operands
        name = self.memo_get(key)
        if name is None:
            name = self.fresh()
            self.emit(f"{name} = arith.{op} {a}, {b} : index", loc,
                      user_op, f"arith.{op}")
            self.memo_put(key, name)
        return name

    def program_id(self, axis: int, loc) -> str:
        key = ("program_id", axis)
        name = self.memo_get(key)
        if name is None:
            name = self.fresh()
            self.emit(f"{name} = tile.program_id {axis}", loc,
                      "program_id", "tile.program_id")
            self.memo_put(key, name)
        return name

    # -- tile ops --------------------------------------------------------------
    def load(self, body_arg: str, memref: str, offsets: Sequence[str],
             result_type: str, padding: Optional[str], loc) -> str:
        name = self.fresh()
        attr = f" {{padding = {padding}}}" if padding is not None else ""
        self.emit(f"{name} = tile.load {body_arg}[{', '.join(offsets)}]{attr} : "
                  f"{memref} -> {result_type}", loc, "load", "tile.load")
        return name

    def store(self, value: str, value_type: str, body_arg: str, memref: str,
              offsets: Sequence[str], loc) -> None:
        self.emit(f"tile.store {value}, {body_arg}[{', '.join(offsets)}] : "
                  f"{value_type}, {memref}", loc, "store", "tile.store")

    def splat(self, literal: str, dtype: DType, result_type: str, loc,
              user_op: str) -> str:
        c = self.fresh()
        self.emit(f"{c} = arith.constant {literal} : {dtype.mlir}", loc)
        name = self.fresh()
        self.emit(f"{name} = tile.splat {c} : {dtype.mlir} -> {result_type}",
                  loc, user_op, "tile.splat")
        return name

    def dot(self, a: str, a_type: str, b: str, b_type: str, acc: str,
            acc_type: str, loc) -> str:
        name = self.fresh()
        self.emit(f"{name} = tile.dot {a}, {b}, {acc} : {a_type}, {b_type} -> "
                  f"{acc_type}", loc, "dot", "tile.dot")
        return name

    def cast(self, x: str, x_type: str, result_type: str, loc, user_op: str) -> str:
        name = self.fresh()
        self.emit(f"{name} = tile.cast {x} : {x_type} -> {result_type}", loc,
                  user_op, "tile.cast")
        return name

    def broadcast(self, x: str, x_type: str, dims: Sequence[int],
                  result_type: str, loc, user_op: str) -> str:
        name = self.fresh()
        self.emit(f"{name} = tile.broadcast {x} [{', '.join(map(str, dims))}] : "
                  f"{x_type} -> {result_type}", loc, user_op, "tile.broadcast")
        return name

    def map(self, inputs: Sequence[Tuple[str, str, DType]], dtype: DType,
            result_type: str, body: Callable[..., str], loc, user_op: str) -> str:
        """A tile.map over (name, type, dtype) inputs: `body(scalars, *args)`
        gets a ScalarBody and one f32 name per input (half operands are
        extended) and returns an f32 name (rounded to `dtype`)."""
        unique: List[Tuple[str, str, DType]] = []
        for v in inputs:
            if all(v[0] != u[0] for u in unique):
                unique.append(v)
        name = self.fresh()
        block_args = [self.fresh() for _ in unique]
        scalars = ScalarBody(self, loc)
        extended = {u[0]: scalars.extend(a, u[2]) for u, a in zip(unique, block_args)}
        out = body(scalars, *[extended[v[0]] for v in inputs])
        out = scalars.truncate(out, dtype)
        operands = ", ".join(u[0] for u in unique)
        types = ", ".join(u[1] for u in unique)
        header = ", ".join(f"{a}: {u[2].mlir}" for u, a in zip(unique, block_args))
        lines = self.region.lines
        lines.append(Line(0, f"{name} = tile.map ({operands}) : ({types}) -> "
                             f"{result_type} {{", False))
        lines.append(Line(0, f"^bb0({header}):", False))
        for line in scalars.lines:
            lines.append(Line(1, line.text, line.loc))
        lines.append(Line(1, f"tile.yield {out} : {dtype.mlir}", loc))
        lines.append(Line(0, "}", loc))
        self.record(loc, user_op, "tile.map")
        return name

    def reduce(self, x: str, x_type: str, dim: int, combiner: str, init: float,
               result_type: str, loc, user_op: str) -> str:
        """A tile.reduce of an f32 tile along IR dimension `dim`."""
        init_name = self.fresh()
        self.emit(f"{init_name} = arith.constant {float_literal(init)} : f32", loc)
        name = self.fresh()
        a, b = self.fresh(), self.fresh()
        r = self.fresh()
        lines = self.region.lines
        lines.append(Line(0, f"{name} = tile.reduce {x}, {init_name} dim = {dim} : "
                             f"{x_type}, f32 -> {result_type} {{", False))
        lines.append(Line(0, f"^bb0({a}: f32, {b}: f32):", False))
        lines.append(Line(1, f"{r} = {combiner} {a}, {b} : f32", loc))
        lines.append(Line(1, f"tile.yield {r} : f32", loc))
        lines.append(Line(0, "}", loc))
        self.record(loc, user_op, "tile.reduce")
        return name

    def for_loop(self, lo: str, hi: str, step: str, iv: str, body: Region,
                 iter_args: Sequence[Tuple[str, str, str]],
                 yields: Sequence[str], substitutions: Dict[str, str],
                 loc) -> List[str]:
        """Appends ``scf.for`` with `body`'s lines (after renaming the keys of
        `substitutions` to their values) to the current region.
        `iter_args`: (block argument, initial value, type). Returns the
        result names."""
        pattern = None
        if substitutions:
            pattern = re.compile("(" + "|".join(
                re.escape(k) for k in sorted(substitutions, key=len, reverse=True))
                + ")" + _NAME_END)

        def rename(text: str) -> str:
            return pattern.sub(lambda m: substitutions[m.group(1)], text) \
                if pattern is not None else text

        types = [t for _, _, t in iter_args]
        results: List[str] = []
        head = ""
        if iter_args:
            group = self.fresh()
            if len(iter_args) == 1:
                results = [group]
                head = f"{group} = "
            else:
                results = [f"{group}#{i}" for i in range(len(iter_args))]
                head = f"{group}:{len(iter_args)} = "
        text = f"{head}scf.for {iv} = {lo} to {hi} step {step}"
        if iter_args:
            inits = ", ".join(f"{a} = {rename(i)}" for a, i, _ in iter_args)
            text += f" iter_args({inits}) -> ({', '.join(types)})"
        lines = self.region.lines
        lines.append(Line(0, text + " {", False))
        for line in body.lines:
            lines.append(Line(line.indent + 1, rename(line.text), line.loc))
        if iter_args:
            lines.append(Line(1, f"scf.yield {', '.join(rename(y) for y in yields)}"
                                 f" : {', '.join(types)}", loc))
        lines.append(Line(0, "}", loc))
        self.record(loc, "for", "scf.for")
        return results

    # -- rendering -------------------------------------------------------------
    def render(self, kernel_loc, return_loc, with_locations: bool = True) -> str:
        def at(loc) -> str:
            if loc is False or not with_locations:
                return ""
            return " " + loc_attr(loc)

        params = ", ".join(f"{h}: {t}{at(l)}" for h, _, t, l in self.args)
        operands = ", ".join(h for h, _, _, _ in self.args)
        types = ", ".join(t for _, _, t, _ in self.args)
        block = ", ".join(f"{b}: {t}{at(l)}" for _, b, t, l in self.args)
        grid = ", ".join(str(g) for g in self.grid)
        out = [f"func.func @{self.name}({params}) {{"]
        head = f"  tile.kernel @{self.kernel_name} grid [{grid}] threads {self.threads}"
        if self.args:
            head += f" ({operands}) : {types}"
        out.append(head + " {")
        out.append(f"  ^bb0({block}):")
        for line in self.root.lines:
            out.append("    " + "  " * line.indent + line.text + at(line.loc))
        out.append("  }" + at(kernel_loc))
        out.append("  return" + at(return_loc))
        out.append("}" + at(self.loc))
        return "\n".join(out) + "\n"
