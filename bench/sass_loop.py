#!/usr/bin/env python3
"""The innermost loop of a kernel's SASS that holds tensor-core
instructions (HMMA, HGMMA, QGMMA): its instruction count and the most
frequent opcodes. Reads nvdisasm's output (`nvdisasm -c kernel.cubin`).

    python3 bench/sass_loop.py kernel.sass
"""
import re
import sys


def main(path):
    lines = open(path).read().split("\n")
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            labels[m.group(1)] = i
    best = None
    for i, line in enumerate(lines):
        m = re.search(r"BRA\s+`\((\.L_x_\d+)\)", line)
        if not m or m.group(1) not in labels or labels[m.group(1)] >= i:
            continue  # a forward branch: not a loop's back edge
        body = [x for x in lines[labels[m.group(1)]:i + 1]
                if re.match(r"^\s*/\*[0-9a-f]{4,}\*/", x)]
        mma = sum(1 for x in body if "MMA" in x)
        if mma and (best is None or len(body) < len(best[1])):
            best = (m.group(1), body, mma)
    if not best:
        sys.exit(f"{path}: no loop with tensor-core instructions")
    ops = {}
    for x in best[1]:
        op = re.sub(r"^\s*/\*[0-9a-f]{4,}\*/\s*(@!?U?P\w+\s+)?", "", x).split()[0]
        op = op.split(".")[0]
        ops[op] = ops.get(op, 0) + 1
    top = sorted(ops.items(), key=lambda kv: -kv[1])[:12]
    print(f"loop {best[0]}: {len(best[1])} instrs, {best[2]} MMA; "
          + " ".join(f"{k}:{v}" for k, v in top))


if __name__ == "__main__":
    main(sys.argv[1])
