// Prototype (not part of the compiler), session 57: what MXFP4's e8m0
// scales cost a weight stream from DRAM, laid out as today and blocked.
// The transposed weight-only kernel at 16x8192x8192 (issue 17) reads its
// scales S [N, K / 32] with plain loads: each K step of 256 a warpgroup
// loads 8 bytes of each of its program's 64 rows, rows 256 bytes apart,
// 64 sectors of 32 bytes of which it uses 8 bytes each (the other three
// warpgroups' steps use the rest). Session 56's ablation put their cost
// at 7.1% of the kernel flushed (their bytes are 5.6% of what it reads)
// and nothing from a warm L2. Blocked, a packing step (as the weight's
// `layout="mma"`) would store each program's 64 rows x 8 bytes of a step
// together: 512 contiguous bytes, four whole 128-byte lines.
// Here 128 programs stream the 32 MiB weight through an 8-stage TMA ring
// of 64 x 128-byte boxes (stream_stagger.cu's), four consumer warpgroups
// taking the steps in turn, each thread loading the 8 bytes of its two
// rows (wgmma's rows lane / 4 and lane / 4 + 8 of its warp's 16) one of
// its own steps ahead and holding the slot `hold` cycles. Layouts: none
// (no scale loads), strided (today), blocked. Events, L2 flushed, median.
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//       bench/prototypes/scale_layout.cu -o /tmp/scale_layout -lcuda && /tmp/scale_layout
#include "tma_ring.cuh"

constexpr int kRows = 8192, kPrograms = 128, kProgramRows = 64, kStep = 128,
              kStages = 8, kGroups = 4, kThreads = 128 * (kGroups + 1);

enum Layout { kNone = 0, kStrided = 1, kBlocked = 2 };

// The byte offset of the 8 scale bytes of `row` (of the program's 64) at
// K step `step` of `steps`.
__device__ __forceinline__ size_t scaleOffset(int layout, int program, int row,
                                              int step, int steps) {
  if (layout == kStrided)
    return (size_t(program) * kProgramRows + row) * (steps * 8) + step * 8;
  return ((size_t(program) * steps + step) * kProgramRows + row) * 8;
}

// Warpgroup 0's first thread copies; warpgroups 1-4 take the steps in turn.
__global__ void __launch_bounds__(kThreads)
    stream(const __grid_constant__ CUtensorMap map, const uint64_t *scales,
           int *out, int steps, int layout, long long hold) {
  extern __shared__ __align__(1024) unsigned char ring[];
  __shared__ uint64_t full[kStages], empty[kStages];
  initRing<kStages>(full, empty);
  int group = threadIdx.x / 128, t = threadIdx.x % 128;
  int warp = t / 32, lane = t % 32;
  int rowA = warp * 16 + lane / 4, rowB = rowA + 8;
  const unsigned char *base = reinterpret_cast<const unsigned char *>(scales);
  if (group == 0) {
    if (t == 0)
      for (int i = 0; i < steps; ++i) {
        int s = i % kStages;
        if (i >= kStages)
          mbarWait(&empty[s], ((i / kStages) - 1) & 1);
        mbarExpect(&full[s], kProgramRows * kStep);
        tmaLoad(ring + s * kProgramRows * kStep, &map, i * kStep,
                blockIdx.x * kProgramRows, &full[s]);
      }
    return;
  }
  int g = group - 1;
  uint64_t sum = 0, a = 0, b = 0;
  auto load = [&](int step) {
    if (layout == kNone || step >= steps) {
      a = step;
      b = lane;
      return;
    }
    a = __ldg(reinterpret_cast<const unsigned long long *>(
        base + scaleOffset(layout, blockIdx.x, rowA, step, steps)));
    b = __ldg(reinterpret_cast<const unsigned long long *>(
        base + scaleOffset(layout, blockIdx.x, rowB, step, steps)));
  };
  load(g);
  for (int i = g; i < steps; i += kGroups) {
    uint64_t curA = a, curB = b;
    load(i + kGroups); // one of its own steps ahead, as the kernel's prefetch
    int s = i % kStages;
    mbarWait(&full[s], (i / kStages) & 1);
    sum += curA ^ curB ^ ring[s * kProgramRows * kStep + t];
    long long start = clock64();
    while (clock64() - start < hold)
      ;
    asm volatile("bar.sync %0, 128;" ::"r"(group)); // the warpgroup's reads done
    if (t == 0)
      mbarArrive(&empty[s]);
  }
  out[(blockIdx.x * kGroups + g) * 128 + t] = int(sum ^ (sum >> 32));
}

int main() {
  cuInit(0);
  const int copies = 2, rowBytes = 4096, steps = rowBytes / kStep;
  size_t flushBytes = size_t(256) << 20;
  size_t weightBytes = size_t(kRows) * rowBytes;
  size_t scaleBytes = size_t(kRows) * steps * 8; // K / 32 bytes a row
  CUdeviceptr weights;
  uint64_t *scales;
  int *out;
  char *flush;
  cudaMalloc(reinterpret_cast<void **>(&weights), weightBytes * copies);
  cudaMalloc(&scales, scaleBytes * copies);
  cudaMalloc(&out, size_t(kPrograms) * kGroups * 128 * sizeof(int));
  cudaMalloc(&flush, flushBytes);
  cudaMemset(reinterpret_cast<void *>(weights), 1, weightBytes * copies);
  cudaMemset(scales, 3, scaleBytes * copies);
  int smemBytes = kStages * kProgramRows * kStep;
  cudaFuncSetAttribute(stream, cudaFuncAttributeMaxDynamicSharedMemorySize, smemBytes);
  std::vector<CUtensorMap> maps;
  for (int c = 0; c < copies; ++c)
    maps.push_back(encode(weights + c * weightBytes, rowBytes, kRows, kStep,
                          kProgramRows, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1));
  const char *names[] = {"none", "strided", "blocked"};
  for (long long hold : {0LL, 2000LL, 3000LL})
    for (int layout : {kNone, kStrided, kBlocked}) {
      float us = medianUs(flush, flushBytes, [&](int rep) {
        stream<<<kPrograms, kThreads, smemBytes>>>(
            maps[rep % copies],
            scales + (rep % copies) * (scaleBytes / sizeof(uint64_t)), out,
            steps, layout, hold);
      });
      if (us < 0)
        return 1;
      size_t bytes = weightBytes + (layout == kNone ? 0 : scaleBytes);
      printf("hold %4lld cycles, scales %-7s: %7.2f us %6.0f GB/s\n", hold,
             names[layout], us, double(bytes) / (us * 1e-6) / 1e9);
    }
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
