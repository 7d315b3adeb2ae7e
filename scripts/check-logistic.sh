#!/usr/bin/env bash
# On the GPU machine: builds and runs scripts/check-logistic.cu, which
# measures tile-logistic-tanh's 1 +- tanh(z) sequence and the tanhf form it
# replaces against double precision (exit 1 past its bound).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp}/check-logistic"
nvcc -arch=native -O3 "$root/scripts/check-logistic.cu" -o "$out"
"$out"
