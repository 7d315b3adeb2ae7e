// Prototype (not part of the compiler), session 56: whether the transposed
// weight-only kernels (issue 17) would stream their weight faster if the
// weight's part of a ring slot went back as soon as the consumers have
// read it into registers, not when the step's products are done. 128
// programs; a step is 64 rows x 128 bytes of the weight (DRAM, 32 MiB
// over all programs) and 16 rows x 512 bytes of x (the same for all
// programs, so from L2). Four consumer warps (the kernels' four consumer
// warpgroups) take the steps in turn; a consumer reads its weight
// `early` cycles after the slot is full and is done with x `hold` cycles
// after that.
//   shared: one ring of 8 slots of weight + x, given back after hold
//           (today's kernels);
//   split:  a weight ring of 8 slots given back after `early`, an x ring
//           of X slots given back after hold; one producer thread issues
//           each step's weight then x copy.
// Events, L2 flushed, median of 25.
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//       bench/prototypes/early_release.cu -o /tmp/early -lcuda && /tmp/early
#include "tma_ring.cuh"

constexpr int kRows = 8192, kPrograms = 128, kProgramRows = 64, kStep = 128,
              kXRows = 16, kXStep = 512, kW = kProgramRows * kStep,
              kX = kXRows * kXStep, kWStages = 8;

__device__ __forceinline__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles)
    ;
}

// XStages == 0: one ring (weight and x in one slot, one pair of barriers).
template <int XStages>
__global__ void __launch_bounds__(160) stream(const __grid_constant__ CUtensorMap w,
                                              const __grid_constant__ CUtensorMap x,
                                              int *out, int steps, long long early,
                                              long long hold) {
  extern __shared__ __align__(1024) unsigned char buf[];
  constexpr bool split = XStages > 0;
  constexpr int xStages = split ? XStages : kWStages;
  unsigned char *wRing = buf, *xRing = buf + kWStages * kW;
  __shared__ uint64_t wFull[kWStages], wEmpty[kWStages], xFull[xStages], xEmpty[xStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < kWStages; ++s) {
      mbarInit(&wFull[s], 1);
      mbarInit(&wEmpty[s], 1);
    }
    for (int s = 0; s < xStages; ++s) {
      mbarInit(&xFull[s], 1);
      mbarInit(&xEmpty[s], 1);
    }
  }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
  int row0 = blockIdx.x * kProgramRows;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0 && lane == 0) {
    for (int i = 0; i < steps; ++i) {
      int s = i % kWStages, t = i % xStages;
      if (split) {
        if (i >= kWStages)
          mbarWait(&wEmpty[s], ((i / kWStages) - 1) & 1);
        mbarExpect(&wFull[s], kW);
        tmaLoad(wRing + s * kW, &w, i * kStep, row0, &wFull[s]);
        if (i >= xStages)
          mbarWait(&xEmpty[t], ((i / xStages) - 1) & 1);
        mbarExpect(&xFull[t], kX);
        tmaLoad(xRing + t * kX, &x, i * (kXStep / 2), 0, &xFull[t]);
      } else {
        if (i >= kWStages)
          mbarWait(&wEmpty[s], ((i / kWStages) - 1) & 1);
        mbarExpect(&wFull[s], kW + kX);
        tmaLoad(wRing + s * kW, &w, i * kStep, row0, &wFull[s]);
        tmaLoad(xRing + s * kX, &x, i * (kXStep / 2), 0, &wFull[s]);
      }
    }
  } else if (warp >= 1 && lane == 0) {
    int g = warp - 1, sum = 0;
    for (int i = g; i < steps; i += 4) {
      int s = i % kWStages, t = i % xStages;
      mbarWait(&wFull[s], (i / kWStages) & 1);
      spin(early);
      sum += wRing[s * kW + (i & 63)];
      if (split) {
        mbarArrive(&wEmpty[s]);
        mbarWait(&xFull[t], (i / xStages) & 1);
      }
      spin(hold);
      sum += xRing[t * kX + (i & 63)];
      mbarArrive(split ? &xEmpty[t] : &wEmpty[s]);
    }
    out[blockIdx.x * 4 + g] = sum;
  }
}

template <int XStages>
void measure(CUdeviceptr w, CUdeviceptr x, int rowBytes, int *out, char *flush,
             size_t flushBytes, long long early, long long hold) {
  const int copies = 2;
  std::vector<CUtensorMap> wMaps;
  for (int c = 0; c < copies; ++c)
    wMaps.push_back(encode(w + size_t(c) * kRows * rowBytes, rowBytes, kRows, kStep,
                           kProgramRows, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1));
  // x: [16, K] bf16, K = 2 * rowBytes; a step's box is 256 x 16.
  CUtensorMap xMap = encode(x, 2 * rowBytes, kXRows, kXStep / 2, kXRows,
                            CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2);
  int xStages = XStages > 0 ? XStages : kWStages;
  int smemBytes = kWStages * kW + xStages * kX;
  cudaFuncSetAttribute(stream<XStages>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       smemBytes);
  int steps = rowBytes / kStep;
  float us = medianUs(flush, flushBytes, [&](int rep) {
    stream<XStages><<<kPrograms, 160, smemBytes>>>(wMaps[rep % copies], xMap, out,
                                                   steps, early, hold);
  });
  if (us < 0)
    return;
  printf("K = %5d %-6s x stages %2d, weight read at %4lld, x held %4lld cycles: "
         "%7.2f us %6.0f GB/s of weight\n",
         2 * rowBytes, XStages ? "split" : "shared", xStages, early, hold, us,
         double(kRows) * rowBytes / (us * 1e-6) / 1e9);
}

int main() {
  cuInit(0);
  const int maxRowBytes = 16384;
  size_t flushBytes = size_t(256) << 20;
  CUdeviceptr w, x;
  int *out;
  char *flush;
  cudaMalloc(reinterpret_cast<void **>(&w), size_t(kRows) * maxRowBytes * 2);
  cudaMalloc(reinterpret_cast<void **>(&x), size_t(kXRows) * maxRowBytes * 4);
  cudaMalloc(&out, kPrograms * 4 * sizeof(int));
  cudaMalloc(&flush, flushBytes);
  cudaMemset(reinterpret_cast<void *>(w), 1, size_t(kRows) * maxRowBytes * 2);
  cudaMemset(reinterpret_cast<void *>(x), 1, size_t(kXRows) * maxRowBytes * 4);
  for (int rowBytes : {4096, 16384})
    for (long long hold : {0LL, 2000LL, 3000LL, 4000LL}) {
      measure<0>(w, x, rowBytes, out, flush, flushBytes, 300, hold);
      measure<8>(w, x, rowBytes, out, flush, flushBytes, 300, hold);
      measure<12>(w, x, rowBytes, out, flush, flushBytes, 300, hold);
    }
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
