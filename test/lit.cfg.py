# -*- Python -*-
# lit configuration of the tile regression suite.

import ctypes
import os
import sys

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tile_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%python", sys.executable))
config.environment["FILECHECK_OPTS"] = "--enable-var-scope --dump-input=fail"

# CUDA_HOME names the toolkit tile-compile takes libdevice and ptxas from
# (its --cuda-path default); passed on only when set.
llvm_config.with_system_environment(
    ["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "CUDA_HOME"])
llvm_config.use_default_substitutions()

tool_dirs = [config.tile_tools_dir, config.llvm_tools_dir]
tools = ["tile-opt", "tile-compile", "tile-run", "tile-bundle-selftest", "split-file", "not", "count"]
llvm_config.add_tool_substitutions(
    [ToolSubst(t, unresolved="ignore") for t in tools], tool_dirs)


def cuda_device_answers():
    """True when the CUDA driver loads, initializes and sees a device.

    A machine with only the toolkit's stub libcuda (this project's CI) fails
    at load or at cuInit, so GPU tests are UNSUPPORTED there, not failed.
    """
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    if cuda.cuInit(0) != 0:
        return False
    count = ctypes.c_int(0)
    if cuda.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return False
    return count.value > 0


if cuda_device_answers():
    config.available_features.add("cuda-device")

# ptxas from the CUDA toolkit turns PTX into cubins in gpu-module-to-binary.
if os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
