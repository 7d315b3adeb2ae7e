#!/usr/bin/env bash
# Same-run A/B of compiler variants, on the GPU machine: the bundles of the
# same names in two or more folders (each compiled here by a different
# build or with different flags), timed by tile-run from a cold L2, each
# round running the variants one after another, starting one later each
# round, so that clock and thermal drift and going first fall on all of
# them alike; then each variant's median over the rounds against the
# first folder's, and the rounds' times. The same folder twice is an A/A
# test of the noise. -w times from a warm L2 instead (no flush): where a
# kernel's data fit in L2, the memory's latency and bandwidth mostly fall
# out and the kernel's own work is left (bench/RESULTS.md, session 56).
#   bench/ab.sh [-w] [-r ROUNDS] [-n REPEATS] DIR_A DIR_B [DIR_C ...]
# tile-run checks a bundle with a reference in every run (a FAIL shows
# in the table); an unchecked one (--no-reference) is timed only. This
# compares variants of our own kernels; against the peers,
# bench/{gemm,fused,attention,quant,lowp}.sh.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds=3
repeats=30
flush=--flush-l2
while getopts "wr:n:" opt; do
  case "$opt" in
    r) rounds="$OPTARG" ;;
    n) repeats="$OPTARG" ;;
    w) flush= ;;
    *) echo "usage: bench/ab.sh [-w] [-r ROUNDS] [-n REPEATS] DIR_A DIR_B [...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
  echo "usage: bench/ab.sh [-w] [-r ROUNDS] [-n REPEATS] DIR_A DIR_B [...]" >&2
  exit 2
fi
log="${OUT:-/tmp}/ab.log"
: >"$log"
source "$root/bench/runner-common.sh"
results="${OUT:-/tmp}/ab-results.jsonl"
: >"$results"
dirs=("$@")
shopt -s nullglob
bundles=("$1"/*.tilebundle)
if [ ${#bundles[@]} -eq 0 ]; then
  echo "bench/ab.sh: no bundles in $1" >&2
  exit 2
fi
for b in "${bundles[@]}"; do
  name="$(basename "$b")"
  for round in $(seq 1 "$rounds"); do
    for step in $(seq 0 $((${#dirs[@]} - 1))); do
      variant=$(( (step + round - 1) % ${#dirs[@]} ))
      dir="${dirs[$variant]}"
      [ -f "$dir/$name" ] || continue
      line=$(timeout 120 "$runner" "$dir/$name" --warmup 5 --repeats "$repeats" \
               $flush 2>>"$log" | tee -a "$log" | grep '^RESULT')
      python3 - "$name" "$variant" "$round" "$line" >>"$results" <<'PY'
import json, sys
name, variant, round_, line = sys.argv[1:5]
f = dict(kv.split("=", 1) for kv in line.split()[2:]) if line else {}
print(json.dumps({"bundle": name, "variant": int(variant), "round": int(round_),
                  "status": f.get("status", "ERROR"), "time_us": f.get("time_us")}))
PY
    done
  done
done
python3 - "$results" "$@" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
variants = sys.argv[2:]
by = {}
for r in rows:
    by.setdefault(r["bundle"], {}).setdefault(r["variant"], []).append(r)
for per in by.values():
    for runs in per.values():
        runs.sort(key=lambda r: r["round"])
name_width = max([len(n) for n in by] + [6])
print(f"{'bundle':<{name_width}}  " + "  ".join(f"{v:>28}" for v in variants))
for name, per in by.items():
    base = None
    cells = []
    for i, v in enumerate(variants):
        runs = per.get(i, [])
        times = [float(r["time_us"]) for r in runs if r["time_us"] not in (None, "na")]
        bad = [r["status"] for r in runs if r["status"] not in ("PASS", "UNCHECKED")]
        if not times:
            cells.append(f"{(bad[0] if bad else '-'):>28}")
            continue
        med = statistics.median(times)
        if i == 0:
            base = med
        ratio = f"{med / base:5.3f}x" if base else "    -"
        text = f"{med:9.2f} us {ratio}" + (f" {bad[0]}" if bad else "")
        cells.append(f"{text:>28}")
    print(f"{name:<{name_width}}  " + "  ".join(cells))
print("rounds (us):")
for name, per in by.items():
    print(f"  {name}: " + "; ".join(
        f"{v}: " + ", ".join(str(r['time_us']) for r in per.get(i, []))
        for i, v in enumerate(variants)))
PY
