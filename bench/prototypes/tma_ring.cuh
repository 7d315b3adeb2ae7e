// What the TMA-ring prototypes share (tma_box_stream.cu, stream_stagger.cu,
// early_release.cu, scale_layout.cu; weight_stream.cu its timing): the
// mbarrier and cp.async.bulk.tensor wrappers, a ring's barriers, a 2-D
// tensor map, and the median of events-timed launches from a flushed L2.
// Prototypes only, not part of the compiler.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>

__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ void mbarInit(uint64_t *bar, int count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(bar)), "r"(count));
}
__device__ __forceinline__ void mbarExpect(uint64_t *bar, int bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(smem(bar)),
               "r"(bytes));
}
__device__ __forceinline__ void mbarArrive(uint64_t *bar) {
  asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(smem(bar)));
}
__device__ __forceinline__ void mbarWait(uint64_t *bar, int parity) {
  asm volatile("{\n.reg .pred p;\nWAIT:\n"
               "mbarrier.try_wait.parity.shared.b64 p, [%0], %1;\n"
               "@!p bra WAIT;\n}\n" ::"r"(smem(bar)),
               "r"(parity));
}
// Thread 0 makes each stage's full and empty barriers (one arrival each),
// visible to the block before anyone waits on them.
template <int Stages>
__device__ __forceinline__ void initRing(uint64_t *full, uint64_t *empty) {
  if (threadIdx.x == 0)
    for (int s = 0; s < Stages; ++s) {
      mbarInit(&full[s], 1);
      mbarInit(&empty[s], 1);
    }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
}

__device__ __forceinline__ void tmaLoad(void *dst, const CUtensorMap *map, int x,
                                        int y, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(smem(dst)),
               "l"(map), "r"(x), "r"(y), "r"(smem(bar))
               : "memory");
}

// A 2-D tensor map over [rows, cols] elements of `elementBytes` at `base`,
// boxes of boxRows x boxCols, unswizzled (prints a line where it fails).
CUtensorMap encode(CUdeviceptr base, cuuint64_t cols, cuuint64_t rows,
                   cuuint32_t boxCols, cuuint32_t boxRows, CUtensorMapDataType type,
                   int elementBytes) {
  CUtensorMap map;
  cuuint64_t dims[2] = {cols, rows}, strides[1] = {cols * elementBytes};
  cuuint32_t box[2] = {boxCols, boxRows}, elementStrides[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&map, type, 2, reinterpret_cast<void *>(base), dims,
                             strides, box, elementStrides,
                             CU_TENSOR_MAP_INTERLEAVE_NONE,
                             CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    printf("cuTensorMapEncodeTiled failed\n");
  return map;
}

// The median over 25 timed launches (after 5 warm-ups) of launch(rep),
// timed by events from an L2 cleared by writing `flush`; negative where a
// launch failed.
template <typename Launch>
float medianUs(char *flush, size_t flushBytes, Launch launch) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> times;
  for (int rep = 0; rep < 30; ++rep) {
    cudaMemsetAsync(flush, rep, flushBytes); // evict the L2
    cudaEventRecord(start);
    launch(rep);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    if (rep >= 5)
      times.push_back(ms * 1000.0f);
  }
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return -1;
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
