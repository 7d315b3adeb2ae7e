//===- Timing.h - Stage timing and the roofline ---*- C++ -*-===//
//
// The performance half of tile-run: times the main stage with CUDA events,
// measures the device's copy bandwidth (the memory roof), and gives the peak
// arithmetic rate of a compute class (the compute roof).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_RUN_TIMING_H
#define TILE_TOOLS_TILE_RUN_TIMING_H

#include "Driver.h"

#include <functional>
#include <string>

namespace tile {
namespace run {

struct TimeStats {
  /// Median and minimum; p10 and p90 give the spread (what a tuner needs to
  /// tell two candidates apart).
  double medianUs = 0, minUs = 0, p10Us = 0, p90Us = 0;
};

/// Device-to-device copy bandwidth in bytes per second, counting the bytes
/// read and the bytes written: the achievable memory roof, measured rather
/// than taken from a datasheet. `copyBytes` is set to the buffer size used
/// (1 GiB unless the device has too little free memory).
double measureCopyBandwidth(CUstream stream, size_t &copyBytes);

/// Runs `enqueue` (which launches the whole main stage on `stream`) `warmup`
/// times, then `repeats` times, each between its own pair of events. When
/// `flushBytes` is non-zero, `flush` is overwritten before each timed run so
/// that the stage starts with a cold L2.
TimeStats timeStage(CUstream stream, const std::function<void()> &enqueue,
                    int warmup, int repeats, CUdeviceptr flush,
                    size_t flushBytes);

/// Dense floating-point operations per clock per SM of `computeClass` on a
/// device of compute capability major `ccMajor` (an FMA counts as two).
/// Returns 0 when the table has no entry.
double flopsPerClockPerSM(int ccMajor, const std::string &computeClass);

} // namespace run
} // namespace tile

#endif // TILE_TOOLS_TILE_RUN_TIMING_H
