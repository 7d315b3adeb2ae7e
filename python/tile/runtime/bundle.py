"""Kernel bundles in pure Python (docs/bundle-format.md, version 2).

:func:`parse` reads the bytes ``tile-compile`` and ``tile.compile`` write
into a :class:`Bundle`, checking what the C++ reader checks: the header's
grammar, that names resolve, TMA's rules for tensormaps, section sizes and
each cubin's FNV-1a. Errors raise :class:`tile.errors.BundleError` naming
the header line (``bundle line 7: unknown dtype 'f7'``) or the section.
No compiler and no GPU are needed.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..dtypes import BY_NAME, DType
from ..errors import BundleError

ROLES = ("in", "out", "ref", "scratch", "zeroed")
STAGES = ("main", "reference")
#: What bounds the main stage's arithmetic (docs/bundle-format.md).
COMPUTE_CLASSES = ("simt-f32", "tc-bf16", "tc-f16", "tc-tf32", "tc-fp8")
_TARGET = re.compile(r"sm_[0-9]{2,3}[af]?")
_NAME = re.compile(r"[^\s\x00-\x1f\x7f]+")
_SINGLE = ("target", "function", "source-hash", "options", "class", "flops")


#: The most blocks a launch's cluster may hold: the portable cluster size,
#: which every GPU with clusters launches without the kernel opting in.
MOST_CLUSTER_BLOCKS = 8

#: The format version this reader knows (docs/bundle-format.md): 2 adds the
#: FNV-1a of every PTX section and of the header.
VERSION = 2


@dataclass
class Buffer:
    name: str
    role: str
    dtype: DType
    shape: Tuple[int, ...]
    strides: Tuple[int, ...]

    @property
    def numel(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def nbytes(self) -> int:
        """Bytes spanned by shape and strides (padding included)."""
        span = 1 + sum((d - 1) * s for d, s in zip(self.shape, self.strides))
        return span * self.dtype.itemsize

    @property
    def contiguous(self) -> bool:
        expected, stride = [], 1
        for d in reversed(self.shape):
            expected.append(stride)
            stride *= d
        return tuple(reversed(expected)) == self.strides


@dataclass
class TensorMap:
    name: str
    buffer: str
    box: Tuple[int, ...]
    swizzle: int


@dataclass
class Module:
    name: str
    ptx: bytes
    cubin: bytes


@dataclass
class Launch:
    stage: str
    module: str
    entry: str
    grid: Tuple[int, int, int]
    block: Tuple[int, int, int]
    smem: int
    args: Tuple[str, ...]
    #: Thread-block cluster in blocks per dimension; (1, 1, 1) is a plain
    #: launch, and is not written to the file.
    cluster: Tuple[int, int, int] = (1, 1, 1)
    #: A programmatic dependent launch (`dependent` in the file): launched
    #: with CUDA's programmatic stream serialization, it may start while the
    #: main launch before it finishes (its kernel waits for that one's
    #: memory with griddepcontrol.wait). Written only where true.
    dependent: bool = False

    @property
    def has_cluster(self) -> bool:
        return tuple(self.cluster) != (1, 1, 1)

    def describe(self) -> Dict[str, object]:
        d = {"stage": self.stage, "module": self.module, "entry": self.entry,
             "grid": list(self.grid), "block": list(self.block),
             "smem": self.smem, "args": list(self.args)}
        if self.has_cluster:  # as in the file: only where there is one
            d["cluster"] = list(self.cluster)
        if self.dependent:  # likewise
            d["dependent"] = True
        return d


@dataclass
class Check:
    output: str
    reference: str
    tolerance: float


@dataclass
class Bundle:
    version: int = VERSION
    target: str = ""
    function: str = ""
    source_hash: str = ""
    options: str = ""
    compute_class: str = "simt-f32"
    flops: float = 0.0
    buffers: List[Buffer] = field(default_factory=list)
    tensormaps: List[TensorMap] = field(default_factory=list)
    modules: List[Module] = field(default_factory=list)
    launches: List[Launch] = field(default_factory=list)
    checks: List[Check] = field(default_factory=list)

    def buffer(self, name: str) -> Optional[Buffer]:
        for b in self.buffers:
            if b.name == name:
                return b
        return None

    def tensormap(self, name: str) -> Optional[TensorMap]:
        for t in self.tensormaps:
            if t.name == name:
                return t
        return None

    def module(self, name: str) -> Optional[Module]:
        for m in self.modules:
            if m.name == name:
                return m
        return None

    @property
    def inputs(self) -> List[Buffer]:
        return [b for b in self.buffers if b.role == "in"]

    @property
    def outputs(self) -> List[Buffer]:
        return [b for b in self.buffers if b.role == "out"]

    @property
    def main_launches(self) -> List[Launch]:
        return [l for l in self.launches if l.stage == "main"]

    def header(self) -> str:
        """The header lines a person reads (everything before the sections)."""
        lines = [f"TILEBUNDLE {self.version}", f"target {self.target}",
                 f"function {self.function}", f"source-hash {self.source_hash}",
                 ("options " + self.options).rstrip(), f"class {self.compute_class}",
                 f"flops {_number(self.flops)}"]
        for b in self.buffers:
            lines.append(f"buffer {b.name} {b.role} {b.dtype.name} "
                         f"{_dims(b.shape)} {_dims(b.strides)}")
        for t in self.tensormaps:
            swizzle = str(t.swizzle) if t.swizzle else "none"
            lines.append(f"tensormap {t.name} {t.buffer} box {_dims(t.box)} "
                         f"swizzle {swizzle}")
        for m in self.modules:
            lines.append(f"module {m.name} ptx {len(m.ptx)} fnv1a {fnv1a64(m.ptx)} "
                         f"cubin {len(m.cubin)} fnv1a {fnv1a64(m.cubin)}")
        for l in self.launches:
            # Only where it is not 1 1 1: bundles without clusters stay as
            # they were.
            cluster = (f" cluster {' '.join(map(str, l.cluster))}"
                       if l.has_cluster else "")
            dependent = " dependent" if l.dependent else ""  # likewise
            lines.append(f"launch {l.stage} {l.module} {l.entry} grid "
                         f"{' '.join(map(str, l.grid))} block "
                         f"{' '.join(map(str, l.block))}{cluster}{dependent} smem "
                         f"{l.smem} args {' '.join(l.args)}".rstrip())
        for c in self.checks:
            lines.append(f"check {c.output} {c.reference} tol {_number(c.tolerance)}")
        text = "\n".join(lines) + "\n"
        # The last line hashes every header byte before it.
        return text + f"end fnv1a {fnv1a64(text.encode('ascii'))}\n"


def _dims(values) -> str:
    return "x".join(str(v) for v in values)


def _number(value: float) -> str:
    if value == int(value) and abs(value) < 1e18:
        return str(int(value))
    return f"{value:g}"


def fnv1a64(data: bytes) -> str:
    """64-bit FNV-1a as 16 lower-case hex digits (the bundle's hash of each
    section and of its header)."""
    h = 0xCBF29CE484222325
    for byte in data:
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


class _Reader:
    def __init__(self):
        self.bundle = Bundle()
        self.seen = set()
        self.names: Dict[str, str] = {}  # buffer/tensormap name -> kind
        #: per module: PTX size, cubin size, their FNV-1a
        self.sections: List[Tuple[int, int, str, str]] = []
        self.header_hash = ""
        self.line = 0
        #: the header lines of dependent launches, checked against the
        #: target once the whole header is read (it may come later)
        self.dependent_lines: List[int] = []

    def fail(self, message: str):
        raise BundleError(f"bundle line {self.line}: {message}")

    def int_field(self, text: str, what: str, minimum: int = 0) -> int:
        if not re.fullmatch(r"[0-9]+", text):
            self.fail(f"malformed {what} '{text}'")
        value = int(text)
        if value < minimum:
            self.fail(f"{what} must be at least {minimum} but is {value}")
        return value

    def dims(self, text: str, what: str, minimum: int) -> Tuple[int, ...]:
        parts = text.split("x")
        return tuple(self.int_field(p, what, minimum) for p in parts)

    def number(self, text: str, what: str) -> float:
        try:
            value = float(text)
        except ValueError:
            self.fail(f"malformed {what} '{text}'")
        if not math.isfinite(value) or value < 0:
            self.fail(f"{what} must be finite and non-negative but is '{text}'")
        return value

    def name(self, text: str, what: str) -> str:
        if not _NAME.fullmatch(text):
            self.fail(f"bad {what} name '{text}'")
        return text

    def declare(self, name: str, kind: str) -> None:
        if name in self.names:
            self.fail(f"duplicate name '{name}'")
        self.names[name] = kind

    def parse_line(self, text: str) -> bool:
        """Returns True at `end`."""
        b = self.bundle
        if self.line == 1:
            if text != f"TILEBUNDLE {VERSION}":
                if text.startswith("TILEBUNDLE "):
                    self.fail(f"unsupported bundle version '{text[11:]}' "
                              f"(this reader knows version {VERSION})")
                self.fail(f"not a tile bundle (expected 'TILEBUNDLE {VERSION}')")
            return False
        keyword, _, rest = text.partition(" ")
        fields = rest.split(" ") if rest else []
        if keyword in _SINGLE:
            if keyword in self.seen:
                self.fail(f"'{keyword}' appears twice")
            self.seen.add(keyword)
        if keyword == "end":
            # end fnv1a HASH: of the header before this line, checked once
            # the whole bundle has parsed (an edit that breaks a rule is
            # named by the rule).
            if len(fields) != 2 or fields[0] != "fnv1a":
                self.fail("expected 'end fnv1a HASH'")
            if not re.fullmatch(r"[0-9a-fA-F]{16}", fields[1]):
                self.fail(f"bad FNV-1a '{fields[1]}'")
            self.header_hash = fields[1].lower()
            for k in _SINGLE:
                if k not in self.seen:
                    self.fail(f"missing '{k}' line")
            return True
        if keyword == "options":
            b.options = rest
            return False
        if keyword in ("target", "function", "source-hash", "class", "flops"):
            if len(fields) != 1:
                self.fail(f"'{keyword}' takes one field")
            value = fields[0]
            if keyword == "target":
                if not _TARGET.fullmatch(value):
                    self.fail(f"bad target '{value}'")
                b.target = value
            elif keyword == "function":
                b.function = self.name(value, "function")
            elif keyword == "source-hash":
                b.source_hash = value
            elif keyword == "class":
                if value not in COMPUTE_CLASSES:
                    self.fail(f"unknown compute class '{value}' (expected "
                              f"{', '.join(COMPUTE_CLASSES[:-1])} or "
                              f"{COMPUTE_CLASSES[-1]})")
                b.compute_class = value
            else:
                b.flops = self.number(value, "flops")
            return False
        if keyword == "buffer":
            if len(fields) != 5:
                self.fail("expected 'buffer NAME ROLE DTYPE SHAPE STRIDES'")
            name, role, dtype, shape, strides = fields
            self.name(name, "buffer")
            if role not in ROLES:
                self.fail(f"unknown role '{role}'")
            if dtype not in BY_NAME:
                self.fail(f"unknown dtype '{dtype}'")
            shp = self.dims(shape, "shape", 1)
            std = self.dims(strides, "stride", 0)
            if len(shp) != len(std):
                self.fail("shape and strides have different ranks")
            self.declare(name, "buffer")
            b.buffers.append(Buffer(name, role, BY_NAME[dtype], shp, std))
            return False
        if keyword == "tensormap":
            if len(fields) != 6 or fields[2] != "box" or fields[4] != "swizzle":
                self.fail("expected 'tensormap NAME BUFFER box B0xB1 swizzle S'")
            name, buffer_name, _, box_text, _, swizzle_text = fields
            self.name(name, "tensormap")
            buf = b.buffer(buffer_name)
            if buf is None:
                self.fail(f"tensormap '{name}' names unknown buffer '{buffer_name}'")
            box = self.dims(box_text, "box size", 1)
            swizzle = 0 if swizzle_text == "none" else None
            if swizzle is None:
                if swizzle_text not in ("32", "64", "128"):
                    self.fail(f"bad swizzle '{swizzle_text}'")
                swizzle = int(swizzle_text)
            self.check_tensormap(name, buf, box, swizzle)
            self.declare(name, "tensormap")
            b.tensormaps.append(TensorMap(name, buffer_name, box, swizzle))
            return False
        if keyword == "module":
            if len(fields) != 9 or fields[1] != "ptx" or fields[3] != "fnv1a" \
                    or fields[5] != "cubin" or fields[7] != "fnv1a":
                self.fail("expected 'module NAME ptx N fnv1a HASH cubin N "
                          "fnv1a HASH'")
            name = self.name(fields[0], "module")
            if b.module(name) is not None:
                self.fail(f"duplicate module '{name}'")
            ptx = self.int_field(fields[2], "PTX size")
            cubin = self.int_field(fields[6], "cubin size", 1)
            for h in (fields[4], fields[8]):
                if not re.fullmatch(r"[0-9a-fA-F]{16}", h):
                    self.fail(f"bad FNV-1a '{h}'")
            b.modules.append(Module(name, b"", b""))
            self.sections.append((ptx, cubin, fields[4].lower(), fields[8].lower()))
            return False
        if keyword == "launch":
            expected = ("expected 'launch STAGE MODULE ENTRY grid X Y Z block "
                        "X Y Z [cluster X Y Z] [dependent] smem N args ...'")
            if len(fields) < 14 or fields[3] != "grid" or fields[7] != "block":
                self.fail(expected)
            # The optional cluster X Y Z shifts smem and args by four fields.
            cluster_given = fields[11] == "cluster"
            at = 15 if cluster_given else 11
            if len(fields) < at + 3:
                self.fail(expected)
            # The optional `dependent` shifts them by one more; a line too
            # short for it gets lib/Runtime/Bundle.cpp's message (which
            # counts "launch" as field 0: `dependent` is its field at + 1).
            dependent = fields[at] == "dependent"
            if dependent and len(fields) < at + 4:
                self.fail(f"'launch' line has {len(fields)} fields (expected "
                          f"at least {at + 4} with 'dependent')")
            at += dependent
            if fields[at] != "smem" or fields[at + 2] != "args":
                self.fail(expected)
            stage, module, entry = fields[:3]
            if stage not in STAGES:
                self.fail(f"unknown stage '{stage}'")
            # A dependent launch overlaps the main launch before it, whose
            # completion its kernel waits for: there must be one, of its
            # stage (lib/Runtime/Bundle.cpp's rules and messages).
            if dependent and stage != "main":
                self.fail("a reference launch cannot be dependent (only main "
                          "launches overlap the one before them)")
            if dependent and not b.main_launches:
                self.fail("the first main launch cannot be dependent (there is "
                          "no main launch before it to overlap)")
            if b.module(module) is None:
                self.fail(f"launch names unknown module '{module}'")
            grid = tuple(self.int_field(v, "grid size", 1) for v in fields[4:7])
            # CUDA's grid limits (as tile-run checks them).
            for dim, (size, most) in enumerate(zip(grid, (2**31 - 1, 65535, 65535))):
                if size > most:
                    self.fail(f"grid dimension {dim} is {size}, past CUDA's "
                              f"limit of {most}")
            block = tuple(self.int_field(v, "block size", 1) for v in fields[8:11])
            cluster = (1, 1, 1)
            if cluster_given:
                cluster = tuple(self.int_field(v, "cluster size")
                                for v in fields[12:15])
                self.check_cluster(grid, cluster)
            smem = self.int_field(fields[at + 1], "shared memory size")
            args = tuple(fields[at + 3:])
            for a in args:
                if a not in self.names:
                    self.fail(f"launch argument '{a}' is not a buffer or tensormap")
            b.launches.append(Launch(stage, module, self.name(entry, "entry"),
                                     grid, block, smem, args, cluster,
                                     dependent))
            if dependent:
                self.dependent_lines.append(self.line)
            return False
        if keyword == "check":
            if len(fields) != 4 or fields[2] != "tol":
                self.fail("expected 'check OUT REF tol T'")
            out, ref = b.buffer(fields[0]), b.buffer(fields[1])
            if out is None or ref is None:
                self.fail("check names an unknown buffer")
            if out.shape != ref.shape:
                self.fail("check compares buffers of different shapes")
            b.checks.append(Check(fields[0], fields[1],
                                  self.number(fields[3], "tolerance")))
            return False
        self.fail(f"unknown keyword '{keyword}'")

    def check_cluster(self, grid, cluster) -> None:
        """lib/Runtime/Bundle.cpp's rules, with its messages: a cluster tiles
        the grid and holds at most the portable number of blocks."""
        for dim, (g, c) in enumerate(zip(grid, cluster)):
            if c == 0:
                self.fail(f"cluster dimension {dim} is 0")
            if c > 2**32 - 1:
                self.fail(f"malformed cluster size '{c}'")
            if g % c:
                self.fail(f"grid dimension {dim} ({g}) is not a multiple of "
                          f"cluster dimension {dim} ({c})")
        blocks = cluster[0] * cluster[1] * cluster[2]
        if blocks > MOST_CLUSTER_BLOCKS:
            self.fail(f"cluster {'x'.join(map(str, cluster))} has {blocks} "
                      "blocks, more than the portable cluster size of "
                      f"{MOST_CLUSTER_BLOCKS}")

    def check_tensormap(self, name: str, buf: Buffer, box, swizzle: int) -> None:
        size = buf.dtype.itemsize
        view = tensor_map_view(buf.shape, buf.strides, len(box))
        if view is None:
            self.fail(f"tensormap '{name}': box rank {len(box)} does not fit "
                      f"buffer rank {len(buf.shape)} (a lower rank merges "
                      "contiguous leading dimensions)")
        shape, strides = view
        if len(box) > 5:
            self.fail(f"tensormap '{name}': rank {len(box)} is more than 5")
        if any(v > 256 for v in box):
            self.fail(f"tensormap '{name}': box sizes must be in [1, 256]")
        inner = box[-1] * size
        if inner % 16:
            self.fail(f"tensormap '{name}': innermost box extent {inner} bytes "
                      "is not a multiple of 16")
        if swizzle and inner > swizzle:
            self.fail(f"tensormap '{name}': innermost box extent {inner} bytes "
                      f"exceeds the swizzle span {swizzle}")
        if strides[-1] != 1:
            self.fail(f"tensormap '{name}': buffer '{buf.name}' has innermost "
                      "stride other than 1")
        for s in strides[:-1]:
            if (s * size) % 16 or s * size >= 2 ** 40:
                self.fail(f"tensormap '{name}': buffer '{buf.name}' has a row "
                          f"stride of {s * size} bytes (TMA needs multiples of 16)")
        if any(d > 2 ** 32 for d in shape):
            self.fail(f"tensormap '{name}': a dimension exceeds 2^32")


def tensor_map_view(shape, strides, rank):
    """(shape, strides) of a buffer as a tensor map of `rank` dimensions sees
    it: itself, or its leading dimensions merged into the first (contiguous
    rows), as lib/Runtime/Bundle.cpp's tensorMapView; None if they do not
    merge."""
    shape, strides = list(shape), list(strides)
    if rank < 1 or rank > len(shape):
        return None
    merged = len(shape) - rank + 1
    for d in range(merged - 1):
        if strides[d] != strides[d + 1] * shape[d + 1]:
            return None
    rows = 1
    for d in range(merged):
        rows *= shape[d]
    return [rows] + shape[merged:], strides[merged - 1:]


def parse(data: bytes, verify_hashes: bool = True) -> Bundle:
    """Parses and validates a bundle. Raises BundleError on any fault."""
    if isinstance(data, str):
        raise TypeError("bundle data must be bytes")
    data = bytes(data)
    if not data:
        raise BundleError("bundle: empty file")
    reader = _Reader()
    pos = header_end = 0
    while True:
        if pos >= len(data):
            raise BundleError("bundle: header has no 'end' line (truncated?)")
        nl = data.find(b"\n", pos)
        reader.line += 1
        raw = data[pos:] if nl < 0 else data[pos:nl]
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            reader.fail("header line is not ASCII text")
        done = reader.parse_line(text)
        if nl < 0:
            if done:
                reader.fail("'end' has no newline (truncated)")
            raise BundleError("bundle: header has no 'end' line (truncated?)")
        if done:
            header_end = pos
        pos = nl + 1
        if done:
            break
    b = reader.bundle
    expected = sum(p + c for p, c, _, _ in reader.sections)
    available = len(data) - pos
    if available < expected:
        raise BundleError(f"bundle: file ends {expected - available} bytes "
                          "early (truncated)")
    if available > expected:
        raise BundleError(f"bundle: {available - expected} bytes after the "
                          "last section")
    for module, (ptx, cubin, ptx_hash, cubin_hash) in zip(b.modules,
                                                          reader.sections):
        module.ptx = data[pos:pos + ptx]
        pos += ptx
        module.cubin = data[pos:pos + cubin]
        pos += cubin
        if verify_hashes:
            for what, section, declared in (("PTX", module.ptx, ptx_hash),
                                            ("cubin", module.cubin, cubin_hash)):
                actual = fnv1a64(section)
                if actual != declared:
                    raise BundleError(
                        f"bundle: {what} of module '{module.name}' has FNV-1a "
                        f"{actual} but header says {declared} (corrupt file)")
    if not b.main_launches:
        raise BundleError("bundle: no 'main' launch")
    # A dependent launch's kernel waits (griddepcontrol.wait) only where it
    # was compiled for sm_90 on; on an older target's PTX it would race
    # (lib/Runtime/Bundle.cpp's rule and message).
    number = re.match(r"sm_([0-9]+)", b.target)
    if reader.dependent_lines and (not number or int(number.group(1)) < 90):
        raise BundleError(f"bundle line {reader.dependent_lines[0]}: a "
                          "dependent launch needs a target of sm_90 or later "
                          f"(griddepcontrol), but the bundle's is {b.target}")
    for c in b.checks:
        if b.buffer(c.output).role != "out" or b.buffer(c.reference).role != "ref":
            raise BundleError(f"bundle: check '{c.output}' must compare an 'out' "
                              "buffer with a 'ref' buffer")
    # Last: an edit that breaks a rule above is named by the rule.
    if verify_hashes:
        actual = fnv1a64(data[:header_end])
        if actual != reader.header_hash:
            raise BundleError(f"bundle: the header has FNV-1a {actual} but its "
                              f"'end' line says {reader.header_hash} (corrupt or "
                              "edited file)")
    return b


def load(path) -> Bundle:
    """Reads and parses a bundle file."""
    with open(path, "rb") as f:
        return parse(f.read())
