#!/usr/bin/env bash
# Sets up (scripts/setup.sh), then runs the compiler on the built-in example
# (examples/softmax.mlir, or the file given as $1) and shows each stage:
# the tensor-level input, the tile-level kernels, the PTX, and the bundle.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh" >/dev/null
input="${1:-$root/examples/softmax.mlir}"
chip="${CHIP:-sm_90a}"
bin="$build/bin"

echo "=== tensor level: $input"
"$bin/tile-opt" "$input"
echo
echo "=== tile level, fused (tile-compile --fuse --emit=tile: tile-fuse, tile-configure, tile-tile)"
"$bin/tile-compile" "$input" --chip="$chip" --fuse --emit=tile
echo
echo "=== PTX for $chip (first 40 lines of each module)"
"$bin/tile-compile" "$input" --chip="$chip" --fuse --emit=ptx | awk '/^\/\/ module/{n=0} {if (n++ < 40) print}'
echo
out="$build/bundles/$(basename "${input%.mlir}").$chip.tilebundle"
mkdir -p "$(dirname "$out")"
"$bin/tile-compile" "$input" --chip="$chip" --fuse -o "$out"
echo "=== bundle $out (header)"
sed -n '1,/^end fnv1a /p' "$out"
if [ -x "$bin/tile-run" ]; then
  echo
  echo "=== tile-run $out"
  "$bin/tile-run" "$out" || echo "(tile-run needs a CUDA GPU: run it where one is, see README)"
fi
