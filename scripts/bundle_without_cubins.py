#!/usr/bin/env python3
"""Prints a bundle (docs/bundle-format.md) without its cubins: the header
with each module's cubin size and FNV-1a and the header's own FNV-1a
blanked, then each module's PTX. For scripts/compare-builds.sh: ptxas does
not give one cubin for one PTX where a kernel spills (its spill slots'
offsets vary from run to run: session 52), so two builds of the compiler
are compared on what they produce, the PTX and the header, and the cubins
only where these agree.
    scripts/bundle_without_cubins.py BUNDLE
"""
import re
import sys


def main(path):
    data = open(path, "rb").read()
    end = re.search(rb"^end fnv1a [0-9a-f]+\n", data, re.M)
    if not end:
        sys.exit(f"{path}: no 'end fnv1a' line")
    header = data[:end.start()].decode()
    out = sys.stdout.buffer
    offset = end.end()
    for line in header.splitlines():
        fields = line.split(" ")
        if fields[0] == "module":
            ptx, cubin = int(fields[3]), int(fields[7])
            out.write(" ".join(fields[:6] + ["cubin", "-"]).encode() + b"\n")
            out.write(data[offset:offset + ptx])
            offset += ptx + cubin
        else:
            out.write(line.encode() + b"\n")
    if offset != len(data):
        sys.exit(f"{path}: {len(data) - offset} bytes after the sections")


if __name__ == "__main__":
    main(sys.argv[1])
