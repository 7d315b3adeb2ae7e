#!/usr/bin/env python3
"""The kernel bundles of the GPU integration tests that their lit RUN lines
build beside the default ones: every `// RUN: tile-compile %s ARGS -o
%t.VARIANT.tilebundle` line of a test/Integration/*.mlir whose VARIANT is
not just its chip (another function, other options). scripts/compile-
bundles.sh compiles each test for every chip with its TILE-COMPILE-FLAGS,
and these too, so that scripts/gpu-check.sh on the GPU machine (no LLVM,
no lit) runs every kernel lit would.

    python3 scripts/integration_runs.py [TEST.mlir ...]

prints one line per bundle: its name, the test's path, then tile-compile's
arguments after it, separated by tabs. The name is the test's, its chip
and the variant (`%t.decode.tilebundle` of an sm_90a line:
`matmul_int4_runs_transposed_ragged.sm_90a.decode`).
"""
import glob
import os
import re
import shlex
import sys

RUN = re.compile(r"^// RUN: tile-compile %s (.*) -o %t(\S*)\.tilebundle\s*$")
# Any RUN line that compiles a bundle: RUN must read every one of them.
BUNDLE = re.compile(r"^// RUN: .*tile-compile\b.*\.tilebundle")


def bundles(path):
    test = os.path.basename(path)[:-len(".mlir")]
    seen = set()
    for number, line in enumerate(open(path), 1):
        m = RUN.match(line)
        if not m:
            if BUNDLE.match(line):
                sys.exit(f"{path}:{number}: a tile-compile RUN line that "
                         f"writes a bundle must read `tile-compile %s ARGS "
                         f"-o %t[.VARIANT].tilebundle`")
            continue
        if "--emit" in m.group(1):
            continue
        args = shlex.split(m.group(1))
        chips = [a.split("=", 1)[1] for a in args if a.startswith("--chip=")]
        if len(chips) != 1 or "%" in m.group(1):
            sys.exit(f"{path}:{number}: a tile-compile RUN line needs one "
                     f"--chip=... and no lit substitution but %s")
        chip = chips[0]
        variant = m.group(2).lstrip(".")
        if variant in ("", chip, chip.replace("_", "")):
            continue  # the default bundle of that chip
        name = f"{test}.{chip}.{variant}"
        if name in seen:
            sys.exit(f"{path}:{number}: a second bundle named {name}")
        seen.add(name)
        yield name, args


def main(paths):
    if not paths:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        paths = sorted(glob.glob(os.path.join(root, "test", "Integration",
                                              "*.mlir")))
    for path in paths:
        for name, args in bundles(path):
            print("\t".join([name, path] + args))


if __name__ == "__main__":
    main(sys.argv[1:])
