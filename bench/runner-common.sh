# Sourced by bench/{gemm,fused,attention,lowp,quant}.sh after they set $root and
# $log: builds tile-run alone into build-runner/ (the GPU machine has no
# LLVM/MLIR), logging to $log, and sets $runner; if the build fails, prints
# the log's tail and exits 2.
cmake -G Ninja -S "$root" -B "$root/build-runner" -DTILE_ENABLE_COMPILER=OFF >>"$log" 2>&1 &&
  ninja -C "$root/build-runner" tile-run >>"$log" 2>&1 || { tail -20 "$log"; exit 2; }
runner="$root/build-runner/bin/tile-run"

# check_row PEER SHAPE BUNDLE: runs the bundle's check (tile-run --no-time,
# logged to $log) and prints one JSON line {peer, shape, status, rel_err}
# (status ERROR where tile-run printed no RESULT line).
check_row() {
  local line
  line=$(timeout 120 "$runner" "$3" --no-time 2>>"$log" | tee -a "$log" | grep '^RESULT')
  python3 - "$1" "$2" "$line" <<'PY'
import json, sys
peer, shape, line = sys.argv[1:4]
f = dict(kv.split("=", 1) for kv in line.split()[2:]) if line else {}
print(json.dumps({"peer": peer, "shape": shape, "status": f.get("status", "ERROR"),
                  "rel_err": f.get("rel_err")}))
PY
}

# launch_path_note: after the timing, one line where a bundle was launched
# through ctypes instead of tile.runtime's C path (bench/interleave.py
# logs it to $log): about 9 us more host time a launch, which a short
# kernel's time can include.
launch_path_note() {
  grep -m1 "launches through ctypes" "$log" >/dev/null &&
    echo "note: some bundles launched through ctypes, not the C path ($log)"
  return 0
}
