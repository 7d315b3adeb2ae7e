#!/usr/bin/env bash
# Compares what two builds of the compiler produce (issue 19: the output must
# not depend on the host compiler that built the tools, gcc or clang): every
# test/Integration bundle (sm_80 and sm_90a) byte for byte (the cubins of
# kernels that spill only up to ptxas's run-to-run differences), and the
# tile-level IR of each (--emit=tile), which names the first op that differs.
#   scripts/compare-builds.sh BUILD_A BUILD_B      (e.g. build /tmp/gccbuild)
# Exit status: 0 identical, 1 something differs (listed).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
a="$1"; b="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
TILE_BUILD_DIR="$a" bash "$root/scripts/compile-bundles.sh" "$work/a" >/dev/null
TILE_BUILD_DIR="$b" bash "$root/scripts/compile-bundles.sh" "$work/b" >/dev/null
status=0
total=0
# The same bundles from both (an extra one in B would not be compared).
if [ "$(ls "$work/a")" != "$(ls "$work/b")" ]; then
  echo "the builds compile different sets of bundles:"
  diff <(ls "$work/a") <(ls "$work/b") | head
  status=1
fi
ptxas_only=0
for f in "$work"/a/*.tilebundle; do
  total=$((total + 1))
  name="$(basename "$f")"
  if ! cmp -s "$f" "$work/b/$name"; then
    # ptxas's cubin of a kernel that spills varies from run to run for one
    # PTX (its spill slots: scripts/bundle_without_cubins.py); what the
    # compiler writes, the header and the PTX, must still be the same.
    if cmp -s <(python3 "$root/scripts/bundle_without_cubins.py" "$f") \
              <(python3 "$root/scripts/bundle_without_cubins.py" "$work/b/$name"); then
      echo "same PTX and header, cubins differ (ptxas): $name"
      ptxas_only=$((ptxas_only + 1))
    else
      echo "differs: $name"
      status=1
    fi
  fi
done
# The tile-level IR of each test, with both builds' tile-opt-free path.
for f in "$root"/test/Integration/*.mlir; do
  flags="$(sed -n 's|^// TILE-COMPILE-FLAGS: ||p' "$f")"
  # shellcheck disable=SC2086
  "$a/bin/tile-compile" "$f" --chip=sm_90a $flags --emit=tile -o "$work/a.tile" 2>/dev/null
  # shellcheck disable=SC2086
  "$b/bin/tile-compile" "$f" --chip=sm_90a $flags --emit=tile -o "$work/b.tile" 2>/dev/null
  if ! cmp -s "$work/a.tile" "$work/b.tile"; then
    echo "tile IR differs: $(basename "$f"), first at:"
    diff "$work/a.tile" "$work/b.tile" | head -4
    status=1
  fi
done
[ $status = 0 ] && echo "compare-builds: $total bundles identical ($a, $b)," \
  "$ptxas_only of them but for ptxas's cubins"
exit $status
