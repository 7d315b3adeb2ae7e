"""Tune a tensor-level matmul: time tile-configure's candidate configs on the
GPU and record the fastest correct one in a tuning database (docs/tuning.md).

The two halves run on different machines, as everything here does:

  # where the compiler is (no GPU needed): every candidate as a bundle
  python3 python/tools/tile_tune.py compile gemm.mlir tune/ --chip sm_90a
  # on the GPU machine (only tile-run needed): check, time, record
  python3 python/tools/tile_tune.py run tune/ --db tune/tuning.jsonl

Then `tile-compile gemm.mlir --tuning-db tune/tuning.jsonl` (or
TILE_TUNING_DB) builds the recorded config without tuning again.

A candidate is checked against the reference on fresh random data before it
is timed (tile-run does both); one that fails is dropped and reported, never
chosen. Timing is tile-run's median of --repeats runs, each from a flushed
L2, with the 10th-90th percentile spread. The file given to `compile` must
have one tensor-core matmul (the candidates are its).
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import subprocess
import sys

SCHEDULE_VERSION = 1  # TuningDatabase.h's kScheduleVersion
FORMAT_VERSION = 1    # TuningDatabase.h's kTuningFormatVersion

KEY = re.compile(r"candidate configs for tuning key '(?P<op>\S+) (?P<chip>\S+) "
                 r"sms=(?P<sms>\d+) (?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+) "
                 r"(?P<lhs>\w+),(?P<rhs>\w+)->(?P<result>\w+)'")
CANDIDATE = re.compile(r"^\s*candidate (\d+): (#tile\.config<.*>)\s*$")


def build_dir():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.environ.get("TILE_BUILD_DIR", os.path.join(root, "build"))


def list_candidates(src, chip):
    """The matmul's tuning key and its ranked candidate configs."""
    tile_opt = os.path.join(build_dir(), "bin", "tile-opt")
    proc = subprocess.run(
        [tile_opt, src, "--tile-fuse",
         f"--tile-configure=chip={chip} list-candidates", "-o", os.devnull],
        capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"tile_tune: tile-opt failed on {src}:\n{proc.stderr}")
    keys = list(KEY.finditer(proc.stderr))
    if len(keys) != 1:
        sys.exit(f"tile_tune: expected one tensor-core matmul in {src}, "
                 f"found {len(keys)}")
    key = keys[0].groupdict()
    for name in ("sms", "m", "n", "k"):
        key[name] = int(key[name])
    configs = [m.group(2) for line in proc.stderr.splitlines()
               if (m := CANDIDATE.match(line))]
    return key, configs


def compile_candidates(args):
    key, configs = list_candidates(args.src, args.chip)
    if args.top:
        configs = configs[:args.top]
    os.makedirs(args.out, exist_ok=True)
    tile_compile = os.path.join(build_dir(), "bin", "tile-compile")

    def build(index):
        bundle = os.path.join(args.out, f"candidate_{index}.tilebundle")
        proc = subprocess.run(
            [tile_compile, args.src, f"--chip={args.chip}",
             f"--configure-options=candidate={index}", "-o", bundle],
            capture_output=True, text=True)
        return index, bundle, proc

    plan = {"key": key, "source": os.path.abspath(args.src), "candidates": []}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for index, bundle, proc in pool.map(build, range(len(configs))):
            entry = {"index": index, "config": configs[index],
                     "bundle": os.path.basename(bundle)}
            if proc.returncode != 0:
                entry["compile_error"] = proc.stderr.strip()[-2000:]
                print(f"candidate {index}: does not compile, dropped:\n"
                      f"{entry['compile_error']}", file=sys.stderr)
            plan["candidates"].append(entry)
    with open(os.path.join(args.out, "candidates.json"), "w") as f:
        json.dump(plan, f, indent=1)
    built = sum("compile_error" not in c for c in plan["candidates"])
    print(f"tile_tune: {built} of {len(configs)} candidates of "
          f"{key['m']}x{key['n']}x{key['k']} compiled into {args.out}")


def parse_result(output):
    line = next((l for l in output.splitlines() if l.startswith("RESULT ")), None)
    if line is None:
        return None
    return dict(kv.split("=", 1) for kv in line.split()[2:] if "=" in kv)


def run_candidates(args):
    with open(os.path.join(args.dir, "candidates.json")) as f:
        plan = json.load(f)
    tile_run = args.tile_run or os.path.join(build_dir(), "bin", "tile-run")
    rows = []
    for cand in plan["candidates"]:
        if "compile_error" in cand:
            continue
        bundle = os.path.join(args.dir, cand["bundle"])
        try:
            proc = subprocess.run(
                [tile_run, bundle, "--warmup", str(args.warmup), "--repeats",
                 str(args.repeats), "--flush-l2", "--quiet"],
                capture_output=True, text=True, timeout=args.timeout)
            fields = parse_result(proc.stdout) or {}
            status = fields.get("status", f"exit {proc.returncode}")
        except subprocess.TimeoutExpired:
            fields, status = {}, "TIMEOUT"
        row = dict(cand, status=status, rel_err=fields.get("rel_err"),
                   time_us=float(fields["time_us"]) if status == "PASS" else None,
                   spread_us=float(fields["spread_us"]) if status == "PASS" else None)
        rows.append(row)
        shown = (f"{row['time_us']:9.2f} us +- {row['spread_us']:.2f}"
                 if status == "PASS" else f"{status} (dropped)")
        print(f"candidate {cand['index']:2d}: {shown}  {cand['config']}", flush=True)
    passing = [r for r in rows if r["status"] == "PASS"]
    with open(os.path.join(args.dir, "results.json"), "w") as f:
        json.dump({"key": plan["key"], "results": rows}, f, indent=1)
    if not passing:
        sys.exit("tile_tune: no candidate passed its check; nothing recorded")
    best = min(passing, key=lambda r: r["time_us"])
    first = next((r for r in passing if r["index"] == 0), None)
    print(f"tile_tune: best candidate {best['index']} at {best['time_us']:.2f} us"
          + (f" (the heuristic's, candidate 0: {first['time_us']:.2f} us)" if first else ""))
    if args.db:
        record(args.db, plan["key"], best, len(rows))


def record(db, key, best, timed):
    entry = dict(tile_tuning=FORMAT_VERSION, schedule=SCHEDULE_VERSION, **key,
                 config=best["config"], time_us=best["time_us"],
                 spread_us=best["spread_us"], candidate=best["index"],
                 candidates=timed, tuned=datetime.date.today().isoformat())
    same = lambda e: all(e.get(f) == key[f] for f in key)  # noqa: E731
    lines = []
    if os.path.exists(db):
        with open(db) as f:
            for line in f:
                text = line.strip()
                if text and not text.startswith("#") and same(json.loads(text)):
                    continue  # the new entry replaces it
                lines.append(line.rstrip("\n"))
    lines.append(json.dumps(entry))
    with open(db, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"tile_tune: recorded in {db}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compile", help="compile every candidate into a folder")
    c.add_argument("src")
    c.add_argument("out")
    c.add_argument("--chip", default="sm_90a")
    c.add_argument("--top", type=int, default=0,
                   help="only the first N ranked candidates (0: all)")
    c.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    r = sub.add_parser("run", help="check and time the candidates on the GPU")
    r.add_argument("dir")
    r.add_argument("--db", help="record the fastest correct one in this file")
    r.add_argument("--tile-run", help="the runner (default: the build's)")
    r.add_argument("--warmup", type=int, default=10)
    r.add_argument("--repeats", type=int, default=100)
    r.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    if args.command == "compile":
        compile_candidates(args)
    else:
        run_candidates(args)


if __name__ == "__main__":
    main()
