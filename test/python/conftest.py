"""pytest setup of the Python frontend's tests.

Imports `tile` from python/ and the native module from the build tree
($TILE_BUILD_DIR, default build/) unless an installed package is asked for
(TILE_TEST_INSTALLED=1). Every test gets its own bundle cache directory.

Markers: `compiler` tests need the native module (skipped without it,
failed instead when TILE_REQUIRE_COMPILER=1, as CI sets); `gpu` tests need
a CUDA device and torch (skipped otherwise). A `gpu` test that runs longer
than $TILE_GPU_TEST_TIMEOUT seconds (default 120) is taken for a hung
kernel: the test's name and every thread's stack are printed and the
process exits with status 1 (a kernel stuck in a CUDA call cannot be
interrupted, and pytest's summary would never come).
"""

import faulthandler
import os
import subprocess
import sys
import threading

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("TILE_BUILD_DIR", os.path.join(ROOT, "build"))
PATHS = [os.path.join(ROOT, "python"), os.path.join(BUILD, "python")]
if os.environ.get("TILE_TEST_INSTALLED", "0") in ("", "0"):
    for p in reversed(PATHS):
        if p not in sys.path:
            sys.path.insert(0, p)

import tile  # noqa: E402
from tile import compiler as _compiler  # noqa: E402


def _gpu_ready():
    try:
        import torch  # noqa: F401
    except ImportError:
        return False, "torch is not installed"
    from tile.runtime import driver

    if not driver.device_available():
        return False, "no CUDA device answers"
    return True, ""


def pytest_configure(config):
    config.addinivalue_line("markers", "compiler: needs the native compiler")
    config.addinivalue_line("markers", "gpu: needs a CUDA device and torch")


def pytest_collection_modifyitems(config, items):
    have_compiler = _compiler.available()
    require = os.environ.get("TILE_REQUIRE_COMPILER", "0") not in ("", "0")
    gpu_ok, gpu_reason = None, ""
    for item in items:
        if "compiler" in item.keywords and not have_compiler and not require:
            item.add_marker(pytest.mark.skip(
                reason=f"compiler not available: {_compiler.unavailable_reason()}"))
        if "gpu" in item.keywords:
            if gpu_ok is None:
                gpu_ok, gpu_reason = _gpu_ready()
            if not gpu_ok:
                item.add_marker(pytest.mark.skip(reason=gpu_reason))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """A watchdog on each gpu test: past the limit, out of pytest's capture,
    the stacks and the test's name, then exit 1. A thread, because the main
    one may sit in a CUDA call (ctypes and torch release the GIL there)."""
    if "gpu" not in item.keywords:
        yield
        return
    seconds = float(os.environ.get("TILE_GPU_TEST_TIMEOUT", "120"))
    capture = item.config.pluginmanager.getplugin("capturemanager")

    def expire():
        if capture is not None:
            capture.suspend_global_capture(in_=False)
        sys.stderr.write(f"\n{item.nodeid}: still running after {seconds:g} s "
                         "(TILE_GPU_TEST_TIMEOUT): a hung kernel?\n")
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        sys.stderr.flush()
        os._exit(1)

    watchdog = threading.Timer(seconds, expire)
    watchdog.daemon = True
    watchdog.start()
    try:
        yield
    finally:
        watchdog.cancel()


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    """A fresh bundle cache per test where the compiler can fill it. Without
    the compiler (a GPU machine without LLVM/MLIR) the tests launch from
    $TILE_CACHE_DIR, filled ahead of time by python/tools/aot_fill.py."""
    if _compiler.available() or not os.environ.get("TILE_CACHE_DIR"):
        path = tmp_path / "tile-cache"
        monkeypatch.setenv("TILE_CACHE_DIR", str(path))
    else:
        path = os.environ["TILE_CACHE_DIR"]
    monkeypatch.delenv("TILE_DUMP", raising=False)
    monkeypatch.delenv("TILE_DISABLE_COMPILER", raising=False)
    for k in tile.cache.stats:
        tile.cache.stats[k] = 0
    return path


def subprocess_env(**extra):
    """The environment of a child Python that imports tile like this one."""
    env = dict(os.environ)
    if os.environ.get("TILE_TEST_INSTALLED", "0") in ("", "0"):
        env["PYTHONPATH"] = os.pathsep.join(
            PATHS + [HERE] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    else:
        env["PYTHONPATH"] = os.pathsep.join(
            [HERE] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.update({k: str(v) for k, v in extra.items()})
    return env


def run_python(code, **env):
    """Runs `code` in a fresh interpreter; returns the CompletedProcess."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, env=subprocess_env(**env), timeout=300)
