// Prototype (not part of the compiler), session 40: what a TMA ring's box
// width costs when 128 programs stream an 8192 x 4096-byte weight (a
// packed 8192^2 int4 or MXFP4 matrix, 32 MiB) from DRAM, as the transposed
// weight-only kernels do (issue 17): each program's 64 rows, one K step
// of STEP bytes a row per ring stage, loaded as STEP / BOX boxes of 64
// rows x BOX bytes. The kernels loaded int4's steps as two 64-byte boxes
// and MXFP4's as eight 16-byte ones, their weight copies costing about 9
// and 13 us on the H100, until this measurement made tile-pipeline copy
// a step as one 128-byte box (bench/RESULTS.md, session 40). No
// compute: one thread issues the copies, another waits for each stage and
// gives it back; then four consumers that each hold their slot a set
// number of cycles (the kernels' structure without their decode).
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//       bench/prototypes/tma_box_stream.cu -o /tmp/tma -lcuda && /tmp/tma
#include "tma_ring.cuh"

constexpr int kRows = 8192, kRowBytes = 4096, kPrograms = 128, kProgramRows = 64;

__device__ __forceinline__ void tmaLoad3(void *dst, const CUtensorMap *map, int x,
                                         int y, int z, uint64_t *bar) {
  asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(smem(dst)),
               "l"(map), "r"(x), "r"(y), "r"(z), "r"(smem(bar))
               : "memory");
}

// Split3d: one copy a stage through a 3-D view of the weight, [pieces of
// Box bytes along the row][rows][Box bytes], so that the stage holds
// Step / Box dense 64 x Box tiles (one per product) from a single copy.
template <int Step, int Box, int Stages, bool Split3d = false>
__global__ void __launch_bounds__(64) stream(const __grid_constant__ CUtensorMap map,
                                             int *out) {
  extern __shared__ __align__(1024) unsigned char ring[];
  __shared__ uint64_t full[Stages], empty[Stages];
  int row0 = blockIdx.x * kProgramRows;
  initRing<Stages>(full, empty);
  constexpr int steps = kRowBytes / Step;
  if (threadIdx.x == 0) { // producer
    for (int i = 0; i < steps; ++i) {
      int s = i % Stages;
      if (i >= Stages)
        mbarWait(&empty[s], ((i / Stages) - 1) & 1);
      mbarExpect(&full[s], kProgramRows * Step);
      if constexpr (Split3d) {
        tmaLoad3(ring + s * kProgramRows * Step, &map, 0, row0, i * (Step / Box),
                 &full[s]);
      } else {
        for (int b = 0; b < Step / Box; ++b)
          tmaLoad(ring + s * kProgramRows * Step + b * kProgramRows * Box, &map,
                  i * Step + b * Box, row0, &full[s]);
      }
    }
  } else if (threadIdx.x == 32) { // consumer
    int sum = 0;
    for (int i = 0; i < steps; ++i) {
      int s = i % Stages;
      mbarWait(&full[s], (i / Stages) & 1);
      sum += ring[s * kProgramRows * Step + (i & 63)];
      mbarArrive(&empty[s]);
    }
    out[blockIdx.x] = sum;
  }
}

// The transposed kernels' consumers hold their slot while they compute:
// four warps (standing in for the four consumer warpgroups) take the
// steps in turn, warp g the steps g, g + 4, ..., each keeping its slot
// `hold` cycles (a spin on clock64) before giving it back. With hold =
// the copy-free kernel's time a step and warpgroup (16.7 us / 8 steps,
// about 4100 cycles at 1.98 GHz), this is the ring's structure without
// the decode: whether it alone keeps the stream from overlapping the
// compute (session 40's open question).
template <int Stages>
__global__ void __launch_bounds__(160) held(const __grid_constant__ CUtensorMap map,
                                            int *out, long long hold) {
  constexpr int Step = 128;
  extern __shared__ __align__(1024) unsigned char ring[];
  __shared__ uint64_t full[Stages], empty[Stages];
  int row0 = blockIdx.x * kProgramRows;
  initRing<Stages>(full, empty);
  constexpr int steps = kRowBytes / Step;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (warp == 0 && lane == 0) { // producer
    for (int i = 0; i < steps; ++i) {
      int s = i % Stages;
      if (i >= Stages)
        mbarWait(&empty[s], ((i / Stages) - 1) & 1);
      mbarExpect(&full[s], kProgramRows * Step);
      tmaLoad(ring + s * kProgramRows * Step, &map, i * Step, row0, &full[s]);
    }
  } else if (warp >= 1 && lane == 0) { // consumers 0..3
    int g = warp - 1, sum = 0;
    for (int i = g; i < steps; i += 4) {
      int s = i % Stages;
      mbarWait(&full[s], (i / Stages) & 1);
      sum += ring[s * kProgramRows * Step + (i & 63)];
      long long start = clock64();
      while (clock64() - start < hold)
        ;
      mbarArrive(&empty[s]);
    }
    out[blockIdx.x * 4 + g] = sum;
  }
}

// One tensor map per copy of the weight (the runs rotate through them,
// so no run finds the last one's bytes in the L2): `rank`-D over the
// weight's bytes with `dims`, `strides` (bytes, dims 1..) and `box`.
std::vector<CUtensorMap> encodeMaps(CUdeviceptr weights, int copies, int rank,
                                    const cuuint64_t *dims,
                                    const cuuint64_t *strides,
                                    const cuuint32_t *box) {
  std::vector<CUtensorMap> maps(copies);
  cuuint32_t elementStrides[3] = {1, 1, 1};
  for (int c = 0; c < copies; ++c) {
    CUresult r = cuTensorMapEncodeTiled(
        &maps[c], CU_TENSOR_MAP_DATA_TYPE_UINT8, rank,
        reinterpret_cast<void *>(weights + size_t(c) * kRows * kRowBytes), dims,
        strides, box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
        CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
      printf("cuTensorMapEncodeTiled failed (%d) for a box of %u bytes\n",
             int(r), box[0]);
      return {};
    }
  }
  return maps;
}

template <int Stages>
void measureHeld(CUdeviceptr weights, int copies, int *out, char *flush,
                 size_t flushBytes, long long hold) {
  cuuint64_t dims[2] = {kRowBytes, kRows};
  cuuint64_t strides[1] = {kRowBytes};
  cuuint32_t box[2] = {128, kProgramRows};
  std::vector<CUtensorMap> maps =
      encodeMaps(weights, copies, 2, dims, strides, box);
  if (maps.empty())
    return;
  int smemBytes = Stages * kProgramRows * 128;
  cudaFuncSetAttribute(held<Stages>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       smemBytes);
  float us = medianUs(flush, flushBytes, [&](int rep) {
    held<Stages><<<kPrograms, 160, smemBytes>>>(maps[rep % copies], out, hold);
  });
  printf("4 consumers holding each slot %5lld cycles, %2d stages of 64 x 128 B: "
         "%7.2f us\n", hold, Stages, us);
}

template <int Step, int Box, int Stages, bool Split3d = false>
void measure(CUdeviceptr weights, int copies, int *out, char *flush,
             size_t flushBytes) {
  cuuint64_t dims[2] = {kRowBytes, kRows};
  cuuint64_t strides[1] = {kRowBytes};
  cuuint32_t box[2] = {Box, kProgramRows};
  cuuint64_t dims3[3] = {Box, kRows, kRowBytes / Box};
  cuuint64_t strides3[2] = {kRowBytes, Box};
  cuuint32_t box3[3] = {Box, kProgramRows, Step / Box};
  std::vector<CUtensorMap> maps =
      Split3d ? encodeMaps(weights, copies, 3, dims3, strides3, box3)
              : encodeMaps(weights, copies, 2, dims, strides, box);
  if (maps.empty())
    return;
  int smemBytes = Stages * kProgramRows * Step;
  cudaFuncSetAttribute(stream<Step, Box, Stages, Split3d>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, smemBytes);
  float us = medianUs(flush, flushBytes, [&](int rep) {
    stream<Step, Box, Stages, Split3d><<<kPrograms, 64, smemBytes>>>(
        maps[rep % copies], out);
  });
  if (us < 0)
    return;
  printf("step %4d B, boxes of 64 x %4d B (%2d a stage%s), %2d stages (%3d KiB): "
         "%7.2f us %6.0f GB/s\n",
         Step, Box, Split3d ? 1 : Step / Box, Split3d ? " through 3-D" : "",
         Stages, smemBytes / 1024, us,
         double(kRows) * kRowBytes / (us * 1e-6) / 1e9);
}

int main() {
  cuInit(0);
  const int copies = 4;
  CUdeviceptr weights;
  int *out;
  char *flush;
  size_t flushBytes = size_t(256) << 20;
  cudaMalloc(reinterpret_cast<void **>(&weights), size_t(kRows) * kRowBytes * copies);
  cudaMalloc(&out, kPrograms * sizeof(int));
  cudaMalloc(&flush, flushBytes);
  cudaMemset(reinterpret_cast<void *>(weights), 1, size_t(kRows) * kRowBytes * copies);
  measure<128, 16, 8>(weights, copies, out, flush, flushBytes);  // MXFP4 today
  measure<128, 16, 8, true>(weights, copies, out, flush, flushBytes);
  measure<128, 64, 8, true>(weights, copies, out, flush, flushBytes);
  measure<128, 32, 8>(weights, copies, out, flush, flushBytes);
  measure<128, 64, 8>(weights, copies, out, flush, flushBytes);  // int4 today
  measure<128, 128, 8>(weights, copies, out, flush, flushBytes);
  measure<128, 64, 4>(weights, copies, out, flush, flushBytes);  // int4, 4 in flight
  measure<128, 128, 4>(weights, copies, out, flush, flushBytes);
  measure<128, 128, 16>(weights, copies, out, flush, flushBytes);
  measure<256, 256, 8>(weights, copies, out, flush, flushBytes);
  measure<256, 64, 8>(weights, copies, out, flush, flushBytes);
  for (long long hold : {0LL, 1000LL, 2000LL, 4100LL, 6000LL})
    measureHeld<8>(weights, copies, out, flush, flushBytes, hold);
  for (long long hold : {2000LL, 4100LL})
    measureHeld<16>(weights, copies, out, flush, flushBytes, hold);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
