#!/usr/bin/env bash
# Builds the compiler a second time with gcc (into build-gcc/, or
# $TILE_GCC_BUILD_DIR) and checks that it emits exactly what the clang build
# does: every integration bundle byte for byte (scripts/compare-builds.sh).
# Kernels and cache keys must not depend on the host compiler (issue 19: an
# op created inside another call's arguments comes out in the host
# compiler's order of evaluation; write one op per statement).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
clang_build="${TILE_BUILD_DIR:-$root/build}"
gcc_build="${TILE_GCC_BUILD_DIR:-$root/build-gcc}"
if ! command -v g++ >/dev/null 2>&1; then
  echo "check-gcc: installing g++"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq g++ >/dev/null
fi
if [ ! -f "$gcc_build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$gcc_build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DTILE_ENABLE_RUNNER=OFF -DTILE_ENABLE_PYTHON=OFF \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
fi
ninja -C "$gcc_build" tile-opt tile-compile
"$root/scripts/compare-builds.sh" "$clang_build" "$gcc_build"
