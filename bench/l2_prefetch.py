#!/usr/bin/env python3
"""A bundle whose kernel's plain global loads ask the L2 to fetch SIZE
bytes around each (PTX `ld.global.L2::SIZE`, a hint: the values loaded do
not change, so the bundle keeps its reference and tile-run checks it). In
the transposed weight-only kernels the only such loads are the scales'
(the weight and x come through the TMA): each K step reads 8 bytes of
each of a program's rows, rows K / 32 bytes apart (MXFP4), so without a
hint each step brings a 32-byte sector a row from DRAM and the next three
steps' bytes in it, and the L2 fetches the row's other sectors only when
a later step asks. With SIZE = 256B one request brings a 256-byte line
(all of a row's scales at K = 8192). For timing whether the scale loads'
cost is their DRAM requests rather than their bytes (bench/RESULTS.md,
session 56: 7.1% of MXFP4's time flushed, 5.6% of its bytes).

    python3 bench/l2_prefetch.py IN.tilebundle OUT.tilebundle [64B|128B|256B]

ptxas ($PTXAS, default /usr/local/cuda/bin/ptxas) assembles the new PTX.
"""
import re
import sys

from ptx_edit import edit_main_module

LOAD = re.compile(r"^(\s*)ld\.global\.(b(?:16|32|64)\s)", re.M)


def hinted(size):
    def edit(ptx):
        return LOAD.subn(lambda m: f"{m.group(1)}ld.global.L2::{size}.{m.group(2)}",
                         ptx)
    return edit


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    size = sys.argv[3] if len(sys.argv) == 4 else "256B"
    if size not in ("64B", "128B", "256B"):
        sys.exit(f"l2_prefetch: SIZE is 64B, 128B or 256B, not {size}")
    entry, count = edit_main_module(sys.argv[1], sys.argv[2], hinted(size))
    if not count:
        sys.exit(f"l2_prefetch: no global loads in {entry}")
    print(f"{sys.argv[2]}: {entry}: {count} loads with .L2::{size}")
