"""The in-process compiler: tile IR text -> kernel bundle and stages.

This is the only module that imports the native extension ``_tilecc``
(python/src/tilecc.cpp, built by the project's CMake), and only when a
kernel must actually be compiled. It is looked up as ``tile._tilecc`` (an
installed wheel) and then as a top-level ``_tilecc`` (the build tree:
``PYTHONPATH=python:build/python``). ``TILE_DISABLE_COMPILER=1`` hides it,
to behave like a GPU machine without LLVM/MLIR.

Compiler diagnostics become :class:`tile.errors.CompilationError`, located
at the user's Python line (the traced IR carries ``loc("file":line:col)``
for every op) and naming the op.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .errors import CompilationError, SourceLocation

_native = None
_native_error: Optional[str] = None


def native():
    """The _tilecc module, or None when it is not available."""
    global _native, _native_error
    if os.environ.get("TILE_DISABLE_COMPILER", "0") not in ("", "0"):
        return None
    if _native is not None:
        return _native
    try:
        from . import _tilecc as module  # installed wheel
    except ImportError:
        try:
            import _tilecc as module  # build tree on PYTHONPATH
        except ImportError as e:
            _native_error = str(e)
            return None
    _native = module
    return module


def available() -> bool:
    return native() is not None


def unavailable_reason() -> str:
    if os.environ.get("TILE_DISABLE_COMPILER", "0") not in ("", "0"):
        return "TILE_DISABLE_COMPILER is set"
    native()
    return _native_error or "the native module _tilecc was not found"


def fingerprint() -> str:
    """Names this build of the compiler: its version and the extension
    file's size and time (a rebuilt compiler recompiles cached kernels)."""
    module = native()
    if module is None:
        return ""
    path = getattr(module, "__file__", "") or ""
    try:
        st = os.stat(path)
        stamp = f"{st.st_size}-{st.st_mtime_ns}"
    except OSError:
        stamp = "?"
    return f"{module.version()} {stamp}"


@dataclass(frozen=True)
class CompileOptions:
    """What, besides the IR, determines a kernel."""

    target: str = "sm_90a"
    features: str = "+ptx80"
    tile_options: str = ""
    fuse: bool = True
    #: Hardware approximations for f32 tanh, exp and division in the
    #: kernels (tile-compile --fast-math); the reference stays exact.
    fast_math: bool = False
    #: More tile-to-nvvm options ("sms=114").
    pipeline_options: str = ""
    cuda_path: str = ""  # where ptxas and libdevice are; not part of the key
    #: "tensor" (@tile.jit: tiled by the compiler) or "tile" (@tile.kernel:
    #: a host function of tile.kernel ops, lowered as it is).
    level: str = "tensor"
    #: "auto" (tensor cores where possible) or "simt".
    mma: str = "auto"
    #: A tuning database (docs/tuning.md) whose configs the matmuls take,
    #: and the hash of its contents (part of the key, so that tuning again
    #: recompiles; computed from the file when empty).
    tuning_db: str = ""
    tuning_db_sha256: str = ""
    #: Line tables in the PTX and cubin (the user's Python lines in Nsight
    #: Compute's source view).
    line_info: bool = False

    def canonical(self) -> str:
        from .cache import canonical_options

        text = canonical_options(self.target, self.features,
                                 self.tile_options, self.fuse)
        if self.level != "tensor" or self.mma != "auto":
            text += f" level={self.level} mma={self.mma}"
        if self.fast_math:
            text += " fast-math=1"
        if self.line_info:
            text += " line-info=1"
        if self.pipeline_options:
            text += f" pipeline-options={self.pipeline_options}"
        if self.tuning_db:
            text += (" tuning-db-sha256="
                     + (self.tuning_db_sha256 or file_sha256(self.tuning_db)))
        return text

    def command_line(self, path: str) -> str:
        """The tile-compile command that compiles IR file `path` so."""
        import shlex

        args = ["tile-compile", path, f"--chip={self.target}",
                f"--features={self.features}"]
        if self.fuse:
            args.append("--fuse")
        if self.fast_math:
            args.append("--fast-math")
        if self.line_info:
            args.append("--lineinfo")
        if self.level != "tensor":
            args.append(f"--level={self.level}")
        if self.mma != "auto":
            args.append(f"--mma={self.mma}")
        for flag, value in (("--tile-options", self.tile_options),
                            ("--pipeline-options", self.pipeline_options),
                            ("--tuning-db", self.tuning_db)):
            if value:
                args.append(f"{flag}={value}")
        return " ".join(shlex.quote(a) for a in args + ["-o", "out.tilebundle"])

    def native_dict(self, stop_after: str = "bundle") -> Dict[str, object]:
        d = {"chip": self.target, "features": self.features,
             "tile_options": self.tile_options, "fuse": self.fuse,
             "stop_after": stop_after}
        if self.level != "tensor" or self.mma != "auto":
            d["level"] = self.level
            d["mma"] = self.mma
        if self.cuda_path:
            d["cuda_path"] = self.cuda_path
        if self.fast_math:
            d["fast_math"] = True
        if self.line_info:
            d["line_info"] = True
        if self.pipeline_options:
            d["pipeline_options"] = self.pipeline_options
        if self.tuning_db:
            d["configure_options"] = f"tuning-db={self.tuning_db}"
        return d


def file_sha256(path: str) -> str:
    """The hash of a file's bytes ("missing" if it cannot be read: the
    compiler then reports it)."""
    import hashlib

    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return "missing"


_OP_IN_MESSAGE = re.compile(r"'([a-z_]+\.[a-z_]+)' op ")


def _op_at(op_table: Sequence[Tuple], loc: Optional[SourceLocation],
           ir_op: Optional[str]) -> Optional[str]:
    """The user-level op traced at `loc` (preferring one of kind `ir_op`)."""
    if loc is None:
        return ir_op
    matches = [(user, ir) for l, user, ir in op_table
               if l is not None and (l.file, l.line, l.column) ==
               (loc.file, loc.line, loc.column)]
    if not matches:
        matches = [(user, ir) for l, user, ir in op_table
                   if l is not None and (l.file, l.line) == (loc.file, loc.line)]
    for user, ir in matches:
        if ir_op is None or ir == ir_op:
            return f"`{user}` ({ir})"
    if matches:
        user, ir = matches[0]
        return f"`{user}` ({ir_op or ir})"
    return ir_op


def compile_ir(ir_text: str, function: str, options: CompileOptions,
               source_name: str = "<tile>", op_table: Sequence[Tuple] = (),
               stop_after: str = "bundle",
               reproducer: str = "") -> Tuple[bytes, Dict[str, str]]:
    """Compiles IR text; returns (bundle bytes, stages). Raises
    CompilationError (located at the user's line where the IR says) or
    CompilerUnavailableError. With `reproducer` (a file path), a failure
    leaves a reproducer there, named in the error: the failing pass
    pipeline's (replayed by ``tile-opt --run-reproducer``), or else the IR
    text itself (replayed by the ``tile-compile`` command the message
    gives)."""
    from .errors import CompilerUnavailableError

    module = native()
    if module is None:
        raise CompilerUnavailableError(
            "the tile compiler is not available here "
            f"({unavailable_reason()}); build it (scripts/setup.sh) and put "
            "build/python on PYTHONPATH, or pip install ./python")
    native_options = options.native_dict(stop_after)
    if reproducer:
        try:
            os.makedirs(os.path.dirname(reproducer) or ".", exist_ok=True)
            if os.path.exists(reproducer):
                os.remove(reproducer)
            native_options["reproducer"] = reproducer
        except OSError:
            reproducer = ""
    try:
        bundle, stages = module.compile(ir_text, function, native_options,
                                        source_name)
    except module.CompileError as e:
        message, diagnostics = e.args[0], list(e.args[1])
        replay = ""
        if reproducer:
            if os.path.exists(reproducer):
                replay = f"tile-opt --run-reproducer {reproducer}"
            else:
                try:
                    with open(reproducer, "w") as f:
                        f.write(ir_text)
                    replay = options.command_line(reproducer)
                except OSError:
                    replay = ""
        raise _to_error(message, diagnostics, ir_text, source_name,
                        op_table, reproducer if replay else "",
                        replay) from None
    return bytes(bundle), dict(stages)


def _to_error(message: str, diagnostics: List[dict], ir_text: str,
              source_name: str, op_table, reproducer: str = "",
              replay: str = "") -> CompilationError:
    first = next((d for d in diagnostics if d.get("severity") == "error"), None)
    where = (f"\n  reproducer: {reproducer} (replay: {replay})"
             if reproducer else "")
    if first is None:
        return CompilationError(message + where, diagnostics=diagnostics,
                                ir=ir_text, reproducer=reproducer)
    text = first["message"]
    ir_op_match = _OP_IN_MESSAGE.search(text)
    ir_op = ir_op_match.group(1) if ir_op_match else None
    loc = None
    if first.get("file") and first["file"] != source_name:
        loc = SourceLocation(first["file"], first["line"], first["column"])
    elif first.get("file") == source_name:
        # Located in the IR text itself: the tracer emitted something the
        # compiler does not parse. Show the IR line: this is a frontend bug.
        lines = ir_text.splitlines()
        line = lines[first["line"] - 1] if 0 < first["line"] <= len(lines) else ""
        text = (f"internal error: the traced IR does not parse "
                f"({source_name}:{first['line']}:{first['column']}: {text})\n"
                f"    {line.strip()}")
    for note in first.get("notes", []):
        text += f"\n  note: {note['message']}"
    op = _op_at(op_table, loc, ir_op)
    return CompilationError(text + where, location=loc, op=op,
                            diagnostics=diagnostics, ir=ir_text,
                            reproducer=reproducer)
