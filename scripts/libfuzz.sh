#!/usr/bin/env bash
# libFuzzer over the compiler (issue 19): builds tools/tile-fuzz with clang in
# build-fuzz (this project's code instrumented for coverage with
# -fsanitize=fuzzer-no-link; MLIR and LLVM are the system's, uninstrumented),
# seeds a corpus with every lit test file split at its `// -----` cases, and
# runs libFuzzer for SECONDS (default 600) with a 20 s limit per input. Each
# input is parsed, verified and compiled to NVVM for sm_90a and sm_80; a
# crash, an assertion or an input that runs past 20 s is kept in
# build-fuzz/fuzz-findings and fails the script.
#   scripts/libfuzz.sh [SECONDS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-600}"
build="${TILE_FUZZ_BUILD:-$root/build-fuzz}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link" \
    -DTILE_ENABLE_LIBFUZZER=ON -DTILE_ENABLE_RUNNER=OFF \
    -DTILE_ENABLE_PYTHON=OFF \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit >/dev/null
fi
ninja -C "$build" tile-fuzz
corpus="$build/fuzz-corpus"
findings="$build/fuzz-findings"
rm -rf "$corpus"
mkdir -p "$corpus" "$findings"
python3 - "$root/test" "$corpus" <<'PY'
import pathlib, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
n = 0
for path in sorted(root.rglob("*.mlir")):
    for case in path.read_text().split("\n// -----\n"):
        (out / f"seed{n:04d}.mlir").write_text(case)
        n += 1
print(f"libfuzz: {n} seeds from {root}")
PY
log="$build/fuzz.log"
status=0
"$build/bin/tile-fuzz" "$corpus" -max_total_time="$seconds" -timeout=20 \
  -rss_limit_mb=8192 -max_len=65536 -print_final_stats=1 \
  -artifact_prefix="$findings/" >"$log" 2>&1 || status=$?
grep -E "^#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb|ERROR|SUMMARY" "$log" | tail -6
found=$(ls "$findings" | wc -l)
echo "libfuzz: $seconds s, status $status, $found finding(s) in $findings (log: $log)"
[ "$status" -eq 0 ] && [ "$found" -eq 0 ]
