# Sourced by bench/ncu-*.sh: sets $root, $ncu and $runner (building
# tile-run alone into build-runner/ when it is not there yet).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null) || { echo "no ncu"; exit 2; }
runner="$root/build-runner/bin/tile-run"
[ -x "$runner" ] || {
  cmake -G Ninja -S "$root" -B "$root/build-runner" -DTILE_ENABLE_COMPILER=OFF >/dev/null 2>&1 &&
    ninja -C "$root/build-runner" tile-run >/dev/null 2>&1; } || { echo "runner build failed"; exit 2; }
