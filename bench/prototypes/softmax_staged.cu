// Prototype (not part of the compiler): a softmax over rows of 50257 bf16
// staged whole in shared memory by cp.async, written by hand in CUDA to
// measure the schedule before building it in tile-tile (bench/RESULTS.md,
// session 5). Two variants: one row per program, two programs per SM
// (what tile-tile builds), and a persistent program per SM with a ring of
// two row slots. Checks every 37th row against a double-precision
// reference. On the GPU machine:
//   nvcc -O3 -arch=sm_90a -std=c++17 bench/prototypes/softmax_staged.cu -o p && ./p
#include <cuda_bf16.h>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
typedef __nv_bfloat16 bf16;
constexpr int T = 512;

__device__ float blockReduce(float v, bool isMax, float* red) {
  for (int o = 16; o; o >>= 1) {
    float w = __shfl_xor_sync(0xffffffff, v, o);
    v = isMax ? fmaxf(v, w) : v + w;
  }
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads();
  if (lane == 0) red[warp] = v;
  __syncthreads();
  v = lane < T / 32 ? red[lane] : (isMax ? -INFINITY : 0.f);
  for (int o = 16; o; o >>= 1) {
    float w = __shfl_xor_sync(0xffffffff, v, o);
    v = isMax ? fmaxf(v, w) : v + w;
  }
  return v;
}

__device__ void issueRow(const bf16* x, int row, int cols, unsigned sbase) {
  long long base = (long long)row * cols;
  int shift = base % 8;
  const bf16* src = x + base - shift;
  int n = cols + shift;
  int runs = (n + 7) / 8;
  for (int r = threadIdx.x; r < runs; r += T) {
    int rem = n - r * 8;
    int bytes = rem >= 8 ? 16 : rem * 2;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" :: "r"(sbase + r * 16), "l"(src + r * 8), "r"(bytes));
  }
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <bool FAST>
__device__ void computeRow(const unsigned char* smem, bf16* y, int row, int cols, float* red) {
  long long base = (long long)row * cols;
  int shift = base % 8;
  bf16* dst = y + base - shift;
  int n = cols + shift;
  int runs = (n + 7) / 8;
  const uint4* s4 = reinterpret_cast<const uint4*>(smem);
  auto unpack = [&](uint4 v, float* f) {
    const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&v);
    for (int i = 0; i < 4; ++i) { float2 p = __bfloat1622float2(h[i]); f[2*i] = p.x; f[2*i+1] = p.y; }
  };
  float m = -INFINITY;
  for (int r = threadIdx.x; r < runs; r += T) {
    float f[8]; unpack(s4[r], f);
    if (r == 0 || r == runs - 1) {
      for (int i = 0; i < 8; ++i) { int k = r * 8 + i; if (k >= shift && k < n) m = fmaxf(m, f[i]); }
    } else {
      for (int i = 0; i < 8; ++i) m = fmaxf(m, f[i]);
    }
  }
  m = blockReduce(m, true, red);
  float s = 0.f;
  for (int r = threadIdx.x; r < runs; r += T) {
    float f[8]; unpack(s4[r], f);
    for (int i = 0; i < 8; ++i) {
      int k = r * 8 + i;
      float e = FAST ? __expf(f[i] - m) : expf(f[i] - m);
      if (r == 0 || r == runs - 1) { if (k >= shift && k < n) s += e; } else s += e;
    }
  }
  s = blockReduce(s, false, red);
  float inv = 1.f / s;
  for (int r = threadIdx.x; r < runs; r += T) {
    float f[8]; unpack(s4[r], f);
    float o[8];
    for (int i = 0; i < 8; ++i) {
      float e = FAST ? __expf(f[i] - m) : expf(f[i] - m);
      if (FAST) o[i] = e * inv; else { float q0 = e * inv; float rr = fmaf(-s, q0, e); o[i] = fmaf(rr, inv, q0); }
    }
    if (r == 0 || r == runs - 1) {
      for (int i = 0; i < 8; ++i) { int k = r * 8 + i; if (k >= shift && k < n) dst[k] = __float2bfloat16(o[i]); }
    } else {
      uint4 v; __nv_bfloat162* h = reinterpret_cast<__nv_bfloat162*>(&v);
      for (int i = 0; i < 4; ++i) h[i] = __floats2bfloat162_rn(o[2*i], o[2*i+1]);
      reinterpret_cast<uint4*>(dst)[r] = v;
    }
  }
}

template <bool FAST>
__global__ __launch_bounds__(T, 2) void softmaxStaged(const bf16* __restrict__ x, bf16* __restrict__ y, int cols) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ float red[32];
  unsigned sbase = (unsigned)__cvta_generic_to_shared(smem);
  issueRow(x, blockIdx.x, cols, sbase);
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
  computeRow<FAST>(smem, y, blockIdx.x, cols, red);
}

// Persistent, one program per SM, a ring of two row slots: the next row's
// copies are in flight while the current row is computed.
template <bool FAST>
__global__ __launch_bounds__(T, 1) void softmaxRing(const bf16* __restrict__ x, bf16* __restrict__ y, int rows, int cols, int slotBytes) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ float red[32];
  unsigned sbase = (unsigned)__cvta_generic_to_shared(smem);
  int i = 0;
  issueRow(x, blockIdx.x < rows ? blockIdx.x : rows - 1, cols, sbase);
  for (int row = blockIdx.x; row < rows; row += gridDim.x, ++i) {
    int next = row + gridDim.x < rows ? row + gridDim.x : row;
    issueRow(x, next, cols, sbase + ((i + 1) & 1) * slotBytes);
    asm volatile("cp.async.wait_group 1;\n" ::: "memory");
    computeRow<FAST>(smem + (i & 1) * slotBytes, y, row, cols, red);
  }
  asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}

__global__ void copyKernel(const uint4* a, uint4* b, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}

int main() {
  int rows = 4096, cols = 50257;
  size_t n = (size_t)rows * cols;
  std::vector<bf16> hx(n);
  srand(1);
  for (size_t i = 0; i < n; ++i) hx[i] = __float2bfloat16((rand() / (float)RAND_MAX) * 8.f - 4.f);
  bf16 *x, *y; cudaMalloc(&x, n * 2); cudaMalloc(&y, n * 2 + 64);
  cudaMemcpy(x, hx.data(), n * 2, cudaMemcpyHostToDevice);
  int smemBytes = ((cols + 7 + 7) / 8) * 16;
  cudaFuncSetAttribute(softmaxStaged<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smemBytes);
  cudaFuncSetAttribute(softmaxStaged<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smemBytes);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  auto timeIt = [&](auto launch) {
    for (int i = 0; i < 10; ++i) launch();
    cudaEventRecord(a);
    for (int i = 0; i < 50; ++i) launch();
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); return ms * 1000 / 50;
  };
  float tc = timeIt([&] { copyKernel<<<132 * 8, 512>>>((const uint4*)x, (uint4*)y, n * 2 / 16); });
  double copyBw = 2.0 * n * 2 / tc / 1e3;
  printf("copy %.1f us %.0f GB/s\n", tc, copyBw);
  cudaFuncSetAttribute(softmaxRing<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * smemBytes);
  cudaFuncSetAttribute(softmaxRing<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, 2 * smemBytes);
  for (int variant = 0; variant < 4; ++variant) {
    int fast = variant & 1, ring = variant >> 1;
    cudaMemset(y, 0, n * 2);
    auto launch = [&] {
      if (ring) {
        if (fast) softmaxRing<true><<<132, T, 2 * smemBytes>>>(x, y, rows, cols, smemBytes);
        else softmaxRing<false><<<132, T, 2 * smemBytes>>>(x, y, rows, cols, smemBytes);
      } else {
        if (fast) softmaxStaged<true><<<rows, T, smemBytes>>>(x, y, cols);
        else softmaxStaged<false><<<rows, T, smemBytes>>>(x, y, cols);
      }
    };
    launch(); cudaError_t e = cudaDeviceSynchronize();
    if (e) { printf("error %s\n", cudaGetErrorString(e)); return 1; }
    std::vector<bf16> hy(n); cudaMemcpy(hy.data(), y, n * 2, cudaMemcpyDeviceToHost);
    double worst = 0;
    for (int r = 0; r < rows; r += 37) {
      const bf16* xr = hx.data() + (size_t)r * cols; double mx = -1e30, sum = 0;
      for (int c = 0; c < cols; ++c) mx = fmax(mx, (double)__bfloat162float(xr[c]));
      for (int c = 0; c < cols; ++c) sum += exp((double)__bfloat162float(xr[c]) - mx);
      for (int c = 0; c < cols; ++c) { double ref = exp((double)__bfloat162float(xr[c]) - mx) / sum; double got = __bfloat162float(hy[(size_t)r * cols + c]); worst = fmax(worst, fabs(got - ref) / ref); }
    }
    // bf16 output: within two bf16 ulps (2^-7) of the exact value.
    if (!(worst <= 0x1p-7)) { printf("FAIL: relative error %.2e\n", worst); return 1; }
    float t = timeIt(launch);
    cudaFuncAttributes at; cudaFuncGetAttributes(&at, ring ? (fast ? (const void*)softmaxRing<true> : (const void*)softmaxRing<false>) : (fast ? (const void*)softmaxStaged<true> : (const void*)softmaxStaged<false>));
    printf("%s%s %.1f us %.0f GB/s %.1f%% of copy, worst rel err %.2e, regs %d\n", ring ? "ring   " : "staged ", fast ? "fast " : "exact", t, 2.0 * n * 2 / t / 1e3, 100 * (2.0 * n * 2 / t / 1e3) / copyBw, worst, at.numRegs);
  }
}
