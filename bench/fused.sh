#!/usr/bin/env bash
# The fused-kernel benchmark (issue 5), run on the GPU machine in one go: our
# bundles (compiled elsewhere: python3 bench/gen_fused.py SRC && tile-compile
# each) through tile-run, torch eager and torch.compile through
# bench/fused_peers.py, then one table.   bench/fused.sh BUNDLE_DIR
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$1"
log="${OUT:-/tmp}/fused-bench.log"
results="${OUT:-/tmp}/fused-results.jsonl"
: >"$log"; : >"$results"
source "$root/bench/runner-common.sh"
for b in "$dir"/*.tilebundle; do
  name="$(basename "$b" .tilebundle)"
  line=$("$runner" "$b" --warmup 20 --repeats 100 --flush-l2 2>>"$log" | tee -a "$log" | grep '^RESULT')
  echo "$line" | python3 -c '
import json, sys
f = dict(kv.split("=", 1) for kv in sys.stdin.read().split()[2:])
print(json.dumps({"peer": "tile", "case": sys.argv[1], "status": f.get("status"),
                  "rel_err": f.get("rel_err"), "time_us": f.get("time_us"),
                  "gbps": f.get("gbps"), "tflops": f.get("tflops"),
                  "roofline": f.get("roofline_frac")}))' "$name" >>"$results"
done
PYTHONUNBUFFERED=1 python3 "$root/bench/fused_peers.py" >>"$results" 2>>"$log" || tail -30 "$log"
launch_path_note
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
copy = next((r["gbps"] for r in rows if r["peer"] == "copy"), float("nan"))
print(f"copy bandwidth (torch, read+write): {copy:.0f} GB/s")
by = {}
for r in rows:
    if r["peer"] != "copy":
        by.setdefault(r["case"], {})[r["peer"]] = r
f = lambda v: float(v) if v not in (None, "na") else float("nan")
print(f"{'case':<32}{'status':>7}{'tile us':>9}{'eager us':>10}{'compile us':>11}{'tile GB/s':>10}{'% copy':>8}{'vs eager':>9}{'vs compile':>11}")
for case, p in by.items():
    t, e, c = p.get("tile", {}), p.get("eager", {}), p.get("compile", {})
    tu, eu, cu = f(t.get("time_us")), f(e.get("time_us")), f(c.get("time_us"))
    g = f(t.get("gbps"))
    print(f"{case:<32}{str(t.get('status')):>7}{tu:>9.1f}{eu:>10.1f}{cu:>11.1f}{g:>10.0f}{100*g/copy:>8.1f}{eu/tu:>9.2f}{cu/tu:>11.2f}")
print("peer rel_err:", {f"{r['peer']}:{r['case']}": round(r.get("rel_err", float("nan")), 5) for r in rows if r["peer"] in ("eager", "compile")})
PY
