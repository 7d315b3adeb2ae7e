//===- check-division.cu - tile-divide-by-reciprocal against div.rn ------===//
//
// The per-vector sequence that tile-divide-by-reciprocal emits, written
// out in CUDA, compared bit for bit with the IEEE quotient (div.rn.f32) on
// random inputs: every bit pattern, softmax's range (x in (0, 1], s in
// [1, 2^17)), values near the range checks' bounds, and vectors of zeros
// of either sign (some with other values among them) by any divisor. On
// the GPU machine: bash scripts/check-division.sh (exit 1 on any
// difference).
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kLanes = 8; // one thread's vector of x, one divisor

__device__ uint32_t mix(uint64_t i) {
  i ^= i >> 33; i *= 0xff51afd7ed558ccdULL;
  i ^= i >> 33; i *= 0xc4ceb9fe1a85ec53ULL;
  i ^= i >> 33;
  return (uint32_t)i;
}

// x / s for every lane, as the pass computes it.
__device__ void divideByReciprocal(const float *x, float s, float *q) {
  float m = fabsf(s);
  float r = (m >= 0x1p-125f && m <= 0x1p125f) ? __frcp_rn(s) : __int_as_float(0x7fc00000);
  // NaN-propagating, as vector.reduction <minimumf> / <maximumf> (fminf
  // and fmaxf would drop a NaN lane).
  float smallest = fabsf(x[0]), largest = fabsf(x[0]);
  for (int i = 1; i < kLanes; ++i) {
    float a = fabsf(x[i]);
    bool nan = isnan(a) || isnan(smallest);
    smallest = nan ? __int_as_float(0x7fc00000) : fminf(smallest, a);
    largest = nan ? __int_as_float(0x7fc00000) : fmaxf(largest, a);
  }
  float ar = fabsf(r);
  bool outside = !(smallest >= 0x1p-100f) || !(__fmul_rn(smallest, ar) >= 0x1p-125f) ||
                 !(__fmul_rn(largest, ar) <= 0x1p125f);
  // A vector of zeros by a divisor in range: x * r.
  bool zeros = largest == 0.f && !isnan(r);
  for (int i = 0; i < kLanes; ++i) {
    if (outside && zeros) { q[i] = __fmul_rn(x[i], r); continue; }
    if (outside) { q[i] = __fdiv_rn(x[i], s); continue; }
    float q0 = __fmul_rn(x[i], r);
    float e = __fmaf_rn(-s, q0, x[i]);
    q[i] = __fmaf_rn(e, r, q0);
  }
}

__device__ float sample(int mode, uint32_t h, bool divisor) {
  if (mode == 0) return __uint_as_float(h); // every bit pattern
  if (mode == 1) {                          // softmax
    if (divisor) return __uint_as_float(((127 + (h >> 27) % 17) << 23) | (h & 0x7fffff));
    int below = (h >> 24) % 160;
    return below >= 127 ? __uint_as_float(h & 0x7fffff) // subnormal
                        : __uint_as_float(((127 - below) << 23) | (h & 0x7fffff));
  }
  if (mode == 3) { // zeros of either sign (a masked softmax's exp(-inf)), any divisor
    if (divisor) return __uint_as_float(h);
    return (h & 7) ? __uint_as_float(h & 0x80000000u) : __uint_as_float(h);
  }
  // Near the bounds: exponents around -100 and +-125.
  int jitter = (int)((h >> 23) % 24) - 12;
  int around = divisor ? ((h & 1) ? -125 : 125) : ((h & 1) ? -100 : ((h & 2) ? 125 : -125));
  float v = ldexpf(1.f + (h & 0x7fff) * 0x1p-15f, around + jitter);
  return (h >> 31) ? -v : v;
}

__global__ void check(int mode, uint64_t base, unsigned long long *bad, float *example) {
  uint64_t i = base + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
  float x[kLanes], q[kLanes];
  for (int l = 0; l < kLanes; ++l) x[l] = sample(mode, mix(i * (kLanes + 1) + l), false);
  float s = sample(mode, mix(i * (kLanes + 1) + kLanes), true);
  // Mostly in-range vectors, so that the fast path is what gets checked.
  if (mode == 0 && (i & 3)) for (int l = 0; l < kLanes; ++l) x[l] = fabsf(x[l]) > 0x1p100f || fabsf(x[l]) < 0x1p-90f ? 1.5f + l : x[l];
  divideByReciprocal(x, s, q);
  for (int l = 0; l < kLanes; ++l) {
    float ref = __fdiv_rn(x[l], s);
    bool same = __float_as_uint(q[l]) == __float_as_uint(ref) || (isnan(q[l]) && isnan(ref));
    if (!same && atomicAdd(bad, 1ULL) == 0) {
      example[0] = x[l]; example[1] = s; example[2] = q[l]; example[3] = ref;
    }
  }
}

int main() {
  unsigned long long *bad; float *example;
  cudaMalloc(&bad, sizeof(*bad)); cudaMalloc(&example, 4 * sizeof(float));
  const uint64_t threads = 1ull << 28;
  unsigned long long total = 0;
  for (int mode = 0; mode < 4; ++mode) {
    cudaMemset(bad, 0, sizeof(*bad));
    for (int it = 0; it < 4; ++it)
      check<<<threads / 256, 256>>>(mode, (mode * 4ull + it) * threads, bad, example);
    unsigned long long h = 0; float e[4];
    cudaError_t err = cudaMemcpy(&h, bad, sizeof(h), cudaMemcpyDeviceToHost);
    cudaMemcpy(e, example, sizeof(e), cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) { printf("CUDA error: %s\n", cudaGetErrorString(err)); return 2; }
    printf("mode %d: %llu quotients, %llu differ from div.rn\n", mode,
           (unsigned long long)(4 * threads * kLanes), h);
    if (h) printf("  e.g. x=%a s=%a: %a, div.rn %a\n", e[0], e[1], e[2], e[3]);
    total += h;
  }
  return total ? 1 : 0;
}
