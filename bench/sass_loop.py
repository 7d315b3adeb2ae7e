#!/usr/bin/env python3
"""The innermost loop of a kernel's SASS that holds tensor-core
instructions (HMMA, HGMMA, QGMMA): its instruction count and the most
frequent opcodes. Reads nvdisasm's output (`nvdisasm -c kernel.cubin`).
With --all, every loop (a backward branch's span) that holds them, in
address order: a kernel of several K loops (k_warpgroups partitions, a
persistent loop's inner loop) or one whose smallest such span is not the
K loop. A span's count includes its conditional blocks (a causal
attention kernel's diagonal mask, skipped by a branch off the diagonal).
With --order, each loop's tensor-core issues (G), wgmma waits (W and
the groups left in flight), named barriers (B) and MUFU runs in program
order: whether exponentials or decode sit between a product's issue and
its wait (bench/RESULTS.md sessions 27, 38).

    python3 bench/sass_loop.py [--all] [--order] kernel.sass
"""
import re
import sys

INSTR = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/")


def loops(lines):
    """(label, body lines, tensor-core count) of each backward branch's
    span that holds tensor-core instructions and no EXIT, in address
    order."""
    labels = {}
    for i, line in enumerate(lines):
        m = re.match(r"^(\.L_x_\d+):", line)
        if m:
            labels[m.group(1)] = i
    found = []
    for i, line in enumerate(lines):
        m = re.search(r"BRA\s+`\((\.L_x_\d+)\)", line)
        if not m or m.group(1) not in labels or labels[m.group(1)] >= i:
            continue  # a forward branch: not a loop's back edge
        body = [x for x in lines[labels[m.group(1)]:i + 1] if INSTR.match(x)]
        mma = sum(1 for x in body if "MMA" in x)
        # A cold path after the kernel's end (an mbarrier wait's retry)
        # branches back into the body: its span holds the EXIT.
        if mma and not any(re.search(r"\bEXIT\b", x) for x in body):
            found.append((labels[m.group(1)], m.group(1), body, mma))
    return [f[1:] for f in sorted(found)]


def summary(label, body, mma):
    ops = {}
    for x in body:
        op = re.sub(r"^\s*/\*[0-9a-f]{4,}\*/\s*(@!?U?P\w+\s+)?", "", x).split()[0]
        op = op.split(".")[0]
        ops[op] = ops.get(op, 0) + 1
    top = sorted(ops.items(), key=lambda kv: -kv[1])[:12]
    return (f"loop {label}: {len(body)} instrs, {mma} MMA; "
            + " ".join(f"{k}:{v}" for k, v in top))


def order(body):
    """The loop's tensor-core issues, waits, barriers and MUFU runs."""
    seq = []
    for x in body:
        if "DEPBAR" in x:
            m = re.search(r"0x([0-9a-f]+)", x)
            seq.append("W" + (m.group(1) if m else "?"))
        elif "MUFU" in x:
            seq.append("M")
        elif "MMA" in x:
            seq.append("G")
        elif re.search(r"\bBAR\.(SYNC|ARV)", x):
            seq.append("B")
    text = "".join(seq)
    for unit in "MG":
        text = re.sub(unit + "+", lambda m: f"[{len(m.group(0))}{unit}]", text)
    return text


def main(argv):
    every = "--all" in argv
    ordered = "--order" in argv
    paths = [a for a in argv if a not in ("--all", "--order")]
    if len(paths) != 1:
        sys.exit("usage: bench/sass_loop.py [--all] [--order] kernel.sass")
    found = loops(open(paths[0]).read().split("\n"))
    if not found:
        sys.exit(f"{paths[0]}: no loop with tensor-core instructions")
    for loop in found if every else [min(found, key=lambda f: len(f[1]))]:
        print(summary(*loop))
        if ordered:
            print("  order: " + order(loop[1]))


if __name__ == "__main__":
    main(sys.argv[1:])
