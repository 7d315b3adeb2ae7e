//===- bundle-selftest.cpp - Kernel bundle library self-test -*- C++ -*-===//
//
// Round-trips a bundle through serialize/parse and feeds the reader corrupt
// files, checking that each is rejected with the message that names the
// fault; then tests tile-run's f8 conversions (Float8.h) on every code and
// its output-versus-reference check (Compare.h) on small cases.
// Needs no GPU and no CUDA, so it runs wherever the library builds.
// Prints one line per case and "N passed, M failed"; exits 1 on a failure.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "Float8.h"

#include "tile/Runtime/Bundle.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>

using namespace tile::bundle;
using tile::run::Float8Format;

static int passed = 0, failed = 0;

static void report(const std::string &name, bool ok, const std::string &why) {
  std::printf("%s: %s%s%s\n", ok ? "PASS" : "FAIL", name.c_str(),
              why.empty() ? "" : " -- ", why.c_str());
  ++(ok ? passed : failed);
}

/// A bundle with every kind of line: two modules, strided buffers of several
/// dtypes, two tensor maps, launches of both stages (one passing tensor
/// maps), a check. Its header lines, numbered as the rejection tests expect:
///   1 TILEBUNDLE, 2-7 target..flops, 8-11 buffers x y y.ref t0,
///   12-13 tensormaps tx ty, 14-15 modules, 16-17 launches, 18 check.
static Bundle makeBundle() {
  Bundle b;
  b.target = "sm_90a";
  b.function = "softmax";
  b.sourceHash = "3f1c00aa99e9";
  b.options = "tile-size=32,128 threads=256";
  b.computeClass = "simt-f32";
  b.flops = 33554432;

  auto buffer = [](const char *name, Role role, DType t,
                   std::vector<int64_t> shape, std::vector<int64_t> strides) {
    Buffer buf;
    buf.name = name;
    buf.role = role;
    buf.dtype = t;
    buf.shape = std::move(shape);
    buf.strides = std::move(strides);
    return buf;
  };
  b.buffers.push_back(buffer("x", Role::In, DType::F32, {64, 128}, {136, 1}));
  b.buffers.push_back(buffer("y", Role::Out, DType::BF16, {64, 128}, {128, 1}));
  b.buffers.push_back(
      buffer("y.ref", Role::Ref, DType::F32, {64, 128}, {128, 1}));
  b.buffers.push_back(buffer("t0", Role::Scratch, DType::I8, {4096}, {1}));

  // x rows are 136 f32 = 544 bytes apart, y rows 256 bytes: both 16-byte
  // aligned. tx: 32 f32 = 128 bytes innermost, within the 128-byte swizzle.
  TensorMap tm;
  tm.name = "tx";
  tm.buffer = "x";
  tm.box = {64, 32};
  tm.swizzle = 128;
  b.tensorMaps.push_back(tm);
  tm.name = "ty";
  tm.buffer = "y";
  tm.box = {8, 64};
  tm.swizzle = 0;
  b.tensorMaps.push_back(tm);

  Module m;
  m.name = "k";
  m.ptx = "// ptx text\n.version 8.0\n";
  for (int i = 0; i < 300; ++i)
    m.cubin += static_cast<char>(i * 7); // binary, with NULs and newlines
  b.modules.push_back(m);
  m.name = "k.ref";
  m.ptx = "";
  m.cubin = std::string("\x7f"
                        "ELF\n\0\0end\n",
                        11);
  b.modules.push_back(m);

  Launch l;
  l.module = "k";
  l.entry = "softmax_kernel";
  l.grid[0] = 64;
  l.block[0] = 256;
  l.dynamicSharedBytes = 65536;
  l.args = {"x", "t0", "y", "tx", "ty"};
  b.launches.push_back(l);
  l.stage = Stage::Reference;
  l.module = "k.ref";
  l.entry = "softmax_ref";
  l.grid[0] = 8192;
  l.grid[2] = 3;
  l.block[0] = 1;
  l.dynamicSharedBytes = 0;
  l.args = {"x", "y.ref"};
  b.launches.push_back(l);

  Check c;
  c.output = "y";
  c.reference = "y.ref";
  c.tolerance = 1e-2;
  b.checks.push_back(c);
  return b;
}

static bool sameBundle(const Bundle &a, const Bundle &b, std::string &why) {
  auto differ = [&](const std::string &what) {
    why = what + " differs";
    return false;
  };
  if (a.version != b.version || a.target != b.target ||
      a.function != b.function || a.sourceHash != b.sourceHash ||
      a.options != b.options || a.computeClass != b.computeClass ||
      a.flops != b.flops)
    return differ("a header field");
  if (a.buffers.size() != b.buffers.size())
    return differ("buffer count");
  for (size_t i = 0; i < a.buffers.size(); ++i) {
    const Buffer &x = a.buffers[i], &y = b.buffers[i];
    if (x.name != y.name || x.role != y.role || x.dtype != y.dtype ||
        x.shape != y.shape || x.strides != y.strides)
      return differ("buffer " + x.name);
  }
  if (a.tensorMaps.size() != b.tensorMaps.size())
    return differ("tensormap count");
  for (size_t i = 0; i < a.tensorMaps.size(); ++i) {
    const TensorMap &x = a.tensorMaps[i], &y = b.tensorMaps[i];
    if (x.name != y.name || x.buffer != y.buffer || x.box != y.box ||
        x.swizzle != y.swizzle)
      return differ("tensormap " + x.name);
  }
  if (a.modules.size() != b.modules.size())
    return differ("module count");
  for (size_t i = 0; i < a.modules.size(); ++i)
    if (a.modules[i].name != b.modules[i].name ||
        a.modules[i].ptx != b.modules[i].ptx ||
        a.modules[i].cubin != b.modules[i].cubin)
      return differ("module " + a.modules[i].name);
  if (a.launches.size() != b.launches.size())
    return differ("launch count");
  for (size_t i = 0; i < a.launches.size(); ++i) {
    const Launch &x = a.launches[i], &y = b.launches[i];
    bool same =
        x.stage == y.stage && x.module == y.module && x.entry == y.entry &&
        x.dynamicSharedBytes == y.dynamicSharedBytes && x.args == y.args;
    for (int d = 0; d < 3; ++d)
      same &= x.grid[d] == y.grid[d] && x.block[d] == y.block[d] &&
              x.cluster[d] == y.cluster[d];
    same &= x.dependent == y.dependent;
    if (!same)
      return differ("launch " + std::to_string(i + 1));
  }
  if (a.checks.size() != b.checks.size())
    return differ("check count");
  for (size_t i = 0; i < a.checks.size(); ++i)
    if (a.checks[i].output != b.checks[i].output ||
        a.checks[i].reference != b.checks[i].reference ||
        a.checks[i].tolerance != b.checks[i].tolerance)
      return differ("check " + std::to_string(i + 1));
  return true;
}

/// Replaces the first occurrence of `from` in the header.
/// `s` with its `end` line's FNV-1a of the header made to match again: an
/// edited header as a writer would have written it, so that the edit meets
/// the rule it tests rather than the checksum.
static std::string rehash(std::string s) {
  size_t end = s.find("\nend fnv1a ");
  if (end != std::string::npos && end + 11 + 16 <= s.size())
    s.replace(end + 11, 16, fnv1a64Hex(s.substr(0, end + 1)));
  return s;
}

/// Where the sections start (after the newline of the `end` line).
static size_t sectionsStart(const std::string &s) {
  return s.find('\n', s.find("\nend fnv1a ") + 1) + 1;
}

static std::string edit(std::string s, const std::string &from,
                        const std::string &to) {
  size_t at = s.find(from);
  if (at != std::string::npos && at < s.find("\nend fnv1a "))
    s.replace(at, from.size(), to);
  return rehash(s);
}

/// Moves the header line starting with `prefix` to just before the line
/// starting with `before`.
static std::string moveLine(std::string s, const std::string &prefix,
                            const std::string &before) {
  size_t at = s.find("\n" + prefix);
  if (at == std::string::npos)
    return s;
  size_t nl = s.find('\n', at + 1);
  std::string line = s.substr(at + 1, nl - at);
  s.erase(at + 1, nl - at);
  size_t to = s.find("\n" + before);
  if (to != std::string::npos)
    s.insert(to + 1, line);
  return rehash(s);
}

/// Expects `bytes` to be rejected with a message containing `expected`.
static void expectReject(const std::string &name, const std::string &bytes,
                         const std::string &expected) {
  Bundle b;
  std::string error;
  if (parse(bytes, b, error)) {
    report(name, false, "accepted; expected \"" + expected + "\"");
    return;
  }
  bool ok = error.find(expected) != std::string::npos;
  report(name, ok,
         ok ? error : "got \"" + error + "\", expected \"" + expected + "\"");
}

/// Every dtype: its spelling reads back as itself.
static const DType kAllDTypes[] = {DType::F32, DType::F16,      DType::BF16,
                                   DType::F64, DType::I32,      DType::I64,
                                   DType::I8,  DType::F8E4M3FN, DType::F8E5M2};

/// The f8 dtypes and the tc-fp8 class: spellings, sizes, a round trip of a
/// bundle that holds them, and a tensormap over an f8 buffer.
static void testDTypesAndClasses(const Bundle &original) {
  bool ok = true;
  for (DType t : kAllDTypes) {
    DType back = DType::F32;
    ok &= parseDType(dtypeName(t), back) && back == t;
  }
  ok &= std::string(dtypeName(DType::F8E4M3FN)) == "f8e4m3fn" &&
        std::string(dtypeName(DType::F8E5M2)) == "f8e5m2" &&
        dtypeSize(DType::F8E4M3FN) == 1 && dtypeSize(DType::F8E5M2) == 1;
  DType unused;
  ok &= !parseDType("f8", unused) && !parseDType("f8E4M3FN", unused);
  report("dtype spellings and sizes", ok, "");

  // An FP8 GEMM's shape: f8 operands under 128-byte-swizzled tensor maps
  // (128 f8 = 128 bytes innermost), a bf16 output.
  Bundle b = original;
  b.computeClass = "tc-fp8";
  b.buffers[0].dtype = DType::F8E4M3FN;
  b.buffers[0].strides = {128, 1};
  b.tensorMaps[0].box = {64, 128};
  b.buffers[3].dtype = DType::F8E5M2;
  std::string error, why;
  Bundle parsed;
  Buffer counters;
  counters.name = "c0";
  counters.role = Role::Zeroed;
  counters.dtype = DType::I32;
  counters.shape = {16};
  counters.strides = {1};
  b.buffers.push_back(counters);
  std::string text = serialize(b);
  ok =
      validate(b, error) && parse(text, parsed, error) &&
      sameBundle(b, parsed, why) &&
      text.find("\nclass tc-fp8\n") != std::string::npos &&
      text.find("\nbuffer x in f8e4m3fn 64x128 128x1\n") != std::string::npos &&
      text.find("\nbuffer t0 scratch f8e5m2 4096 1\n") != std::string::npos &&
      text.find("\nbuffer c0 zeroed i32 16 1\n") != std::string::npos;
  report("f8 buffers, tc-fp8 and a zeroed buffer round trip", ok, error + why);
  b.buffers.pop_back();
  // 129 f8 = 129 bytes: not a multiple of 16, as for any 1-byte type.
  b.tensorMaps[0].box = {64, 129};
  ok = !validate(b, error) &&
       error.find("innermost box extent is 129 bytes (129 x f8e4m3fn), not "
                  "a multiple of 16") != std::string::npos;
  report("tensormap: f8 box extent in bytes", ok, error);
}

/// Thread-block clusters: the optional `cluster X Y Z` of a launch line,
/// written only where it is not 1 1 1, and each rule on it.
static void testClusters(const Bundle &original, const std::string &bytes) {
  std::string error, why;
  bool ok = bytes.find(" cluster ") == std::string::npos;
  for (const Launch &l : original.launches)
    ok &= !l.hasCluster() && l.cluster[0] == 1 && l.cluster[1] == 1 &&
          l.cluster[2] == 1;
  report("cluster: 1 1 1 by default and not written", ok, "");

  // Launch 1 in pairs along x; launch 2 (grid 8192 1 3) in 2x1x3 = 6.
  Bundle b = original;
  b.launches[0].cluster[0] = 2;
  b.launches[1].cluster[0] = 2;
  b.launches[1].cluster[2] = 3;
  Bundle parsed;
  std::string text = serialize(b);
  ok = validate(b, error) && parse(text, parsed, error) &&
       sameBundle(b, parsed, why) && serialize(parsed) == text &&
       parsed.launches[0].hasCluster() &&
       text.find(" block 256 1 1 cluster 2 1 1 smem 65536 args x t0 y tx "
                 "ty\n") != std::string::npos &&
       text.find(" grid 8192 1 3 block 1 1 1 cluster 2 1 3 smem 0 args x "
                 "y.ref\n") != std::string::npos;
  report("cluster: round trip", ok, error + why);

  // Written out as 1 1 1, it reads as no cluster.
  ok = parse(edit(bytes, "block 256 1 1 smem",
                  "block 256 1 1 cluster 1 1 1 smem"),
             parsed, error) &&
       sameBundle(original, parsed, why) && !parsed.launches[0].hasCluster();
  report("cluster: an explicit 1 1 1 is no cluster", ok, error + why);

  const std::string clustered = serialize(b);
  expectReject("cluster: dimension 0",
               edit(clustered, "cluster 2 1 1", "cluster 2 0 1"),
               "bundle line 16: cluster dimension 1 is 0");
  expectReject("cluster: not dividing the grid",
               edit(clustered, "cluster 2 1 1", "cluster 3 1 1"),
               "bundle line 16: grid dimension 0 (64) is not a multiple of "
               "cluster dimension 0 (3)");
  expectReject("cluster: more than 8 blocks",
               edit(clustered, "cluster 2 1 3", "cluster 4 1 3"),
               "bundle line 17: cluster 4x1x3 has 12 blocks, more than the "
               "portable cluster size of 8");
  expectReject("cluster: malformed size",
               edit(clustered, "cluster 2 1 1", "cluster 2 x 1"),
               "bundle line 16: malformed cluster size 'x'");
  expectReject("cluster: field count",
               edit(clustered, "cluster 2 1 3 smem 0 args x y.ref",
                    "cluster 2 1 smem 0 args"),
               "bundle line 17: 'launch' line has 17 fields (expected at "
               "least 18 with a cluster)");
  expectReject("cluster: size past 32 bits",
               edit(clustered, "cluster 2 1 1", "cluster 4294967296 1 1"),
               "bundle line 16: malformed cluster size '4294967296'");

  // The writer's side, without a line number.
  b.launches[1].cluster[1] = 2;
  ok = !validate(b, error) &&
       error == "bundle: launch 2 (reference k.ref softmax_ref): grid "
                "dimension 1 (1) is not a multiple of cluster dimension 1 (2)";
  report("cluster: validate names the launch", ok, error);
}

/// Programmatic dependent launches: the optional `dependent` of a launch
/// line, after the cluster and before `smem`, written only where set, on a
/// main launch after the first.
static void testDependentLaunches(const Bundle &original,
                                  const std::string &bytes) {
  std::string error, why;
  bool ok = bytes.find(" dependent ") == std::string::npos;
  for (const Launch &l : original.launches)
    ok &= !l.dependent;
  report("dependent: off by default and not written", ok, "");

  // A second main launch, in pairs along x, overlapping the first.
  Bundle b = original;
  Launch second = b.launches[0];
  second.cluster[0] = 2;
  second.dependent = true;
  b.launches.insert(b.launches.begin() + 1, second);
  Bundle parsed;
  std::string text = serialize(b);
  ok = validate(b, error) && parse(text, parsed, error) &&
       sameBundle(b, parsed, why) && serialize(parsed) == text &&
       parsed.launches[1].dependent && !parsed.launches[0].dependent &&
       text.find(" block 256 1 1 cluster 2 1 1 dependent smem 65536 args x "
                 "t0 y tx ty\n") != std::string::npos;
  report("dependent: round trip", ok, error + why);

  expectReject("dependent: a reference launch",
               edit(text, "block 1 1 1 smem 0 args x y.ref",
                    "block 1 1 1 dependent smem 0 args x y.ref"),
               "bundle line 18: a reference launch cannot be dependent (only "
               "main launches overlap the one before them)");
  expectReject("dependent: the first main launch",
               edit(bytes, "block 256 1 1 smem", "block 256 1 1 dependent smem"),
               "bundle line 16: the first main launch cannot be dependent "
               "(there is no main launch before it to overlap)");
  expectReject("dependent: a target before sm_90",
               edit(text, "target sm_90a", "target sm_89"),
               "bundle line 17: a dependent launch needs a target of sm_90 or "
               "later (griddepcontrol), but the bundle's is sm_89");
  expectReject("dependent: field count",
               edit(bytes, "block 256 1 1 smem 65536 args x t0 y tx ty",
                    "block 256 1 1 dependent smem 65536"),
               "bundle line 16: 'launch' line has 14 fields (expected at "
               "least 15 with 'dependent')");

  // The writer's side, without a line number.
  b.launches[0].dependent = true;
  ok = !validate(b, error) &&
       error == "bundle: launch 1 (main k softmax_kernel): the first main "
                "launch cannot be dependent (there is no main launch before "
                "it to overlap)";
  report("dependent: validate names the launch", ok, error);
}

//===----------------------------------------------------------------------===//
// f8 conversions
//===----------------------------------------------------------------------===//

static uint32_t bitsOf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof(x));
  return x;
}

/// The value of a finite code by the textbook formula, in double:
/// independent of float8ToFloat's bit assembly.
static double referenceValue(const Float8Format &fmt, unsigned code) {
  int m = int(fmt.mantissaBits);
  int exp = int(code & 0x7fu) >> m;
  int mant = int(code) & ((1 << m) - 1);
  double mag = exp == 0 ? std::ldexp(mant, 1 - fmt.bias - m)
                        : std::ldexp((1 << m) + mant, exp - fmt.bias - m);
  return code & 0x80u ? -mag : mag;
}

/// The special codes, listed rather than computed: e4m3fn has two NaNs and
/// no infinity; e5m2 the IEEE pattern (exponent all ones).
static bool referenceNaN(const Float8Format &fmt, unsigned code) {
  unsigned abs = code & 0x7fu;
  return fmt.hasInfinity ? abs == 0x7d || abs == 0x7e || abs == 0x7f
                         : abs == 0x7f;
}
static bool referenceInfinity(const Float8Format &fmt, unsigned code) {
  return fmt.hasInfinity && (code & 0x7fu) == 0x7c;
}

/// Round to nearest, ties to even, saturating, by search: the non-negative
/// finite codes 0..maxFinite are increasing in value, so `x` rounds to the
/// first code at or above it or to the one before, by the midpoint
/// (exact in double, as is every float).
static uint8_t referenceEncode(const Float8Format &fmt, float x) {
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (std::isnan(x))
    return sign | fmt.nan;
  double a = std::fabs(double(x));
  if (a >= referenceValue(fmt, fmt.maxFinite))
    return sign | fmt.maxFinite;
  unsigned hi = 0;
  while (referenceValue(fmt, hi) < a)
    ++hi;
  if (hi == 0)
    return sign;
  unsigned lo = hi - 1;
  double mid = 0.5 * (referenceValue(fmt, lo) + referenceValue(fmt, hi));
  unsigned code = a < mid ? lo : a > mid ? hi : (lo % 2 == 0 ? lo : hi);
  return sign | uint8_t(code);
}

static std::string hex(unsigned code) {
  char text[8];
  std::snprintf(text, sizeof(text), "0x%02x", code);
  return text;
}

/// Every code of a format decodes to its value (the special codes to NaN or
/// infinity), every finite code survives encode(decode(c)), and encoding
/// matches the search around every midpoint and on random floats.
static void testFloat8(const std::string &name, const Float8Format &fmt) {
  using tile::run::float8ToFloat;
  using tile::run::floatToFloat8;
  std::string why;
  int nans = 0, infinities = 0, finite = 0;
  for (unsigned c = 0; c < 256 && why.empty(); ++c) {
    float v = float8ToFloat(fmt, uint8_t(c));
    bool negative = c & 0x80u;
    if (referenceNaN(fmt, c)) {
      ++nans;
      if (!std::isnan(v) || !tile::run::isFloat8NaN(fmt, uint8_t(c)))
        why = hex(c) + " is not NaN";
    } else if (referenceInfinity(fmt, c)) {
      ++infinities;
      if (!std::isinf(v) || std::signbit(v) != negative)
        why = hex(c) + " is not " + (negative ? "-" : "+") + "infinity";
    } else {
      ++finite;
      if (double(v) != referenceValue(fmt, c) || std::signbit(v) != negative ||
          tile::run::isFloat8NaN(fmt, uint8_t(c)))
        why = hex(c) + " decodes to " + std::to_string(v);
    }
  }
  bool ok =
      why.empty() && nans == (fmt.hasInfinity ? 6 : 2) &&
      infinities == (fmt.hasInfinity ? 2 : 0) &&
      bitsOf(float(referenceValue(fmt, fmt.maxFinite))) == fmt.maxFiniteBits;
  report(name + ": all 256 codes decode", ok, why);

  why.clear();
  int roundTrips = 0;
  for (unsigned c = 0; c < 256; ++c) {
    float v = float8ToFloat(fmt, uint8_t(c));
    if (std::isnan(v) || std::isinf(v))
      continue;
    ++roundTrips;
    uint8_t back = floatToFloat8(fmt, v);
    if (back != c && why.empty())
      why = hex(c) + " encodes back as " + hex(back);
  }
  report(name + ": encode(decode(c)) == c for all " +
             std::to_string(roundTrips) + " finite codes",
         why.empty() && roundTrips == finite, why);

  // Around each pair of neighbours: both values, the midpoint (a tie) and
  // the floats next to all three; past the largest finite value; then
  // random floats over the whole range, subnormals and overflow included.
  std::vector<float> inputs;
  const float inf = std::numeric_limits<float>::infinity();
  for (unsigned c = 0; c < fmt.maxFinite; ++c) {
    float lo = float(referenceValue(fmt, c));
    float hi = float(referenceValue(fmt, c + 1));
    float mid = float(0.5 * (double(lo) + double(hi)));
    for (float x : {lo, hi, mid})
      for (float y : {x, std::nextafter(x, -inf), std::nextafter(x, inf)})
        inputs.push_back(y);
  }
  float max = float(referenceValue(fmt, fmt.maxFinite));
  for (float x : {max, std::nextafter(max, inf), max * 1.0625f, max * 1.125f,
                  max * 4, inf, std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::quiet_NaN()})
    inputs.push_back(x);
  // Exponents from below half the smallest subnormal to past the largest
  // finite value.
  const int lowest = 1 - fmt.bias - int(fmt.mantissaBits) - 4;
  const int highest = int(fmt.maxFiniteBits >> 23) - 127 + 3;
  std::mt19937_64 rng(17);
  for (int i = 0; i < 200000; ++i) {
    int exp = lowest + int(rng() % uint64_t(highest - lowest + 1));
    uint32_t bits = uint32_t(rng() >> 41) | uint32_t(exp + 127) << 23;
    float x;
    std::memcpy(&x, &bits, sizeof(x));
    inputs.push_back(x);
  }
  why.clear();
  for (float x : inputs)
    for (float y : {x, -x}) {
      uint8_t got = floatToFloat8(fmt, y), want = referenceEncode(fmt, y);
      if (got != want && why.empty()) {
        char text[96];
        std::snprintf(text, sizeof(text), "%.9g (0x%08x) encodes as %s, not %s",
                      double(y), bitsOf(y), hex(got).c_str(),
                      hex(want).c_str());
        why = text;
      }
    }
  report(name + ": encoding matches the nearest-even search on " +
             std::to_string(2 * inputs.size()) + " floats",
         why.empty(), why);
}

/// Rounding cases by hand: ties to even, saturation, the zero threshold.
static void testFloat8Cases() {
  using tile::run::floatToF8E4M3FN;
  using tile::run::floatToF8E5M2;
  struct Case {
    uint8_t (*encode)(float);
    const char *format;
    float value;
    uint8_t code;
  };
  const float inf = std::numeric_limits<float>::infinity();
  const Case cases[] = {
      {floatToF8E4M3FN, "e4m3fn", 1.0f, 0x38},
      {floatToF8E4M3FN, "e4m3fn", 1.0625f, 0x38}, // tie of 1 and 1.125: even
      {floatToF8E4M3FN, "e4m3fn", 1.1875f, 0x3a}, // tie of 1.125 and 1.25
      {floatToF8E4M3FN, "e4m3fn", 448.0f, 0x7e},
      {floatToF8E4M3FN, "e4m3fn", 464.0f, 0x7e}, // tie with the NaN slot
      {floatToF8E4M3FN, "e4m3fn", 500.0f, 0x7e},
      {floatToF8E4M3FN, "e4m3fn", -500.0f, 0xfe},
      {floatToF8E4M3FN, "e4m3fn", inf, 0x7e},
      {floatToF8E4M3FN, "e4m3fn", -inf, 0xfe},
      {floatToF8E4M3FN, "e4m3fn", std::ldexp(1.0f, -9), 0x01},
      {floatToF8E4M3FN, "e4m3fn", std::ldexp(1.0f, -10), 0x00}, // tie: zero
      {floatToF8E4M3FN, "e4m3fn", std::ldexp(1.0f, -11), 0x00},
      {floatToF8E4M3FN, "e4m3fn", std::ldexp(1.0f, -10) * 1.001f, 0x01},
      {floatToF8E4M3FN, "e4m3fn", std::ldexp(3.0f, -10), 0x02},  // 1.5: even
      {floatToF8E4M3FN, "e4m3fn", std::ldexp(15.0f, -10), 0x08}, // to normal
      {floatToF8E4M3FN, "e4m3fn", -0.0f, 0x80},
      {floatToF8E5M2, "e5m2", 1.0f, 0x3c},
      {floatToF8E5M2, "e5m2", 1.125f, 0x3c}, // tie of 1 and 1.25: even
      {floatToF8E5M2, "e5m2", 1.375f, 0x3e}, // tie of 1.25 and 1.5
      {floatToF8E5M2, "e5m2", 57344.0f, 0x7b},
      {floatToF8E5M2, "e5m2", 61440.0f, 0x7b}, // tie with infinity
      {floatToF8E5M2, "e5m2", 1e6f, 0x7b},
      {floatToF8E5M2, "e5m2", inf, 0x7b},
      {floatToF8E5M2, "e5m2", -inf, 0xfb},
      {floatToF8E5M2, "e5m2", std::ldexp(1.0f, -16), 0x01},
      {floatToF8E5M2, "e5m2", std::ldexp(1.0f, -17), 0x00}, // tie: zero
      {floatToF8E5M2, "e5m2", std::ldexp(1.0f, -17) * 1.001f, 0x01},
  };
  std::string why;
  for (const Case &c : cases) {
    uint8_t got = c.encode(c.value);
    if (got != c.code && why.empty())
      why = std::string(c.format) + " " + std::to_string(c.value) +
            " encodes as " + hex(got) + ", not " + hex(c.code);
  }
  bool nan = tile::run::floatToF8E4M3FN(std::nanf("")) == 0x7f &&
             tile::run::floatToF8E4M3FN(-std::nanf("")) == 0xff &&
             std::isnan(tile::run::f8E5M2ToFloat(
                 tile::run::floatToF8E5M2(std::nanf(""))));
  if (!nan && why.empty())
    why = "NaN does not encode as NaN";
  report("f8 rounding: ties to even, saturation, zero threshold", why.empty(),
         why);
}

/// tile-run's check on f32 tensors `out` and `ref` of `shape` (row-major;
/// default: a vector) at tolerance 1e-2.
static tile::run::CheckResult compareF32(const std::vector<float> &out,
                                         const std::vector<float> &ref,
                                         std::vector<int64_t> shape = {}) {
  Buffer buffer;
  buffer.dtype = DType::F32;
  buffer.shape = shape.empty() ? std::vector<int64_t>{int64_t(out.size())}
                               : shape;
  buffer.strides.assign(buffer.shape.size(), 1);
  for (size_t d = buffer.shape.size() - 1; d-- > 0;)
    buffer.strides[d] = buffer.strides[d + 1] * buffer.shape[d + 1];
  auto bytes = [](const std::vector<float> &v) {
    std::vector<unsigned char> b(v.size() * sizeof(float));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
  };
  return tile::run::compareBuffers(buffer, bytes(out), buffer, bytes(ref),
                                   1e-2);
}

static void testCompare() {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> ref = {inf, 1, 2, 3, -inf}, out = ref;
  report("compare: equal infinities and equal values pass",
         compareF32(out, ref).pass, "");
  out = {inf, -123, -123, -123, -inf};
  tile::run::CheckResult r = compareF32(out, ref);
  report("compare: equal infinities do not hide wrong values", !r.pass,
         "relErr " + std::to_string(r.relErr));
  out = {inf, 1, 2, 3, inf};
  report("compare: an infinity of the other sign fails",
         !compareF32(out, ref).pass, "");
  out = {inf, 1, 2, inf, -inf};
  report("compare: an infinity against a finite value fails",
         !compareF32(out, ref).pass, "");
  out = {1, 1, 2, 3, -inf};
  report("compare: a finite value against an infinity fails",
         !compareF32(out, ref).pass, "");
  out = {inf, nan, 2, 3, -inf};
  report("compare: a NaN fails", !compareF32(out, ref).pass, "");

  // A wide output (2 x 20000) whose last column is wrong: the whole norm
  // moves by sqrt(1 / 20000), under the tolerance; the last column's own
  // error is 1.
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> uniform(-1, 1);
  const int64_t rows = 2, cols = 20000;
  std::vector<float> wide(rows * cols);
  for (float &v : wide)
    v = uniform(rng);
  std::vector<float> edge = wide;
  for (int64_t i = 0; i < rows; ++i)
    edge[i * cols + cols - 1] = 0;
  r = compareF32(edge, wide, {rows, cols});
  report("compare: a wrong last column of a wide output fails",
         !r.pass && r.relErr <= 1e-2 && r.edgeDim == 1,
         "rel_err " + std::to_string(r.relErr) + ", last index of dimension " +
             std::to_string(r.edgeDim) + ": " + std::to_string(r.edgeRelErr));
  // Rounding-sized errors everywhere (0.3%) pass, edges included.
  std::vector<float> close = wide;
  for (float &v : close)
    v *= 1 + 3e-3f * uniform(rng);
  r = compareF32(close, wide, {rows, cols});
  report("compare: rounding-sized errors pass, edges included", r.pass,
         "rel_err " + std::to_string(r.relErr) + ", edge " +
             std::to_string(r.edgeRelErr));
  // A last column of tiny values (1e-6) read as 0: measured against its
  // share of the whole norm, not its own, so it passes.
  std::vector<float> tiny = wide;
  for (int64_t i = 0; i < rows; ++i)
    tiny[i * cols + cols - 1] = 1e-6f;
  std::vector<float> zeroed = tiny;
  for (int64_t i = 0; i < rows; ++i)
    zeroed[i * cols + cols - 1] = 0;
  r = compareF32(zeroed, tiny, {rows, cols});
  report("compare: an edge of tiny values is held to the whole's scale",
         r.pass, "edge " + std::to_string(r.edgeRelErr));
}

int main() {
  const Bundle original = makeBundle();
  std::string error;
  bool valid = validate(original, error);
  report("validate the test bundle", valid, error);
  const std::string bytes = serialize(original);

  // Round trip: parse gives the same bundle, and writing it again gives the
  // same bytes.
  {
    Bundle parsed;
    std::string why;
    bool ok = parse(bytes, parsed, error) && sameBundle(original, parsed, why);
    if (ok && serialize(parsed) != bytes) {
      ok = false;
      why = "re-serialized bytes differ";
    }
    report("round trip", ok, ok ? "" : error + why);
  }

  // Numbers and sizes the runner relies on.
  {
    // FNV-1a 64 reference values from the FNV authors' test suite.
    bool ok = fnv1a64Hex("") == "cbf29ce484222325" &&
              fnv1a64Hex("a") == "af63dc4c8601ec8c" &&
              fnv1a64Hex("foobar") == "85944171f73967e8";
    report("fnv1a64 test vectors", ok, "");
    // x: (1 + 63*136 + 127*1) * 4 bytes; y: 64*128*2; minimum = x + y.
    const Buffer &x = original.buffers[0], &y = original.buffers[1];
    ok = x.numElements() == 8192 &&
         x.sizeInBytes() == (1 + 63 * 136 + 127) * 4 &&
         y.sizeInBytes() == 64 * 128 * 2 &&
         original.minimumBytes() == double(x.sizeInBytes() + y.sizeInBytes());
    report("sizeInBytes and minimumBytes", ok, "");
  }

  // Corrupt files, each rejected with the message that names the fault.
  expectReject("bad magic", "ELF" + bytes.substr(3),
               "bundle line 1: not a tile bundle");
  expectReject("wrong version", edit(bytes, "TILEBUNDLE 2", "TILEBUNDLE 1"),
               "bundle line 1: unsupported bundle version '1'");
  expectReject("empty file", "", "bundle: empty file");
  expectReject("truncated file", bytes.substr(0, bytes.size() - 234),
               "bundle: file ends 234 bytes early (truncated)");
  expectReject("truncated header", bytes.substr(0, bytes.find("\nend fnv1a ")),
               "header has no 'end' line");
  expectReject("extra bytes", bytes + "seventeen bytes!!",
               "bundle: 17 bytes after the last section");
  {
    std::string flipped = bytes;
    flipped[bytes.size() - 5] ^= 0x01; // inside the last cubin (11 bytes)
    expectReject("flipped cubin byte", flipped,
                 "bundle: cubin of module 'k.ref' has FNV-1a ");
    flipped = bytes;
    flipped[sectionsStart(bytes) + original.modules[0].ptx.size() + 5] ^= 0x40;
    expectReject("flipped cubin byte (first module)", flipped,
                 "(corrupt file)");
    // The PTX is what runs where the cubin does not (sm_80 on Hopper).
    flipped = bytes;
    flipped[sectionsStart(bytes) + 3] ^= 0x01;
    expectReject("flipped PTX byte", flipped,
                 "bundle: PTX of module 'k' has FNV-1a ");
    // A header edit that breaks no rule: a grid of 65 programs, not 64.
    std::string grid = bytes;
    grid.replace(grid.find(" grid 64 "), 9, " grid 65 ");
    expectReject("edited header", grid,
                 "bundle: the header has FNV-1a ");
    std::string malformed = bytes;
    malformed.replace(malformed.find("\nend fnv1a ") + 11, 1, "x");
    expectReject("malformed header hash", malformed, "malformed FNV-1a 'x");
  }
  expectReject("unknown buffer in launch args",
               edit(bytes, "args x t0 y ", "args x t1 y "),
               "bundle line 16: launch argument 't1' is not a declared buffer");
  expectReject("unknown dtype",
               edit(bytes, "buffer y out bf16", "buffer y out f7"),
               "bundle line 9: unknown dtype 'f7'");
  expectReject("unknown compute class",
               edit(bytes, "class simt-f32", "class tc-fp7"),
               "bundle line 6: unknown compute class 'tc-fp7' (expected "
               "simt-f32, tc-bf16, tc-f16, tc-tf32 or tc-fp8)");
  expectReject("unknown module in launch",
               edit(bytes, "launch main k ", "launch main q "),
               "bundle line 16: launch names unknown module 'q'");
  expectReject("unknown keyword", edit(bytes, "class ", "klass "),
               "bundle line 6: unknown keyword 'klass'");
  expectReject("malformed number", edit(bytes, "grid 64 ", "grid 6x4 "),
               "bundle line 16: malformed grid size '6x4'");
  expectReject("grid past CUDA's limit",
               edit(bytes, "grid 64 ", "grid 4294967295 "),
               "grid dimension 0 is 4294967295, past CUDA's limit of "
               "2147483647");
  expectReject("duplicate buffer", edit(bytes, "buffer t0 ", "buffer x "),
               "bundle line 11: duplicate buffer 'x'");
  expectReject("zero dimension", edit(bytes, "i8 4096 1", "i8 0 1"),
               "bundle line 11: buffer 't0' dimension 0 is 0");
  expectReject("check of a non-out buffer", edit(bytes, "check y ", "check x "),
               "bundle line 18: check output 'x' has role in");
  expectReject("double space", edit(bytes, "target sm_90a", "target  sm_90a"),
               "bundle line 2: empty field");
  expectReject("missing header line", edit(bytes, "flops 33554432\n", ""),
               "header ends without a 'flops' line");

  // The writer's side: validate() names the item without a line number.
  {
    Bundle b = original;
    b.launches[1].args.push_back("nope");
    bool ok = !validate(b, error) &&
              error == "bundle: launch 2 (reference k.ref softmax_ref): "
                       "launch argument 'nope' is not a declared buffer or "
                       "tensormap";
    report("validate names the item", ok, error);
  }

  // Tensor maps: the header lines as written, and each TMA rule.
  {
    bool ok = bytes.find("\ntensormap tx x box 64x32 swizzle 128\n"
                         "tensormap ty y box 8x64 swizzle none\n") !=
                  std::string::npos &&
              bytes.find(" args x t0 y tx ty\n") != std::string::npos;
    report("tensormap lines as written", ok, "");
    ok = original.findTensorMap("ty") == &original.tensorMaps[1] &&
         !original.findTensorMap("x") && !original.findBuffer("tx");
    report("findTensorMap", ok, "");
  }
  expectReject("tensormap: field count",
               edit(bytes, "box 64x32 swizzle 128", "box 64x32 128"),
               "bundle line 12: 'tensormap' line has 5 fields (expected 6)");
  expectReject("tensormap: unknown buffer",
               edit(bytes, "tensormap tx x ", "tensormap tx q "),
               "bundle line 12: tensormap 'tx' names unknown buffer 'q'");
  expectReject("tensormap: before its buffer",
               moveLine(bytes, "tensormap ty ", "buffer y "),
               "bundle line 9: tensormap 'ty' comes before its buffer 'y' "
               "(line 10)");
  expectReject("tensormap: duplicate tensormap",
               edit(bytes, "tensormap ty ", "tensormap tx "),
               "bundle line 13: duplicate tensormap 'tx'");
  expectReject("tensormap: name of a buffer",
               edit(bytes, "tensormap ty ", "tensormap t0 "),
               "bundle line 13: tensormap 't0' has the name of a buffer");
  expectReject("tensormap: unknown swizzle",
               edit(bytes, "swizzle 128", "swizzle 16"),
               "bundle line 12: unknown swizzle '16' (expected none, 32, 64 "
               "or 128)");
  expectReject("tensormap: malformed box", edit(bytes, "box 64x32", "box 64x"),
               "bundle line 12: malformed box '64x'");
  expectReject("tensormap: box rank", edit(bytes, "box 64x32", "box 2048"),
               "bundle line 12: tensormap 'tx' has a box of rank 1 but buffer "
               "'x' has rank 2");
  expectReject("tensormap: box size 0", edit(bytes, "box 64x32", "box 0x32"),
               "bundle line 12: tensormap 'tx' box dimension 0 is 0 (must be "
               "in [1, 256])");
  expectReject("tensormap: box size 257",
               edit(bytes, "box 64x32", "box 257x32"),
               "bundle line 12: tensormap 'tx' box dimension 0 is 257");
  expectReject("tensormap: innermost box not 16-byte multiple",
               edit(bytes, "box 8x64", "box 8x60"),
               "bundle line 13: tensormap 'ty': the innermost box extent is "
               "120 bytes (60 x bf16), not a multiple of 16");
  expectReject("tensormap: innermost box wider than the swizzle",
               edit(bytes, "swizzle 128", "swizzle 64"),
               "bundle line 12: tensormap 'tx': the innermost box extent is "
               "128 bytes (32 x f32), more than the 64-byte swizzle span");
  expectReject("tensormap: innermost stride not 1",
               edit(bytes, "f32 64x128 136x1", "f32 64x128 272x2"),
               "bundle line 12: tensormap 'tx': buffer 'x' has innermost "
               "stride 2");
  expectReject("tensormap: row stride not 16-byte aligned",
               edit(bytes, "bf16 64x128 128x1", "bf16 64x128 4097x1"),
               "bundle line 13: tensormap 'ty': buffer 'y' stride 0 is 8194 "
               "bytes (4097 x bf16), not a multiple of 16: TMA needs "
               "16-byte-aligned row strides");
  expectReject("launch argument names nothing",
               edit(bytes, "args x t0 y tx ty", "args x t0 y tx tz"),
               "bundle line 16: launch argument 'tz' is not a declared buffer "
               "or tensormap");
  {
    // Rules a text edit cannot reach (or only awkwardly), on the writer's
    // side: an unsupported dtype, too many dimensions, a dimension or a
    // stride beyond the descriptor's fields, a swizzle that has no spelling.
    auto rejects = [&](const std::string &name, Bundle b,
                       const std::string &expected) {
      bool ok =
          !validate(b, error) && error.find(expected) != std::string::npos;
      report(name, ok, ok ? error : "got \"" + error + "\"");
    };
    Bundle b = original;
    b.buffers[0].dtype = static_cast<DType>(99);
    rejects("tensormap: unsupported dtype", b,
            "bundle: tensormap 'tx': TMA does not support "
            "dtype ? of buffer 'x'");
    b = original;
    b.buffers[3].shape = {2, 2, 2, 2, 2, 128};
    b.buffers[3].strides = {2048, 1024, 512, 256, 128, 1};
    b.tensorMaps[1].buffer = "t0";
    b.tensorMaps[1].box = {1, 1, 1, 1, 8, 64};
    rejects("tensormap: rank above 5", b,
            "tensormap 'ty': buffer 't0' has 6 dimensions; TMA handles at "
            "most 5");
    b = original;
    b.buffers[3].shape = {int64_t(1) << 33};
    b.tensorMaps[1].buffer = "t0";
    b.tensorMaps[1].box = {16};
    rejects("tensormap: dimension above 2^32", b,
            "buffer 't0' dimension 0 is 8589934592, more than TMA's 2^32");
    b = original;
    b.buffers[0].shape = {2, 32};
    b.buffers[0].strides = {int64_t(1) << 38, 1};
    rejects("tensormap: stride of 2^40 bytes", b,
            "buffer 'x' stride 0 is 1099511627776 bytes, not below TMA's 2^40");
    b = original;
    b.tensorMaps[0].swizzle = 48;
    rejects("tensormap: swizzle 48", b,
            "tensormap 'tx' has swizzle 48 (expected 0, 32, 64 or 128 bytes)");
    // Every dtype has a TMA data type and every swizzle a spelling.
    b = original;
    error.clear();
    bool ok = true;
    for (DType t : kAllDTypes)
      ok &= tensorMapSupports(t);
    for (unsigned sw : {0u, 32u, 64u}) {
      b.tensorMaps[0].swizzle = sw;
      b.tensorMaps[0].box = {64, sw ? sw / 4 : 4};
      Bundle parsed;
      std::string why;
      ok &= validate(b, error) && parse(serialize(b), parsed, error) &&
            sameBundle(b, parsed, why);
    }
    report("tensormap: every dtype and swizzle", ok, error);
  }

  // The FLOP count is written exactly: as an integer when it is one (a GEMM
  // of 4096^3 is 137438953472 FLOP), else in the shortest exact form.
  for (double flops : {2.0 * 4096 * 4096 * 4096, 1e11, 0.0, 1e18, 1.5e20,
                       12345678.901234567, 2.5}) {
    Bundle b = original;
    b.flops = flops;
    Bundle parsed;
    std::string text = serialize(b);
    char name[64];
    std::snprintf(name, sizeof(name), "flops %.17g round trip", flops);
    bool ok = parse(text, parsed, error) && parsed.flops == flops;
    report(name, ok, ok ? "" : error);
  }
  {
    Bundle b = original;
    b.flops = 2.0 * 4096 * 4096 * 4096;
    bool ok = serialize(b).find("\nflops 137438953472\n") != std::string::npos;
    b.flops = 1e11;
    ok &= serialize(b).find("\nflops 100000000000\n") != std::string::npos;
    report("flops printed as an integer", ok, "");
  }

  testDTypesAndClasses(original);
  testClusters(original, bytes);
  testDependentLaunches(original, bytes);
  testFloat8("f8e4m3fn", tile::run::kF8E4M3FN);
  testFloat8("f8e5m2", tile::run::kF8E5M2);
  testFloat8Cases();
  testCompare();

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
