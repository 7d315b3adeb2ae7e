"""The C launch path (_fastlaunch.c), built on first use.

The module needs only Python's headers and a C compiler: no CUDA, no
compiler of this project. It is built once per source text, Python
version and platform into <cache dir>/native/ (as Triton builds its
launchers), and loaded from there afterwards. Where it cannot be built
(no compiler, no headers, a read-only cache and temp dir) or
TILE_FAST_LAUNCH=0, ``launcher()`` returns None and the runtime launches
through ctypes, which is slower (about 9 us per launch on the H200's host)
but does the same.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
from typing import Optional

_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_fastlaunch.c")
_lock = threading.Lock()
_module = None
_tried = False
#: Why the C path is not in use ("" while it is, or before the first try).
why_not = ""


def _log(message: str) -> None:
    from .. import cache as _cache

    _cache.log(message)


def _build_dir() -> str:
    from .. import cache as _cache

    return os.path.join(_cache.cache_dir(), "native")


def _compiler() -> Optional[str]:
    for candidate in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def _missing() -> Optional[str]:
    """What building the module lacks (a C compiler, Python.h), or None."""
    if _compiler() is None:
        return "no C compiler (cc, gcc or clang; or set $CC)"
    include = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(include, "Python.h")):
        return (f"no Python.h in {include} (install Python's development "
                "headers)")
    return None


def can_build() -> bool:
    """A C compiler and Python's headers are there (so the module must
    build: the tests hold get() to it)."""
    return _missing() is None


def module_path(directory: str) -> str:
    """Where the built module for this source and interpreter lives."""
    with open(_SOURCE, "rb") as f:
        digest = hashlib.sha256(f.read())
    digest.update(sys.version.encode())
    digest.update(sysconfig.get_platform().encode())
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return os.path.join(directory, f"_fastlaunch-{digest.hexdigest()[:16]}{suffix}")


def build(directory: str) -> str:
    """Compiles _fastlaunch.c into `directory` (atomically: concurrent
    builders leave one whole file); returns its path. Raises OSError or
    RuntimeError with the compiler's output."""
    path = module_path(directory)
    if os.path.exists(path):
        return path
    missing = _missing()
    if missing:
        raise RuntimeError(missing)
    cc, include = _compiler(), sysconfig.get_paths()["include"]
    os.makedirs(directory, exist_ok=True)
    fd, partial = tempfile.mkstemp(dir=directory, suffix=".partial")
    os.close(fd)
    try:
        command = [cc, "-O2", "-shared", "-fPIC", "-std=c99", "-I", include,
                   _SOURCE, "-o", partial]
        done = subprocess.run(command, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if done.returncode:
            raise RuntimeError(f"'{' '.join(command)}' failed:\n{done.stdout}")
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.unlink(partial)
    return path


def _load(path: str):
    loader = importlib.machinery.ExtensionFileLoader("_fastlaunch", path)
    spec = importlib.util.spec_from_file_location("_fastlaunch", path,
                                                  loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def get():
    """The _fastlaunch module, or None (``why_not`` says why)."""
    global _module, _tried, why_not
    if _tried:
        return _module
    with _lock:
        if _tried:
            return _module
        if os.environ.get("TILE_FAST_LAUNCH", "1") == "0":
            why_not = "TILE_FAST_LAUNCH=0"
        else:
            errors = []
            for directory in (_build_dir(),
                              os.path.join(tempfile.gettempdir(), "tile-native")):
                try:
                    _module = _load(build(directory))
                    break
                except (OSError, RuntimeError, ImportError) as e:
                    errors.append(f"{directory}: {e}")
            if _module is None:
                why_not = "; ".join(errors)
                _log(f"launching through ctypes: the C launch path could not "
                     f"be built ({why_not})")
        _tried = True
    return _module


def reset() -> None:
    """Forgets the loaded module (tests: to retry with another setting)."""
    global _module, _tried, why_not
    with _lock:
        _module, _tried, why_not = None, False, ""
