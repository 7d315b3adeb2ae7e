"""Autotuning from Python: ``tile.tune(fn, signatures)`` and
``@tile.jit(autotune=True)`` drive python/tools/tile_tune.py's two halves
on one machine that has both the compiler and a GPU (docs/tuning.md):
for each signature, the traced function's matmul gets every candidate
config compiled, each is checked against its reference and timed by
tile-run, and the fastest correct one is recorded in the tuning database,
which later compilations read (no tuning again, in this process or the
next). Where the compiler and the GPU are on different machines, run the
tool's `compile` and `run` there instead.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import tempfile
from typing import Any, Dict, List, Optional, Sequence

from .errors import CompilationError

_TOOL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                     "tools", "tile_tune.py")
_tool = None


def _tile_tune():
    """python/tools/tile_tune.py, loaded once (the tuner lives there so that
    it also runs as a script on a machine without this package's compiler
    binding)."""
    global _tool
    if _tool is None:
        if not os.path.exists(_TOOL):
            raise CompilationError(f"tile.tune needs {_TOOL} (the repository's "
                                   "python/tools), which is not there")
        spec = importlib.util.spec_from_file_location("tile_tune", _TOOL)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _tool = module
    return _tool


def _call(step, *args):
    """A tile_tune step's result; its exits (no matmul, nothing passed) as
    errors."""
    try:
        return step(*args)
    except SystemExit as e:
        raise CompilationError(f"tile.tune: {e.code}") from None


def _database(db: Optional[str]) -> str:
    path = db or os.environ.get("TILE_TUNING_DB", "")
    if not path:
        raise CompilationError("tile.tune needs a tuning database: db=... or "
                               "$TILE_TUNING_DB")
    return path


def tuned(db: str, key: Dict[str, Any]) -> bool:
    """Whether `db` holds an entry for tuning key `key` (tile_tune's)."""
    if not os.path.exists(db):
        return False
    tool = _tile_tune()
    for entry in tool.json_lines(db):
        if all(entry.get(f) == key[f] for f in key) and \
                entry.get("schedule") == tool.SCHEDULE_VERSION:
            return True
    return False


def tune_source(text: str, *, db: str, target: str = "sm_90a",
                tile_run: Optional[str] = None, top: int = 0,
                repeats: int = 100, warmup: int = 10, timeout: float = 60,
                workdir: Optional[str] = None, again: bool = False
                ) -> Dict[str, Any]:
    """Tunes the one tensor-core matmul of tensor-level IR `text` for
    `target` into `db` (unless `db` has it already and not `again`).
    Returns the key and the results (``{"key", "results", "tuned"}``;
    ``tuned`` False where the entry was there)."""
    tool = _tile_tune()
    folder = workdir or tempfile.mkdtemp(prefix="tile-tune-")
    os.makedirs(folder, exist_ok=True)
    src = os.path.join(folder, "source.mlir")
    with open(src, "w") as f:
        f.write(text)
    key, _ = _call(tool.list_candidates, src, target)
    if not again and tuned(db, key):
        return {"key": key, "results": [], "tuned": False}
    _call(tool.compile_candidates, argparse.Namespace(
        src=src, out=folder, chip=target, top=top, jobs=os.cpu_count() or 2))
    _call(tool.run_candidates, argparse.Namespace(
        dir=folder, db=db, tile_run=tile_run, warmup=warmup, repeats=repeats,
        timeout=timeout))
    with open(os.path.join(folder, "results.json")) as f:
        results = json.load(f)
    return dict(results, tuned=True)


def tune(fn, signatures: Sequence[Sequence], *, db: Optional[str] = None,
         target: Optional[str] = None, again: bool = False,
         **run_options) -> List[Dict[str, Any]]:
    """Tunes `fn`'s matmul (a @tile.jit function or a plain one) at each of
    `signatures` (each as for ``fn.compile``) into the tuning database `db`
    (default $TILE_TUNING_DB), skipping keys it has unless `again`; then
    ``@tile.jit(tuning_db=db)``, or $TILE_TUNING_DB, compiles the recorded
    configs. Needs the compiler and, to time, a GPU and tile-run
    (`tile_run=`, default the build's). Other options: `top` (only the
    first N candidates), `repeats`, `warmup`, `timeout`, `workdir`. Returns
    one ``{"key", "results", "tuned"}`` per signature."""
    from .jit import DEFAULT_TARGET, JITFunction

    jit_fn = fn if isinstance(fn, JITFunction) else JITFunction(fn)
    path = _database(db if db is not None else jit_fn.tuning_db)
    chip = target or jit_fn.target or os.environ.get("TILE_TARGET") or \
        DEFAULT_TARGET
    return [tune_source(jit_fn.trace(*signature).text, db=path, target=chip,
                        again=again, **run_options)
            for signature in signatures]
