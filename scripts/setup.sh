#!/usr/bin/env bash
# Installs what is missing (Debian packages), then configures and builds the
# project into build/. Idempotent: a second run installs nothing and only
# rebuilds what changed. Source it or run it; it exits non-zero on failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
          cmake ninja-build ccache clang python3)

missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The Python frontend (python/, docs/python.md): nanobind builds the native
# module _tilecc, pytest runs test/python. Installed for the python3 CMake
# finds (the first on PATH) when missing; without them the compiler and
# tools still build, only the extension is left out.
if ! python3 -c "import nanobind, pytest" >/dev/null 2>&1; then
  echo "setup: pip installing nanobind and pytest for $(command -v python3)"
  python3 -m pip install -q --disable-pip-version-check nanobind pytest \
    || echo "setup: warning: pip could not install nanobind/pytest;" \
            "the Python extension is not built" >&2
fi
# A build folder configured before nanobind was there: configure again so
# that it picks the extension up (cheap; CMake keeps its cache).
if [ -f "$build/build.ninja" ] && ! grep -q "_tilecc" "$build/build.ninja" \
   && python3 -c "import nanobind" >/dev/null 2>&1; then
  cmake "$build" >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
fi
ninja -C "$build"
