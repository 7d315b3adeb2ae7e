#!/usr/bin/env python3
"""Fill a bundle cache ahead of time, on a machine with the compiler and no
GPU, for a GPU machine without LLVM/MLIR.

    python3 python/tools/aot_fill.py --cache-dir .carry/tile-cache --target sm_90a

compiles examples/mlp.py's block at the shapes the example uses (its
defaults, or --tokens/--dim/--hidden) and, with --tests, every signature
test/python/test_gpu.py launches (test/python/kernels.py: GPU_SHAPES) and
every @tile.kernel signature test/python/test_kernel_api.py launches
(test/python/tile_kernels.py: GPU_SHAPES), and with --record FILE every
signature a program recorded (TILE_RECORD=FILE or tile.record(FILE) while
it ran: tile.record), for the target it ran on.
On the GPU machine, TILE_CACHE_DIR pointing at the same folder makes
@tile.jit launch these without compiling.
"""

import argparse
import importlib.util
import os
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache-dir", required=True)
    p.add_argument("--target", action="append",
                   help="sm_90a (default), sm_80; repeat for several")
    p.add_argument("--tests", action="store_true",
                   help="also the GPU tests' signatures (test/python/kernels.py, "
                   "test/python/tile_kernels.py)")
    p.add_argument("--record", action="append", default=[],
                   help="a signature record (tile.record); repeatable")
    p.add_argument("--no-example", action="store_true")
    p.add_argument("--tokens", type=int)
    p.add_argument("--dim", type=int)
    p.add_argument("--hidden", type=int)
    args = p.parse_args()
    os.environ["TILE_CACHE_DIR"] = os.path.abspath(args.cache_dir)
    sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "build", "python")]
    import tile

    if not tile.compiler.available():
        sys.exit(f"aot_fill: the compiler is not available "
                 f"({tile.compiler.unavailable_reason()})")
    targets = args.target or ["sm_90a"]
    jobs = []
    if not args.no_example:
        mlp = load(os.path.join(ROOT, "examples", "mlp.py"), "tile_example_mlp")
        shape = dict(mlp.DEFAULT)
        for k in ("tokens", "dim", "hidden"):
            if getattr(args, k):
                shape[k] = getattr(args, k)
        jobs.append((mlp.mlp_block, mlp.signature(**shape)))
    if args.tests:
        sys.path.insert(0, os.path.join(ROOT, "test", "python"))
        import kernels
        import tile_kernels

        for module in (kernels, tile_kernels):
            for name, sigs in module.GPU_SHAPES.items():
                for sig in sigs:
                    jobs.append((getattr(module, name), sig))
    start = time.perf_counter()
    recorded = 0
    for file in args.record:
        for ck in tile.compile_record(file):
            recorded += 1
            how = "cached" if ck.from_cache else f"{ck.compile_seconds:.2f} s"
            print(f"{ck.target} {ck.function:<14} {ck.key[:16]} "
                  f"{len(ck.launches)} kernel(s) ({how}, recorded)")
    for target in targets:
        for fn, sig in jobs:
            ck = fn.compile(sig, target=target)
            how = "cached" if ck.from_cache else f"{ck.compile_seconds:.2f} s"
            print(f"{target} {ck.function:<14} {ck.key[:16]} "
                  f"{len(ck.launches)} kernel(s) ({how})")
    print(f"aot_fill: {len(jobs) * len(targets) + recorded} kernels in "
          f"{time.perf_counter() - start:.1f} s into {os.environ['TILE_CACHE_DIR']}")


if __name__ == "__main__":
    main()
