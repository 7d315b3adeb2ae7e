// Prototype (not part of the compiler), session 56: whether 128 programs
// streaming a packed weight reach DRAM's rate sooner when each starts its
// K loop at a different step. The transposed weight-only kernels (issue
// 17) read, at M = 16, at about 2.1 TB/s on the H100 for K = 8192 and 2.7
// for K = 32768 where cuBLAS's bf16 GEMM streams at about 3.1: every
// program reads the same K step at the same time, rows 4 KiB apart, so
// that the requests may crowd a few DRAM channels until the programs
// drift apart. Here each program's 64 rows go through an 8-stage TMA ring
// of 64 x 128-byte boxes (today's MXFP4 and int4 step of 256 along K), a
// consumer warp holding each slot `hold` cycles; program p starts at step
// (p * rotate) mod steps and wraps around. Events, L2 flushed, median.
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//       bench/prototypes/stream_stagger.cu -o /tmp/stagger -lcuda && /tmp/stagger
#include "tma_ring.cuh"

constexpr int kRows = 8192, kPrograms = 128, kProgramRows = 64, kStep = 128,
              kStages = 8;

// Warp 0's lane 0 copies; warps 1-4's lane 0 take the steps in turn (the
// kernels' four consumer warpgroups), each holding its slot `hold` cycles.
__global__ void __launch_bounds__(160) stream(const __grid_constant__ CUtensorMap map,
                                              int *out, int steps, int rotate,
                                              long long hold) {
  extern __shared__ __align__(1024) unsigned char ring[];
  __shared__ uint64_t full[kStages], empty[kStages];
  int row0 = blockIdx.x * kProgramRows;
  initRing<kStages>(full, empty);
  int first = (blockIdx.x * rotate) % steps;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0 && lane == 0) {
    for (int i = 0; i < steps; ++i) {
      int s = i % kStages;
      if (i >= kStages)
        mbarWait(&empty[s], ((i / kStages) - 1) & 1);
      mbarExpect(&full[s], kProgramRows * kStep);
      int k = (first + i) % steps;
      tmaLoad(ring + s * kProgramRows * kStep, &map, k * kStep, row0, &full[s]);
    }
  } else if (warp >= 1 && lane == 0) {
    int g = warp - 1, sum = 0;
    for (int i = g; i < steps; i += 4) {
      int s = i % kStages;
      mbarWait(&full[s], (i / kStages) & 1);
      sum += ring[s * kProgramRows * kStep + (i & 63)];
      long long start = clock64();
      while (clock64() - start < hold)
        ;
      mbarArrive(&empty[s]);
    }
    out[blockIdx.x * 4 + g] = sum;
  }
}

int main() {
  cuInit(0);
  const int copies = 2, maxRowBytes = 16384;
  size_t flushBytes = size_t(256) << 20;
  CUdeviceptr weights;
  int *out;
  char *flush;
  cudaMalloc(reinterpret_cast<void **>(&weights), size_t(kRows) * maxRowBytes * copies);
  cudaMalloc(&out, kPrograms * 4 * sizeof(int));
  cudaMalloc(&flush, flushBytes);
  cudaMemset(reinterpret_cast<void *>(weights), 1, size_t(kRows) * maxRowBytes * copies);
  int smemBytes = kStages * kProgramRows * kStep;
  cudaFuncSetAttribute(stream, cudaFuncAttributeMaxDynamicSharedMemorySize, smemBytes);
  for (int rowBytes : {4096, 16384}) {
    std::vector<CUtensorMap> maps;
    for (int c = 0; c < copies; ++c)
      maps.push_back(encode(weights + size_t(c) * kRows * maxRowBytes, rowBytes,
                            kRows, kStep, kProgramRows,
                            CU_TENSOR_MAP_DATA_TYPE_UINT8, 1));
    int steps = rowBytes / kStep;
    for (long long hold : {0LL, 3000LL})
      for (int rotate : {0, 1, 3, 7, 13, steps / 4 + 1}) {
        float us = medianUs(flush, flushBytes, [&](int rep) {
          stream<<<kPrograms, 160, smemBytes>>>(maps[rep % copies], out, steps,
                                                rotate, hold);
        });
        if (us < 0)
          return 1;
        printf("K = %5d, hold %4lld cycles, rotate %3d: %7.2f us %6.0f GB/s\n",
               rowBytes * 2, hold, rotate, us,
               double(kRows) * rowBytes / (us * 1e-6) / 1e9);
      }
  }
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
