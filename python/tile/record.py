"""Recording the signatures a program calls, to compile them ahead of time.

    TILE_RECORD=signatures.jsonl python3 my_program.py     # or:
    with tile.record("signatures.jsonl"):
        run_my_model()

appends one JSON line per new (function, signature, target, options) that a
@tile.jit function specializes for; then, on a machine with the compiler,

    tile.compile_record("signatures.jsonl")                # fills the cache

(or ``python3 python/tools/aot_fill.py --record signatures.jsonl``) compiles
them into the cache directory ($TILE_CACHE_DIR), which a GPU machine without
the compiler then launches from. A line names the function by its module and
qualified name (and source file, for a script's ``__main__``).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import sys
import threading
from typing import List, Optional

_lock = threading.Lock()
_seen = set()
_override: Optional[str] = None
_env = os.environ.get("TILE_RECORD", "")
#: Whether calls are being recorded (read on every call: a plain flag).
enabled = bool(_env)


def path() -> str:
    """Where calls are recorded now ("" when they are not)."""
    return _override if _override is not None else _env


@contextlib.contextmanager
def record(file: str):
    """Records the signatures @tile.jit functions specialize for inside the
    block into `file` (JSON lines, appended)."""
    global _override, enabled
    before, _override = _override, os.path.abspath(file)
    enabled = True
    try:
        yield _override
    finally:
        _override = before
        enabled = bool(path())


def note(fn, params, target: str) -> None:
    """Called by tile.jit on each call while recording: writes the call's
    signature if it is new to `path()`."""
    file = path()
    if not file:
        return
    from .language import TensorSpec

    signature = []
    for _, spec in params:
        if isinstance(spec, TensorSpec):
            signature.append({"dtype": spec.dtype.name, "shape": list(spec.shape)})
        else:
            signature.append({"value": spec})
    src = fn.fn
    entry = {
        "module": getattr(src, "__module__", ""),
        "qualname": getattr(src, "__qualname__", fn.name),
        "file": _source_file(src),
        "target": target,
        "signature": signature,
        "options": {"tile_options": fn.tile_options, "fuse": fn.fuse,
                    "features": fn.features, "fast_math": fn.fast_math,
                    "pipeline_options": fn.pipeline_options,
                    "lineinfo": fn.lineinfo},
    }
    line = json.dumps(entry, sort_keys=True)
    with _lock:
        if (file, line) in _seen:
            return
        _seen.add((file, line))
        with open(file, "a") as f:
            f.write(line + "\n")


def _source_file(fn) -> str:
    import inspect

    try:
        return os.path.abspath(inspect.getsourcefile(fn) or "")
    except TypeError:
        return ""


def _function_of(entry):
    from .jit import JITFunction

    name = entry["module"]
    module = sys.modules.get(name) if name != "__main__" else None
    if module is None and name != "__main__":
        try:
            module = importlib.import_module(name)
        except ImportError:
            if not entry.get("file"):
                raise
    if module is None:  # a script's function, or a module not on the path
        spec = importlib.util.spec_from_file_location(
            "_tile_recorded_" + str(abs(hash(entry["file"]))), entry["file"])
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    obj = module
    for part in entry["qualname"].split("."):
        obj = getattr(obj, part)
    return obj if isinstance(obj, JITFunction) else JITFunction(obj)


def compile_record(file: str, target: Optional[str] = None) -> List:
    """Compiles every signature recorded in `file` (for its recorded target,
    or `target`) into the cache; returns the CompiledKernels."""
    from .jit import compile as _compile

    compiled, done = [], set()
    with open(file) as f:
        lines = [line for line in f if line.strip()]
    for line in lines:
        entry = json.loads(line)
        where = (target or entry["target"], json.dumps(entry, sort_keys=True))
        if where in done:
            continue
        done.add(where)
        fn = _function_of(entry)
        signature = [(s["dtype"], tuple(s["shape"])) if "dtype" in s else s["value"]
                     for s in entry["signature"]]
        compiled.append(_compile(fn, signature, target=target or entry["target"],
                                 **entry["options"]))
    return compiled
