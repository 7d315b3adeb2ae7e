"""Timing of several GPU kernels launch by launch in turn, in one process.

Under sustained load the H200 of this workplace lowers its clock at its
power cap (bench/RESULTS.md, session 23: nvidia-smi's SW power cap, 1980 ->
1635-1800 MHz after about 30 ms), so kernels timed each in a run of its own
compare whatever share of each run fell after the cap. Timed in turn, the
order rotating every round and the L2 cleared before each launch, they all
meet the same clocks. Also launches our bundles (tile.runtime: no compiler
needed) as callables.

How the L2 is cleared ($TILE_BENCH_FLUSH): "zero" (the default) writes
256 MB, as Triton's do_bench does, which leaves the L2 full of dirty lines
that the timed kernel then writes back as it reads; "read" reads 256 MB,
which leaves clean lines, as in a model's decode step, where the L2 holds
the previous layers' weights. Memory-bound kernels read differently
under the two (bench/RESULTS.md, session 29: cuBLAS's bf16 GEMM at
16x8192x8192 44.7 us after "zero", 36.1 after "read").

A start event recorded on an idle GPU times the host's launch too: where
the host falls behind (about 30 us of Python a launch of ours, against
about 80 us of GPU work a launch with the flush), a short kernel reads
slow. $TILE_BENCH_SLEEP_US (default 0: off) puts a GPU spin of that many
microseconds (at 2 GHz) between the flush and the start event, so that
the launch is queued before the start fires (bench/RESULTS.md, session
31: short kernels read 0.5-0.7 of cuBLAS in one run and 0.97-1.02 in
another; not yet measured with the spin).

$TILE_BENCH_ORDER picks the order of each round: "rotate" (the default)
starts each round one kernel later, so within a round a kernel always
follows the same one; "shuffle" draws each round's order (seeded by the
round), so that no kernel always runs after the same, hot or cool,
neighbour (our FP8 GEMMs read 17-19% slower in bench/lowp.sh than in
bench/ab.sh's runs of ours alone: bench/RESULTS.md, session 42).
$TILE_BENCH_ONLY (comma-separated name prefixes, e.g. "tile") times only
the callables whose names start with one of them, the others left out
(their checks still run): ours without the peers' clocks.

$TILE_BENCH_TIMER picks the clock: "kineto" (the default) runs the same loop under
torch.profiler and takes, for each launch, the span of the kernels (and
memsets) that it put on the GPU, as CUPTI records them: no host time and
no gap before the first kernel, so launch overhead cannot enter it.
"events" reads CUDA events around each launch, which adds the launch's
latency (about 3 us at 10 us kernels) and, where the host falls behind,
its time (bench/RESULTS.md, session 32: three runs of five small GEMMs
agreed within 1% under kineto; under events one shape read 0.56 and 1.02
of cuBLAS in two runs).
"""
import os
import random
import sys

import torch


def clear_l2(flush, mode):
    if mode == "read":
        flush.sum()
    else:
        flush.zero_()


def launch_order(names, rounds):
    """The names in the order they are launched, round after round
    ($TILE_BENCH_ORDER: rotate or shuffle)."""
    mode = os.environ.get("TILE_BENCH_ORDER", "rotate")
    if mode not in ("rotate", "shuffle"):
        raise ValueError(f"TILE_BENCH_ORDER={mode}: expected rotate or shuffle")
    order = []
    for r in range(rounds):
        if mode == "rotate":
            order += [names[(i + r) % len(names)] for i in range(len(names))]
        else:
            this = list(names)
            random.Random(r).shuffle(this)
            order += this
    return order


def interleaved_times(fns, rounds=40, flush_bytes=256 << 20):
    """{name: sorted launch times in us} of each callable in `fns`."""
    mode = os.environ.get("TILE_BENCH_FLUSH", "zero")
    if mode not in ("zero", "read"):
        raise ValueError(f"TILE_BENCH_FLUSH={mode}: expected zero or read")
    sleep_cycles = int(float(os.environ.get("TILE_BENCH_SLEEP_US", "0")) * 2000)
    timer = os.environ.get("TILE_BENCH_TIMER", "kineto")
    if timer not in ("events", "kineto"):
        raise ValueError(f"TILE_BENCH_TIMER={timer}: expected events or kineto")
    flush = torch.empty(flush_bytes // 4, dtype=torch.float32, device="cuda")
    flush.zero_()
    names = list(fns)
    if timer == "kineto":
        return kineto_times(fns, names, rounds, flush, mode, sleep_cycles)
    events = {n: [] for n in names}
    for name in launch_order(names, rounds):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        clear_l2(flush, mode)
        if sleep_cycles:
            torch.cuda._sleep(sleep_cycles)
        start.record()
        fns[name]()
        stop.record()
        events[name].append((start, stop))
    torch.cuda.synchronize()
    return {n: sorted(a.elapsed_time(z) * 1e3 for a, z in ev) for n, ev in events.items()}


def device_activity(prof):
    """(start ns, end ns, name) of every kernel and memset CUPTI recorded
    under the torch.profiler `prof`, by start."""
    from torch.autograd import DeviceType
    out = []
    for ev in prof.profiler.kineto_results.events():
        if ev.device_type() != DeviceType.CUDA:
            continue
        start = ev.start_ns() if hasattr(ev, "start_ns") else ev.start_us() * 1000
        length = ev.duration_ns() if hasattr(ev, "duration_ns") else ev.duration_us() * 1000
        out.append((start, start + length, ev.name()))
    return sorted(out)


def profiled_launches(calls, flush, mode, sleep_cycles):
    """Each callable of `calls` in turn, after an L2 flush (and a spin of
    `sleep_cycles`), under torch.profiler: per call, the device activities
    (start ns, end ns, name) it put on the GPU. The flush's kernel, and the
    spin's, are told apart by their names, found by profiling them alone
    first; every call must come out as one group, else this raises rather
    than guess."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        clear_l2(flush, mode)
        if sleep_cycles:
            torch.cuda._sleep(sleep_cycles)
        torch.cuda.synchronize()
    markers = {name for _, _, name in device_activity(prof)}
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for fn in calls:
            clear_l2(flush, mode)
            if sleep_cycles:
                torch.cuda._sleep(sleep_cycles)
            fn()
        torch.cuda.synchronize()
    groups, after_marker = [], True
    for activity in device_activity(prof):
        if activity[2] in markers:
            after_marker = True
            continue
        if after_marker:
            groups.append([])
            after_marker = False
        groups[-1].append(activity)
    if len(groups) != len(calls):
        raise RuntimeError(f"interleave: the profiler saw {len(groups)} launches between "
                           f"flushes, not {len(calls)} (flush and spin kernels: "
                           f"{sorted(markers)})")
    return groups


def kineto_times(fns, names, rounds, flush, mode, sleep_cycles):
    """interleaved_times's loop under torch.profiler (profiled_launches): a
    launch's time is the span from the first to the last of its device
    activities (so a peer's several kernels count with the gaps between
    them, but not the host's time before the first)."""
    order = launch_order(names, rounds)
    groups = profiled_launches([fns[n] for n in order], flush, mode, sleep_cycles)
    times = {n: [] for n in names}
    for name, group in zip(order, groups):
        times[name].append((max(stop for _, stop, _ in group) - group[0][0]) / 1e3)
    return {n: sorted(t) for n, t in times.items()}


def median(times):
    return times[len(times) // 2]


def p10(times):
    return times[(len(times) - 1) // 10]


def bundle_kernel(path):
    """A callable launching the bundle at `path` on torch tensors."""
    from tile import runtime
    from tile.runtime import native
    kernel = runtime.Kernel(runtime.load_bundle(path))
    if kernel._fast is None:  # ctypes: about 9 us more host time a launch
        print(f"interleave: {path} launches through ctypes, not the C path "
              f"({native.why_not or 'see tile.runtime.native'})",
              file=sys.stderr)
    return kernel


def bundle_launch(path, seed=0):
    """A callable launching the bundle at `path` on random inputs of its
    buffers' shapes and types (for timing: tile-run checks the bundle
    against its reference)."""
    kernel = bundle_kernel(path)
    gen = torch.Generator(device="cuda").manual_seed(seed)
    inputs = []
    for buf in kernel.bundle.inputs:
        dtype = buf.dtype.torch()
        if buf.dtype.is_float:
            x = torch.randn(buf.shape, device="cuda", generator=gen).to(dtype)
        else:
            x = torch.randint(-8, 8, buf.shape, device="cuda", generator=gen).to(dtype)
        inputs.append(x)
    return lambda: kernel(*inputs)


def check_and_time(shape, peers, rel_err=None, rounds=40):
    """{peer: JSON row} for the callables in `peers` at `shape`: each is
    called three times (a warm-up: Triton tunes on its first call), its
    last output's error recorded as rel_err (`rel_err(peer, out)`, where
    given and not None) or the exception it raised as error; those that
    ran are then timed in turn (interleaved_times): time_us (median) and
    p10_us."""
    rows, timed = {}, {}
    for peer, fn in peers.items():
        rows[peer] = {"peer": peer, "shape": shape}
        try:
            for _ in range(3):
                out = fn()
            torch.cuda.synchronize()
            err = rel_err(peer, out) if rel_err else None
            if err is not None:
                rows[peer]["rel_err"] = err
            timed[peer] = fn
        except Exception as e:  # a peer that does not run this shape
            rows[peer]["error"] = str(e).splitlines()[0][:200]
    only = [p for p in os.environ.get("TILE_BENCH_ONLY", "").split(",") if p]
    if only:
        timed = {peer: fn for peer, fn in timed.items()
                 if any(peer.startswith(p) for p in only)}
    for peer, times in interleaved_times(timed, rounds).items():
        rows[peer].update(time_us=median(times), p10_us=p10(times))
    return rows
