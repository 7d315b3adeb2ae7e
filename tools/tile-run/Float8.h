//===- Float8.h - FP8 (e4m3fn, e5m2) to and from float ------*- C++ -*-===//
//
// The two FP8 formats a bundle buffer may hold (docs/bundle-format.md):
//  - e4m3fn: 4 exponent bits (bias 7), 3 mantissa bits; no infinities, only
//    S.1111.111 is NaN, so the largest finite value is 448 (S.1111.110);
//  - e5m2: 5 exponent bits (bias 15), 2 mantissa bits; IEEE-like, with
//    infinities (S.11111.00) and NaNs, largest finite 57344.
// Both have subnormals. Encoding rounds to nearest, ties to even, and
// saturates as the GPU's cvt.rn.satfinite does: a magnitude past the largest
// finite value, infinity included, becomes that value; NaN stays NaN.
// Decoding is exact: every f8 value is a float.
//
// Header-only so that tile-bundle-selftest, which is built without
// tile-run's sources and without CUDA, tests every code of both formats.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_RUN_FLOAT8_H
#define TILE_TOOLS_TILE_RUN_FLOAT8_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tile {
namespace run {

/// An 8-bit float: sign, 7 - mantissaBits exponent bits, mantissaBits.
struct Float8Format {
  unsigned mantissaBits;
  int bias;
  bool hasInfinity;       // exponent all ones: infinity (mantissa 0) or NaN
  uint8_t maxFinite;      // code of the largest finite magnitude
  uint32_t maxFiniteBits; // that magnitude as float bits
  uint8_t nan;            // the NaN code encoding produces (sign added)
};

/// Largest finite 448 = 1.75 * 2^8.
inline constexpr Float8Format kF8E4M3FN = {3, 7, false, 0x7e, 0x43e00000, 0x7f};
/// Largest finite 57344 = 1.75 * 2^15; NaN encodes as the quiet S.11111.10.
inline constexpr Float8Format kF8E5M2 = {2, 15, true, 0x7b, 0x47600000, 0x7e};

inline bool isFloat8NaN(const Float8Format &fmt, uint8_t code) {
  unsigned abs = code & 0x7fu;
  unsigned infinity = (0x7fu >> fmt.mantissaBits) << fmt.mantissaBits;
  return fmt.hasInfinity ? abs > infinity : abs == 0x7fu;
}

inline float float8ToFloat(const Float8Format &fmt, uint8_t code) {
  const unsigned m = fmt.mantissaBits;
  uint32_t sign = uint32_t(code & 0x80u) << 24;
  uint32_t exp = (code & 0x7fu) >> m;
  uint32_t mant = code & ((1u << m) - 1);
  uint32_t bits;
  if (isFloat8NaN(fmt, code)) {
    bits = sign | 0x7fc00000u;
  } else if (fmt.hasInfinity && exp == (0x7fu >> m)) {
    bits = sign | 0x7f800000u;
  } else if (exp == 0) {
    // Subnormal: mant * 2^(1 - bias - m), exact in float.
    float v = std::ldexp(float(mant), 1 - fmt.bias - int(m));
    return sign ? -v : v;
  } else {
    bits = sign | ((exp + 127 - uint32_t(fmt.bias)) << 23) | (mant << (23 - m));
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

inline uint8_t floatToFloat8(const Float8Format &fmt, float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof(x));
  uint8_t sign = static_cast<uint8_t>((x >> 24) & 0x80u);
  uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u)
    return sign | fmt.nan;
  // Saturate; nothing below the largest finite value rounds past it, so the
  // rounding below never reaches the infinity or NaN codes.
  if (abs >= fmt.maxFiniteBits)
    return sign | fmt.maxFinite;
  const int m = int(fmt.mantissaBits);
  const int minExp = 1 - fmt.bias; // exponent of the smallest normal
  // At or below half the smallest subnormal, 2^(minExp - m - 1), the value
  // rounds to zero (exactly half is a tie with the even zero). This also
  // takes every float subnormal.
  if (abs <= uint32_t(minExp - m - 1 + 127) << 23)
    return sign;

  int exp = int(abs >> 23) - 127;
  uint32_t mant = (abs & 0x7fffffu) | 0x800000u; // with the implicit bit
  // Keep the value's bits down to the f8 unit in the last place: 2^-m
  // relative for normals, 2^(minExp - m) absolute for subnormals (shift at
  // most 24, for a value just above the zero threshold).
  int shift = 23 - m + (exp >= minExp ? 0 : minExp - exp);
  uint32_t kept = mant >> shift;
  uint32_t rest = mant & ((1u << shift) - 1);
  uint32_t halfway = 1u << (shift - 1);
  if (rest > halfway || (rest == halfway && (kept & 1u)))
    ++kept;
  if (exp >= minExp) {
    // kept holds the implicit bit at bit m; adding the exponent above it
    // lets a rounding carry move into the exponent.
    return sign | static_cast<uint8_t>((uint32_t(exp - minExp) << m) + kept);
  }
  return sign | static_cast<uint8_t>(kept); // subnormal (or smallest normal)
}

inline uint8_t floatToF8E4M3FN(float f) { return floatToFloat8(kF8E4M3FN, f); }
inline float f8E4M3FNToFloat(uint8_t c) { return float8ToFloat(kF8E4M3FN, c); }
inline uint8_t floatToF8E5M2(float f) { return floatToFloat8(kF8E5M2, f); }
inline float f8E5M2ToFloat(uint8_t c) { return float8ToFloat(kF8E5M2, c); }

} // namespace run
} // namespace tile

#endif // TILE_TOOLS_TILE_RUN_FLOAT8_H
