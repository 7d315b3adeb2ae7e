#!/usr/bin/env bash
#===- sanitize.sh - compute-sanitizer over kernel bundles -----------------===#
#
# usage: scripts/sanitize.sh BUNDLE... (files or directories of *.tilebundle)
#        TOOLS="memcheck racecheck synccheck initcheck" (default: all four)
#        JOBS=N runs N bundles at once (default 1); TIMEOUT=S per run (300)
#
# For the GPU machine (issue 19): builds tile-run alone (as gpu-check.sh),
# runs every bundle once under each compute-sanitizer tool, and prints one
# row per bundle: the errors each tool reported, "fail" where the launch
# itself failed under the tool (tile-run exited non-zero with no report),
# then the totals. Logs go to $OUT/sanitize/ (else build-runner/sanitize/).
# Exit status: 0 no errors and no failures, 1 otherwise, 2 no runner.
#
#===----------------------------------------------------------------------===#
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${TOOLS:-memcheck racecheck synccheck initcheck}"
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null) ||
  { echo "sanitize: no compute-sanitizer"; exit 2; }
build="$root/build-runner"
logs="${OUT:-$build}/sanitize"
mkdir -p "$logs"
[ -x "$build/bin/tile-run" ] || {
  cmake -G Ninja -S "$root" -B "$build" -DTILE_ENABLE_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release >"$logs/build.log" 2>&1 &&
    ninja -C "$build" tile-run >>"$logs/build.log" 2>&1; } || { echo "sanitize: runner build failed"; exit 2; }
bundles=()
for arg in "$@"; do
  if [ -d "$arg" ]; then bundles+=("$arg"/*.tilebundle); else bundles+=("$arg"); fi
done
[ ${#bundles[@]} -gt 0 ] || { echo "usage: scripts/sanitize.sh BUNDLE..."; exit 2; }
# One bundle under every tool: writes "<cell> <errors> <failed>" per tool
# to $logs/<name>.row (a cell is the error count, or "fail" when the launch
# itself failed under the tool: tile-run exited non-zero with no report).
check_bundle() {
  local b=$1 name t log rc n
  name="$(basename "$b" .tilebundle)"
  : >"$logs/$name.row"
  for t in $tools; do
    log="$logs/$name.$t.log"
    # No --hang-limit: under a tool kernels run orders of magnitude slower;
    # TIMEOUT bounds the run.
    timeout "${TIMEOUT:-300}" "$sanitizer" --tool "$t" --print-limit 10 \
      "$build/bin/tile-run" "$b" --repeats 1 --no-time --hang-limit 0 >"$log" 2>&1
    rc=$?
    # "ERROR SUMMARY: N errors" (memcheck, synccheck, initcheck) or
    # "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
    n=$(grep -oE "ERROR SUMMARY: [0-9]+|\(([0-9]+) errors" "$log" | grep -oE "[0-9]+" | tail -1)
    n=${n:-0}
    if [ "$rc" -ne 0 ] && [ "$n" -eq 0 ]; then
      echo "fail 0 1" >>"$logs/$name.row"
    else
      echo "$n $n 0" >>"$logs/$name.row"
    fi
  done
}
export -f check_bundle
export tools logs sanitizer build TIMEOUT
printf "%s\n" "${bundles[@]}" | xargs -d '\n' -P "${JOBS:-1}" -I{} bash -c 'check_bundle "$1"' _ {}
printf "%-48s" "bundle"; for t in $tools; do printf "%11s" "$t"; done; echo
declare -A errors fails
bad=0
for b in "${bundles[@]}"; do
  name="$(basename "$b" .tilebundle)"
  printf "%-48s" "$name"
  i=0
  while read -r cell n failed; do
    t=$(echo $tools | cut -d' ' -f$((i + 1)))
    printf "%11s" "$cell"
    errors[$t]=$(( ${errors[$t]:-0} + n )); fails[$t]=$(( ${fails[$t]:-0} + failed ))
    [ "$n" -eq 0 ] && [ "$failed" -eq 0 ] || bad=1
    i=$((i + 1))
  done <"$logs/$name.row"
  echo
done
printf "%-48s" "total errors (failed launches)"
for t in $tools; do printf "%11s" "${errors[$t]:-0} (${fails[$t]:-0})"; done; echo
echo "logs: $logs"
exit $bad
