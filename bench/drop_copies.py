#!/usr/bin/env python3
"""A bundle whose kernel skips the TMA copies of some tensor maps: for
timing what those copies cost (METHOD.md's ablation: the time without
them bounds what sharing or shrinking them can win). Not for checking: the
kernel computes from whatever the skipped slots hold, so use a bundle
without a reference (tile-compile --level=tile: UNCHECKED under tile-run).

    python3 bench/drop_copies.py IN.tilebundle OUT.tilebundle PARAM [PARAM...]

PARAM is the kernel parameter index of a tensor map (`ld.param.b64 %rdN,
[KERNEL_param_PARAM]`) of the first main launch whose kernel copies from
it. Every
`cp.async.bulk.tensor` from that map is deleted, and each
`mbarrier.arrive.expect_tx` whose transaction bytes only those copies
completed expects 0 bytes instead (the arrival stays, so the barrier's
count is unchanged). ptxas ($PTXAS, default /usr/local/cuda/bin/ptxas)
assembles the new PTX for the bundle's target.
"""
import re
import sys

from ptx_edit import bundle, write_with_ptx


def drop(ptx, kernel, params):
    lines = ptx.split("\n")
    maps = set()
    for line in lines:
        m = re.search(r"ld\.param\.b64\s+(%rd\d+),\s*\[" + re.escape(kernel) +
                      r"_param_(\d+)\]", line)
        if m and int(m.group(2)) in params:
            maps.add(m.group(1))
    if len(maps) != len(params):
        raise LookupError(f"{kernel} loads no map from parameters "
                          f"{sorted(params)}")
    copy = re.compile(r"cp\.async\.bulk\.tensor\S*\s+\[[^]]*\],\s*\[(%rd\d+),"
                      r".*\],\s*\[([^]]+)\];")
    arrive = re.compile(r"mbarrier\.arrive\.expect_tx\S*\s+[^,]+,\s*\[([^]]+)\]")
    out, dropped = [], 0
    # Each arrive.expect_tx with the copies after it up to the next arrive:
    # those copies complete its bytes, on its barrier (checked: a copy
    # that signals another barrier, or comes before any arrive, would make
    # this count wrong and the kernel wait for ever).
    groups = []
    for i, line in enumerate(lines):
        a = arrive.search(line)
        if a:
            groups.append([i, 0, 0, a.group(1)])  # line, dropped, kept, barrier
        m = copy.search(line)
        if m:
            if not groups or groups[-1][3] != m.group(2):
                sys.exit(f"drop_copies: {kernel}'s PTX line {i + 1} copies "
                         f"for barrier {m.group(2)} with no arrival on it "
                         f"before: the bytes cannot be assigned here")
            groups[-1][1 if m.group(1) in maps else 2] += 1
    zero = {i for i, d, k, _ in groups if d and not k}
    mixed = [i for i, d, k, _ in groups if d and k]
    if mixed:
        sys.exit(f"drop_copies: {kernel}'s PTX lines {mixed} arrive for "
                 f"copies of both kinds; their bytes cannot be split here")
    for i, line in enumerate(lines):
        m = copy.search(line)
        if m and m.group(1) in maps:
            dropped += 1
            continue
        if i in zero:
            line = re.sub(r",\s*[^,;]+;\s*$", ", 0;", line)
        out.append(line)
    if not dropped:
        raise LookupError(f"{kernel} has no copies from those maps")
    return "\n".join(out), dropped, len(zero)


def main(source, target, params):
    b = bundle.load(source)
    why = []
    for launch in b.main_launches:
        module = next(m for m in b.modules if m.name == launch.module)
        try:
            ptx, dropped, zeroed = drop(module.ptx.decode(), launch.entry,
                                        params)
            break
        except LookupError as e:
            why.append(str(e))
    else:
        sys.exit("drop_copies: no main launch copies from those maps: " +
                 "; ".join(why))
    write_with_ptx(b, module, ptx, target)
    print(f"{target}: {launch.entry}: {dropped} copies dropped, {zeroed} "
          f"arrivals expect 0 bytes")


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], {int(p) for p in sys.argv[3:]})
