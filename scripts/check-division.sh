#!/usr/bin/env bash
# On the GPU machine: builds and runs scripts/check-division.cu, which
# checks tile-divide-by-reciprocal's sequence bit for bit against div.rn.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp}/check-division"
nvcc -arch=native -O3 "$root/scripts/check-division.cu" -o "$out"
"$out"
