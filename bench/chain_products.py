#!/usr/bin/env python3
"""A bundle whose kernel issues the products of a K step back to back: each
`wgmma.commit_group; wgmma.wait_group 0; wgmma.fence` between two wgmma
groups that accumulate into the same registers goes, so one wait closes
the step (the MXFP4 transposed kernel waits after every two of its
sixteen wgmma a step). For timing what those waits cost (METHOD.md's
ablation, as bench/drop_copies.py does for copies); ptxas keeps the
result right (the A registers stay live until the one wait), so the
bundle keeps its reference and tile-run checks it. Session 36 measured
the compiler's version of this (chain-products) as no gain while the
weight's copies dominated; session 40's wider boxes made them cheaper.
A pass doing it (tile-chain-products, sessions 55-56) was no faster on
the H100 at M <= 16 and was deleted.

    python3 bench/chain_products.py IN.tilebundle OUT.tilebundle [relax]

With `relax`, those waits stay but wait for all but one group (`wgmma.
wait_group 1`): one product stays in flight while the next is decoded,
where without it all of a step's do (CUTLASS's mainloop keeps one).

ptxas ($PTXAS, default /usr/local/cuda/bin/ptxas) assembles the new PTX.
"""
import re
import sys

from ptx_edit import edit_main_module

SUM = re.compile(r"wgmma\.mma_async\S* \{([^}]*)\}")


def chain(ptx, relax=False):
    lines = ptx.split("\n")
    out, changed, i = [], 0, 0
    last_sum = None  # the accumulator of the last wgmma seen
    while i < len(lines):
        line = lines[i]
        m = SUM.search(line)
        if m:
            last_sum = m.group(1)
        if ("wgmma.commit_group" in line and i + 2 < len(lines) and
                re.search(r"wgmma\.wait_group\.sync\.aligned\s+0;",
                          lines[i + 1]) and
                "wgmma.fence" in lines[i + 2]):
            # The next wgmma (before any other wait) and its accumulator.
            nxt = None
            for later in lines[i + 3:i + 400]:
                if "wgmma.wait_group" in later or "wgmma.commit_group" in later:
                    break
                n = SUM.search(later)
                if n:
                    nxt = n.group(1)
                    break
            if nxt is not None and nxt == last_sum:
                changed += 1
                if relax:
                    lines[i + 1] = re.sub(r"aligned(\s+)0;", r"aligned\g<1>1;",
                                          lines[i + 1])
                else:
                    i += 3
                    continue
        out.append(line)
        i += 1
    return "\n".join(out), changed


def main(source, target, relax=False):
    entry, changed = edit_main_module(source, target,
                                      lambda ptx: chain(ptx, relax))
    if not changed:
        sys.exit("chain_products: no wait between products of one sum")
    print(f"{target}: {entry}: {changed} waits between products "
          f"of one sum {'relaxed to 1' if relax else 'removed'}")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and
                                       sys.argv[3] != "relax"):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], len(sys.argv) == 4)
