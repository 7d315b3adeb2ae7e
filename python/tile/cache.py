"""The on-disk bundle cache.

A compiled kernel is stored under the SHA-256 of what determines it: the
traced IR text (without source locations), the compile options and the
target. The key is computed in pure Python from the trace, so a machine
without the compiler (a GPU machine without LLVM/MLIR) finds the bundles
another machine compiled ahead of time (``tile.compile(..., target=...)``)
and launches them.

Layout, under ``$TILE_CACHE_DIR`` (default ``~/.cache/tile``)::

    <key[:2]>/<key>.tilebundle     the bundle (docs/bundle-format.md)
    <key[:2]>/<key>.json           what it is: function, target, options,
                                   outputs' logical shapes, compiler, time
    <key[:2]>/<key>.stages.json    the IR of every stage and the PTX

Files are written to a temporary name and renamed, so concurrent processes
never read half a bundle. ``TILE_LOG=1`` logs every hit, miss and compile to
stderr; :data:`stats` counts them in this process.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from typing import Dict, Optional, Tuple

#: Bumped when the key's ingredients or the frontend's IR change meaning.
CACHE_VERSION = "tile-cache-1"

#: Counters of this process: hits (memory or disk), disk hits, compiles.
stats: Dict[str, int] = {"disk_hits": 0, "memory_hits": 0, "misses": 0,
                         "compiles": 0}


def log(message: str) -> None:
    """Prints `message` to stderr when TILE_LOG is set (not 0)."""
    if os.environ.get("TILE_LOG", "0") not in ("", "0"):
        print(f"tile: {message}", file=sys.stderr, flush=True)


def cache_dir() -> str:
    path = os.environ.get("TILE_CACHE_DIR")
    if path:
        return os.path.abspath(os.path.expanduser(path))
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tile")


def canonical_options(target: str, features: str, tile_options: str,
                      fuse: bool) -> str:
    """The options as one line: part of the key, recorded in the metadata."""
    return (f"chip={target} features={features} fuse={int(bool(fuse))} "
            f"tile-options={tile_options}")


def cache_key(ir_text: str, options: str, target: str) -> str:
    """sha256 of (version, options, target, IR text without locations)."""
    h = hashlib.sha256()
    for part in (CACHE_VERSION, options, target, ir_text):
        data = part.encode("utf-8")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _paths(key: str, root: Optional[str] = None) -> Tuple[str, str, str]:
    folder = os.path.join(root or cache_dir(), key[:2])
    stem = os.path.join(folder, key)
    return stem + ".tilebundle", stem + ".json", stem + ".stages.json"


def _write_atomic(path: str, data: bytes) -> None:
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(key: str, root: Optional[str] = None) -> Optional[Tuple[bytes, dict]]:
    """(bundle bytes, metadata) for `key`, or None."""
    bundle_path, meta_path, _ = _paths(key, root)
    try:
        with open(bundle_path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    meta = {}
    try:
        with open(meta_path, "r", encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError):
        pass
    return data, meta


def entry_problem(key: str, data: bytes, meta: dict, function: str,
                  target: str) -> Optional[str]:
    """Why a cache entry read for `key` must not be launched for `function`
    on `target` (None if it may): a bundle that does not parse (truncated,
    a section whose checksum fails), metadata written for another key, or a
    bundle of another function, target or source than its metadata's."""
    from .errors import BundleError
    from .runtime import bundle as _bundle

    try:
        b = _bundle.parse(data)
    except BundleError as e:
        return f"the bundle does not parse ({str(e).splitlines()[0]})"
    if meta.get("key") != key:
        return "its metadata is another entry's (or missing)"
    if b.function != function or b.target != target:
        return (f"it holds {b.function} for {b.target}, not {function} for "
                f"{target}")
    if meta.get("source_hash") not in (None, b.source_hash):
        return "its bundle is not the one its metadata describes (source hash)"
    return None


def load_stages(key: str, root: Optional[str] = None) -> Dict[str, str]:
    """The stages stored with `key` ({} when none were)."""
    _, _, stages_path = _paths(key, root)
    try:
        with open(stages_path, "r", encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def store(key: str, bundle: bytes, meta: dict, stages: Dict[str, str],
          root: Optional[str] = None) -> str:
    """Writes a bundle with its metadata and stages; returns its path."""
    bundle_path, meta_path, stages_path = _paths(key, root)
    meta = dict(meta, key=key, created=time.strftime("%Y-%m-%dT%H:%M:%S"))
    _write_atomic(stages_path, json.dumps(stages).encode("utf-8"))
    _write_atomic(meta_path, json.dumps(meta, indent=1, sort_keys=True)
                  .encode("utf-8"))
    _write_atomic(bundle_path, bundle)  # last: its presence means complete
    return bundle_path
