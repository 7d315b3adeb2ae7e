//===- Timing.cpp - Stage timing and the roofline ---*- C++ -*-===//
//
// CUDA-event timing of the main stage and of a large device-to-device copy,
// and the table of per-SM arithmetic rates behind the compute roof.
//
//===----------------------------------------------------------------------===//

#include "Timing.h"

#include <algorithm>
#include <vector>

namespace tile {
namespace run {

/// Median of the samples (which it sorts).
static double median(std::vector<double> &v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// Milliseconds between each event pair, after the last one completed.
/// Each run's stop is waited for in turn, so that --hang-limit bounds one
/// run, not all of them together.
static std::vector<double> elapsedMs(const std::vector<CUevent> &starts,
                                     const std::vector<CUevent> &stops) {
  for (CUevent stop : stops)
    waitForEvent(stop);
  std::vector<double> ms;
  for (size_t i = 0; i < starts.size(); ++i) {
    float t = 0;
    CU_CHECK(cu::cuEventElapsedTime(&t, starts[i], stops[i]));
    ms.push_back(t);
  }
  return ms;
}

static std::vector<CUevent> createEvents(size_t n) {
  std::vector<CUevent> events(n);
  for (CUevent &e : events)
    CU_CHECK(cu::cuEventCreate(&e, CU_EVENT_DEFAULT));
  return events;
}

static void destroyEvents(std::vector<CUevent> &events) {
  for (CUevent e : events)
    CU_CHECK(cu::cuEventDestroy(e));
  events.clear();
}

double measureCopyBandwidth(CUstream stream, size_t &copyBytes) {
  // 1 GiB is far past the L2, so the copy streams from and to HBM; a smaller
  // device gets a quarter of its free memory per buffer.
  size_t freeBytes = 0, totalBytes = 0;
  CU_CHECK(cu::cuMemGetInfo(&freeBytes, &totalBytes));
  copyBytes = std::min<size_t>(size_t(1) << 30, freeBytes / 4) &
              ~((size_t(1) << 20) - 1);
  if (copyBytes == 0)
    return 0;

  CUdeviceptr src = 0, dst = 0;
  CU_CHECK(cu::cuMemAlloc(&src, copyBytes));
  CU_CHECK(cu::cuMemAlloc(&dst, copyBytes));
  CU_CHECK(cu::cuMemsetD8Async(src, 0x5a, copyBytes, stream));

  const int warmup = 3, repeats = 20;
  for (int i = 0; i < warmup; ++i)
    CU_CHECK(cu::cuMemcpyDtoDAsync(dst, src, copyBytes, stream));
  std::vector<CUevent> starts = createEvents(repeats);
  std::vector<CUevent> stops = createEvents(repeats);
  for (int i = 0; i < repeats; ++i) {
    CU_CHECK(cu::cuEventRecord(starts[i], stream));
    CU_CHECK(cu::cuMemcpyDtoDAsync(dst, src, copyBytes, stream));
    CU_CHECK(cu::cuEventRecord(stops[i], stream));
  }
  std::vector<double> ms = elapsedMs(starts, stops);
  destroyEvents(starts);
  destroyEvents(stops);
  CU_CHECK(cu::cuMemFree(src));
  CU_CHECK(cu::cuMemFree(dst));

  double t = median(ms) * 1e-3;
  return t > 0 ? 2.0 * double(copyBytes) / t : 0;
}

TimeStats timeStage(CUstream stream, const std::function<void()> &enqueue,
                    int warmup, int repeats, CUdeviceptr flush,
                    size_t flushBytes) {
  for (int i = 0; i < warmup; ++i)
    enqueue();
  std::vector<CUevent> starts = createEvents(repeats);
  std::vector<CUevent> stops = createEvents(repeats);
  for (int i = 0; i < repeats; ++i) {
    if (flushBytes)
      CU_CHECK(cu::cuMemsetD8Async(flush, static_cast<unsigned char>(i),
                                   flushBytes, stream));
    CU_CHECK(cu::cuEventRecord(starts[i], stream));
    enqueue();
    CU_CHECK(cu::cuEventRecord(stops[i], stream));
  }
  std::vector<double> ms = elapsedMs(starts, stops);
  destroyEvents(starts);
  destroyEvents(stops);

  TimeStats stats;
  stats.minUs = *std::min_element(ms.begin(), ms.end()) * 1e3;
  stats.medianUs = median(ms) * 1e3; // sorts ms
  stats.p10Us = ms[(ms.size() - 1) / 10] * 1e3;
  stats.p90Us = ms[(ms.size() - 1) * 9 / 10] * 1e3;
  return stats;
}

double flopsPerClockPerSM(int ccMajor, const std::string &computeClass) {
  // Dense rates of the data-center parts: Hopper (H100/H200) and Ampere
  // (A100). Tensor-core rates of other majors are not in the table, nor
  // tc-fp8 for major 8 (the A100 has no FP8 tensor cores; sm_89 has, but
  // shares the major): those give 0 and tile-run prints the bound as na.
  // Hopper's FP8 wgmma runs at twice its bf16 rate.
  struct Rate {
    int major;
    const char *computeClass;
    double flops;
  };
  static const Rate table[] = {
      {9, "simt-f32", 256}, {9, "tc-bf16", 4096}, {9, "tc-f16", 4096},
      {9, "tc-tf32", 2048}, {9, "tc-fp8", 8192},  {8, "simt-f32", 128},
      {8, "tc-bf16", 2048}, {8, "tc-f16", 2048},  {8, "tc-tf32", 1024},
  };
  for (const Rate &r : table)
    if (r.major == ccMajor && computeClass == r.computeClass)
      return r.flops;
  // Every NVIDIA SM since Volta has at least 64 FP32 lanes.
  return computeClass == "simt-f32" ? 128 : 0;
}

} // namespace run
} // namespace tile
