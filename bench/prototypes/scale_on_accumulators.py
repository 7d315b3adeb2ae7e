#!/usr/bin/env python3
"""Prototype (not part of the compiler), session 40: the int4 weight-only
kernel with its per-group scales applied to the accumulators instead of
the decoded weight, made by editing a bundle's PTX, to measure before
building it in the compiler (issue 17).

Today each K step of the transposed int4 kernel (y^T = W x^T, W in
registers) multiplies every decoded bf16 pair by its group's scale
(`mul.rn.bf16x2`, 64 a step a thread) and runs one product per group of
128 (eight m64n16k16 wgmma, then `wait_group 0`). Here each product
writes a fresh accumulator (the first wgmma with scale-d = 0), the
multiplies go, and after the product's wait its 8 values are added to
the running sum times the row's scale (8 `fma.rn.f32` a product: the
scale of row r for accumulator values 0, 1, 4, 5 and of row r + 8 for
2, 3, 6, 7, wgmma's m64nNk16 fragment). The result is W x^T with W = q s
exact instead of rounded to bf16 first: within the check's tolerance,
not bit for bit the reference's.

    python3 bench/prototypes/scale_on_accumulators.py IN.tilebundle OUT.tilebundle
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                ".."))
from ptx_edit import bundle, main_module, write_with_ptx  # noqa: E402

WGMMA = re.compile(r"^wgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\.f32\.bf16\.bf16 "
                   r"\{([^}]*)\}, \{([^}]*)\}, (%rd\d+), p, 1, 1, 0;")
MUL = re.compile(r"^\s*mul\.rn\.bf16x2\s+(%r\d+),\s*(%r\d+),\s*(%r\d+);")
SPLAT = re.compile(r"^\s*mov\.b32\s+(%r\d+),\s*\{(%rs\d+),\s*(%rs\d+)\};")
ADD = re.compile(r"^\s*add\.rn\.bf16x2\s+(%r\d+),")


def rewrite(ptx):
    lines = ptx.split("\n")
    splat, summed, mul = set(), set(), {}
    for line in lines:
        if m := SPLAT.match(line):
            if m.group(2) == m.group(3):
                splat.add(m.group(1))
        if m := ADD.match(line):
            summed.add(m.group(1))
        if m := MUL.match(line):
            mul[m.group(1)] = (m.group(2), m.group(3))

    def value_and_scale(reg):
        a, b = mul[reg]
        if a in splat and b in summed:
            return b, a
        if b in splat and a in summed:
            return a, b
        raise ValueError(f"{reg}: not a decoded value times a scale")

    out, products, fresh = [], 0, 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() != "wgmma.fence.sync.aligned;":
            out.append(line)
            i += 1
            continue
        # One product: from the fence to its wait_group 0.
        j = i
        while "wgmma.wait_group.sync.aligned" not in lines[j]:
            j += 1
        if not lines[j].strip().endswith("0;"):
            raise ValueError(f"line {j + 1}: a product not waited for at once")
        block = lines[i:j + 1]
        calls = [k for k, x in enumerate(block) if WGMMA.match(x)]
        accs = {WGMMA.match(block[k]).group(2) for k in calls}
        if len(accs) != 1:
            raise ValueError(f"line {i + 1}: a product of several sums")
        acc = [r.strip() for r in accs.pop().split(",")]
        if len(acc) != 8:
            raise ValueError(f"line {i + 1}: not an m64n16 sum")
        scales = None
        for k in calls:
            a = [r.strip() for r in WGMMA.match(block[k]).group(3).split(",")]
            s = [value_and_scale(r)[1] for r in a]
            if s[0] != s[2] or s[1] != s[3] or (scales and scales != s[:2]):
                raise ValueError(f"line {i + k + 1}: rows' scales differ "
                                 f"within a product")
            scales = s[:2]
        names = [f"%sacc{fresh}_{n}" for n in range(8)]
        fresh += 1
        out.append(f"\t{{ .reg .b32 {', '.join(names)};")
        for k, x in enumerate(block):
            if m := WGMMA.match(x):
                x = x.replace("{" + m.group(2) + "}", "{" + ", ".join(names) + "}")
                if k == calls[0]:  # scale-d = 0: a fresh sum
                    prev = out[-1]
                    pm = re.match(r"^setp\.ne\.b32 p, (%r\d+), 0;$", prev)
                    if not pm:
                        raise ValueError(f"line {i + k}: no scale-d predicate")
                    out[-1] = f"setp.ne.b32 p, {pm.group(1)}, {pm.group(1)};"
            out.append(x)
        out.append(f"\t{{ .reg .b32 %sf<2>;")
        for n, s in enumerate(scales):
            out.append(f"\tshl.b32 \t%sf{n}, {s}, 16;")
        for n in range(8):
            row = 0 if n % 4 < 2 else 1
            out.append(f"\tfma.rn.f32 \t{acc[n]}, {names[n]}, %sf{row}, {acc[n]};")
        out.append("\t}\n\t}")
        products += 1
        i = j + 1
    text = "\n".join(out)
    # The decoded values feed the products as they are.
    def unscale(m):
        value, _ = value_and_scale(m.group(1))
        return f"\tmov.b32 \t{m.group(1)}, {value};"
    text = re.sub(r"^\s*mul\.rn\.bf16x2\s+(%r\d+),\s*%r\d+,\s*%r\d+;", unscale,
                  text, flags=re.M)
    return text, products


def main(source, target):
    b = bundle.load(source)
    launch, module = main_module(b)
    ptx, products = rewrite(module.ptx.decode())
    write_with_ptx(b, module, ptx, target)
    print(f"{target}: {launch.entry}: {products} products scale their sums")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
