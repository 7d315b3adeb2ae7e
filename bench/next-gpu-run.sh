#!/usr/bin/env bash
# The measurements the options built without a GPU wait for (sessions 37
# and 38, bench/RESULTS.md): each option's bundles beside the default's,
# checked and timed in one run. Kept in the repository because a session's
# .carry folder does not survive into the next checkout; update it as
# options are decided, delete it when none is left.
#
#   bash bench/next-gpu-run.sh prepare [DIR]   # here: compile (~8 minutes)
#   then on the GPU machine, carrying DIR (default .carry/next, ~45 MB):
#   bash bench/next-gpu-run.sh run [DIR]       # checks, then A/B (~8 minutes)
#
# The options, each off by default until this run decides it:
# - decode-ahead (tile-warp-specialize, session 37): a k_warpgroups
#   partition decodes each product's register operand under the product
#   before it;
# - step-group-loads (tile-tile, session 38): MXFP4's e8m0 scales read a
#   step at a time (one 64-bit load a row instead of 8 byte loads);
# - promote-under-next (tile-overlap, session 38): a block-scaled FP8 loop
#   promotes each step under the next step's product.
# And one question: how fast per-tensor FP8 runs with block scales' 128 x
# 128 tiles (candidate 2 at 8192^3), to split block scales' gap to
# per-tensor into tile shape and promotion.
#
# Deciding: an option whose bundles all PASS and whose A/B median is
# faster in every round (bench/ab.sh prints each round) becomes the
# default in the same issue, its old path deleted: step-group-loads and
# promote-under-next as what tile-tile / tile-overlap always do,
# decode-ahead as a #tile.config field tile-configure sets on the
# transposed product (mechanism apart from heuristics); then
# bench/quant.sh / bench/lowp.sh in turn with the peers for issue 17's
# table. An option that is not faster is deleted.

set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:?usage: bench/next-gpu-run.sh prepare|run [DIR]}"
dir="${2:-$root/.carry/next}"
sgl="--tile-options=step-group-loads=1"
da="--pipeline-options=decode-ahead=1"
pun="--pipeline-options=promote-under-next=1"

if [ "$mode" = prepare ]; then
  mkdir -p "$dir"
  bash "$root/bench/compile-quant.sh" "$dir/q_base"
  FLAGS="$sgl" bash "$root/bench/compile-quant.sh" "$dir/q_sgl"
  FLAGS="$da" bash "$root/bench/compile-quant.sh" "$dir/q_da"
  FLAGS="$sgl $da" bash "$root/bench/compile-quant.sh" "$dir/q_both"
  bash "$root/bench/compile-lowp.sh" "$dir/l_base"
  FLAGS="$pun" bash "$root/bench/compile-lowp.sh" "$dir/l_pun"
  printf '8192 8192 8192\n' >"$dir/l128.txt"
  SHAPES="$dir/l128.txt" FLAGS="--configure-options=candidate=2" \
    bash "$root/bench/compile-lowp.sh" "$dir/l_128"
  # Integration bundles: every one by default (the MXFP4 ones changed by
  # session 37's e8m0 decode have not run yet), and those each option
  # changes, under it (TAG in the name).
  bash "$root/scripts/compile-bundles.sh" "$dir/integ"
  # (step-group-loads changes sm_80's mma.sync kernels too; the others are
  # wgmma schedules.)
  for variant in "sgl:sm_80 sm_90a:$sgl" "da:sm_90a:$da" "pun:sm_90a:$pun"; do
    tag=${variant%%:*} rest=${variant#*:}
    chips=${rest%%:*} flags=${rest#*:}
    CHIPS="$chips" TAG=$tag FLAGS="$flags" \
      bash "$root/scripts/compile-bundles.sh" "$dir/integ_$tag"
    for b in "$dir/integ_$tag"/*.tilebundle; do
      base="$dir/integ/$(basename "${b%-$tag.tilebundle}").tilebundle"
      if [ -f "$base" ] && cmp -s <(grep -av '^source-hash\|^options\|^end fnv1a' "$b") \
                                  <(grep -av '^source-hash\|^options\|^end fnv1a' "$base"); then
        rm "$b"
      fi
    done
    ls "$dir/integ_$tag" | wc -l | xargs echo "integration bundles $tag changes:"
  done
  du -sh "$dir"
  exit 0
fi

[ "$mode" = run ] || { echo "bench/next-gpu-run.sh: prepare or run" >&2; exit 2; }
export OUT="${OUT:-/tmp}"
echo "== integration bundles (default and each option's): failures, then totals"
for sub in integ integ_sgl integ_da integ_pun; do
  { bash "$root/scripts/gpu-check.sh" "$dir/$sub" --hang-limit 20 || true; } |
    grep -E -A3 '^--- .* failed|^gpu-check:'
done
echo "== weight-only: default / step-group-loads / decode-ahead / both"
bash "$root/bench/ab.sh" -r 3 -n 30 "$dir/q_base" "$dir/q_sgl" "$dir/q_da" "$dir/q_both" | tail -40
echo "== FP8: default / promote-under-next"
bash "$root/bench/ab.sh" -r 3 -n 20 "$dir/l_base" "$dir/l_pun" | tail -25
echo "== FP8 8192^3: candidate 2 (per-tensor: 128 x 128 tiles) / the default"
bash "$root/bench/ab.sh" -r 3 -n 20 "$dir/l_128" "$dir/l_base" | tail -12
