#!/usr/bin/env bash
# Sets up (scripts/setup.sh) and runs the whole test suite: the lit suite
# (dialect, passes, pipelines, tools; GPU tests are UNSUPPORTED where no CUDA
# device answers) and the bundle library's self-test, then the Python
# frontend's pytest suite (test/python; its GPU tests are skipped where no
# CUDA device answers or torch is missing), a minute of fuzzing, and the
# host-compiler determinism check.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
/usr/lib/llvm-22/bin/lit -v "$build/test"

# The Python frontend. Where the build has the native module, its tests
# must run (TILE_REQUIRE_COMPILER turns "compiler missing" skips into
# failures); without it only the pure-Python tests run.
require=0
ls "$build"/python/_tilecc*.so >/dev/null 2>&1 && require=1
echo "== Python frontend: pytest test/python (compiler required: $require)"
TILE_BUILD_DIR="$build" TILE_REQUIRE_COMPILER=$require \
  python3 -m pytest -q -rs -p no:cacheprovider "$root/test/python"

# A bounded, seeded mutation fuzz of the lit corpus through tile-opt and
# tile-compile (issue 19): any crash or hang fails the suite; its mutant is
# kept in $TMPDIR/tile-fuzz. TILE_FUZZ_SECONDS=0 skips it.
if [ "${TILE_FUZZ_SECONDS:-60}" != 0 ]; then
  echo "== Fuzz: scripts/fuzz.py --seconds ${TILE_FUZZ_SECONDS:-60} --seed 1"
  TILE_BUILD_DIR="$build" python3 "$root/scripts/fuzz.py" \
    --seconds "${TILE_FUZZ_SECONDS:-60}" --seed 1
fi

# The output must not depend on the host compiler: a gcc build of the
# compiler must emit the clang build's bundles byte for byte (issue 19).
# TILE_SKIP_GCC_CHECK=1 skips it (it builds the compiler a second time).
if [ "${TILE_SKIP_GCC_CHECK:-0}" = 0 ]; then
  echo "== Host-compiler determinism: scripts/check-gcc.sh"
  TILE_BUILD_DIR="$build" "$root/scripts/check-gcc.sh"
fi
