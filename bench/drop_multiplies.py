#!/usr/bin/env python3
"""A bundle whose kernel skips some packed bf16 multiplies of its decode:
for timing what they cost (METHOD.md's ablation, as bench/drop_copies.py
does for copies). Not for checking: the kernel's values change, so use a
bundle compiled with --no-reference (UNCHECKED under tile-run).

    python3 bench/drop_multiplies.py IN.tilebundle OUT.tilebundle RULE

RULE picks the `mul.rn.bf16x2 d, a, b` that become `mov.b32 d, x`:
  scale     a factor made by `add.rn.bf16x2` (the int4 decode's value after
            its magic-number subtraction): d takes that factor, so the
            per-group scale multiply is gone (an upper bound for applying
            the scales to the accumulators instead, 8 FFMA a product);
  constant  a factor that is a `mov.b32` of an immediate (MXFP4's 2^126
            bias): d takes the other factor, so one multiply a pair is left
            (what folding 2^126 into the scale would leave).
ptxas ($PTXAS, default /usr/local/cuda/bin/ptxas) assembles the new PTX.
"""
import re
import sys

from ptx_edit import edit_main_module

MUL = re.compile(r"^(\s*)mul\.rn\.bf16x2\s+(%r\d+),\s*(%r\d+),\s*(%r\d+);")


def drop(ptx, rule):
    lines = ptx.split("\n")
    made_by = {}
    for line in lines:
        m = re.match(r"^\s*(add\.rn\.bf16x2|mov\.b32)\s+(%r\d+),\s*(.*);",
                     line)
        if m and (m.group(1) != "mov.b32" or
                  re.fullmatch(r"-?\d+|0x[0-9a-fA-F]+", m.group(3))):
            made_by[m.group(2)] = m.group(1)
    want = "add.rn.bf16x2" if rule == "scale" else "mov.b32"
    out, dropped = [], 0
    for line in lines:
        m = MUL.match(line)
        if m:
            lhs, rhs = m.group(3), m.group(4)
            keep = None
            if made_by.get(lhs) == want:
                keep = lhs if rule == "scale" else rhs
            elif made_by.get(rhs) == want:
                keep = rhs if rule == "scale" else lhs
            if keep:
                line = f"{m.group(1)}mov.b32 \t{m.group(2)}, {keep};"
                dropped += 1
        out.append(line)
    return "\n".join(out), dropped


def main(source, target, rule):
    if rule not in ("scale", "constant"):
        sys.exit(__doc__)
    entry, dropped = edit_main_module(source, target,
                                      lambda ptx: drop(ptx, rule))
    if not dropped:
        sys.exit(f"drop_multiplies: no multiply matches rule {rule}")
    print(f"{target}: {entry}: {dropped} multiplies dropped ({rule})")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
