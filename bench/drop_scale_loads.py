#!/usr/bin/env python3
"""A bundle whose kernel reads its weight's scales from no memory: each
`ld.global` of the first main launch (in the transposed weight-only
kernels, only the scale loads: the weight and x come through the TMA)
becomes a copy of the lane index, which ptxas cannot fold. For timing
what the scale loads cost, their bytes and their latency together
(METHOD.md's ablation; bench/RESULTS.md, session 56: 7.1% of MXFP4's
time at 16x8192x8192 from a flushed L2, nothing from a warm one). Not
for checking: the scales change, so use a bundle compiled with
--no-reference (UNCHECKED under tile-run).

    python3 bench/drop_scale_loads.py IN.tilebundle OUT.tilebundle

ptxas ($PTXAS, default /usr/local/cuda/bin/ptxas) assembles the new PTX.
"""
import re
import sys

from ptx_edit import edit_main_module

LOAD = re.compile(
    r"^(\s*)ld\.global\.b(16|32|64)\s+(%r[sd]?\d+),\s*\[%rd\d+\];\s*$", re.M)


def drop(ptx):
    count = 0

    def lane(m):
        nonlocal count
        count += 1
        indent, width, dst = m.groups()
        reg = f"%lane_idx{count}"
        read = f"{indent}mov.u32 \t{reg}, %laneid;\n"
        if width == "32":
            return read + f"{indent}mov.b32 \t{dst}, {reg};"
        return read + f"{indent}cvt.u{width}.u32 \t{dst}, {reg};"

    out = LOAD.sub(lane, ptx)
    if count:
        out = re.sub(r"(\.reg \.b64 \t%rd<\d+>;)",
                     lambda m: m.group(1) + f"\n\t.reg .b32 \t%lane_idx<{count + 1}>;",
                     out, count=1)
    return out, count


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    entry, count = edit_main_module(sys.argv[1], sys.argv[2], drop)
    if not count:
        sys.exit(f"drop_scale_loads: no global loads in {entry}")
    print(f"{sys.argv[2]}: {entry}: {count} loads")
