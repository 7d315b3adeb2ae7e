#!/usr/bin/env bash
# Nsight Compute's source view of one kernel of a bundle compiled with
# --lineinfo (tile-compile --lineinfo, or @tile.jit(lineinfo=True)), on the
# GPU machine: per line of the user's .mlir (or Python) file, its text and
# the kernel's samples and instructions there.
#   bench/ncu-source.sh BUNDLE [KERNEL_REGEX]
# Run from where the bundle was compiled (the PTX names the source file as
# it was given); Nsight Compute reads it then, and SOURCE_DIRS (default: the
# repository root) for paths it cannot resolve. The full CSV goes to
# $OUT/ncu-source.csv (else /tmp). VIEW=sass (any bundle, --lineinfo or
# not): the SASS instructions instead, the 40 with the most stall samples,
# each with its samples and the stall reasons' columns that have any.
set -u
bundle="$1"; kernel="${2:-.}"
. "$(dirname "${BASH_SOURCE[0]}")/ncu-common.sh"
out="${OUT:-/tmp}"
report="$out/ncu-source"
rm -f "$report.ncu-rep"
"$ncu" --section SourceCounters --section WarpStateStats --import-source yes \
  --source-folders "${SOURCE_DIRS:-$root}" -k "regex:${kernel}" --launch-count 1 \
  -o "$report" "$runner" "$bundle" --warmup 1 --repeats 1 \
  --no-time >"$out/ncu-source.log" 2>&1 || { tail -5 "$out/ncu-source.log"; exit 1; }
view=cuda,sass; [ "${VIEW:-}" = sass ] && view=sass
"$ncu" --import "$report.ncu-rep" --page source --print-source $view --csv \
  >"$out/ncu-source.csv" 2>&1 || { tail -5 "$out/ncu-source.csv"; exit 1; }
if [ "${VIEW:-}" = sass ]; then
  python3 - "$out/ncu-source.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
header = next((r for r in rows if "Source" in r and "Warp Stall Sampling (All Samples)" in r), None)
if header is None:
    sys.exit("ncu-source: no SASS page in the report")
at = rows.index(header)
samples = header.index("Warp Stall Sampling (All Samples)")
source = header.index("Source")
address = header.index("Address") if "Address" in header else source
def num(v):
    try:
        return float(v.replace(",", ""))
    except ValueError:
        return 0.0
body = [r for r in rows[at + 1:] if len(r) == len(header)]
total = sum(num(r[samples]) for r in body) or 1
stalls = [i for i, h in enumerate(header) if h.startswith("stall_")]
print(f"{len(body)} SASS rows, {int(total)} stall samples")
for r in sorted(body, key=lambda r: -num(r[samples]))[:40]:
    why = ", ".join(f"{header[i]}={r[i]}" for i in stalls if num(r[i]) > 0)[:150]
    print(f"{r[address]:>8} {num(r[samples]) / total:6.1%}  {r[source][:60]:60}  {why}")
PY
  exit 0
fi
# The source rows (a line number, its text, "-" for the address) carry the
# sums of their SASS rows: print those with samples or instructions.
python3 - "$out/ncu-source.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
header = next((r for r in rows if r[:2] == ["Line No", "Source"]), None)
if header is None:
    sys.exit("ncu-source: no source page in the report (compiled without --lineinfo?)")
samples = header.index("Warp Stall Sampling (All Samples)")
executed = header.index("Instructions Executed")
files = [r[1] for r in rows if r and r[0] == "File Path"]
print(f"{'line':>5} {'samples':>8} {'warp insts':>12}  source ({', '.join(files)})")
for r in rows:
    if len(r) > executed and r[0].isdigit() and r[2] == "-" and (
            r[samples] not in ("0", "-") or r[executed] not in ("0", "-")):
        print(f"{r[0]:>5} {r[samples]:>8} {r[executed]:>12}  {r[1][:90]}")
PY
