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
import math
import os
import re
import subprocess
import sys
import tempfile

SCHEDULE_VERSION = 1  # TuningDatabase.h's kScheduleVersion
FORMAT_VERSION = 1    # TuningDatabase.h's kTuningFormatVersion

KEY = re.compile(r"candidate configs for tuning key '(?P<op>\S+) (?P<chip>\S+) "
                 r"sms=(?P<sms>\d+) (?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+) "
                 r"(?P<lhs>\w+),(?P<rhs>\w+)->(?P<result>\w+)'")
CANDIDATE = re.compile(r"^\s*candidate (\d+): (#tile\.config<.*>)\s*$")


def build_dir():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.environ.get("TILE_BUILD_DIR", os.path.join(root, "build"))


def list_candidates(src, chip, options=""):
    """The matmul's tuning key and its ranked candidate configs (under
    more tile-configure `options`, if given)."""
    tile_opt = os.path.join(build_dir(), "bin", "tile-opt")
    proc = subprocess.run(
        [tile_opt, src, "--tile-fuse",
         f"--tile-configure=chip={chip} list-candidates {options}".strip(),
         "-o", os.devnull],
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
    tile_run = args.tile_run or os.environ.get("TILE_RUN") or \
        os.path.join(build_dir(), "bin", "tile-run")
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


BLOCK = re.compile(r"block = \[(\d+), (\d+)")
SPLIT = re.compile(r"split_k = (\d+)")


def short_config(config):
    """'64x128 split 4 in kernel' (or 'in cluster') for a wgmma config's
    block and split."""
    block = BLOCK.search(config)
    text = f"{block.group(1)}x{block.group(2)}" if block else config
    split = SPLIT.search(config)
    if split:
        text += f" split {split.group(1)}"
        if "split_k_in_kernel = true" in config:
            text += " in kernel"
        elif "cluster = [1, 1," in config:
            text += " in cluster"
    return text


def source_for(folder, key):
    """The tensor-level source a tuning folder's candidates came from:
    candidates.json's, where that file is still there, else a plain
    A x B -> result of the key's shape and types (the matmul whose
    candidates bench/compile-gemm.sh's bundles have; its bf16 cast does
    not change them), in a temporary file the caller removes (the second
    result); None for keys that no plain matmul has (dequantized weights,
    fp8's transposed B)."""
    plan = os.path.join(folder or "", "candidates.json")
    if folder and os.path.exists(plan):
        with open(plan) as f:
            src = json.load(f).get("source")
        if src and os.path.exists(src):
            return src, False
    if key["op"] != "tile.matmul" or key["lhs"] not in ("bf16", "f16") or \
            key["rhs"] != key["lhs"]:
        return None, False
    m, n, k, t, r = key["m"], key["n"], key["k"], key["lhs"], key["result"]
    text = (f"func.func @g(%a: tensor<{m}x{k}x{t}>, %b: tensor<{k}x{n}x{t}>) "
            f"-> tensor<{m}x{n}x{r}> {{\n"
            f"  %c = tile.matmul %a, %b : (tensor<{m}x{k}x{t}>, "
            f"tensor<{k}x{n}x{t}>) -> tensor<{m}x{n}x{r}>\n"
            f"  return %c : tensor<{m}x{n}x{r}>\n}}\n")
    fd, src = tempfile.mkstemp(suffix=".mlir", prefix="tile-evaluate-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return src, True


def json_lines(path):
    """The objects of a JSON-lines file (blank and '#' lines skipped)."""
    with open(path) as f:
        return [json.loads(line) for line in f
                if line.strip() and not line.lstrip().startswith("#")]


def load_runs(paths):
    """(folder, run) for each tuning run: a folder of `run` (its
    results.json), or a JSON-lines file of such runs, one per line (as
    bench/tuning-runs/ keeps them; folder None: no candidates.json)."""
    for path in paths:
        if os.path.isdir(path):
            results = os.path.join(path, "results.json")
            if not os.path.exists(results):
                sys.exit(f"tile_tune: {path} has no results.json: run "
                         f"`tile_tune.py run {path}` on the GPU first")
            with open(results) as f:
                yield path, json.load(f)
            continue
        for run in json_lines(path):
            yield None, run


def evaluate(args):
    """For each setting of tile-configure options, the config the heuristic
    picks for each tuned matmul and its time in that folder's run: the
    heuristic judged against the tuned best (and the peers) without a GPU."""
    settings = list(dict.fromkeys(args.configure_options or [""]))
    peers = {}
    if args.peers:
        for row in json_lines(args.peers):
            if row.get("peer", "cublas") == "cublas":
                peers[row["shape"]] = float(row["time_us"])
    print("| shape | tuned best | " + " | ".join(
        f"heuristic ({s or 'table'})" for s in settings) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in settings) + " |")
    ratios = {s: [] for s in settings}
    peer_ratios = {s: [] for s in settings}
    untimed = {s: 0 for s in settings}
    no_source = failed = 0
    for folder, run in load_runs(args.dirs):
        key = run["key"]
        shape = f"{key['m']}x{key['n']}x{key['k']}"
        times = {r["config"]: r["time_us"] for r in run["results"]
                 if r["status"] == "PASS"}
        if not times:
            failed += 1
            print(f"| {shape} | no candidate passed | " +
                  " | ".join("-" for _ in settings) + " |")
            continue
        best_config = min(times, key=times.get)
        best = times[best_config]
        src, temporary = source_for(folder, key)
        if src is None:
            no_source += 1
            print(f"| {shape} | {short_config(best_config)}: {best:.2f} us | " +
                  " | ".join("no plain source" for _ in settings) + " |")
            continue
        cells = []
        try:
            for setting in settings:
                picked_key, configs = list_candidates(src, key["chip"], setting)
                if picked_key != key:
                    sys.exit(f"tile_tune: the source for {shape} has the "
                             f"tuning key {picked_key}, the run {key}")
                pick = configs[0] if configs else None
                if pick not in times:
                    cells.append(
                        f"{short_config(pick) if pick else '-'}: not timed")
                    untimed[setting] += 1
                    continue
                ratios[setting].append(best / times[pick])
                if shape in peers:
                    peer_ratios[setting].append(peers[shape] / times[pick])
                cells.append(f"{short_config(pick)}: {times[pick]:.2f} us "
                             f"({best / times[pick]:.3f} of best)")
        finally:
            if temporary:
                os.remove(src)
        print(f"| {shape} | {short_config(best_config)}: {best:.2f} us | " +
              " | ".join(cells) + " |")

    def geomean(values):
        if not values:
            return float("nan")
        return math.exp(sum(map(math.log, values)) / len(values))

    for setting in settings:
        line = (f"{setting or 'table'}: geomean {geomean(ratios[setting]):.3f} "
                f"of the tuned best over {len(ratios[setting])} shapes")
        if peer_ratios[setting]:
            line += (f"; against the peer {geomean(peer_ratios[setting]):.3f}, "
                     f"lowest {min(peer_ratios[setting]):.3f}")
        if untimed[setting]:
            line += f"; {untimed[setting]} picks not timed in these runs"
        print(line)
    if no_source or failed:
        print(f"left out: {no_source} runs with no plain source (their keys: "
              f"dequantized or fp8 matmuls), {failed} with no passing "
              f"candidate")


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
    r.add_argument("--tile-run", help="the runner (default: $TILE_RUN, else "
                   "the build's)")
    r.add_argument("--warmup", type=int, default=10)
    r.add_argument("--repeats", type=int, default=100)
    r.add_argument("--timeout", type=float, default=60)
    e = sub.add_parser(
        "evaluate", help="judge the heuristic (under tile-configure options) "
        "against tuning runs, without a GPU")
    e.add_argument("dirs", nargs="+",
                   help="folders of `run` (each with its results.json), or "
                   "JSON-lines files of such runs (bench/tuning-runs/)")
    e.add_argument("--configure-options", action="append",
                   help="more tile-configure options for the heuristic "
                   "(repeat for several settings, each a column; '' is the "
                   "table as it is)")
    e.add_argument("--peers", help="JSON lines {shape: 'MxNxK', time_us}, "
                   "e.g. bench/gemm_peers.py's (its cublas rows)")
    args = parser.parse_args()
    if args.command == "compile":
        compile_candidates(args)
    elif args.command == "run":
        run_candidates(args)
    else:
        evaluate(args)


if __name__ == "__main__":
    main()
