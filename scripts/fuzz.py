#!/usr/bin/env python3
"""A mutation fuzzer over the lit corpus (issue 19): each mutant of a test
file (a dimension set to 0, 1, odd or huge; a dtype swapped; two SSA names
swapped; a line deleted or repeated; an integer attribute changed) goes
through tile-opt (parse and verify, then the tensor-level passes) and
tile-compile (to PTX), each under a time limit. A crash (a signal, an LLVM
error, a stack dump) or a hang is a finding: its mutant and the command
go to --out, and the exit status is 1. Errors the tools report are fine.

    scripts/fuzz.py --seconds 60 --seed 1            # a bounded, seeded run
    scripts/fuzz.py --mutants 5000 --jobs 2          # a long run
    scripts/fuzz.py --match mxfp4 --compile-flags=--pipeline-options=opt-level=2
                                                     # an option's paths, on the
                                                     # files whose name has 'mxfp4'
"""

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DTYPES = ["f32", "bf16", "f16", "f64", "i32", "i1", "i64", "f8E4M3FN"]
DIMS = [0, 1, 2, 3, 17, 1023, 4097, 2 ** 31, 2 ** 40, 2 ** 62]
SSA = re.compile(r"%[A-Za-z0-9_]+")
INTS = re.compile(r"(?<![%#A-Za-z0-9_.])(\d+)(?![0-9.x])")
CRASH = ("Stack dump", "PLEASE submit a bug report", "LLVM ERROR",
         "Assertion", "Segmentation fault", "UNREACHABLE")


def corpus(match=""):
    files = []
    for sub in ("Dialect", "Transforms", "Conversion", "Integration",
                "tile-compile", "Pipelines"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, "test", sub)):
            files += [os.path.join(dirpath, n) for n in sorted(names)
                      if n.endswith(".mlir") and match in n]
    return files


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["dim", "dim", "dtype", "ssa", "delete", "repeat", "int"])
        i = rng.randrange(len(lines))
        line = lines[i]
        if line.lstrip().startswith("//"):
            continue
        if kind == "dim":
            spots = [m for m in re.finditer(r"(?<=[<x])\d+(?=x)", line)]
            if spots:
                m = rng.choice(spots)
                line = line[:m.start()] + str(rng.choice(DIMS)) + line[m.end():]
        elif kind == "dtype":
            present = [d for d in DTYPES if re.search(rf"\b{d}\b", line)]
            if present:
                line = re.sub(rf"\b{rng.choice(present)}\b", rng.choice(DTYPES),
                              line, count=1)
        elif kind == "ssa":
            names = SSA.findall(line)
            if len(names) >= 2:
                a, b = rng.sample(names, 2)
                line = line.replace(a, "\0").replace(b, a).replace("\0", b)
        elif kind == "delete":
            line = ""
        elif kind == "repeat":
            lines.insert(i, line)
        elif kind == "int":
            spots = list(INTS.finditer(line))
            if spots:
                m = rng.choice(spots)
                line = line[:m.start()] + str(rng.choice(DIMS + [5, 7, 9])) + line[m.end():]
        lines[i] = line
    return "\n".join(lines)


def commands(path, tools, flags=()):
    opt = os.path.join(tools, "tile-opt")
    compile_ = os.path.join(tools, "tile-compile")
    return [
        [opt, path, "-o", os.devnull],
        [opt, path, "--tile-fuse", "--tile-configure=chip=sm_90a", "--tile-tile",
         "-o", os.devnull],
        [compile_, path, "--chip=sm_90a", "--fuse", "--emit=ptx", "-o", os.devnull,
         *flags],
        [compile_, path, "--chip=sm_90a", "--level=tile", "--emit=ptx", "-o",
         os.devnull, *flags],
    ]


def run_one(args):
    index, source, text, tools, limit, workdir, flags = args
    path = os.path.join(workdir, f"mutant{index}.mlir")
    with open(path, "w") as f:
        f.write(text)
    findings = []
    for cmd in commands(path, tools, flags):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=limit,
                               errors="replace")
        except subprocess.TimeoutExpired:
            findings.append(("hang", cmd, ""))
            break
        crashed = r.returncode < 0 or r.returncode >= 128 or any(
            s in r.stderr for s in CRASH)
        if crashed:
            findings.append(("crash", cmd, r.stderr[-2000:]))
            break
        if r.returncode != 0 and cmd[1] == path and cmd[0].endswith("tile-opt") \
                and len(cmd) == 4:
            break  # does not verify: the later stages would say the same
    os.remove(path)
    return index, source, text, findings


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--seconds", type=float, default=0,
                   help="stop starting mutants after this long (0: no bound)")
    p.add_argument("--mutants", type=int, default=0,
                   help="how many mutants (0: until --seconds)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--limit", type=float, default=20, help="seconds per command")
    p.add_argument("--tools", default=os.path.join(
        os.environ.get("TILE_BUILD_DIR", os.path.join(ROOT, "build")), "bin"))
    p.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "tile-fuzz"))
    p.add_argument("--match", default="",
                   help="only the corpus files whose name contains this")
    p.add_argument("--compile-flags", action="append", default=[],
                   help="a flag for every tile-compile (repeatable)")
    args = p.parse_args()
    if not args.seconds and not args.mutants:
        args.seconds = 60
    rng = random.Random(args.seed)
    files = corpus(args.match)
    if not files:
        p.error(f"no corpus file matches {args.match!r}")
    texts = {f: open(f).read() for f in files}
    os.makedirs(args.out, exist_ok=True)
    start = time.time()
    done = crashes = hangs = 0
    with tempfile.TemporaryDirectory() as workdir, \
            ThreadPoolExecutor(args.jobs) as pool:
        def jobs():
            i = 0
            while (not args.mutants or i < args.mutants) and \
                    (not args.seconds or time.time() - start < args.seconds):
                source = rng.choice(files)
                yield (i, source, mutate(texts[source], rng), args.tools,
                       args.limit, workdir, args.compile_flags)
                i += 1

        def report(result):
            nonlocal done, crashes, hangs
            index, source, text, findings = result
            done += 1
            for kind, cmd, err in findings:
                crashes += kind == "crash"
                hangs += kind == "hang"
                name = os.path.join(args.out, f"{kind}-{args.seed}-{index}.mlir")
                with open(name, "w") as f:
                    f.write(f"// fuzz: {kind} from {os.path.relpath(source, ROOT)}\n"
                            f"// command: {' '.join(cmd[:1] + ['FILE'] + cmd[2:])}\n")
                    f.write("".join(f"// {l}\n" for l in err.splitlines()[:12]))
                    f.write(text)
                print(f"{kind}: {name} ({os.path.relpath(source, ROOT)})", flush=True)

        pending = []
        for job in jobs():
            pending.append(pool.submit(run_one, job))
            while len(pending) >= 2 * args.jobs:
                report(pending.pop(0).result())
        for fut in pending:
            report(fut.result())
    print(f"fuzz: {done} mutants of {len(files)} files in {time.time() - start:.0f} s "
          f"(seed {args.seed}): {crashes} crashes, {hangs} hangs"
          + (f"; mutants in {args.out}" if crashes or hangs else ""))
    return 1 if crashes or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
