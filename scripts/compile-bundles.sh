#!/usr/bin/env bash
# Compiles every GPU integration test (test/Integration/*.mlir) for sm_80 and
# sm_90a into bundles under $1 (default build/bundles), ready to be carried
# to a GPU machine that has no LLVM/MLIR and run there by scripts/gpu-check.sh.
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
ls "$out" | wc -l | xargs echo "bundles in $out:"
