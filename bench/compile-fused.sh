#!/usr/bin/env bash
# Compiles the fused-kernel benchmark (bench/gen_fused.py) into bundles under
# $1 (default build/bench-fused) for $CHIP (default sm_90a): every kernel
# as is, and the ones with exp/tanh/division per element again with
# --fast-math (NAME_fast). Run them on the GPU with bench/fused.sh DIR.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
out="${1:-$build/bench-fused}"
mkdir -p "$out/src"
python3 "$root/bench/gen_fused.py" "$out/src" >/dev/null
for src in "$out"/src/*.mlir; do
  name="$(basename "$src" .mlir)"
  "$build/bin/tile-compile" "$src" --chip="${CHIP:-sm_90a}" -o "$out/$name.tilebundle"
  case "$name" in
    softmax_*|gemm_bias_gelu_*)
      "$build/bin/tile-compile" "$src" --chip="${CHIP:-sm_90a}" --fast-math \
        -o "$out/${name}_fast.tilebundle" ;;
  esac
done
ls "$out"/*.tilebundle | wc -l | xargs echo "fused bundles in $out:"
