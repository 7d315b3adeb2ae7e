"""Exceptions of the tile frontend.

Every error the frontend raises on purpose is a :class:`TileError`. Errors
about the user's code carry the Python source location (file, line, column)
of the operation at fault and the operation's name, and print the source
line, so that ``str(error)`` reads like a compiler diagnostic::

    mlp.py:14:9: error: in `@` (tile.matmul): inner dimensions differ: (128, 64) @ (32, 16)
        y = x @ w
            ^
"""

from __future__ import annotations

import linecache
from dataclasses import dataclass
from typing import Optional, Sequence


@dataclass(frozen=True)
class SourceLocation:
    """A place in the user's Python source (1-based line and column)."""

    file: str
    line: int
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def source_line(self) -> str:
        """The text of the line, without its newline ('' if unreadable)."""
        return linecache.getline(self.file, self.line).rstrip("\n")


class TileError(Exception):
    """Base class of every error the tile frontend raises on purpose.

    Attributes: ``message`` (the text alone), ``location`` (a
    :class:`SourceLocation` or None) and ``op`` (the operation at fault, as
    the user wrote it and as the IR names it, or None).
    """

    def __init__(self, message: str, *, location: Optional[SourceLocation] = None,
                 op: Optional[str] = None):
        self.message = message
        self.location = location
        self.op = op
        super().__init__(self._format())

    def _format(self) -> str:
        head = f"{self.location}: error: " if self.location else "error: "
        where = f"in {self.op}: " if self.op else ""
        text = head + where + self.message
        if self.location is not None:
            line = self.location.source_line()
            if line:
                caret = " " * (max(self.location.column, 1) - 1) + "^"
                text += f"\n    {line}\n    {caret}"
        return text


class TraceError(TileError):
    """The traced function cannot be turned into tile IR."""


class ShapeError(TraceError, ValueError):
    """Operand shapes do not fit the operation (matmul, broadcasting, axis)."""


class DTypeError(TraceError, TypeError):
    """Operand element types do not fit the operation."""


class UnsupportedOpError(TraceError):
    """The operation has no tile equivalent (indexing, transposes, torch.*)."""


class CompilationError(TileError):
    """The compiler rejected the traced IR.

    ``diagnostics`` holds every diagnostic (dicts with severity, message,
    file, line, column, notes); ``ir`` the IR text that was compiled;
    ``reproducer`` the file that replays the failure ("" if none was
    written), whose replay command the message gives.
    """

    def __init__(self, message: str, *, location: Optional[SourceLocation] = None,
                 op: Optional[str] = None, diagnostics: Sequence[dict] = (),
                 ir: str = "", reproducer: str = ""):
        self.diagnostics = list(diagnostics)
        self.ir = ir
        self.reproducer = reproducer
        super().__init__(message, location=location, op=op)


class CompilerUnavailableError(TileError):
    """A kernel must be compiled but the native compiler module is missing
    (a GPU machine without LLVM/MLIR) and the bundle cache has no entry."""


class BundleError(TileError, ValueError):
    """A kernel bundle is malformed (docs/bundle-format.md)."""


class LaunchError(TileError):
    """A kernel cannot be launched on the arguments given."""


class ArgumentError(LaunchError, ValueError):
    """An argument's shape, dtype, device or layout does not match the
    compiled kernel; the message names the argument."""


class CudaError(TileError):
    """A CUDA driver call failed; the message names the call and the error."""

    def __init__(self, message: str, *, call: str = "", code: int = 0):
        self.call = call
        self.code = code
        super().__init__(message)
