#!/usr/bin/env python3
"""Launch overhead of a cached @tile.jit op, next to torch eager's.

    PYTHONPATH=python:test/python TILE_CACHE_DIR=.carry/tile-cache \\
        python3 python/tools/bench_launch.py

Times a tiny op (x + 1 on 64x64 f32) three ways, and torch eager's x + 1
beside it in the same run:
- host us/call: bursts of --burst calls, each burst timed from its first
  call to the return of its last, with a synchronize between bursts that is
  not timed. This is the host time a call costs the Python thread
  (signature check, output allocation, pointer packing, cuLaunchKernel): a
  burst is too short to fill the driver's launch queue, so no launch waits
  for the GPU.
- us/call, no sync: N calls back to back. Past about a thousand launches in
  flight the driver blocks until the GPU retires one, so this is the larger
  of the host time and the GPU's time per launch.
- us/call, sync each: torch.cuda.synchronize() after every call (issue + GPU
  round trip).
It also prints the GPU's time per launch alone: a CUDA graph of --burst
calls replayed, timed with events (no host work between the kernels).
"""

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "build", "python"),
                os.path.join(ROOT, "test", "python")]

import torch  # noqa: E402

import kernels  # noqa: E402  (tiny: x + 1.0, in the AOT cache)


def per_call(fn, n, sync_each):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(n):
        fn()
        if sync_each:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    return (time.perf_counter() - start) / n * 1e6


def host_per_call(fn, calls, bursts):
    """Median host time of one call within bursts of `calls` (see the module
    docstring); the synchronize between bursts is not timed."""
    for _ in range(50):
        fn()
    samples = []
    for _ in range(bursts):
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    torch.cuda.synchronize()
    return statistics.median(samples)


def gpu_per_launch(fn, calls):
    """GPU time per launch of `fn` with no host work between launches: a CUDA
    graph of `calls` calls, replayed five times between two events (so the
    host's submission of the first replay is a small part of the span)."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(calls):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    begin, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    replays = 5
    for _ in range(10):
        begin.record()
        for _ in range(replays):
            graph.replay()
        end.record()
        end.synchronize()
        samples.append(begin.elapsed_time(end) * 1e3 / (calls * replays))
    return statistics.median(samples)


def ctypes_only(fn, x):
    """A copy of `fn` whose cached call launches through ctypes (the path
    without runtime.native's C module), for a side-by-side row."""
    from tile.jit import JITFunction

    copy = JITFunction(fn.fn)
    copy(x)
    for spec in copy._specializations.values():
        spec.fast = None
        spec.kernel._fast = None
    copy._last_fast = None
    return copy


def breakdown(x, out, n):
    """Host time of each step of a cached call, alone (--breakdown): where
    the per-call microseconds go."""
    from tile.runtime import launcher as _launcher

    fn = kernels.tiny
    fn(x)
    key = fn._call_key((x,))
    spec = fn._specializations[key]
    kernel = spec.kernel
    ptr, optr = x.data_ptr(), out.data_ptr()
    stream = _launcher._current_stream(0)
    side = torch.cuda.Stream(device=0).cuda_stream  # a created stream
    slow = ctypes_only(fn, x)
    slow_kernel = next(iter(slow._specializations.values())).kernel
    shape, dtype, device = spec.out_shapes[0], spec.out_dtypes[0], spec.device
    steps = [
        ("call key (shape, dtype, device)", lambda: fn._call_key((x,))),
        ("specialization lookup", lambda: fn._specializations.get(key)),
        ("C call, out= given", lambda: spec.fast((x,), out, None)),
        ("is_contiguous + data_ptr", lambda: (x.is_contiguous(), x.data_ptr())),
        ("torch.empty(device=torch.device)",
         lambda: torch.empty(shape, dtype=dtype, device=device)),
        ("torch.empty(device=0)", lambda: torch.empty(shape, dtype=dtype, device=0)),
        ("torch.empty_like(x)", lambda: torch.empty_like(x)),
        ("x.new_empty(shape)", lambda: x.new_empty(shape)),
        ("current raw stream", lambda: _launcher._current_stream(0)),
        ("launch_pointers (C)", lambda: kernel.launch_pointers([ptr], [optr], stream)),
        ("launch_pointers (C), created stream",
         lambda: kernel.launch_pointers([ptr], [optr], side)),
        ("launch_pointers (ctypes)",
         lambda: slow_kernel.launch_pointers([ptr], [optr], stream)),
        ("whole call, out= given", lambda: fn(x, out=out)),
        ("whole call", lambda: fn(x)),
        ("whole call, ctypes", lambda: slow(x)),
    ]
    print(f"launch path: {'C' if kernel._fast is not None else 'ctypes'} "
          f"({_native_why_not() or 'built'})")
    print(f"| {'step':<34} | {'us':>6} |")
    print(f"|{'-' * 36}|{'-' * 8}|")
    for name, step in steps:
        print(f"| {name:<34} | {per_call(step, n, False):>6.2f} |")


def _native_why_not():
    from tile.runtime import native

    return native.why_not


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-n", type=int, default=10000)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--burst", type=int, default=200,
                   help="calls per timed burst (host time) and per graph")
    p.add_argument("--breakdown", action="store_true",
                   help="also time each step of a cached call alone")
    args = p.parse_args()
    x = torch.randn(64, 64, device="cuda")
    out = torch.empty_like(x)
    if args.breakdown:
        breakdown(x, out, args.n)
    slow = ctypes_only(kernels.tiny, x)
    rows = [
        ("tile (allocates out)", lambda: kernels.tiny(x)),
        ("tile (out= given)", lambda: kernels.tiny(x, out=out)),
        ("tile, ctypes launch", lambda: slow(x)),
        ("torch eager x + 1", lambda: x + 1.0),
        ("torch eager add(out=)", lambda: torch.add(x, 1.0, out=out)),
    ]
    rounds = args.rounds
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"{args.n} calls per round, median of {rounds} rounds (the rows "
          "take turns within each round)")
    # The host's speed drifts within a run: rows measured one after the
    # other differ by a microsecond for that alone, so they alternate.
    times = {name: ([], [], []) for name, _ in rows}
    bursts = max(args.n // args.burst, 1)
    for _ in range(rounds):
        for name, fn in rows:
            times[name][0].append(host_per_call(fn, args.burst, bursts))
            times[name][1].append(per_call(fn, args.n, False))
            times[name][2].append(per_call(fn, max(args.n // 10, 1), True))
    print(f"| {'op':<24} | {'host us/call':>12} | {'us/call, no sync':>16} | "
          f"{'us/call, sync each':>18} |")
    print(f"|{'-' * 26}|{'-' * 14}|{'-' * 18}|{'-' * 20}|")
    for name, _ in rows:
        host, free, synced = (statistics.median(t) for t in times[name])
        print(f"| {name:<24} | {host:>12.1f} | {free:>16.1f} | {synced:>18.1f} |")
    eager = statistics.median(times["torch eager x + 1"][0])
    tile = statistics.median(times["tile (allocates out)"][0])
    print(f"host time, tile / torch eager: {tile / eager:.2f}")
    print(f"GPU us per launch (a CUDA graph of {args.burst} calls): "
          f"tile {gpu_per_launch(dict(rows)['tile (allocates out)'], args.burst):.2f}, "
          f"torch eager {gpu_per_launch(dict(rows)['torch eager x + 1'], args.burst):.2f}")


if __name__ == "__main__":
    main()
