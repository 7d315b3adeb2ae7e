// Prototype (not part of the compiler), session 29: how fast can a
// weight-only int4 GEMM run at decode shapes (M = 16, N = K = 8192, group
// 128, bf16 scales [K/128, N]) on the H200, and which structure gets
// there? Issue 17's bar is 0.4x cuBLAS's bf16 time (about 17.8 us); the
// compiled kernel takes about 29.5 (bench/RESULTS.md, sessions 27, 29).
// The weight is in the documented tensor-core packing (docs/quantization.md:
// k_runs = 32 and AWQ's nibble order), so a thread's 16 bytes of a block of
// 128 along K are its mma.sync B fragments for 8 columns. Template knobs:
//  - R n-tiles of 8 columns a warp (x's fragments serve R products);
//  - WN warps along N and WK along K in a program (the WK partial sums
//    added in shared memory at the end);
//  - S programs along K, their partials added with f32 atomics, or (the
//    part/counters arguments) as the compiler does: partials in global
//    memory, the last program of a column tile adds them;
//  - P steps of the weight loaded ahead straight into registers
//    (ld.global.nc, no shared memory, no barrier in the loop);
//  - BL blocks of 128 along K a step: BL = 2 asks for both 64-byte halves
//    of each row's 128-byte line at once;
//  - x's slice of the program staged in shared memory once (cp.async),
//    read by ldmatrix, or (XG) each thread's runs of x read from global
//    memory through L1, with the weight packed in plain K order.
// The dequantization is the compiler's: one lop3 makes (136 + q) in bf16
// pairs, minus 136, times the scale in bf16 pairs (exact: the f32 product
// rounded once, as the reference map's truncf).
// Findings (session 29): BL = 2 is the one knob that mattered (in turn
// with cuBLAS: 23.8 us against 28.9 for BL = 1 with as many bytes in
// flight); the partials cost 1.6 us over atomics; XG, WK > 1, and P > 2 did
// not help; reading the 32 MiB weight alone takes 13.2 us after a
// writing flush.
// Standalone (checked against a float64 reference of the same dequantized
// values; timed with a 256 MB memset before each launch, device events,
// median of 50, beside cublasGemmEx bf16 of the same shape; argv[1] runs
// one variant by name):
//   nvcc -O3 -arch=sm_90a -std=c++17 bench/prototypes/int4_decode.cu -lcublas -o p && ./p
// In turn with bundles and cuBLAS: bench/prototypes/int4_decode.py.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
typedef __nv_bfloat16 bf16;

#define CK(x)                                                                 \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__,     \
             __LINE__);                                                       \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

constexpr int M = 16;

__device__ __forceinline__ uint4 ldgStream(const void* p) {
  uint4 v;
  asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}
__device__ __forceinline__ unsigned short ldgU16(const void* p) {
  unsigned short v;
  asm volatile("ld.global.nc.u16 %0, [%1];" : "=h"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ unsigned lop3Pair(unsigned w) {
  // (w & 0x000F000F) ^ 0x43084308: 136 + q as a bf16 pair.
  unsigned r;
  asm("lop3.b32 %0, %1, %2, %3, 0x6a;"
      : "=r"(r)
      : "r"(w), "r"(0x000F000Fu), "r"(0x43084308u));
  return r;
}
__device__ __forceinline__ unsigned subMul(unsigned pair, unsigned scale) {
  unsigned r;
  asm("{.reg .b32 t;\n"
      " sub.rn.bf16x2 t, %1, %2;\n"
      " mul.rn.bf16x2 %0, t, %3;}"
      : "=r"(r)
      : "r"(pair), "r"(0x43084308u), "r"(scale));
  return r;
}
__device__ __forceinline__ void mma(float* c, const unsigned* a, unsigned b0,
                                    unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
      "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ __forceinline__ void ldsm4(unsigned* a, unsigned addr) {
  asm volatile(
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
      : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
      : "r"(addr));
}
__device__ __forceinline__ void cpAsync16(unsigned dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
               "l"(src));
}

// y[16, N] += x[16, K] W^T over this program's K range.
template <int R, int WN, int WK, int S, int P, int BL, bool MATH, bool XG>
__global__ void __launch_bounds__(32 * WN * WK)
    int4Gemm(const bf16* __restrict__ x, const unsigned char* __restrict__ qw,
             const bf16* __restrict__ scales, float* __restrict__ y, int N,
             int K, float* part = nullptr, int* counters = nullptr,
             bf16* yb = nullptr) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int kRange = K / S;                // this program's K
  const int xStride = kRange * 2 + 16;     // bytes a row of x, padded
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wn = warp % WN, wk = warp / WN;
  const int k0 = blockIdx.y * kRange;
  const int n0 = blockIdx.x * (WN * 8 * R) + wn * 8 * R;
  // Stage x's slice (XG: no; each thread loads its own runs of x from
  // global memory, through L1, and the weight is packed in K order).
  if (!XG) {
    const int chunks = M * kRange / 8;  // 16 bytes each
    for (int i = threadIdx.x; i < chunks; i += blockDim.x) {
      int row = i / (kRange / 8), col = i % (kRange / 8);
      unsigned dst = (unsigned)__cvta_generic_to_shared(smem) + row * xStride +
                     col * 16;
      cpAsync16(dst, x + (size_t)row * K + k0 + col * 8);
    }
    asm volatile("cp.async.commit_group;");
  }
  const int g = lane / 4, t = lane % 4;
  const int steps = kRange / 128 / WK / BL;  // this warp's steps
  // A step is BL consecutive blocks of 128 along K (BL 64-byte runs of
  // each row: BL = 2 reads whole 128-byte lines).
  // The weight: row n0 + 8 r + g, bytes (k / 2) + 16 t of each block.
  const unsigned char* wBase = qw + (size_t)(n0 + g) * (K / 2) + t * 16;
  auto blockK = [&](int s, int bl) { return ((s * WK + wk) * BL + bl) * 128; };
  auto wAddr = [&](int s, int r, int bl) {
    int kk = k0 + blockK(s, bl);
    return wBase + (size_t)r * 8 * (K / 2) + kk / 2;
  };
  auto sAddr = [&](int s, int r, int bl) {
    int kk = k0 + blockK(s, bl);
    return scales + (size_t)(kk / 128) * N + n0 + 8 * r + g;
  };
  uint4 wq[P][R][BL];
  unsigned short sc[P][R][BL];
#pragma unroll
  for (int p = 0; p < P; ++p)
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int bl = 0; bl < BL; ++bl)
        if (p < steps) {
          wq[p][r][bl] = ldgStream(wAddr(p, r, bl));
          sc[p][r][bl] = ldgU16(sAddr(p, r, bl));
        }
  float acc[R][4];
#pragma unroll
  for (int r = 0; r < R; ++r)
    acc[r][0] = acc[r][1] = acc[r][2] = acc[r][3] = 0.f;
  asm volatile("cp.async.wait_all;");
  __syncthreads();
  // ldmatrix.x4 addresses: lane l gives row (l % 16), k offset 8 (l / 16).
  const unsigned xs = (unsigned)__cvta_generic_to_shared(smem) +
                      (lane % 16) * xStride + (lane / 16) * 16;
  // XG: thread (g, t) reads x[g][kb + 32 t, + 32) and row g + 8's.
  const bf16* xg0 = x + (size_t)g * K + k0 + 32 * t;
  const bf16* xg1 = xg0 + (size_t)8 * K;
  for (int s0 = 0; s0 < steps; s0 += P) {
#pragma unroll
    for (int p = 0; p < P; ++p) {
      const int s = s0 + p;
      if (s < steps) {
        uint4 w[R][BL];
        unsigned scale[R][BL];
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
          for (int bl = 0; bl < BL; ++bl) {
            w[r][bl] = wq[p][r][bl];
            scale[r][bl] = (unsigned)sc[p][r][bl] * 0x10001u;
          }
        if (s + P < steps) {
#pragma unroll
          for (int r = 0; r < R; ++r)
#pragma unroll
            for (int bl = 0; bl < BL; ++bl) {
              wq[p][r][bl] = ldgStream(wAddr(s + P, r, bl));
              sc[p][r][bl] = ldgU16(sAddr(s + P, r, bl));
            }
        }
        if (!MATH) {  // the loads alone: fold the words in
#pragma unroll
          for (int r = 0; r < R; ++r)
#pragma unroll
            for (int bl = 0; bl < BL; ++bl)
              acc[r][0] += __uint_as_float((w[r][bl].x ^ w[r][bl].y ^ w[r][bl].z ^ w[r][bl].w ^ scale[r][bl]) & 0x3fffffu);
          continue;
        }
#pragma unroll
        for (int bl = 0; bl < BL; ++bl) {
          const int kLocal = blockK(s, bl);
          uint4 xr[2][4];
          if (XG) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
              xr[0][i] = *reinterpret_cast<const uint4*>(xg0 + kLocal + 8 * i);
              xr[1][i] = *reinterpret_cast<const uint4*>(xg1 + kLocal + 8 * i);
            }
          }
#pragma unroll
          for (int j = 0; j < 8; ++j) {  // k16 chunks
            unsigned a[4];
            if (XG) {
              // mma j reads K 32 t + 4 j + (0..3): words 2 j and 2 j + 1 of
              // the thread's 16 of each row.
              const unsigned* r0 = reinterpret_cast<const unsigned*>(xr[0]);
              const unsigned* r1 = reinterpret_cast<const unsigned*>(xr[1]);
              a[0] = r0[2 * j];
              a[1] = r1[2 * j];
              a[2] = r0[2 * j + 1];
              a[3] = r1[2 * j + 1];
            } else {
              ldsm4(a, xs + (kLocal + 16 * j) * 2);
            }
#pragma unroll
            for (int r = 0; r < R; ++r) {
              unsigned word = j / 2 == 0   ? w[r][bl].x
                              : j / 2 == 1 ? w[r][bl].y
                              : j / 2 == 2 ? w[r][bl].z
                                           : w[r][bl].w;
              int q0 = 2 * (j % 2);
              unsigned b0 = subMul(lop3Pair(word >> (4 * q0)), scale[r][bl]);
              unsigned b1 = subMul(lop3Pair(word >> (4 * q0 + 4)), scale[r][bl]);
              mma(acc[r], a, b0, b1);
            }
          }
        }
      }
    }
  }
  // The WK partial sums: in shared memory, then warp row 0 adds and writes.
  float* red = reinterpret_cast<float*>(smem);
  if (WK > 1) {
    __syncthreads();
    if (wk > 0) {
#pragma unroll
      for (int r = 0; r < R; ++r)
#pragma unroll
        for (int i = 0; i < 4; ++i)
          red[(((wk - 1) * WN + wn) * R + r) * 128 + i * 32 + lane] =
              acc[r][i];
    }
    __syncthreads();
    if (wk == 0) {
#pragma unroll
      for (int q = 1; q < WK; ++q)
#pragma unroll
        for (int r = 0; r < R; ++r)
#pragma unroll
          for (int i = 0; i < 4; ++i)
            acc[r][i] += red[(((q - 1) * WN + wn) * R + r) * 128 + i * 32 + lane];
    }
  }
  if (wk == 0) {
#pragma unroll
    for (int r = 0; r < R; ++r) {
      int col = n0 + 8 * r + 2 * t;
      float* y0 = y + (size_t)g * N + col;
      float* y1 = y + (size_t)(g + 8) * N + col;
      if (part) {  // split-K partials, summed by the last program (as compiled)
        float* p0 = part + ((size_t)blockIdx.y * M + g) * N + col;
        float* p1 = p0 + (size_t)8 * N;
        *reinterpret_cast<float2*>(p0) = make_float2(acc[r][0], acc[r][1]);
        *reinterpret_cast<float2*>(p1) = make_float2(acc[r][2], acc[r][3]);
      } else if (S == 1) {
        y0[0] = acc[r][0];
        y0[1] = acc[r][1];
        y1[0] = acc[r][2];
        y1[1] = acc[r][3];
      } else {
        atomicAdd(y0, acc[r][0]);
        atomicAdd(y0 + 1, acc[r][1]);
        atomicAdd(y1, acc[r][2]);
        atomicAdd(y1 + 1, acc[r][3]);
      }
    }
  }
  if (part) {
    __shared__ int last;
    __syncthreads();
    if (threadIdx.x == 0) {
      asm volatile("fence.acq_rel.gpu;");
      int arrived = atomicAdd(&counters[blockIdx.x], 1);
      last = arrived == S - 1;
      if (last) counters[blockIdx.x] = 0;
      asm volatile("fence.acq_rel.gpu;");
    }
    __syncthreads();
    if (last) {
      const int cols = WN * 8 * R, c0 = blockIdx.x * cols;
      for (int i = threadIdx.x; i < M * cols / 2; i += blockDim.x) {
        int row = i / (cols / 2), col = c0 + 2 * (i % (cols / 2));
        float2 sum = make_float2(0.f, 0.f);
        for (int q = 0; q < S; ++q) {
          float2 v = __ldcg(reinterpret_cast<const float2*>(part + ((size_t)q * M + row) * N + col));
          sum.x += v.x;
          sum.y += v.y;
        }
        *reinterpret_cast<__nv_bfloat162*>(yb + (size_t)row * N + col) = __floats2bfloat162_rn(sum.x, sum.y);
      }
    }
  }
}

// The floor: read the packed weight once (xor of every word), no math.
__global__ void readOnly(const uint4* __restrict__ p, size_t n, unsigned* out) {
  unsigned a = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = ldgStream(p + i);
    a ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (a == 0x12345678u) out[0] = a;
}

// Host side: random data, the packing, the reference.
static unsigned rng = 12345;
static unsigned nextRand() {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

struct Problem {
  int N, K;
  std::vector<bf16> x, scales;
  std::vector<signed char> q;     // [N, K] values -8..7
  std::vector<unsigned char> packed;  // [N, K/2] k_runs + interleaved
  std::vector<unsigned char> packedPlain;  // [N, K/2] K order, interleaved nibbles
  std::vector<double> ref;        // [16, N]
};

static void build(Problem& p) {
  int N = p.N, K = p.K;
  p.x.resize((size_t)M * K);
  for (auto& v : p.x) v = __float2bfloat16((int)(nextRand() % 2001 - 1000) / 500.f);
  p.scales.resize((size_t)(K / 128) * N);
  for (auto& v : p.scales) v = __float2bfloat16((1 + nextRand() % 1000) / 40000.f);
  p.q.resize((size_t)N * K);
  for (auto& v : p.q) v = (signed char)((int)(nextRand() % 16) - 8);
  p.packed.assign((size_t)N * K / 2, 0);
  for (int n = 0; n < N; ++n)
    for (int b = 0; b < K / 128; ++b)
      for (int pos = 0; pos < 128; ++pos) {
        // stored position pos = 32 c + 4 t + 2 h + e holds k = 16 t + 8 h + 2 c + e
        int c = pos / 32, t = (pos / 4) % 8, h = (pos / 2) % 2, e = pos % 2;
        int k = b * 128 + 16 * t + 8 * h + 2 * c + e;
        unsigned nib = (unsigned)p.q[(size_t)n * K + k] & 15;
        int word = pos / 8, v = pos % 8;
        int nibble = v / 2 + 4 * (v % 2);
        size_t byte = (size_t)n * (K / 2) + b * 64 + word * 4 + nibble / 2;
        p.packed[byte] |= nib << (4 * (nibble % 2));
      }
  p.packedPlain.assign((size_t)N * K / 2, 0);
  for (int n = 0; n < N; ++n)
    for (int k = 0; k < K; ++k) {
      unsigned nib = (unsigned)p.q[(size_t)n * K + k] & 15;
      int word = k / 8, v = k % 8;
      int nibble = v / 2 + 4 * (v % 2);
      size_t byte = (size_t)n * (K / 2) + word * 4 + nibble / 2;
      p.packedPlain[byte] |= nib << (4 * (nibble % 2));
    }
  p.ref.assign((size_t)M * N, 0);
  std::vector<float> w(K);
  for (int n = 0; n < N; ++n) {
    for (int k = 0; k < K; ++k) {
      float s = __bfloat162float(p.scales[(size_t)(k / 128) * N + n]);
      w[k] = __bfloat162float(__float2bfloat16((float)p.q[(size_t)n * K + k] * s));
    }
    for (int m = 0; m < M; ++m) {
      double a = 0;
      for (int k = 0; k < K; ++k)
        a += (double)__bfloat162float(p.x[(size_t)m * K + k]) * w[k];
      p.ref[(size_t)m * N + n] = a;
    }
  }
}

struct Bufs {
  bf16 *x, *scales, *wbf;
  unsigned char* q;
  unsigned char* qPlain;
  float* y;
  bf16* ybf;
  void* flush;
};

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

static bool gFlush = true;
static bool gCleanFlush = false;  // flush by reading 256 MB (clean lines) instead of a memset
__global__ void readOnly(const uint4* __restrict__ p, size_t n, unsigned* out);
template <class F>
static float timeIt(F launch, Bufs& b, int reps = 50) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> ts;
  for (int i = 0; i < reps + 3; ++i) {
    if (gFlush && !gCleanFlush) CK(cudaMemsetAsync(b.flush, i & 0xff, 256 << 20));
    if (gFlush && gCleanFlush)
      readOnly<<<132 * 8, 256>>>((const uint4*)b.flush, (256 << 20) / 16, (unsigned*)b.flush);
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    if (i >= 3) ts.push_back(ms * 1000);
  }
  CK(cudaGetLastError());
  return median(ts);
}

// y (f32, on the device) against the float64 reference: the relative
// error's norm, and whether any value is NaN.
static double relError(const Problem& p, const Bufs& b, bool& nan) {
  std::vector<float> y((size_t)M * p.N);
  CK(cudaMemcpy(y.data(), b.y, y.size() * 4, cudaMemcpyDeviceToHost));
  double num = 0, den = 0;
  nan = false;
  for (size_t i = 0; i < y.size(); ++i) {
    if (std::isnan(y[i])) nan = true;
    num += (y[i] - p.ref[i]) * (y[i] - p.ref[i]);
    den += p.ref[i] * p.ref[i];
  }
  return std::sqrt(num / den);
}

// cuBLAS's bf16 GEMM of the same shape, the peer: y^T [N, 16] = W [N, K]
// x^T, column-major C = A^T B with A = W^T (K x N).
static void cublasBf16(cublasHandle_t h, const Problem& p, Bufs& b) {
  const float one = 1, zero = 0;
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, p.N, M, p.K, &one, b.wbf, CUDA_R_16BF,
               p.K, b.x, CUDA_R_16BF, p.K, &zero, b.ybf, CUDA_R_16BF, p.N,
               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// The benchmark's problem: 16 x 8192 x 8192, its reference computed.
static Problem makeProblem() {
  Problem p;
  p.N = 8192;
  p.K = 8192;
  build(p);
  return p;
}

static const char* gOnly = nullptr;  // argv[1]: run the variant of that name only
template <int R, int WN, int WK, int S, int P, int BL = 1, bool MATH = true, bool XG = false>
static void variant(const char* name, Problem& p, Bufs& b, float cublasUs) {
  if (gOnly && strcmp(gOnly, name)) return;
  int N = p.N, K = p.K;
  int cols = WN * 8 * R, threads = 32 * WN * WK;
  int kRange = K / S;
  size_t xBytes = XG ? 0 : (size_t)M * (kRange * 2 + 16);
  size_t redBytes = (size_t)(WK - 1) * WN * R * 128 * 4;
  size_t smemBytes = std::max<size_t>(std::max(xBytes, redBytes), 16);
  if (N % cols || K % S || kRange % (128 * WK * BL) || smemBytes > 227 * 1024) {
    printf("%-28s skipped (shape)\n", name);
    return;
  }
  auto kern = int4Gemm<R, WN, WK, S, P, BL, MATH, XG>;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          (int)smemBytes));
  dim3 grid(N / cols, S);
  auto launch = [&] {
    kern<<<grid, threads, smemBytes>>>(b.x, XG ? b.qPlain : b.q, b.scales, b.y, N, K, nullptr, nullptr, nullptr);
  };
  CK(cudaMemset(b.y, 0xff, (size_t)M * N * 4));  // poison: NaN
  if (S > 1) CK(cudaMemset(b.y, 0, (size_t)M * N * 4));
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  bool nan = false;
  double rel = relError(p, b, nan);
  bool ok = !MATH || (!nan && rel < 1e-4);
  float us = timeIt(launch, b);
  gCleanFlush = true;
  float warm = timeIt(launch, b);
  gCleanFlush = false;
  int occ = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, threads, smemBytes));
  printf("%-30s %5d progs %2d/SM  %7.2f us  %.3f of cuBLAS  clean flush %7.2f us  %s rel %.1e\n",
         name, grid.x * grid.y, occ, us, us / cublasUs, warm, ok ? (MATH ? "PASS" : "(no math)") : "FAIL", rel);
}

// The problem's buffers on the device, and a random bf16 weight of the same
// shape for cuBLAS (the standalone mains of this file and int4_wgmma.cu).
static void upload(Problem& p, Bufs& b) {
  const int N = p.N, K = p.K;
  CK(cudaMalloc(&b.x, p.x.size() * 2));
  CK(cudaMalloc(&b.scales, p.scales.size() * 2));
  CK(cudaMalloc(&b.q, p.packed.size()));
  CK(cudaMalloc(&b.y, (size_t)M * N * 4));
  CK(cudaMalloc(&b.ybf, (size_t)M * N * 2));
  CK(cudaMalloc(&b.wbf, (size_t)N * K * 2));
  CK(cudaMalloc(&b.flush, 256 << 20));
  CK(cudaMemcpy(b.x, p.x.data(), p.x.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b.scales, p.scales.data(), p.scales.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(b.q, p.packed.data(), p.packed.size(), cudaMemcpyHostToDevice));
  CK(cudaMalloc(&b.qPlain, p.packedPlain.size()));
  CK(cudaMemcpy(b.qPlain, p.packedPlain.data(), p.packedPlain.size(), cudaMemcpyHostToDevice));
  std::vector<bf16> w((size_t)N * K);
  for (size_t i = 0; i < w.size(); ++i) w[i] = __float2bfloat16((nextRand() % 2001 - 1000) / 1000.f);
  CK(cudaMemcpy(b.wbf, w.data(), w.size() * 2, cudaMemcpyHostToDevice));
}

#ifndef PROTO_LIB
int main(int argc, char** argv) {
  if (argc > 1) gOnly = argv[1];
  Problem p = makeProblem();
  int N = p.N, K = p.K;
  Bufs b;
  upload(p, b);
  cublasHandle_t h;
  cublasCreate(&h);
  auto cublas = [&] { cublasBf16(h, p, b); };

  cublas();
  CK(cudaDeviceSynchronize());
  float cub = timeIt(cublas, b);
  printf("cuBLAS bf16 16x8192x8192 %.2f us\n", cub);
  for (int blocks : {132 * 4, 132 * 8, 132 * 16}) {
    size_t n = p.packed.size() / 16;
    auto rd = [&] { readOnly<<<blocks, 256>>>((const uint4*)b.q, n, (unsigned*)b.y); };
    float us = timeIt(rd, b);
    gCleanFlush = true;
    float warm = timeIt(rd, b);
    gCleanFlush = false;
    printf("read the 32 MiB weight, %d programs: %.2f us (%.2f TB/s), clean flush %.2f us\n", blocks, us, p.packed.size() / us / 1e6, warm);
  }
  // name: R (n-tiles a warp) WN WK S (programs along K) P (steps ahead) BL (blocks a step), xg: x from global
  variant<2, 8, 1, 4, 2, 2>("R2 WN8 WK1 S4 P2 BL2", p, b, cub);
  variant<2, 8, 1, 4, 2, 2, true, true>("R2 WN8 WK1 S4 P2 BL2 xg", p, b, cub);
  variant<2, 8, 1, 4, 1, 1, true, true>("R2 WN8 WK1 S4 P1 BL1 xg", p, b, cub);
  variant<1, 8, 1, 4, 1, 1, true, true>("R1 WN8 WK1 S4 P1 BL1 xg", p, b, cub);
  variant<1, 8, 1, 4, 2, 1, true, true>("R1 WN8 WK1 S4 P2 BL1 xg", p, b, cub);
  variant<1, 8, 1, 4, 1, 2, true, true>("R1 WN8 WK1 S4 P1 BL2 xg", p, b, cub);
  variant<2, 8, 1, 2, 2, 2, true, true>("R2 WN8 WK1 S2 P2 BL2 xg", p, b, cub);
  variant<4, 8, 1, 4, 1, 2, true, true>("R4 WN8 WK1 S4 P1 BL2 xg", p, b, cub);
  variant<2, 4, 1, 4, 2, 2, true, true>("R2 WN4 WK1 S4 P2 BL2 xg", p, b, cub);
  variant<2, 4, 2, 4, 2, 2, true, true>("R2 WN4 WK2 S4 P2 BL2 xg", p, b, cub);
  variant<1, 8, 1, 8, 2, 2, true, true>("R1 WN8 WK1 S8 P2 BL2 xg", p, b, cub);
  float cub2 = timeIt(cublas, b);
  gCleanFlush = true;
  float cubClean = timeIt(cublas, b);
  gCleanFlush = false;
  printf("cuBLAS again %.2f us, clean flush %.2f us\n", cub2, cubClean);
  return 0;
}
#endif

// For bench/interleave.py's harness (ctypes; built with -shared
// -DPROTO_LIB): the best variant on caller's buffers, y f32 [16, N]
// accumulated with atomics (not zeroed here: for timing only).
template <int R, int WN, int WK, int S, int P, int BL>
static int launchOne(const void* x, const void* q, const void* scales, void* y,
                     int N, int K, void* stream, float* part, int* counters,
                     bf16* yb) {
  int cols = WN * 8 * R, kRange = K / S;
  size_t smemBytes = (size_t)M * (kRange * 2 + 16);
  auto kern = int4Gemm<R, WN, WK, S, P, BL, true, false>;
  cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       (int)smemBytes);
  kern<<<dim3(N / cols, S), 32 * WN * WK, smemBytes, (cudaStream_t)stream>>>(
      (const bf16*)x, (const unsigned char*)q, (const bf16*)scales, (float*)y,
      N, K, part, counters, yb);
  return (int)cudaGetLastError();
}

// For bench/interleave.py's harness (ctypes; built with -shared
// -DPROTO_LIB): variant v on the caller's buffers. y f32 [16, N] takes the
// atomics (not zeroed here: for timing only); with part ([4, 16, N] f32)
// and counters ([N / 128] i32, zeroed), the partials are summed by each
// column tile's last program into yb (bf16 [16, N]), as compiled.
extern "C" int protoLaunch(int v, const void* x, const void* q,
                           const void* scales, void* y, int N, int K,
                           void* stream, float* part, int* counters,
                           void* yb) {
  bf16* out = (bf16*)yb;
  switch (v) {
  case 0: return launchOne<2, 8, 1, 4, 2, 2>(x, q, scales, y, N, K, stream, nullptr, nullptr, nullptr);
  case 1: return launchOne<2, 8, 1, 4, 4, 1>(x, q, scales, y, N, K, stream, nullptr, nullptr, nullptr);
  case 2: return launchOne<2, 8, 1, 4, 2, 1>(x, q, scales, y, N, K, stream, nullptr, nullptr, nullptr);
  case 3: return launchOne<2, 8, 1, 4, 2, 2>(x, q, scales, y, N, K, stream, part, counters, out);
  case 4: return launchOne<2, 8, 1, 4, 1, 1>(x, q, scales, y, N, K, stream, nullptr, nullptr, nullptr);
  }
  return -1;
}
