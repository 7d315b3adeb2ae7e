// Prototype (not part of the compiler), session 40: how fast 128 programs
// can stream a packed 8192 x 8192 int4 weight (32 MiB) from DRAM, by the
// layout of each program's K steps. The transposed weight-only kernels
// (issue 17) read, per program and K step of 256, 64 rows x 128 bytes of
// an [N, K/2] row-major weight (rows 4 KiB apart); their copy-free
// ablation runs in 16.7 of 25.7 us on the H100 (bench/RESULTS.md, session
// 40), and their DRAM throughput is about half the peak. This asks
// whether that access pattern (one 128-byte piece of each of 64 rows a
// step) or the bytes in flight hold the stream back: the same bytes read
// (a) as the kernel does (rows 4 KiB apart, 128 B of each a step), (b)
// as 256 B of each row every other step (K steps of 512), (c) each step's
// 64 x 128 bytes contiguous (a weight stored tiled by program and step),
// with 8 or 16 of a thread's 16-byte loads in flight. No compute: the
// loads are xor-ed into one value per thread.
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a \
//       bench/prototypes/weight_stream.cu -o /tmp/ws && /tmp/ws
#include "tma_ring.cuh"

constexpr int kRows = 8192, kRowBytes = 4096, kPrograms = 128;
constexpr int kStepBytes = 128, kSteps = kRowBytes / kStepBytes; // 32
constexpr int kThreads = 256;

// Pattern 0: row-major, 128 B of each of the program's 64 rows a step.
// Pattern 1: row-major, 256 B of each row every other step (pairs of steps).
// Pattern 2: tiled, each program-step's 8 KiB contiguous.
template <int Pattern, int InFlight>
__global__ void __launch_bounds__(kThreads) stream(const int4 *__restrict__ w,
                                                   int4 *out) {
  int b = blockIdx.x, t = threadIdx.x;
  int4 acc = {0, 0, 0, 0};
  // A step is 512 int4 (8 KiB): two a thread.
  for (int s0 = 0; s0 < kSteps; s0 += InFlight / 2) {
    int4 v[InFlight];
#pragma unroll
    for (int i = 0; i < InFlight; ++i) {
      int s = s0 + i / 2, e = t + (i % 2) * kThreads; // int4 of the step
      size_t off;
      if (Pattern == 0) {
        int row = e / 8, col = e % 8;
        off = (size_t(b * 64 + row) * kRowBytes + s * kStepBytes + col * 16) / 16;
      } else if (Pattern == 1) {
        // steps s (even) and s + 1 as one 256-byte piece of each row
        int pair = s / 2, half = s % 2;
        int idx = half * 512 + e; // 0..1023 over the pair
        int row = idx / 16, col = idx % 16;
        off = (size_t(b * 64 + row) * kRowBytes + pair * 256 + col * 16) / 16;
      } else {
        off = (size_t(b) * kSteps * 8192 + size_t(s) * 8192 + e * 16) / 16;
      }
      v[i] = __ldg(w + off);
    }
#pragma unroll
    for (int i = 0; i < InFlight; ++i) {
      acc.x ^= v[i].x; acc.y ^= v[i].y; acc.z ^= v[i].z; acc.w ^= v[i].w;
    }
  }
  out[b * kThreads + t] = acc;
}

// The floor: the same bytes read by a grid of many short programs (each
// thread 4 loads of 16 B, coalesced), the hardware keeping every SM busy.
__global__ void __launch_bounds__(kThreads) flat(const int4 *__restrict__ w,
                                                 int4 *out) {
  size_t base = (size_t(blockIdx.x) * kThreads * 4) + threadIdx.x;
  int4 acc = {0, 0, 0, 0};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    int4 v = __ldg(w + base + i * kThreads);
    acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
  }
  if (acc.x == 0x12345678)
    out[threadIdx.x] = acc;
}

// Copy rep % copies of the weight (so that no launch finds the last one's).
const int4 *weightCopy(const int4 *weights, int copies, int rep) {
  return weights + size_t(rep % copies) * (size_t(kRows) * kRowBytes / 16);
}

void measureFlat(int4 *weights, int copies, int4 *out, char *flush,
                 size_t flushBytes, size_t bytes) {
  int programs = int(bytes / (kThreads * 64));
  float us = medianUs(flush, flushBytes, [&](int rep) {
    flat<<<programs, kThreads>>>(weightCopy(weights, copies, rep), out);
  });
  printf("flat grid of %6d programs, %4zu MiB           : %7.2f us  %6.0f GB/s\n",
         programs, bytes >> 20, us, double(bytes) / (us * 1e-6) / 1e9);
}

template <int Pattern, int InFlight>
void measure(const char *name, int4 *weights, int copies, int4 *out,
             char *flush, size_t flushBytes) {
  float us = medianUs(flush, flushBytes, [&](int rep) {
    stream<Pattern, InFlight><<<kPrograms, kThreads>>>(
        weightCopy(weights, copies, rep), out);
  });
  double bytes = double(kRows) * kRowBytes;
  printf("%-44s in flight %2d: %7.2f us  %6.0f GB/s\n", name, InFlight, us,
         bytes / (us * 1e-6) / 1e9);
}

int main() {
  const int copies = 4;
  size_t weightBytes = size_t(kRows) * kRowBytes * copies;
  int4 *weights, *out;
  char *flush;
  size_t flushBytes = size_t(256) << 20;
  cudaMalloc(&weights, weightBytes);
  cudaMalloc(&out, kPrograms * kThreads * sizeof(int4));
  cudaMalloc(&flush, flushBytes);
  cudaMemset(weights, 1, weightBytes);
  measureFlat(weights, 1, out, flush, flushBytes, size_t(kRows) * kRowBytes);
  measureFlat(weights, 1, out, flush, flushBytes, size_t(kRows) * kRowBytes * 4);
  measure<0, 8>("rows 4 KiB apart, 128 B each a step", weights, copies, out, flush, flushBytes);
  measure<0, 16>("rows 4 KiB apart, 128 B each a step", weights, copies, out, flush, flushBytes);
  measure<0, 32>("rows 4 KiB apart, 128 B each a step", weights, copies, out, flush, flushBytes);
  measure<1, 8>("rows 4 KiB apart, 256 B each two steps", weights, copies, out, flush, flushBytes);
  measure<1, 16>("rows 4 KiB apart, 256 B each two steps", weights, copies, out, flush, flushBytes);
  measure<1, 32>("rows 4 KiB apart, 256 B each two steps", weights, copies, out, flush, flushBytes);
  measure<2, 8>("tiled: a program's step 8 KiB contiguous", weights, copies, out, flush, flushBytes);
  measure<2, 16>("tiled: a program's step 8 KiB contiguous", weights, copies, out, flush, flushBytes);
  measure<2, 32>("tiled: a program's step 8 KiB contiguous", weights, copies, out, flush, flushBytes);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
