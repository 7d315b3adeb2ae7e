// Prototype (not part of the compiler), session 39: what a small-N wgmma
// costs on Hopper. The weight-only decode kernels (issue 17) compute
// y^T = W x^T with the dequantized weight as wgmma's register A operand and
// x's 16 rows as N, so every product is m64n16k16 (65536 of them at
// 16x8192x8192, 496 an SM); their copy-free ablation still takes ~16.7 us
// (bench/RESULTS.md, session 35). This asks whether the tensor pipe itself
// (cycles a small-N wgmma occupies an SM), a warpgroup's dependent chain,
// or the decode around it sets that time: 132 programs of W warpgroups run
// trips of 8 wgmma (K = 128) into 1, 2, 4 or 8 accumulators in turn, waited
// for after each trip (wait_group 0) or with one trip in flight (1),
// with A in registers (RS) or shared memory (SS), N = 16 or 64, optionally
// computing the trip's A registers first (4 ALU ops a register, about the
// compiled int4 decode's cost a bf16 pair); and mma.sync m16n8k16 for
// comparison. Prints cycles a trip a warpgroup, cycles a wgmma an SM and
// TFLOP/s. On the GPU machine:
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//       bench/prototypes/wgmma_small_n.cu -o /tmp/wg && /tmp/wg
// The wgmma wrappers below are written out per shape (PTX takes each
// accumulator register by name).
#include <cstdint>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <utility>
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__device__ __forceinline__ void mma_rs_n16(float *c, const uint32_t *a, uint64_t db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
               "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, p, 1, 1, 0;\n}\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]), "+f"(c[4]), "+f"(c[5]), "+f"(c[6]), "+f"(c[7])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

__device__ __forceinline__ void mma_ss_n16(float *c, uint64_t da, uint64_t db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
               "{%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1, 0, 0;\n}\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]), "+f"(c[4]), "+f"(c[5]), "+f"(c[6]), "+f"(c[7])
               : "l"(da), "l"(db));
}

__device__ __forceinline__ void mma_rs_n64(float *c, const uint32_t *a, uint64_t db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
               "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, {%32,%33,%34,%35}, %36, p, 1, 1, 0;\n}\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]), "+f"(c[4]), "+f"(c[5]), "+f"(c[6]), "+f"(c[7]), "+f"(c[8]), "+f"(c[9]), "+f"(c[10]), "+f"(c[11]), "+f"(c[12]), "+f"(c[13]), "+f"(c[14]), "+f"(c[15]), "+f"(c[16]), "+f"(c[17]), "+f"(c[18]), "+f"(c[19]), "+f"(c[20]), "+f"(c[21]), "+f"(c[22]), "+f"(c[23]), "+f"(c[24]), "+f"(c[25]), "+f"(c[26]), "+f"(c[27]), "+f"(c[28]), "+f"(c[29]), "+f"(c[30]), "+f"(c[31])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}

__device__ __forceinline__ void mma_ss_n64(float *c, uint64_t da, uint64_t db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
               "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31}, %32, %33, p, 1, 1, 0, 0;\n}\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]), "+f"(c[4]), "+f"(c[5]), "+f"(c[6]), "+f"(c[7]), "+f"(c[8]), "+f"(c[9]), "+f"(c[10]), "+f"(c[11]), "+f"(c[12]), "+f"(c[13]), "+f"(c[14]), "+f"(c[15]), "+f"(c[16]), "+f"(c[17]), "+f"(c[18]), "+f"(c[19]), "+f"(c[20]), "+f"(c[21]), "+f"(c[22]), "+f"(c[23]), "+f"(c[24]), "+f"(c[25]), "+f"(c[26]), "+f"(c[27]), "+f"(c[28]), "+f"(c[29]), "+f"(c[30]), "+f"(c[31])
               : "l"(da), "l"(db));
}


// A shared-memory matrix descriptor without swizzle: start address, leading
// and stride byte offsets (16-byte units). The data only has to be in
// shared memory; what it holds does not change the timing.
__device__ __forceinline__ uint64_t descriptor(uint32_t addr) {
  return uint64_t((addr & 0x3FFFF) >> 4) | (uint64_t(128 >> 4) << 16) |
         (uint64_t(256 >> 4) << 32);
}

template <int W> __device__ __forceinline__ void waitGroup() {
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(W) : "memory");
}

// One product group a trip: 8 wgmma (K = 128) into NACC accumulators in
// turn, committed, then wait_group WAIT. DECODE: each trip first computes
// the 8 products' A registers from an integer (4 ALU ops a register, about
// the compiled int4 decode's cost a bf16 pair).
template <int N, bool RS, int NACC, int WAIT, bool DECODE>
__global__ void bench(float *out, int trips, long long *cycles) {
  extern __shared__ __align__(1024) uint8_t smem[];
  for (int i = threadIdx.x; i < 32768 / 4; i += blockDim.x)
    reinterpret_cast<uint32_t *>(smem)[i] =
        0x3c003c00u ^ ((i * 2654435761u) & 0x007f007fu);
  __syncthreads();
  uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  uint64_t db = descriptor(base), da = descriptor(base + 16384);
  constexpr int R = N / 2;
  float acc[NACC][R];
#pragma unroll
  for (int i = 0; i < NACC; ++i)
#pragma unroll
    for (int r = 0; r < R; ++r)
      acc[i][r] = 0.f;
  uint32_t a[8][4];
  uint32_t raw = threadIdx.x * 0x9E3779B9u;
#pragma unroll
  for (int j = 0; j < 8; ++j)
#pragma unroll
    for (int r = 0; r < 4; ++r)
      a[j][r] = 0x3c003c00u ^ ((raw + j * 4 + r) & 0x007f007fu);
  __syncthreads();
  long long t0 = clock64();
  for (int trip = 0; trip < trips; ++trip) {
    if (DECODE) {
      raw += trip;
#pragma unroll
      for (int j = 0; j < 8; ++j)
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          uint32_t x = ((raw >> r) & 0x000f000fu) | 0x43004300u;
          __nv_bfloat162 v = *reinterpret_cast<__nv_bfloat162 *>(&x);
          __nv_bfloat162 bias = __floats2bfloat162_rn(128.f + j, 128.f);
          __nv_bfloat162 s = __floats2bfloat162_rn(0.01f, 0.02f * r);
          v = __hmul2(__hsub2(v, bias), s);
          a[j][r] = *reinterpret_cast<uint32_t *>(&v);
        }
    }
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      if constexpr (RS) {
        if constexpr (N == 16) mma_rs_n16(acc[j % NACC], a[j], db);
        else mma_rs_n64(acc[j % NACC], a[j], db);
      } else {
        if constexpr (N == 16) mma_ss_n16(acc[j % NACC], da, db);
        else mma_ss_n64(acc[j % NACC], da, db);
      }
    }
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    waitGroup<WAIT>();
  }
  waitGroup<0>();
  long long t1 = clock64();
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < NACC; ++i)
#pragma unroll
    for (int r = 0; r < R; ++r)
      s += acc[i][r];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0)
    cycles[blockIdx.x] = t1 - t0;
}


// mma.sync m16n8k16 (the pre-Hopper path): each warp runs trips of 8 into
// NACC accumulators in turn; no wait but the registers' own dependences.
template <int NACC>
__global__ void benchSync(float *out, int trips, long long *cycles) {
  float acc[NACC][4];
#pragma unroll
  for (int i = 0; i < NACC; ++i)
#pragma unroll
    for (int r = 0; r < 4; ++r)
      acc[i][r] = 0.f;
  uint32_t a[4], b[2];
  uint32_t raw = threadIdx.x * 0x9E3779B9u;
#pragma unroll
  for (int r = 0; r < 4; ++r)
    a[r] = 0x3c003c00u ^ ((raw + r) & 0x007f007fu);
  b[0] = a[1] ^ 0x10001u;
  b[1] = a[2] ^ 0x20002u;
  __syncthreads();
  long long t0 = clock64();
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      float *c = acc[j % NACC];
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                   "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]),
                     "r"(b[1]));
    }
  }
  long long t1 = clock64();
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < NACC; ++i)
#pragma unroll
    for (int r = 0; r < 4; ++r)
      s += acc[i][r];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0)
    cycles[blockIdx.x] = t1 - t0;
}

// Times `launch(trips)` after a warm-up launch of 64 trips: the
// launch's milliseconds and the median program's clock64 cycles.
template <typename Launch>
std::pair<float, double> timeTrips(const char *name, Launch launch, int trips,
                                   int sms, long long *cycles) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  launch(64);
  cudaEventRecord(e0);
  launch(trips);
  cudaEventRecord(e1);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("%s: %s\n", name, cudaGetErrorString(err));
    exit(1);
  }
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  std::vector<long long> c(sms);
  cudaMemcpy(c.data(), cycles, sms * sizeof(long long),
             cudaMemcpyDeviceToHost);
  std::sort(c.begin(), c.end());
  return {ms, double(c[sms / 2])};
}

template <int NACC>
void runSync(const char *name, int warps, int sms, float *out,
             long long *cycles) {
  const int trips = 4096;
  auto [ms, med] = timeTrips(
      name,
      [&](int n) { benchSync<NACC><<<sms, 32 * warps>>>(out, n, cycles); },
      trips, sms, cycles);
  double macs = 16.0 * 8 * 16 * 8 * trips * warps * sms;
  printf("%-34s warps=%2d %6.1f cyc/trip/warp %6.2f cyc/mma/SM  %6.1f TFLOP/s\n",
         name, warps, med / trips, med / (trips * 8.0 * warps),
         2 * macs / (ms * 1e-3) / 1e12);
}

template <int N, bool RS, int NACC, int WAIT, bool DECODE>
void run(const char *name, int warpgroups, int sms, float *out,
         long long *cycles) {
  auto kernel = bench<N, RS, NACC, WAIT, DECODE>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       32768);
  const int trips = 4096;
  auto [ms, med] = timeTrips(
      name,
      [&](int n) {
        kernel<<<sms, 128 * warpgroups, 32768>>>(out, n, cycles);
      },
      trips, sms, cycles);
  double perGroup = med / trips;              // a warpgroup's trip
  double perMma = med / (trips * 8.0 * warpgroups); // the SM's, per wgmma
  double macs = 64.0 * N * 16 * 8 * trips * warpgroups * sms;
  printf("%-34s W=%d  %8.1f cyc/trip/WG  %6.1f cyc/wgmma/SM  %6.1f TFLOP/s\n",
         name, warpgroups, perGroup, perMma, 2 * macs / (ms * 1e-3) / 1e12);
}

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  float *out;
  long long *cycles;
  cudaMalloc(&out, sms * 1024 * sizeof(float));
  cudaMalloc(&cycles, sms * sizeof(long long));
  printf("%d SMs; a trip = 8 wgmma m64nNk16 (K = 128), bf16 -> f32\n", sms);
  for (int w : {1, 2, 4, 8})
    run<16, true, 1, 0, false>("n16 RS 1acc wait0", w, sms, out, cycles);
  for (int w : {1, 4})
    run<16, true, 1, 1, false>("n16 RS 1acc wait1", w, sms, out, cycles);
  for (int w : {1, 4})
    run<16, true, 2, 0, false>("n16 RS 2acc wait0", w, sms, out, cycles);
  for (int w : {1, 4})
    run<16, true, 4, 0, false>("n16 RS 4acc wait0", w, sms, out, cycles);
  for (int w : {1, 4})
    run<16, true, 8, 1, false>("n16 RS 8acc wait1", w, sms, out, cycles);
  for (int w : {1, 4})
    run<16, false, 1, 0, false>("n16 SS 1acc wait0", w, sms, out, cycles);
  for (int w : {1, 4, 8})
    run<16, false, 4, 1, false>("n16 SS 4acc wait1", w, sms, out, cycles);
  for (int w : {1, 4})
    run<64, true, 1, 0, false>("n64 RS 1acc wait0", w, sms, out, cycles);
  for (int w : {1, 4})
    run<64, false, 1, 1, false>("n64 SS 1acc wait1", w, sms, out, cycles);
  for (int w : {1, 2, 4, 6, 8})
    run<16, true, 1, 0, true>("n16 RS 1acc wait0 decode", w, sms, out, cycles);
  for (int w : {1, 4, 8})
    run<16, true, 2, 0, true>("n16 RS 2acc wait0 decode", w, sms, out, cycles);
  for (int w : {4, 16})
    runSync<1>("mma.sync m16n8k16 1acc", w, sms, out, cycles);
  for (int w : {4, 16, 32})
    runSync<4>("mma.sync m16n8k16 4acc", w, sms, out, cycles);
  return 0;
}
