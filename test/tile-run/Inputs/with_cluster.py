"""Rewrites a bundle with its first main launch in thread-block clusters:
with_cluster.py IN OUT X Y Z. Python's bundle writer emits the `cluster`
field, so tile-run reading the result checks the two agree. The cluster is
not validated here: the tests give bad ones for tile-run to reject."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "python"))
from tile.runtime import bundle  # noqa: E402

source, target = sys.argv[1], sys.argv[2]
b = bundle.load(source)
b.main_launches[0].cluster = tuple(int(v) for v in sys.argv[3:6])
with open(target, "wb") as f:
    f.write(b.header().encode() + b"".join(m.ptx + m.cubin for m in b.modules))
