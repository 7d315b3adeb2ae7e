#!/usr/bin/env bash
# Compiles every GPU integration test (test/Integration/*.mlir) for sm_80 and
# sm_90a into bundles under $1 (default build/bundles), ready to be carried
# to a GPU machine that has no LLVM/MLIR and run there by scripts/gpu-check.sh,
# and the other kernels their RUN lines build (scripts/integration_runs.py).
# $FLAGS are more tile-compile flags for every test, $TAG a suffix after the
# chip in the bundle names (TAG=simt FLAGS=--mma=simt).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
out="${1:-$build/bundles}"
chips="${CHIPS:-sm_80 sm_90a}"
mkdir -p "$out"
for f in "$root"/test/Integration/*.mlir; do
  name="$(basename "${f%.mlir}")"
  # A test's own tile-compile flags (--fast-math), as its RUN lines use.
  flags="$(sed -n 's|^// TILE-COMPILE-FLAGS: ||p' "$f")"
  # A test written for some chips only (a hand-written wgmma schedule).
  only="$(sed -n 's|^// TILE-CHIPS: ||p' "$f")"
  for chip in $chips; do
    [[ -z "$only" || " $only " == *" $chip "* ]] || continue
    # shellcheck disable=SC2086
    "$build/bin/tile-compile" "$f" --chip="$chip" $flags ${FLAGS:-} -o "$out/$name.$chip${TAG:+-$TAG}.tilebundle"
  done
done
# The other kernels of the tests' RUN lines (another function, other
# options: scripts/integration_runs.py), kept where they differ from the
# chip's default bundle.
# (Listed first, so that a RUN line it cannot read fails this script.)
runs="$(python3 "$root/scripts/integration_runs.py")"
while IFS=$'\t' read -r -a run; do
  [ ${#run[@]} -gt 0 ] || continue
  name="${run[0]}" args=("${run[@]:1}")
  chip="${name#*.}" chip="${chip%%.*}"
  [[ " $chips " == *" $chip "* ]] || continue
  bundle="$out/$name${TAG:+-$TAG}.tilebundle"
  # shellcheck disable=SC2086
  "$build/bin/tile-compile" "${args[@]}" ${FLAGS:-} -o "$bundle"
  base="$(basename "${args[0]%.mlir}")"
  if cmp -s "$bundle" "$out/$base.$chip${TAG:+-$TAG}.tilebundle"; then
    rm "$bundle"
  fi
done <<<"$runs"
ls "$out" | wc -l | xargs echo "bundles in $out:"
