#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite: the lit suite
# (dialect, passes, pipelines, tools; GPU tests are UNSUPPORTED where no CUDA
# device answers) and the bundle library's self-test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
/usr/lib/llvm-22/bin/lit -v "$build/test"
