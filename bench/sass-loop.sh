#!/usr/bin/env bash
# The SASS of a kernel's tensor-core K loop, counted without a GPU: compiles
# FILE with tile-compile (extra flags after it), assembles the first
# module's PTX with ptxas, disassembles it with nvdisasm (NVDISASM, default
# nvdisasm on PATH; PyPI's nvidia-cuda-nvdisasm wheel has one) and prints
# bench/sass_loop.py's summary (bench/RESULTS.md session 34's counts;
# SASS_LOOP_ARGS="--all --order": every loop with tensor-core instructions,
# and the order of its issues, waits and MUFU runs; SASS_KEEP=FILE keeps
# the whole disassembly there).
#   bench/sass-loop.sh FILE.mlir --fuse --chip=sm_90a [flags...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TILE_BUILD_DIR:-$root/build}"
ptxas="${PTXAS:-/usr/local/cuda/bin/ptxas}"
nvdisasm="${NVDISASM:-nvdisasm}"
file="$1"; shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$build/bin/tile-compile" "$file" "$@" --emit=ptx -o "$work/all.ptx"
# The first module (the kernels; the reference's follow).
awk 'NR > 1 && /^\/\/ module/ { exit } { print }' "$work/all.ptx" >"$work/k.ptx"
"$ptxas" -arch=sm_90a "$work/k.ptx" -o "$work/k.cubin"
"$nvdisasm" -c "$work/k.cubin" >"$work/k.sass"
[ -n "${SASS_KEEP:-}" ] && cp "$work/k.sass" "$SASS_KEEP"
python3 "$root/bench/sass_loop.py" ${SASS_LOOP_ARGS:-} "$work/k.sass"
