// synccheck-probe.cu - which sm_90 instruction makes compute-sanitizer's
// synccheck refuse a kernel (issue 19).
//
// Every wgmma kernel this compiler emits fails to launch under synccheck
// (CUDA_ERROR_LAUNCH_FAILED) while memcheck, racecheck and initcheck pass
// it. The compiled kernels have wgmma, TMA copies and mbarrier waits in
// common. Each probe below uses one of them alone, in the form our
// lowering emits (nvgpu -> nvvm), so running each one under synccheck
// separates the tool's limits from a fault of ours:
//
//   nvcc -arch=sm_90a -o probe scripts/synccheck-probe.cu -lcuda
//   compute-sanitizer --tool synccheck ./probe NAME
//
// Each probe checks its own result and prints "NAME ok" (exit 0), else
// "NAME wrong" (exit 1); a failed launch exits 2. scripts/synccheck-probe.sh
// runs them all, plain and under the tool.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e));                      \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

__device__ uint32_t smemAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ void mbarrierInit(uint64_t *bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smemAddress(bar)),
               "r"(count));
}

// One arrival that also expects `bytes` of asynchronous copies.
__device__ void mbarrierExpect(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   smemAddress(bar)),
               "r"(bytes)
               : "memory");
}

// The barrier thread 0 initializes for one arrival (and the copies it
// expects), made visible to the async proxy, before the block goes on.
__device__ void initCopyBarrier(uint64_t *bar) {
  if (threadIdx.x == 0) {
    mbarrierInit(bar, 1);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
}

// The wait our lowering emits: try_wait.parity in a loop.
__device__ void mbarrierWait(uint64_t *bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(smemAddress(bar)), "r"(parity)
                 : "memory");
}

// The wait with a suspend-time hint, as nvgpu.mbarrier.try_wait.parity
// lowers it.
__device__ void mbarrierWaitHinted(uint64_t *bar, uint32_t parity) {
  uint32_t done = 0;
  while (!done)
    asm volatile("{\n .reg .pred p;\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n"
                 " selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(smemAddress(bar)), "r"(parity), "r"(10000000)
                 : "memory");
}

// Control: a block barrier and shared memory only.
__global__ void probeSyncthreads(float *out) {
  __shared__ float buffer[128];
  buffer[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buffer[127 - threadIdx.x];
}

// Every thread arrives on an mbarrier and waits for its phase (with the
// suspend-time hint or without).
template <bool Hinted> __global__ void probeMbarrier(float *out) {
  __shared__ alignas(8) uint64_t bar;
  __shared__ float buffer[128];
  if (threadIdx.x == 0)
    mbarrierInit(&bar, blockDim.x);
  __syncthreads();
  buffer[threadIdx.x] = threadIdx.x;
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                   smemAddress(&bar))
               : "memory");
  Hinted ? mbarrierWaitHinted(&bar, 0) : mbarrierWait(&bar, 0);
  out[threadIdx.x] = buffer[127 - threadIdx.x];
}

// A bulk (non-tensor) copy global -> shared completing on an mbarrier.
__global__ void probeBulkCopy(const float *in, float *out) {
  __shared__ alignas(128) float buffer[128];
  __shared__ alignas(8) uint64_t bar;
  initCopyBarrier(&bar);
  if (threadIdx.x == 0) {
    mbarrierExpect(&bar, 512);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::"
                 "bytes [%0], [%1], %2, [%3];" ::"r"(smemAddress(buffer)),
                 "l"(in), "r"(512), "r"(smemAddress(&bar))
                 : "memory");
  }
  mbarrierWait(&bar, 0);
  out[threadIdx.x] = buffer[threadIdx.x];
}

// A 2-D TMA tensor copy; the descriptor is read from global memory, as
// this project's runtime passes it (a pointer, not a __grid_constant__).
__global__ void probeTensorCopy(const CUtensorMap *map, float *out) {
  __shared__ alignas(128) float buffer[8 * 16];
  __shared__ alignas(8) uint64_t bar;
  initCopyBarrier(&bar);
  if (threadIdx.x == 0) {
    mbarrierExpect(&bar, 512);
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                     smemAddress(buffer)),
                 "l"(map), "r"(0), "r"(0), "r"(smemAddress(&bar))
                 : "memory");
  }
  mbarrierWait(&bar, 0);
  out[threadIdx.x] = buffer[threadIdx.x];
}

// One wgmma m64n8k16 (bf16 x bf16 -> f32) on shared operands with
// no-swizzle descriptors; A and B are all ones, so every output is 16.
__device__ uint64_t descriptor(const void *p, uint32_t leading, uint32_t stride) {
  uint64_t d = 0;
  d |= (uint64_t)((smemAddress(p) & 0x3FFFF) >> 4);
  d |= (uint64_t)(leading >> 4) << 16;
  d |= (uint64_t)(stride >> 4) << 32;
  return d; // layout type 0: no swizzle
}

__global__ void probeWgmma(float *out) {
  __shared__ alignas(128) __nv_bfloat16 a[64 * 16];
  __shared__ alignas(128) __nv_bfloat16 b[8 * 16];
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x)
    a[i] = __float2bfloat16(1.0f);
  for (int i = threadIdx.x; i < 8 * 16; i += blockDim.x)
    b[i] = __float2bfloat16(1.0f);
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  // Core matrices are 8 rows x 16 bytes (128 bytes): along K 128 bytes
  // apart, along M/N 256 bytes apart.
  uint64_t da = descriptor(a, 128, 256), db = descriptor(b, 128, 256);
  float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %6, 0;\n"
               " wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
               "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "l"(da), "l"(db), "r"(0)
               : "memory");
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  out[4 * threadIdx.x + 0] = d0;
  out[4 * threadIdx.x + 1] = d1;
  out[4 * threadIdx.x + 2] = d2;
  out[4 * threadIdx.x + 3] = d3;
}

// A two-stage ring over eight steps, as the compiled GEMMs and attention
// kernels run it: warp 0's lane 0 waits for a stage to be empty, arms its
// full barrier and bulk-copies into it; warp 1 waits for it to be full,
// reads it and one lane arrives on its empty barrier. The barriers go
// through several phases (the parity wraps).
template <bool Hinted>
__global__ void probeRing(const float *in, float *out) {
  constexpr int Stages = 2, Steps = 8;
  __shared__ alignas(128) float buffer[Stages][32];
  __shared__ alignas(8) uint64_t full[Stages], empty[Stages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) {
      mbarrierInit(&full[s], 1);
      mbarrierInit(&empty[s], 1);
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  float sum = 0;
  for (int k = 0; k < Steps; ++k) {
    int s = k % Stages;
    uint32_t phase = (k / Stages) & 1;
    if (warp == 0 && lane == 0) {
      // A fresh barrier counts as having completed the phase before 0.
      Hinted ? mbarrierWaitHinted(&empty[s], phase ^ 1)
             : mbarrierWait(&empty[s], phase ^ 1);
      mbarrierExpect(&full[s], 128);
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::"
                   "complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                       smemAddress(buffer[s])),
                   "l"(in + 32 * k), "r"(128), "r"(smemAddress(&full[s]))
                   : "memory");
    } else if (warp == 1) {
      Hinted ? mbarrierWaitHinted(&full[s], phase) : mbarrierWait(&full[s], phase);
      sum += buffer[s][lane];
      __syncwarp();
      if (lane == 0)
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                         smemAddress(&empty[s]))
                     : "memory");
    }
  }
  if (warp == 1)
    out[lane] = sum;
}

// Our GEMM's ring, written in CUDA: a producer thread (warp 4, lane 0)
// and a consumer warpgroup (warps 0-3). Per stage, 2-D TMA copies of two
// 64 x 64 bf16 tiles with the 128-byte swizzle onto a full barrier, and
// wgmma m64n64k16 from 128B-swizzled descriptors; one lane per consumer
// warp gives the stage back on its empty barrier after wgmma.wait_group 1.
// Variants (template flags) take one of our choices away at a time:
//   TwoArrivals: the full barrier counts 2 arrivals, one expect_tx per
//     copy (ours), else 1 with the stage's bytes (CUTLASS's, Triton's);
//   EarlyExit: the producer's other 127 threads return at once and the
//     last returns with copies in flight (ours), else the whole producer
//     warpgroup waits at the end on a named barrier with the consumers.
template <bool TwoArrivals, bool EarlyExit>
__global__ void __launch_bounds__(256, 1)
probeRingTma(const CUtensorMap *map, float *out, int steps) {
  constexpr int Stages = 4, TileBytes = 64 * 64 * 2;
  extern __shared__ uint8_t dynamicShared[];
  uint8_t *base = (uint8_t *)(((uintptr_t)dynamicShared + 1023) & ~(uintptr_t)1023);
  __shared__ alignas(8) uint64_t full[Stages], empty[Stages];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (threadIdx.x == 0)
    for (int s = 0; s < Stages; ++s) {
      mbarrierInit(&full[s], TwoArrivals ? 2 : 1);
      mbarrierInit(&empty[s], 4);
    }
  __syncthreads();
  if (warp >= 4) {
    if (threadIdx.x == 128)
      for (int k = 0; k < steps; ++k) {
        int s = k % Stages;
        uint32_t phase = (k / Stages) & 1;
        mbarrierWaitHinted(&empty[s], phase ^ 1);
        for (int copy = 0; copy < 2; ++copy) {
          if (TwoArrivals || copy == 0)
            mbarrierExpect(&full[s], TwoArrivals ? TileBytes : 2 * TileBytes);
          asm volatile(
              "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
              "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(
                  smemAddress(base + (2 * s + copy) * TileBytes)),
              "l"(map), "r"(64 * (k % 8)), "r"(0), "r"(smemAddress(&full[s]))
              : "memory");
        }
      }
    if (!EarlyExit)
      asm volatile("bar.sync 1, 256;" ::: "memory");
    return;
  }
  float d[32] = {};
  for (int k = 0; k < steps; ++k) {
    int s = k % Stages;
    mbarrierWaitHinted(&full[s], (k / Stages) & 1);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int kk = 0; kk < 4; ++kk) {
      uint64_t da = ((smemAddress(base + 2 * s * TileBytes) + 32 * kk) >> 4 & 0x3FFF) |
                    0x4000004000010000ull;
      uint64_t db = ((smemAddress(base + (2 * s + 1) * TileBytes) + 32 * kk) >> 4 & 0x3FFF) |
                    0x4000004000010000ull;
      asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, 1, 0;\n"
                   " wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                   "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}"
                   : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                   : "l"(da), "l"(db)
                   : "memory");
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    __syncwarp();
    if (k > 0 && lane == 0)
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                       smemAddress(&empty[(k - 1) % Stages]))
                   : "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  __syncwarp();
  if (lane == 0)
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(
                     smemAddress(&empty[(steps - 1) % Stages]))
                 : "memory");
  if (!EarlyExit)
    asm volatile("bar.sync 1, 256;" ::: "memory");
  for (int i = 0; i < 32; ++i)
    out[32 * threadIdx.x + i] = d[i];
}

// Register reallocation (warp-specialized kernels).
__global__ void __launch_bounds__(256, 1) probeSetmaxnreg(float *out) {
  if (threadIdx.x / 128 == 0)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
  else
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  __syncthreads();
  out[threadIdx.x] = threadIdx.x;
}

// A 2-D row-major tensor map (rows x inner elements of `bytes` each, a box
// of boxRows x boxInner) over `base`, copied to device memory as this
// project's runtime passes it.
static CUtensorMap *deviceTensorMap(CUtensorMapDataType type, int bytes,
                                    void *base, uint64_t inner, uint64_t rows,
                                    uint32_t boxInner, uint32_t boxRows,
                                    CUtensorMapSwizzle swizzle) {
  CUtensorMap map;
  cuuint64_t dims[2] = {inner, rows};
  cuuint64_t strides[1] = {inner * bytes};
  cuuint32_t box[2] = {boxInner, boxRows}, elementStrides[2] = {1, 1};
  CUresult r = cuTensorMapEncodeTiled(
      &map, type, 2, base, dims, strides, box, elementStrides,
      CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::printf("cuTensorMapEncodeTiled failed (%d)\n", (int)r);
    std::exit(2);
  }
  CUtensorMap *deviceMap;
  CHECK(cudaMalloc(&deviceMap, sizeof(map)));
  CHECK(cudaMemcpy(deviceMap, &map, sizeof(map), cudaMemcpyHostToDevice));
  return deviceMap;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    std::printf("usage: %s syncthreads|mbarrier|hinted|bulk|tensor|ring|ring-hinted|wgmma|setmaxnreg\n",
                argv[0]);
    return 2;
  }
  std::string name = argv[1];
  std::vector<float> host(512);
  for (int i = 0; i < 512; ++i)
    host[i] = 0.5f * i + 1;
  float *in, *out;
  CHECK(cudaMalloc(&in, 512 * sizeof(float)));
  CHECK(cudaMalloc(&out, 512 * sizeof(float)));
  CHECK(cudaMemcpy(in, host.data(), 512 * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, 512 * sizeof(float)));
  std::vector<float> expect;
  int count = 128;
  if (name == "syncthreads" || name == "mbarrier") {
    name == "syncthreads" ? probeSyncthreads<<<1, 128>>>(out)
                          : probeMbarrier<false><<<1, 128>>>(out);
    for (int i = 0; i < 128; ++i)
      expect.push_back(127 - i);
  } else if (name == "bulk") {
    probeBulkCopy<<<1, 128>>>(in, out);
    expect.assign(host.begin(), host.begin() + 128);
  } else if (name == "tensor") {
    // An 8 x 16 f32 box at (0, 0) of a 32 x 16 row-major tensor.
    CUtensorMap *deviceMap = deviceTensorMap(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4,
                                             in, 16, 32, 16, 8,
                                             CU_TENSOR_MAP_SWIZZLE_NONE);
    probeTensorCopy<<<1, 128>>>(deviceMap, out);
    expect.assign(host.begin(), host.begin() + 128);
  } else if (name == "ring" || name == "ring-hinted") {
    name == "ring" ? probeRing<false><<<1, 64>>>(in, out)
                   : probeRing<true><<<1, 64>>>(in, out);
    count = 32;
    for (int lane = 0; lane < 32; ++lane) {
      float sum = 0;
      for (int k = 0; k < 8; ++k)
        sum += host[32 * k + lane];
      expect.push_back(sum);
    }
  } else if (name == "hinted") {
    probeMbarrier<true><<<1, 128>>>(out);
    for (int i = 0; i < 128; ++i)
      expect.push_back(127 - i);
  } else if (name.rfind("ring-tma", 0) == 0) {
    // ring-tma[-one][-stay][-many]: -one: one arrival per stage; -stay: no
    // early exit; -many: 16 CTAs. 8 k-steps over 4 stages (the ring wraps), of a 64 x 512 bf16
    // tensor of ones: every output is 8 * 64 = 512.
    bool one = name.find("-one") != std::string::npos;
    bool stay = name.find("-stay") != std::string::npos;
    int grid = name.find("-many") != std::string::npos ? 16 : 1;
    std::vector<uint16_t> ones(64 * 512, 0x3F80);
    void *tensor;
    CHECK(cudaMalloc(&tensor, ones.size() * 2));
    CHECK(cudaMemcpy(tensor, ones.data(), ones.size() * 2, cudaMemcpyHostToDevice));
    CUtensorMap *deviceMap = deviceTensorMap(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
                                             tensor, 512, 64, 64, 64,
                                             CU_TENSOR_MAP_SWIZZLE_128B);
    float *result;
    CHECK(cudaMalloc(&result, 128 * 32 * sizeof(float)));  // every CTA the same
    int smem = 4 * 2 * 64 * 64 * 2 + 1024;
    auto launch = [&](auto kernel) {
      CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      kernel<<<grid, 256, smem>>>(deviceMap, result, 8);
    };
    if (!one && !stay) launch(probeRingTma<true, true>);
    if (!one && stay) launch(probeRingTma<true, false>);
    if (one && !stay) launch(probeRingTma<false, true>);
    if (one && stay) launch(probeRingTma<false, false>);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got(128 * 32);
    CHECK(cudaMemcpy(got.data(), result, got.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != 512.0f) {
        std::printf("%s wrong: out[%zu] = %g, expected 512\n", name.c_str(), i, got[i]);
        return 1;
      }
    std::printf("%s ok\n", name.c_str());
    return 0;
  } else if (name == "wgmma") {
    probeWgmma<<<1, 128>>>(out);
    count = 512;
    expect.assign(512, 16.0f);
  } else if (name == "setmaxnreg") {
    probeSetmaxnreg<<<1, 256>>>(out);
    count = 256;
    for (int i = 0; i < 256; ++i)
      expect.push_back(i);
  } else {
    std::printf("unknown probe '%s'\n", name.c_str());
    return 2;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<float> got(count);
  CHECK(cudaMemcpy(got.data(), out, count * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < count; ++i)
    if (got[i] != expect[i]) {
      std::printf("%s wrong: out[%d] = %g, expected %g\n", name.c_str(), i,
                  got[i], expect[i]);
      return 1;
    }
  std::printf("%s ok\n", name.c_str());
  return 0;
}
