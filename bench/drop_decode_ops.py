#!/usr/bin/env python3
"""A bundle whose MXFP4 decode places each e2m1 pair with fewer integer
ops: for timing what a packing that stores each pair's bits in place
would save (METHOD.md's ablation, as bench/drop_multiplies.py does for the
decode's multiplies). Not for checking: the kernel reads the codes' bits
where they are not, so use a bundle compiled with --no-reference
(UNCHECKED under tile-run).

    python3 bench/drop_decode_ops.py IN.tilebundle OUT.tilebundle RULE

tile-packed-dequant places two e2m1 codes in a bf16 pair with three
integer ops ending in `and.b32 d, x, 0x81C081C0` (sign to bits 15 / 31,
exponent and mantissa to bits 8-6 / 24-22). RULE says what each such pair
costs instead, reading the 32-bit word its codes came from:
  one       an `and` of the word: one op a pair (a lower bound);
  shifted   the pair of the word's nibbles 0 and 4 (first mask
            0x000F000F) an `and`, each other pair a `shr.u32` of the word
            and the `and`: 1.75 ops a pair, what a packing with each
            pair's eight bits side by side at its own shift would cost.
The four pairs of a word get different masks (one) or shifts (shifted),
so that ptxas cannot merge them into one.
ptxas ($PTXAS, default /usr/local/cuda/bin/ptxas) assembles the new PTX.
"""
import re
import sys

from ptx_edit import edit_main_module

PAIR_MASK = str(0x81C081C0 - (1 << 32))  # as the PTX prints it: -2118090304
# The first `and` of each of a word's four pairs: nibbles 0 / 4, 1 / 5,
# 2 / 6 and 3 / 7.
NIBBLE_MASKS = [0x000F000F, 0x00F000F0, 0x0F000F00, 0xF000F000]
DEF = re.compile(r"^\s*([a-z][\w.]*)\s+(%r\d+),\s*(.*);")


def operands(text):
    return re.findall(r"%r\d+", text)


def drop(ptx, rule):
    lines = ptx.split("\n")
    defs = {}
    for line in lines:
        m = DEF.match(line)
        if m:
            defs[m.group(2)] = (m.group(1), m.group(3))

    def source_word(reg):
        """The loaded word a pair's integer ops start from, and the mask
        of the first `and` on the way (which nibbles it takes)."""
        first_mask = None
        while reg in defs:
            op, args = defs[reg]
            if op.startswith("ld."):
                return reg, first_mask
            if op not in ("and.b32", "or.b32", "shr.u32", "shl.b32",
                          "mul.lo.s32"):
                return None, None
            if op == "and.b32":
                first_mask = args.split(",")[-1].strip()
            regs = operands(args)
            reg = regs[0]
        return None, None

    out, changed, tmp = [], 0, 0
    for line in lines:
        m = re.match(r"^(\s*)and\.b32\s+(%r\d+),\s*(%r\d+),\s*" + PAIR_MASK +
                     r";", line)
        if m:
            word, first = source_word(m.group(3))
            if word:
                ind, dst = m.group(1), m.group(2)
                # Which of the word's four pairs (its first mask).
                pair = NIBBLE_MASKS.index(int(first) & 0xFFFFFFFF)
                if rule == "shifted" and pair:
                    tmp += 1
                    out.append(f"{ind}.reg .b32 %dd{tmp};")
                    out.append(f"{ind}shr.u32 \t%dd{tmp}, {word}, {pair};")
                    line = f"{ind}and.b32 \t{dst}, %dd{tmp}, {PAIR_MASK};"
                else:
                    mask = PAIR_MASK if rule == "shifted" else str(
                        int(PAIR_MASK) | pair)
                    line = f"{ind}and.b32 \t{dst}, {word}, {mask};"
                changed += 1
        out.append(line)
    return "\n".join(out), changed


def main(source, target, rule):
    if rule not in ("one", "shifted"):
        sys.exit(__doc__)
    entry, changed = edit_main_module(source, target,
                                      lambda ptx: drop(ptx, rule))
    if not changed:
        sys.exit("drop_decode_ops: no e2m1 pair placement found")
    print(f"{target}: {entry}: {changed} pairs placed ({rule})")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
