//===- check-logistic.cu - tile-logistic-tanh's accuracy ------------------===//
//
// tile-logistic-tanh rewrites f32 1 + tanh(z) as 2 / (1 + 2^(-2 log2(e) z))
// (and 1 - tanh(z) with +2 log2(e)) through ex2.approx.ftz and
// rcp.approx.ftz. This runs that sequence, written out in CUDA as the pass
// emits it (test/Conversion/LogisticTanh pins the IR), and the form it
// replaces (1 +- tanhf(z), CUDA's accurate tanhf), on every f32 z in
// [-64, 64], against a double-precision reference, and prints the largest
// error of each in ulps of the exact result, by range of z. Results below
// FLT_MIN (the ftz range) are counted apart: there only their absolute
// error (< FLT_MIN) is checked. Exit 1 when the rewrite's largest error
// exceeds kBoundUlps where the sum does not cancel, or kCancellingUlps
// where it does (1 + tanh(z) for z < -1, 1 - tanh(z) for z > 1: there the
// rounding of p, |p| 2^-24 ln 2 relative, grows with |z|, about |z| ulps;
// the tanhf form is off by millions of ulps there), or an ftz-range result
// is off by FLT_MIN or more. On the GPU machine:
// bash scripts/check-logistic.sh.
//
//===----------------------------------------------------------------------===//

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cuda_runtime.h>

constexpr double kBoundUlps = 4.0;
constexpr double kCancellingUlps = 64.0;

__device__ float ptx(float x, int which) {
  float y;
  if (which == 0)
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  else
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// The pass's sequence: sign = -1 for 1 + tanh(z), +1 for 1 - tanh(z).
__device__ float rewritten(float z, float sign) {
  const float k = sign * (float)(2.0 / 0.6931471805599453);
  float p = __fmul_rn(z, k);
  float e = ptx(p, 0);
  float h = __fmaf_rn(e, 0.5f, 0.5f);
  return ptx(h, 1);
}

// [form][sign][range]: form 0 the rewrite, 1 tanhf; range 0 z < -1,
// 1 |z| <= 1, 2 z > 1. Floats >= 0 order as their bits.
__device__ unsigned worst[2][2][3];
__device__ unsigned long long ftzCount, ftzBad;

__device__ double ulpsOff(float got, double exact) {
  int exponent;
  frexp(exact, &exponent); // exact = m 2^exponent, m in [0.5, 1)
  double ulp = ldexp(1.0, exponent - 24);
  return fabs((double)got - exact) / ulp;
}

__global__ void check(uint32_t count) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  // i enumerates the bit patterns of [0, 64], then of [-64, -0].
  uint32_t half = count / 2;
  uint32_t bits = i < half ? i : (i - half) | 0x80000000u;
  float z = __uint_as_float(bits);
  int range = z < -1.0f ? 0 : (z > 1.0f ? 2 : 1);
  for (int s = 0; s < 2; ++s) {
    float sign = s == 0 ? -1.0f : 1.0f; // s 0: 1 + tanh, s 1: 1 - tanh
    double exact = 2.0 / (1.0 + exp(2.0 * (double)sign * (double)z));
    float forms[2] = {rewritten(z, sign),
                      s == 0 ? 1.0f + tanhf(z) : 1.0f - tanhf(z)};
    for (int f = 0; f < 2; ++f) {
      if (exact < FLT_MIN) {
        if (f == 0) {
          atomicAdd(&ftzCount, 1ull);
          if (!(fabs((double)forms[f] - exact) < FLT_MIN))
            atomicAdd(&ftzBad, 1ull);
        }
        continue;
      }
      float off = (float)ulpsOff(forms[f], exact);
      if (off != off)
        off = INFINITY;
      atomicMax(&worst[f][s][range], __float_as_uint(off));
    }
  }
}

int main() {
  uint32_t top = 0x42800000u; // 64.0f
  uint32_t count = 2 * (top + 1);
  check<<<(count + 255) / 256, 256>>>(count);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("kernel failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 2;
  }
  unsigned worst[2][2][3];
  unsigned long long ftzCount, ftzBad;
  cudaMemcpyFromSymbol(worst, ::worst, sizeof(worst));
  cudaMemcpyFromSymbol(&ftzCount, ::ftzCount, sizeof(ftzCount));
  cudaMemcpyFromSymbol(&ftzBad, ::ftzBad, sizeof(ftzBad));
  auto f = [](unsigned u) {
    float x;
    memcpy(&x, &u, 4);
    return x;
  };
  printf("largest error in ulps of the exact result, every f32 z in [-64, 64]"
         " (%u values)\n", count);
  printf("| expression | form | z < -1 | -1 <= z <= 1 | z > 1 |\n");
  printf("| --- | --- | --- | --- | --- |\n");
  const char *names[2] = {"1 + tanh(z)", "1 - tanh(z)"};
  const char *forms[2] = {"logistic (tile-logistic-tanh)", "1 +- tanhf(z)"};
  bool ok = true;
  for (int s = 0; s < 2; ++s)
    for (int form = 0; form < 2; ++form) {
      printf("| %s | %s |", names[s], forms[form]);
      for (int r = 0; r < 3; ++r) {
        float e = f(worst[form][s][r]);
        printf(" %.3g |", e);
        bool cancelling = (s == 0 && r == 0) || (s == 1 && r == 2);
        if (form == 0 && !(e <= (cancelling ? kCancellingUlps : kBoundUlps)))
          ok = false;
      }
      printf("\n");
    }
  printf("results below FLT_MIN (ftz range): %llu, off by FLT_MIN or more: "
         "%llu\n", ftzCount, ftzBad);
  ok = ok && ftzBad == 0;
  printf("%s: the rewrite within %.0f ulps, %.0f where the sum cancels\n",
         ok ? "PASS" : "FAIL", kBoundUlps, kCancellingUlps);
  return ok ? 0 : 1;
}
