#!/usr/bin/env bash
#===- gpu-check.sh - Build tile-run and run every bundle on this GPU ------===#
#
# usage: scripts/gpu-check.sh [BUNDLE_DIR] [tile-run options...]
#
# For the GPU machine, which has the CUDA toolkit, cmake and ninja but no
# LLVM/MLIR: builds the runner alone (-DTILE_ENABLE_COMPILER=OFF) into
# build-runner/, runs tile-run on every *.tilebundle in BUNDLE_DIR (default
# build/bundles) with the extra options, and prints one table row per bundle
# from its RESULT line. The full output goes to $OUT/gpu-check.log when OUT
# is set, else to build-runner/gpu-check.log; failures are also printed here.
#
# Exit status: 0 every bundle passed, 1 some bundle failed or errored, 2 the
# runner could not be built or there were no bundles.
#
#===----------------------------------------------------------------------===#

set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$root/build/bundles}"
[ $# -gt 0 ] && shift
# Resolve the bundle directory from where we were started, then work from the
# repository root.
if [ -d "$dir" ]; then
  dir="$(cd "$dir" && pwd)"
fi
cd "$root" || exit 2

build="$root/build-runner"
mkdir -p "$build"
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT"
  log="$OUT/gpu-check.log"
else
  log="$build/gpu-check.log"
fi
: >"$log"

# Runs a command with its output in the log; prints the tail if it fails.
logged() {
  echo "\$ $*" >>"$log"
  if ! "$@" >>"$log" 2>&1; then
    echo "gpu-check: '$*' failed; the end of $log:" >&2
    tail -n 40 "$log" >&2
    return 1
  fi
}

echo "gpu-check: building tile-run in $build (log: $log)"
logged cmake -G Ninja -S "$root" -B "$build" -DTILE_ENABLE_COMPILER=OFF \
  -DCMAKE_BUILD_TYPE=Release || exit 2
logged ninja -C "$build" tile-run tile-bundle-selftest || exit 2
runner="$build/bin/tile-run"
if [ ! -x "$runner" ]; then
  echo "gpu-check: $runner was not built (is the CUDA toolkit found?)" >&2
  exit 2
fi
logged "$build/bin/tile-bundle-selftest" || exit 2
echo "gpu-check: bundle self-test: $(tail -n 1 "$log")"

shopt -s nullglob
bundles=("$dir"/*.tilebundle)
if [ ${#bundles[@]} -eq 0 ]; then
  echo "gpu-check: no *.tilebundle files in $dir" >&2
  exit 2
fi

# One RESULT field, or '-' when it is missing.
field() {
  local v
  v="$(sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1")"
  echo "${v:--}"
}

rows=()
failed=0
device_shown=0
for bundle in "${bundles[@]}"; do
  name="$(basename "$bundle" .tilebundle)"
  echo "===== $name: tile-run $bundle $*" >>"$log"
  output="$("$runner" "$bundle" "$@" 2>&1)"
  rc=$?
  printf '%s\n(exit status %d)\n\n' "$output" "$rc" >>"$log"
  if [ $device_shown -eq 0 ] && grep -q '^device ' <<<"$output"; then
    grep -m1 '^device ' <<<"$output"
    device_shown=1
  fi

  result="$(grep '^RESULT ' <<<"$output" | tail -n 1)"
  if [ -n "$result" ]; then
    status="$(field "$result" status)"
  else
    status="ERROR($rc)"
  fi
  # A bundle without checks (UNCHECKED) is shown but does not fail the run.
  if [ "$rc" -ne 0 ] ||
    { [ "$status" != PASS ] && [ "$status" != UNCHECKED ]; }; then
    failed=$((failed + 1))
    echo "--- $name failed (exit status $rc):"
    grep -E '^(FAIL|WARNING|tile-run:)' <<<"$output" || tail -n 5 <<<"$output"
  fi
  rows+=("$(printf '%-28s %-10s %-10s %-11s %-9s %-9s %-8s %s' "$name" \
    "$status" "$(field "$result" rel_err)" "$(field "$result" time_us)" \
    "$(field "$result" tflops)" "$(field "$result" gbps)" \
    "$(field "$result" bound)" "$(field "$result" roofline_frac)")")
done

echo
printf '%-28s %-10s %-10s %-11s %-9s %-9s %-8s %s\n' bundle status rel_err \
  time_us TFLOP/s GB/s bound roofline
for row in "${rows[@]}"; do
  echo "$row"
done
echo
echo "gpu-check: ${#bundles[@]} bundles, $failed failed (full log: $log)"
[ $failed -eq 0 ]
