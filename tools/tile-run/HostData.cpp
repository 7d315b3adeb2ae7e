//===- HostData.cpp - Element conversion and random data ---*- C++ -*-===//
//
// Conversions between float and bf16/f16 with round-to-nearest-even, the
// random fill of input buffers (f8 through Float8.h), and the widening of
// output elements.
//
//===----------------------------------------------------------------------===//

#include "HostData.h"

#include <cstring>

namespace tile {
namespace run {

using bundle::DType;

static uint32_t floatBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof(x));
  return x;
}

static float bitsToFloat(uint32_t x) {
  float f;
  std::memcpy(&f, &x, sizeof(f));
  return f;
}

uint16_t floatToBF16(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x0040u); // keep NaN a NaN
  // Adding 0x7fff plus the lowest kept bit rounds ties to even; a carry out
  // of the mantissa correctly bumps the exponent (up to infinity).
  uint32_t lsb = (x >> 16) & 1u;
  return static_cast<uint16_t>((x + 0x7fffu + lsb) >> 16);
}

float bf16ToFloat(uint16_t h) { return bitsToFloat(uint32_t(h) << 16); }

uint16_t floatToHalf(float f) {
  uint32_t x = floatBits(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u)
    return sign | 0x7e00u; // NaN
  // 65520 is halfway between 65504 (the largest half) and 65536, and ties go
  // to the even neighbour, which is infinity.
  if (abs >= 0x477ff000u)
    return sign | 0x7c00u;
  // Below 2^-25 (half the smallest subnormal), or exactly 2^-25 (a tie with
  // the even zero), the value rounds to zero.
  if (abs <= 0x33000000u)
    return sign;

  int exp = int(abs >> 23) - 127;
  uint32_t mant = (abs & 0x7fffffu) | 0x800000u; // with the implicit bit
  // Keep the value's bits down to the half's unit in the last place: 2^-10
  // relative for normals, 2^-24 absolute for subnormals.
  int shift = exp >= -14 ? 13 : 13 + (-14 - exp);
  uint32_t kept = mant >> shift;
  uint32_t rest = mant & ((1u << shift) - 1);
  uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1u)))
    ++kept;
  if (exp >= -14) {
    // kept holds the implicit bit at bit 10; adding the biased exponent above
    // it lets a rounding carry move into the exponent.
    return sign | static_cast<uint16_t>((uint32_t(exp + 14) << 10) + kept);
  }
  return sign |
         static_cast<uint16_t>(kept); // subnormal (or the smallest normal)
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f)
    return bitsToFloat(sign | 0x7f800000u | (mant << 13)); // inf or NaN
  if (exp == 0) {
    // Subnormal: mant * 2^-24, exact in float.
    float v = float(mant) * (1.0f / 16777216.0f);
    return sign ? -v : v;
  }
  return bitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
}

/// Uniform in [-1, 1) on a 2^-23 grid, so every value is exact in f32 and
/// the narrow conversions round only once.
static float randomFloat(std::mt19937_64 &rng) {
  uint64_t k = rng() >> 40; // 24 random bits
  return float(double(k) * (1.0 / 8388608.0) - 1.0);
}

static double randomDouble(std::mt19937_64 &rng) {
  uint64_t k = rng() >> 11; // 53 random bits
  return double(k) * (1.0 / 4503599627370496.0) - 1.0;
}

/// Uniform in [-8, 8]; the modulo bias is about 17 / 2^64.
static int64_t randomInt(std::mt19937_64 &rng) {
  return int64_t(rng() % 17) - 8;
}

void fillRandom(const bundle::Buffer &buf, std::mt19937_64 &rng,
                std::vector<unsigned char> &bytes) {
  size_t size = static_cast<size_t>(buf.sizeInBytes());
  bytes.resize(size);
  unsigned elemSize = bundle::dtypeSize(buf.dtype);
  for (size_t off = 0; off + elemSize <= size; off += elemSize) {
    unsigned char *p = bytes.data() + off;
    switch (buf.dtype) {
    case DType::F32: {
      float v = randomFloat(rng);
      std::memcpy(p, &v, 4);
      break;
    }
    case DType::F16: {
      uint16_t v = floatToHalf(randomFloat(rng));
      std::memcpy(p, &v, 2);
      break;
    }
    case DType::BF16: {
      uint16_t v = floatToBF16(randomFloat(rng));
      std::memcpy(p, &v, 2);
      break;
    }
    case DType::F64: {
      double v = randomDouble(rng);
      std::memcpy(p, &v, 8);
      break;
    }
    case DType::I32: {
      int32_t v = int32_t(randomInt(rng));
      std::memcpy(p, &v, 4);
      break;
    }
    case DType::I64: {
      int64_t v = randomInt(rng);
      std::memcpy(p, &v, 8);
      break;
    }
    case DType::I8: {
      // Every byte value, so that packed 4-bit values (tile.unpack) take
      // all 16 values in both nibbles.
      int8_t v = int8_t(uint8_t(rng() >> 56));
      std::memcpy(p, &v, 1);
      break;
    }
    case DType::F8E4M3FN:
      *p = floatToF8E4M3FN(randomFloat(rng));
      break;
    case DType::F8E5M2:
      *p = floatToF8E5M2(randomFloat(rng));
      break;
    }
  }
}

double loadAsDouble(DType t, const unsigned char *p) {
  switch (t) {
  case DType::F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::F16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return halfToFloat(v);
  }
  case DType::BF16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return bf16ToFloat(v);
  }
  case DType::F64: {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  case DType::I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case DType::I64: {
    int64_t v;
    std::memcpy(&v, p, 8);
    return double(v);
  }
  case DType::I8: {
    int8_t v;
    std::memcpy(&v, p, 1);
    return v;
  }
  case DType::F8E4M3FN:
    return f8E4M3FNToFloat(*p);
  case DType::F8E5M2:
    return f8E5M2ToFloat(*p);
  }
  return 0;
}

} // namespace run
} // namespace tile
