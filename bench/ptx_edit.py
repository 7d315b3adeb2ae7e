"""What the bench's PTX-editing scripts share (bench/drop_copies.py,
drop_multiplies.py, drop_decode_ops.py, drop_scale_loads.py, chain_products.py,
prototypes/scale_on_accumulators.py, l2_prefetch.py):
a bundle's module written back with edited PTX, which ptxas ($PTXAS,
default /usr/local/cuda/bin/ptxas) assembles for the bundle's target."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "python"))
from tile.runtime import bundle  # noqa: E402,F401  (re-exported)


def main_module(b):
    """The first main launch of bundle `b` and its module."""
    launch = b.main_launches[0]
    return launch, next(m for m in b.modules if m.name == launch.module)


def write_with_ptx(b, module, ptx, target):
    """Bundle `b` with `module`'s PTX replaced by `ptx` (and its cubin
    assembled from it), written to `target`."""
    ptxas = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
    with tempfile.TemporaryDirectory() as work:
        src, obj = os.path.join(work, "k.ptx"), os.path.join(work, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        subprocess.run([ptxas, f"-arch={b.target}", src, "-o", obj],
                       check=True)
        module.cubin = open(obj, "rb").read()
    module.ptx = ptx.encode()
    with open(target, "wb") as f:
        f.write(b.header().encode() +
                b"".join(m.ptx + m.cubin for m in b.modules))


def edit_main_module(source, target, edit):
    """Bundle `source` with its first main launch's PTX passed through
    `edit` (text -> (text, count of changes)), written to `target` unless
    nothing changed. Returns the launch's entry and the count."""
    b = bundle.load(source)
    launch, module = main_module(b)
    ptx, count = edit(module.ptx.decode())
    if count:
        write_with_ptx(b, module, ptx, target)
    return launch.entry, count
