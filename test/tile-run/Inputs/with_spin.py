"""Rewrites a bundle so that its first main launch's kernel never finishes:
with_spin.py IN OUT PTXAS. The kernel's PTX gets a loop at its entry that
sleeps and branches back forever; ptxas assembles the new PTX into the
module's cubin (for the bundle's target), and the header is written again
with the new sizes and hashes. For the hang test of tile-run's
--hang-limit: no compiled kernel should ever hang, so one is made to."""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "python"))
from tile.runtime import bundle  # noqa: E402

source, target, ptxas = sys.argv[1:4]
b = bundle.load(source)
launch = b.main_launches[0]
module = next(m for m in b.modules if m.name == launch.module)
ptx = module.ptx.decode()
entry = re.search(r"\.entry\s+" + re.escape(launch.entry) + r"\s*\(", ptx)
body = ptx.index("{", ptx.index(")", entry.end()))
ptx = (ptx[:body + 1] + "\n$tile_spin:\n\tnanosleep.u32 1000;\n"
       "\tbra.uni $tile_spin;\n" + ptx[body + 1:])
with tempfile.TemporaryDirectory() as work:
    src, obj = os.path.join(work, "k.ptx"), os.path.join(work, "k.cubin")
    with open(src, "w") as f:
        f.write(ptx)
    subprocess.run([ptxas, f"-arch={b.target}", src, "-o", obj], check=True)
    module.cubin = open(obj, "rb").read()
module.ptx = ptx.encode()
with open(target, "wb") as f:
    f.write(b.header().encode() + b"".join(m.ptx + m.cubin for m in b.modules))
