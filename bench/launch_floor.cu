// launch_floor.cu - the host's floor for one kernel launch (issue 18).
//
//   nvcc -O2 -arch=sm_90a bench/launch_floor.cu -lcuda -o /tmp/launch_floor
//   /tmp/launch_floor
//
// python/tools/bench_launch.py times a cached tile call from Python; this
// times what no launch path can avoid: the driver's cuLaunchKernel of an
// empty kernel, from C, in bursts of 200 launches with an untimed
// synchronize between bursts (so no launch waits for the GPU), on the
// legacy default stream (torch's default) and on a non-blocking stream, with
// 2 parameters and with 14 (what x + 1's kernel takes: two rank-2 memref
// descriptors). It prints the median microseconds per launch of each.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

__global__ void twoParams(float *, float *) {}
__global__ void fourteenParams(float *, float *, long, long, long, long, long,
                               float *, float *, long, long, long, long,
                               long) {}

#define CHECK(x)                                                               \
  do {                                                                         \
    CUresult r = (x);                                                          \
    if (r != CUDA_SUCCESS) {                                                   \
      std::printf("%s failed: %d\n", #x, (int)r);                            \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static double medianUsPerLaunch(CUfunction f, CUstream stream, void **params) {
  const int burst = 200, bursts = 100;
  std::vector<double> samples;
  for (int b = 0; b < bursts + 5; ++b) {
    cuStreamSynchronize(stream);
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < burst; ++i)
      cuLaunchKernel(f, 1, 1, 1, 128, 1, 1, 0, stream, params, nullptr);
    auto end = std::chrono::steady_clock::now();
    if (b >= 5) // the first bursts warm up
      samples.push_back(
          std::chrono::duration<double, std::micro>(end - start).count() /
          burst);
  }
  cuStreamSynchronize(stream);
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

int main() {
  cudaFree(nullptr); // the runtime makes the primary context current
  CUfunction two, fourteen;
  if (cudaGetFuncBySymbol(&two, (const void *)twoParams) != cudaSuccess ||
      cudaGetFuncBySymbol(&fourteen, (const void *)fourteenParams) !=
          cudaSuccess) {
    std::printf("cudaGetFuncBySymbol failed\n");
    return 1;
  }
  float *p = nullptr;
  long n = 64;
  void *paramsTwo[] = {&p, &p};
  void *paramsFourteen[] = {&p, &p, &n, &n, &n, &n, &n,
                            &p, &p, &n, &n, &n, &n, &n};
  CUstream side;
  CHECK(cuStreamCreate(&side, CU_STREAM_NON_BLOCKING));
  // The timed launches' results are not read (as a launch path's are not
  // waited for); one of each, checked first, shows they launch at all.
  CHECK(cuLaunchKernel(two, 1, 1, 1, 128, 1, 1, 0, nullptr, paramsTwo,
                       nullptr));
  CHECK(cuLaunchKernel(fourteen, 1, 1, 1, 128, 1, 1, 0, side, paramsFourteen,
                       nullptr));
  CHECK(cuCtxSynchronize());
  std::printf("| cuLaunchKernel of an empty kernel | us/launch |\n");
  std::printf("| --- | --- |\n");
  std::printf("| legacy default stream, 2 params | %.2f |\n",
              medianUsPerLaunch(two, nullptr, paramsTwo));
  std::printf("| legacy default stream, 14 params | %.2f |\n",
              medianUsPerLaunch(fourteen, nullptr, paramsFourteen));
  std::printf("| non-blocking stream, 2 params | %.2f |\n",
              medianUsPerLaunch(two, side, paramsTwo));
  std::printf("| non-blocking stream, 14 params | %.2f |\n",
              medianUsPerLaunch(fourteen, side, paramsFourteen));
  return 0;
}
