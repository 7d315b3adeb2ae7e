//===- Bundle.cpp - Kernel bundle reader, writer and validator -*- C++ -*-===//
//
// Implements include/tile/Runtime/Bundle.h: the text header and binary
// sections of docs/bundle-format.md, and the TMA limits a tensormap line must
// meet so that cuTensorMapEncodeTiled accepts it. The parser is strict on
// purpose: a bundle is written by our own compiler, so anything unexpected is a
// bug or a corrupt file, and the message names the header line (or the section)
// at fault. Validation is shared with the writer; when the parser calls it, the
// messages carry the line numbers of the items they are about.
//
//===----------------------------------------------------------------------===//

#include "tile/Runtime/Bundle.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace tile {
namespace bundle {

//===----------------------------------------------------------------------===//
// Enums, buffers, lookups
//===----------------------------------------------------------------------===//

unsigned dtypeSize(DType t) {
  switch (t) {
  case DType::F32:
    return 4;
  case DType::F16:
    return 2;
  case DType::BF16:
    return 2;
  case DType::F64:
    return 8;
  case DType::I32:
    return 4;
  case DType::I64:
    return 8;
  case DType::I8:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return 1;
  }
  return 0;
}

const char *dtypeName(DType t) {
  switch (t) {
  case DType::F32:
    return "f32";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F64:
    return "f64";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::I8:
    return "i8";
  case DType::F8E4M3FN:
    return "f8e4m3fn";
  case DType::F8E5M2:
    return "f8e5m2";
  }
  return "?";
}

bool parseDType(const std::string &s, DType &out) {
  static const DType all[] = {DType::F32, DType::F16,      DType::BF16,
                              DType::F64, DType::I32,      DType::I64,
                              DType::I8,  DType::F8E4M3FN, DType::F8E5M2};
  for (DType t : all) {
    if (s == dtypeName(t)) {
      out = t;
      return true;
    }
  }
  return false;
}

const char *roleName(Role r) {
  switch (r) {
  case Role::In:
    return "in";
  case Role::Out:
    return "out";
  case Role::Ref:
    return "ref";
  case Role::Scratch:
    return "scratch";
  case Role::Zeroed:
    return "zeroed";
  }
  return "?";
}

/// Inverse of roleName.
static bool parseRole(const std::string &s, Role &out) {
  static const Role all[] = {Role::In, Role::Out, Role::Ref, Role::Scratch,
                             Role::Zeroed};
  for (Role r : all) {
    if (s == roleName(r)) {
      out = r;
      return true;
    }
  }
  return false;
}

bool tensorMapSupports(DType t) {
  // The runner maps each to a CUtensorMapDataType (i8 and the f8 types as
  // UINT8: TMA copies bytes, their meaning is the kernel's business).
  switch (t) {
  case DType::F32:
  case DType::F16:
  case DType::BF16:
  case DType::F64:
  case DType::I32:
  case DType::I64:
  case DType::I8:
  case DType::F8E4M3FN:
  case DType::F8E5M2:
    return true;
  }
  return false;
}

/// Swizzle span as written in a tensormap line: "none", "32", "64", "128".
static std::string swizzleName(unsigned swizzle) {
  return swizzle ? std::to_string(swizzle) : "none";
}

static bool parseSwizzle(const std::string &s, unsigned &out) {
  static const unsigned all[] = {0, 32, 64, 128};
  for (unsigned v : all) {
    if (s == swizzleName(v)) {
      out = v;
      return true;
    }
  }
  return false;
}

static const char *stageName(Stage s) {
  return s == Stage::Main ? "main" : "reference";
}

static bool isComputeClass(const std::string &s) {
  return s == "simt-f32" || s == "tc-bf16" || s == "tc-f16" || s == "tc-tf32" ||
         s == "tc-fp8";
}

int64_t Buffer::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t Buffer::sizeInBytes() const {
  // The span from the first to the last element addressed, so that padded
  // (strided) layouts get the memory their last element needs.
  int64_t last = 0;
  for (size_t i = 0; i < shape.size() && i < strides.size(); ++i)
    last += (shape[i] - 1) * strides[i];
  return (last + 1) * static_cast<int64_t>(dtypeSize(dtype));
}

const Buffer *Bundle::findBuffer(const std::string &name) const {
  for (const Buffer &b : buffers)
    if (b.name == name)
      return &b;
  return nullptr;
}

const TensorMap *Bundle::findTensorMap(const std::string &name) const {
  for (const TensorMap &t : tensorMaps)
    if (t.name == name)
      return &t;
  return nullptr;
}

const Module *Bundle::findModule(const std::string &name) const {
  for (const Module &m : modules)
    if (m.name == name)
      return &m;
  return nullptr;
}

double Bundle::minimumBytes() const {
  double bytes = 0;
  for (const Buffer &b : buffers)
    if (b.role == Role::In || b.role == Role::Out)
      bytes += static_cast<double>(b.sizeInBytes());
  return bytes;
}

/// `data` hashes to `declared` (hex digits of either case).
static bool sameHash(const std::string &data, std::string declared) {
  for (char &c : declared)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return fnv1a64Hex(data) == declared;
}

std::string fnv1a64Hex(const std::string &data) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(h));
  return buf;
}

//===----------------------------------------------------------------------===//
// Validation
//===----------------------------------------------------------------------===//

namespace {
/// Header line of each item, filled by the parser so that validation messages
/// can point at the line. Empty when validating a bundle built in memory.
struct LineMap {
  int target = 0, function = 0, sourceHash = 0, options = 0, computeClass = 0;
  int flops = 0;
  std::vector<int> buffers, tensorMaps, modules, launches, checks;
};
} // namespace

/// "bundle line N: " when the parser knows the line, else "bundle: <what>: ".
static std::string where(const LineMap *lines, const std::vector<int> *items,
                         size_t index, const std::string &what) {
  if (lines && items && index < items->size())
    return "bundle line " + std::to_string((*items)[index]) + ": ";
  return "bundle: " + what + ": ";
}

static std::string whereLine(const LineMap *lines, int line,
                             const std::string &what) {
  if (lines && line > 0)
    return "bundle line " + std::to_string(line) + ": ";
  return "bundle: " + what + ": ";
}

/// Names become single header fields, so they must be non-empty and free of
/// spaces and control characters.
static bool isName(const std::string &s) {
  if (s.empty())
    return false;
  for (unsigned char c : s)
    if (c <= ' ' || c == 0x7f)
      return false;
  return true;
}

/// "sm_" then at least two digits (major, minor) and an optional 'a'
/// (arch-specific) or 'f' (family) suffix: sm_80, sm_90a, sm_100f.
static bool isTarget(const std::string &s) {
  if (s.compare(0, 3, "sm_") != 0)
    return false;
  size_t i = 3;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
    ++i;
  if (i < 5)
    return false;
  return i == s.size() || (i + 1 == s.size() && (s[i] == 'a' || s[i] == 'f'));
}

/// The number of an sm_XY[a|f] target (90 for sm_90a); 0 if malformed.
static unsigned targetNumber(const std::string &s) {
  if (!isTarget(s))
    return 0;
  return static_cast<unsigned>(std::stoul(s.substr(3)));
}

static bool isHex(const std::string &s) {
  if (s.empty())
    return false;
  for (char c : s)
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      return false;
  return true;
}

static std::string launchName(const Launch &l, size_t i) {
  return "launch " + std::to_string(i + 1) + " (" + stageName(l.stage) + " " +
         l.module + " " + l.entry + ")";
}

/// "6 x bf16" for a byte count message.
static std::string elementsText(int64_t n, DType t) {
  return std::to_string(n) + " x " + dtypeName(t);
}

/// The TMA rules of cuTensorMapEncodeTiled (CUDA 13 cuda.h) for a tensor map
/// over its buffer, so that a bundle the runner would fail to encode is
/// rejected here, with the line. `at` is the location prefix; `names` holds
/// the buffer names, `tensorMapNames` the tensormaps seen so far.
bool tensorMapView(const Buffer &buffer, size_t rank, Buffer &view) {
  size_t full = buffer.shape.size();
  if (rank == 0 || rank > full)
    return false;
  size_t merged = full - rank + 1; // dimensions [0, merged) become one
  for (size_t d = 0; d + 1 < merged; ++d)
    if (buffer.strides[d] != buffer.strides[d + 1] * buffer.shape[d + 1])
      return false;
  view = buffer;
  view.shape.assign(buffer.shape.begin() + merged - 1, buffer.shape.end());
  view.strides.assign(buffer.strides.begin() + merged - 1,
                      buffer.strides.end());
  for (size_t d = 0; d + 1 < merged; ++d)
    view.shape[0] *= buffer.shape[d];
  return true;
}

static bool validateTensorMap(const Bundle &b, const TensorMap &tm,
                              const LineMap *lines, size_t index,
                              const std::set<std::string> &names,
                              std::set<std::string> &tensorMapNames,
                              const std::string &at, std::string &error) {
  auto fail = [&](const std::string &msg) {
    error = at + msg;
    return false;
  };
  std::string self = "tensormap '" + tm.name + "'";
  if (!isName(tm.name))
    return fail("tensormap name '" + tm.name +
                "' is empty or has spaces or control characters");
  if (names.count(tm.name))
    return fail(self + " has the name of a buffer (buffers and tensormaps "
                       "share one namespace)");
  if (!tensorMapNames.insert(tm.name).second)
    return fail("duplicate tensormap '" + tm.name + "'");
  const Buffer *buf = b.findBuffer(tm.buffer);
  if (!buf)
    return fail(self + " names unknown buffer '" + tm.buffer + "'");
  if (lines) {
    size_t bufIndex = static_cast<size_t>(buf - b.buffers.data());
    if (bufIndex < lines->buffers.size() && index < lines->tensorMaps.size() &&
        lines->buffers[bufIndex] > lines->tensorMaps[index])
      return fail(self + " comes before its buffer '" + tm.buffer + "' (line " +
                  std::to_string(lines->buffers[bufIndex]) +
                  "); a tensormap line follows the buffer it refers to");
  }
  if (tm.swizzle != 0 && tm.swizzle != 32 && tm.swizzle != 64 &&
      tm.swizzle != 128)
    return fail(self + " has swizzle " + std::to_string(tm.swizzle) +
                " (expected 0, 32, 64 or 128 bytes)");
  if (!tensorMapSupports(buf->dtype))
    return fail(self + ": TMA does not support dtype " + dtypeName(buf->dtype) +
                " of buffer '" + tm.buffer + "'");

  // A box of lower rank than the buffer views it with its leading
  // dimensions merged (contiguous rows).
  Buffer view;
  if (!tensorMapView(*buf, tm.box.size(), view))
    return fail(self + " has a box of rank " + std::to_string(tm.box.size()) +
                " but buffer '" + tm.buffer + "' has rank " +
                std::to_string(buf->shape.size()) +
                (tm.box.size() < buf->shape.size()
                     ? " and its leading dimensions are not contiguous"
                     : ""));
  buf = &view;
  size_t rank = buf->shape.size();
  if (rank > kTensorMapMaxRank)
    return fail(self + ": buffer '" + tm.buffer + "' has " +
                std::to_string(rank) + " dimensions; TMA handles at most " +
                std::to_string(kTensorMapMaxRank));
  for (size_t d = 0; d < rank; ++d)
    if (tm.box[d] < 1 || tm.box[d] > kTensorMapMaxBox)
      return fail(self + " box dimension " + std::to_string(d) + " is " +
                  std::to_string(tm.box[d]) + " (must be in [1, " +
                  std::to_string(kTensorMapMaxBox) + "])");

  int64_t elem = dtypeSize(buf->dtype);
  int64_t innerBytes = tm.box[rank - 1] * elem;
  if (innerBytes % kTensorMapAlignment != 0)
    return fail(self + ": the innermost box extent is " +
                std::to_string(innerBytes) + " bytes (" +
                elementsText(tm.box[rank - 1], buf->dtype) +
                "), not a multiple of " + std::to_string(kTensorMapAlignment));
  if (tm.swizzle && innerBytes > static_cast<int64_t>(tm.swizzle))
    return fail(self + ": the innermost box extent is " +
                std::to_string(innerBytes) + " bytes (" +
                elementsText(tm.box[rank - 1], buf->dtype) +
                "), more than the " + std::to_string(tm.swizzle) +
                "-byte swizzle span");

  // The buffer's layout, as TMA sees it: each dimension at most 2^32
  // elements, the innermost contiguous, the others 16-byte aligned and
  // below 2^40 bytes.
  for (size_t d = 0; d < rank; ++d)
    if (buf->shape[d] > (int64_t(1) << 32))
      return fail(self + ": buffer '" + tm.buffer + "' dimension " +
                  std::to_string(d) + " is " + std::to_string(buf->shape[d]) +
                  ", more than TMA's 2^32");
  if (buf->strides[rank - 1] != 1)
    return fail(self + ": buffer '" + tm.buffer + "' has innermost stride " +
                std::to_string(buf->strides[rank - 1]) +
                " (TMA needs a contiguous innermost dimension, stride 1)");
  for (size_t d = 0; d + 1 < rank; ++d) {
    int64_t bytes = buf->strides[d] * elem;
    if (bytes % kTensorMapAlignment != 0)
      return fail(self + ": buffer '" + tm.buffer + "' stride " +
                  std::to_string(d) + " is " + std::to_string(bytes) +
                  " bytes (" + elementsText(buf->strides[d], buf->dtype) +
                  "), not a multiple of 16: TMA needs 16-byte-aligned row "
                  "strides (a bf16 row of 4097 elements cannot use it)");
    if (bytes >= (int64_t(1) << 40))
      return fail(self + ": buffer '" + tm.buffer + "' stride " +
                  std::to_string(d) + " is " + std::to_string(bytes) +
                  " bytes, not below TMA's 2^40");
  }
  return true;
}

static bool validateImpl(const Bundle &b, const LineMap *lines,
                         std::string &error) {
  auto fail = [&](const std::string &msg) {
    error = msg;
    return false;
  };

  if (b.version != kBundleVersion)
    return fail("bundle: version " + std::to_string(b.version) +
                " is not supported (this library knows version " +
                std::to_string(kBundleVersion) + ")");
  if (!isTarget(b.target))
    return fail(whereLine(lines, lines ? lines->target : 0, "target") +
                "target '" + b.target + "' is not of the form sm_XY[a|f]");
  if (!isName(b.function))
    return fail(whereLine(lines, lines ? lines->function : 0, "function") +
                "function name '" + b.function +
                "' is empty or has spaces or control characters");
  if (!isHex(b.sourceHash))
    return fail(whereLine(lines, lines ? lines->sourceHash : 0, "source-hash") +
                "source hash '" + b.sourceHash + "' is not hexadecimal");
  for (unsigned char c : b.options)
    if (c < ' ' || c == 0x7f)
      return fail("bundle: options contain a control character (they must "
                  "fit on one header line)");
  if (!isComputeClass(b.computeClass))
    return fail(whereLine(lines, lines ? lines->computeClass : 0, "class") +
                "unknown compute class '" + b.computeClass +
                "' (expected simt-f32, tc-bf16, tc-f16, tc-tf32 or tc-fp8)");
  if (!(b.flops >= 0) || !std::isfinite(b.flops))
    return fail(whereLine(lines, lines ? lines->flops : 0, "flops") +
                "flops must be a finite non-negative number");

  std::set<std::string> names;
  for (size_t i = 0; i < b.buffers.size(); ++i) {
    const Buffer &buf = b.buffers[i];
    std::string at = where(lines, lines ? &lines->buffers : nullptr, i,
                           "buffer '" + buf.name + "'");
    if (!isName(buf.name))
      return fail(at + "buffer name '" + buf.name +
                  "' is empty or has spaces or control characters");
    if (!names.insert(buf.name).second)
      return fail(at + "duplicate buffer '" + buf.name + "'");
    if (buf.shape.empty())
      return fail(at + "buffer '" + buf.name + "' has no dimensions");
    if (buf.shape.size() != buf.strides.size())
      return fail(at + "buffer '" + buf.name + "' has " +
                  std::to_string(buf.shape.size()) + " dimensions but " +
                  std::to_string(buf.strides.size()) + " strides");
    // Bound the span so that sizes fit comfortably in int64 arithmetic.
    double span = 1;
    for (size_t d = 0; d < buf.shape.size(); ++d) {
      if (buf.shape[d] <= 0)
        return fail(at + "buffer '" + buf.name + "' dimension " +
                    std::to_string(d) + " is " + std::to_string(buf.shape[d]) +
                    " (must be positive)");
      if (buf.strides[d] < 0)
        return fail(at + "buffer '" + buf.name + "' stride " +
                    std::to_string(d) + " is negative");
      span += static_cast<double>(buf.shape[d] - 1) *
              static_cast<double>(buf.strides[d]);
    }
    if (span * dtypeSize(buf.dtype) > kMostBufferBytes)
      return fail(at + "buffer '" + buf.name + "' is larger than 1 PB");
  }

  std::set<std::string> tensorMapNames;
  for (size_t i = 0; i < b.tensorMaps.size(); ++i) {
    const TensorMap &tm = b.tensorMaps[i];
    // Every message names the tensormap, so without a line "bundle: " will do.
    std::string at = lines ? where(lines, &lines->tensorMaps, i, "")
                           : std::string("bundle: ");
    if (!validateTensorMap(b, tm, lines, i, names, tensorMapNames, at, error))
      return false;
  }

  std::set<std::string> moduleNames;
  for (size_t i = 0; i < b.modules.size(); ++i) {
    const Module &m = b.modules[i];
    std::string at = where(lines, lines ? &lines->modules : nullptr, i,
                           "module '" + m.name + "'");
    if (!isName(m.name))
      return fail(at + "module name '" + m.name +
                  "' is empty or has spaces or control characters");
    if (!moduleNames.insert(m.name).second)
      return fail(at + "duplicate module '" + m.name + "'");
    if (m.cubin.empty())
      return fail(at + "module '" + m.name + "' has an empty cubin");
  }

  bool anyMain = false;
  for (size_t i = 0; i < b.launches.size(); ++i) {
    const Launch &l = b.launches[i];
    std::string at =
        where(lines, lines ? &lines->launches : nullptr, i, launchName(l, i));
    // A dependent launch overlaps the main launch before it, whose
    // completion its kernel waits for: there must be one, of its stage.
    if (l.dependent && l.stage != Stage::Main)
      return fail(at + "a reference launch cannot be dependent (only main "
                       "launches overlap the one before them)");
    if (l.dependent && !anyMain)
      return fail(at + "the first main launch cannot be dependent (there is "
                       "no main launch before it to overlap)");
    // Its kernel's griddepcontrol.wait is what makes the overlap safe, and
    // only sm_90 on has it: a flag the kernel was not compiled for would
    // race, even where the PTX of an older target runs on a newer GPU.
    if (l.dependent && targetNumber(b.target) < 90)
      return fail(at + "a dependent launch needs a target of sm_90 or later "
                       "(griddepcontrol), but the bundle's is " +
                  b.target);
    anyMain |= l.stage == Stage::Main;
    if (!b.findModule(l.module))
      return fail(at + "launch names unknown module '" + l.module + "'");
    if (!isName(l.entry))
      return fail(at + "launch entry '" + l.entry +
                  "' is empty or has spaces or control characters");
    // CUDA's grid limits: x up to 2^31 - 1, y and z up to 65535.
    static constexpr uint64_t kMostPrograms[3] = {2147483647u, 65535u, 65535u};
    for (int d = 0; d < 3; ++d) {
      if (l.grid[d] == 0)
        return fail(at + "grid dimension " + std::to_string(d) + " is 0");
      if (l.grid[d] > kMostPrograms[d])
        return fail(at + "grid dimension " + std::to_string(d) + " is " +
                    std::to_string(l.grid[d]) + ", past CUDA's limit of " +
                    std::to_string(kMostPrograms[d]));
      if (l.block[d] == 0)
        return fail(at + "block dimension " + std::to_string(d) + " is 0");
    }
    // A cluster tiles the grid (CUDA requires each dimension to divide it)
    // and holds at most the portable number of blocks.
    uint64_t clusterBlocks = 1;
    for (int d = 0; d < 3; ++d) {
      if (l.cluster[d] == 0)
        return fail(at + "cluster dimension " + std::to_string(d) + " is 0");
      if (l.grid[d] % l.cluster[d] != 0)
        return fail(at + "grid dimension " + std::to_string(d) + " (" +
                    std::to_string(l.grid[d]) +
                    ") is not a multiple of cluster dimension " +
                    std::to_string(d) + " (" + std::to_string(l.cluster[d]) +
                    ")");
      clusterBlocks *= l.cluster[d];
    }
    if (clusterBlocks > kMostClusterBlocks)
      return fail(at + "cluster " + std::to_string(l.cluster[0]) + "x" +
                  std::to_string(l.cluster[1]) + "x" +
                  std::to_string(l.cluster[2]) + " has " +
                  std::to_string(clusterBlocks) +
                  " blocks, more than the portable cluster size of " +
                  std::to_string(kMostClusterBlocks));
    for (const std::string &arg : l.args)
      if (!b.findBuffer(arg) && !b.findTensorMap(arg))
        return fail(at + "launch argument '" + arg +
                    "' is not a declared buffer or tensormap");
  }
  if (!anyMain)
    return fail("bundle: no main launch");

  for (size_t i = 0; i < b.checks.size(); ++i) {
    const Check &c = b.checks[i];
    std::string at = where(lines, lines ? &lines->checks : nullptr, i,
                           "check " + c.output + " " + c.reference);
    const Buffer *out = b.findBuffer(c.output);
    const Buffer *ref = b.findBuffer(c.reference);
    if (!out)
      return fail(at + "check output '" + c.output +
                  "' is not a declared buffer");
    if (!ref)
      return fail(at + "check reference '" + c.reference +
                  "' is not a declared buffer");
    if (out->role != Role::Out)
      return fail(at + "check output '" + c.output + "' has role " +
                  roleName(out->role) + " (expected out)");
    if (ref->role != Role::Ref)
      return fail(at + "check reference '" + c.reference + "' has role " +
                  roleName(ref->role) + " (expected ref)");
    if (out->shape != ref->shape)
      return fail(at + "check compares buffers of different shapes ('" +
                  c.output + "' and '" + c.reference + "')");
    if (!(c.tolerance >= 0) || !std::isfinite(c.tolerance))
      return fail(at + "tolerance must be a finite non-negative number");
  }
  return true;
}

bool validate(const Bundle &b, std::string &error) {
  return validateImpl(b, nullptr, error);
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

/// A double that reads back exactly: an integral value below 10^18 as an
/// integer (a FLOP count: 137438953472, not 1.37e+11), anything else as the
/// shortest %g form that round-trips ("1e-05"), %.17g at worst.
static std::string formatDouble(double v) {
  char buf[40];
  if (v == std::floor(v) && std::fabs(v) < 1e18) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
    return buf;
  }
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v)
      break;
  }
  return buf;
}

static std::string joinDims(const std::vector<int64_t> &dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      s += 'x';
    s += std::to_string(dims[i]);
  }
  return s;
}

std::string serialize(const Bundle &b) {
  std::ostringstream os;
  os << "TILEBUNDLE " << b.version << "\n";
  os << "target " << b.target << "\n";
  os << "function " << b.function << "\n";
  os << "source-hash " << b.sourceHash << "\n";
  os << "options" << (b.options.empty() ? "" : " ") << b.options << "\n";
  os << "class " << b.computeClass << "\n";
  os << "flops " << formatDouble(b.flops) << "\n";
  for (const Buffer &buf : b.buffers)
    os << "buffer " << buf.name << " " << roleName(buf.role) << " "
       << dtypeName(buf.dtype) << " " << joinDims(buf.shape) << " "
       << joinDims(buf.strides) << "\n";
  for (const TensorMap &tm : b.tensorMaps)
    os << "tensormap " << tm.name << " " << tm.buffer << " box "
       << joinDims(tm.box) << " swizzle " << swizzleName(tm.swizzle) << "\n";
  for (const Module &m : b.modules)
    os << "module " << m.name << " ptx " << m.ptx.size() << " fnv1a "
       << fnv1a64Hex(m.ptx) << " cubin " << m.cubin.size() << " fnv1a "
       << fnv1a64Hex(m.cubin) << "\n";
  for (const Launch &l : b.launches) {
    os << "launch " << stageName(l.stage) << " " << l.module << " " << l.entry
       << " grid " << l.grid[0] << " " << l.grid[1] << " " << l.grid[2]
       << " block " << l.block[0] << " " << l.block[1] << " " << l.block[2];
    // Only where it is not 1 1 1: bundles without clusters stay as they were.
    if (l.hasCluster())
      os << " cluster " << l.cluster[0] << " " << l.cluster[1] << " "
         << l.cluster[2];
    if (l.dependent)
      os << " dependent";
    os << " smem " << l.dynamicSharedBytes << " args";
    for (const std::string &a : l.args)
      os << " " << a;
    os << "\n";
  }
  for (const Check &c : b.checks)
    os << "check " << c.output << " " << c.reference << " tol "
       << formatDouble(c.tolerance) << "\n";
  // The last line hashes every header byte before it.
  std::string header = os.str();
  header += "end fnv1a " + fnv1a64Hex(header) + "\n";
  for (const Module &m : b.modules)
    header += m.ptx + m.cubin;
  return header;
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

/// A header line quoted for an error message: clipped, with non-printable
/// bytes escaped, since a non-bundle file can hold anything.
static std::string quoteForMessage(const std::string &s) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < 40; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= ' ' && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    }
  }
  if (s.size() > 40)
    out += "...";
  return "'" + out + "'";
}

static std::vector<std::string> splitFields(const std::string &line) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (true) {
    size_t sp = line.find(' ', start);
    fields.push_back(line.substr(start, sp - start));
    if (sp == std::string::npos)
      break;
    start = sp + 1;
  }
  return fields;
}

/// Decimal digits only: no sign, no spaces, no hex, no overflow.
static bool parseUInt(const std::string &s, uint64_t max, uint64_t &out) {
  if (s.empty() || s.size() > 20)
    return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (max - digit) / 10)
      return false;
    v = v * 10 + digit;
  }
  out = v;
  return true;
}

/// A finite decimal in the %g style; rejects "nan", "inf" and hex floats.
static bool parseDouble(const std::string &s, double &out) {
  if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string::npos)
    return false;
  char *end = nullptr;
  errno = 0;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
    return false;
  out = v;
  return true;
}

static bool parseDims(const std::string &s, std::vector<int64_t> &out) {
  out.clear();
  size_t start = 0;
  while (true) {
    size_t x = s.find('x', start);
    uint64_t v;
    if (!parseUInt(s.substr(start, x - start), INT64_MAX / 2, v))
      return false;
    out.push_back(static_cast<int64_t>(v));
    if (x == std::string::npos)
      return true;
    start = x + 1;
  }
}

namespace {
/// Parses the header one line at a time into a Bundle; the binary sections
/// are read afterwards by parse().
class HeaderParser {
public:
  HeaderParser(Bundle &b, LineMap &lines) : b(b), lines(lines) {}

  /// Parses one line; `end` becomes true on the `end` line.
  bool parseLine(int lineNo, const std::string &line, bool &end);

  std::string error;
  /// Declared section sizes and checksums, in module order.
  std::vector<uint64_t> ptxSizes, cubinSizes;
  std::vector<std::string> ptxHashes, cubinHashes;
  std::string headerHash; // of the header before its `end` line

private:
  bool fail(const std::string &msg) {
    error = "bundle line " + std::to_string(lineNo) + ": " + msg;
    return false;
  }
  bool expectFields(size_t n) {
    if (fields.size() == n)
      return true;
    return fail("'" + fields[0] + "' line has " +
                std::to_string(fields.size() - 1) + " fields (expected " +
                std::to_string(n - 1) + ")");
  }
  bool expectKeyword(size_t i, const char *kw) {
    if (fields[i] == kw)
      return true;
    return fail("expected '" + std::string(kw) + "' but got '" + fields[i] +
                "'");
  }
  bool number(size_t i, uint64_t max, const char *what, uint64_t &out) {
    if (parseUInt(fields[i], max, out))
      return true;
    return fail("malformed " + std::string(what) + " '" + fields[i] + "'");
  }
  /// Singleton header lines may come in any order, but only once each.
  bool once(int &slot) {
    if (slot)
      return fail("duplicate '" + fields[0] + "' line (first on line " +
                  std::to_string(slot) + ")");
    slot = lineNo;
    return true;
  }

  bool parseBuffer();
  bool parseTensorMap();
  bool parseModule();
  bool parseLaunch();
  bool parseCheck();

  Bundle &b;
  LineMap &lines;
  int lineNo = 0;
  std::vector<std::string> fields;
};
} // namespace

bool HeaderParser::parseLine(int no, const std::string &line, bool &end) {
  lineNo = no;
  end = false;
  if (lineNo == 1) {
    // Tell a foreign file from a bundle of another version.
    std::string magic = "TILEBUNDLE " + std::to_string(kBundleVersion);
    if (line.compare(0, 11, "TILEBUNDLE ") != 0)
      return fail("not a tile bundle (expected '" + magic + "' but got " +
                  quoteForMessage(line) + ")");
    if (line != magic)
      return fail("unsupported bundle version " +
                  quoteForMessage(line.substr(11)) +
                  " (this reader knows version " +
                  std::to_string(kBundleVersion) + ")");
    return true;
  }
  for (unsigned char c : line)
    if (c < ' ' || c == 0x7f)
      return fail("control character in the header (a line is " +
                  quoteForMessage(line) + ")");

  // Options are free text: everything after the keyword.
  if (line == "options" || line.compare(0, 8, "options ") == 0) {
    if (lines.options)
      return fail("duplicate 'options' line (first on line " +
                  std::to_string(lines.options) + ")");
    lines.options = lineNo;
    b.options = line.size() > 8 ? line.substr(8) : "";
    return true;
  }

  fields = splitFields(line);
  for (const std::string &f : fields)
    if (f.empty())
      return fail("empty field (fields are separated by single spaces)");
  const std::string &kw = fields[0];

  if (kw == "end") {
    // end fnv1a HEX: the hash of the header before this line, checked
    // once the whole bundle has parsed (so that an edit that breaks a rule
    // is named by the rule).
    if (!expectFields(3) || !expectKeyword(1, "fnv1a"))
      return false;
    if (fields[2].size() != 16 || !isHex(fields[2]))
      return fail("malformed FNV-1a '" + fields[2] +
                  "' (expected 16 hex digits)");
    headerHash = fields[2];
    const std::pair<const char *, int> required[] = {
        {"target", lines.target},          {"function", lines.function},
        {"source-hash", lines.sourceHash}, {"options", lines.options},
        {"class", lines.computeClass},     {"flops", lines.flops}};
    for (const auto &[keyword, line] : required)
      if (!line)
        return fail("header ends without a '" + std::string(keyword) +
                    "' line");
    end = true;
    return true;
  }
  if (kw == "target") {
    if (!expectFields(2) || !once(lines.target))
      return false;
    b.target = fields[1];
    return true;
  }
  if (kw == "function") {
    if (!expectFields(2) || !once(lines.function))
      return false;
    b.function = fields[1];
    return true;
  }
  if (kw == "source-hash") {
    if (!expectFields(2) || !once(lines.sourceHash))
      return false;
    b.sourceHash = fields[1];
    return true;
  }
  if (kw == "class") {
    if (!expectFields(2) || !once(lines.computeClass))
      return false;
    if (!isComputeClass(fields[1]))
      return fail("unknown compute class '" + fields[1] +
                  "' (expected simt-f32, tc-bf16, tc-f16, tc-tf32 or tc-fp8)");
    b.computeClass = fields[1];
    return true;
  }
  if (kw == "flops") {
    if (!expectFields(2) || !once(lines.flops))
      return false;
    if (!parseDouble(fields[1], b.flops) || b.flops < 0)
      return fail("malformed flops '" + fields[1] + "'");
    return true;
  }
  if (kw == "buffer")
    return parseBuffer();
  if (kw == "tensormap")
    return parseTensorMap();
  if (kw == "module")
    return parseModule();
  if (kw == "launch")
    return parseLaunch();
  if (kw == "check")
    return parseCheck();
  if (kw == "TILEBUNDLE")
    return fail("'TILEBUNDLE' must be the first line only");
  return fail("unknown keyword '" + kw + "'");
}

bool HeaderParser::parseBuffer() {
  // buffer NAME ROLE DTYPE SHAPE STRIDES
  if (!expectFields(6))
    return false;
  Buffer buf;
  buf.name = fields[1];
  if (!parseRole(fields[2], buf.role))
    return fail("unknown role '" + fields[2] +
                "' (expected in, out, ref, scratch or zeroed)");
  if (!parseDType(fields[3], buf.dtype))
    return fail("unknown dtype '" + fields[3] + "'");
  if (!parseDims(fields[4], buf.shape))
    return fail("malformed shape '" + fields[4] + "'");
  if (!parseDims(fields[5], buf.strides))
    return fail("malformed strides '" + fields[5] + "'");
  b.buffers.push_back(std::move(buf));
  lines.buffers.push_back(lineNo);
  return true;
}

bool HeaderParser::parseTensorMap() {
  // tensormap NAME BUFFER box B0xB1... swizzle none|32|64|128
  if (!expectFields(7) || !expectKeyword(3, "box") ||
      !expectKeyword(5, "swizzle"))
    return false;
  TensorMap tm;
  tm.name = fields[1];
  tm.buffer = fields[2];
  if (!parseDims(fields[4], tm.box))
    return fail("malformed box '" + fields[4] + "'");
  if (!parseSwizzle(fields[6], tm.swizzle))
    return fail("unknown swizzle '" + fields[6] +
                "' (expected none, 32, 64 or 128)");
  b.tensorMaps.push_back(std::move(tm));
  lines.tensorMaps.push_back(lineNo);
  return true;
}

bool HeaderParser::parseModule() {
  // module NAME ptx N fnv1a HEX cubin N fnv1a HEX
  if (!expectFields(10) || !expectKeyword(2, "ptx") ||
      !expectKeyword(4, "fnv1a") || !expectKeyword(6, "cubin") ||
      !expectKeyword(8, "fnv1a"))
    return false;
  uint64_t ptx, cubin;
  // 2^40 bytes: far beyond any module, small enough that sums cannot wrap.
  if (!number(3, 1ull << 40, "PTX size", ptx) ||
      !number(7, 1ull << 40, "cubin size", cubin))
    return false;
  for (int field : {5, 9})
    if (fields[field].size() != 16 || !isHex(fields[field]))
      return fail("malformed FNV-1a '" + fields[field] +
                  "' (expected 16 hex digits)");
  Module m;
  m.name = fields[1];
  b.modules.push_back(std::move(m));
  ptxSizes.push_back(ptx);
  cubinSizes.push_back(cubin);
  ptxHashes.push_back(fields[5]);
  cubinHashes.push_back(fields[9]);
  lines.modules.push_back(lineNo);
  return true;
}

bool HeaderParser::parseLaunch() {
  // launch STAGE MODULE ENTRY grid X Y Z block X Y Z [cluster X Y Z]
  //   [dependent] smem N args A...
  if (fields.size() < 15)
    return fail("'launch' line has " + std::to_string(fields.size() - 1) +
                " fields (expected at least 14)");
  Launch l;
  if (fields[1] == "main")
    l.stage = Stage::Main;
  else if (fields[1] == "reference")
    l.stage = Stage::Reference;
  else
    return fail("unknown launch stage '" + fields[1] +
                "' (expected main or reference)");
  l.module = fields[2];
  l.entry = fields[3];
  if (!expectKeyword(4, "grid") || !expectKeyword(8, "block"))
    return false;
  // The optional cluster shifts smem and args by four fields.
  bool cluster = fields[12] == "cluster";
  size_t smem = cluster ? 16 : 12;
  if (cluster && fields.size() < 19)
    return fail("'launch' line has " + std::to_string(fields.size() - 1) +
                " fields (expected at least 18 with a cluster)");
  // The optional `dependent` shifts them by one more.
  l.dependent = fields[smem] == "dependent";
  if (l.dependent && fields.size() < smem + 4)
    return fail("'launch' line has " + std::to_string(fields.size() - 1) +
                " fields (expected at least " + std::to_string(smem + 3) +
                " with 'dependent')");
  if (l.dependent)
    ++smem;
  if (!expectKeyword(smem, "smem") || !expectKeyword(smem + 2, "args"))
    return false;
  uint64_t v;
  for (int d = 0; d < 3; ++d) {
    if (!number(5 + d, UINT32_MAX, "grid size", v))
      return false;
    l.grid[d] = static_cast<unsigned>(v);
    if (!number(9 + d, UINT32_MAX, "block size", v))
      return false;
    l.block[d] = static_cast<unsigned>(v);
    if (cluster) {
      if (!number(13 + d, UINT32_MAX, "cluster size", v))
        return false;
      l.cluster[d] = static_cast<unsigned>(v);
    }
  }
  if (!number(smem + 1, UINT32_MAX, "shared memory size", v))
    return false;
  l.dynamicSharedBytes = static_cast<unsigned>(v);
  l.args.assign(fields.begin() + smem + 3, fields.end());
  b.launches.push_back(std::move(l));
  lines.launches.push_back(lineNo);
  return true;
}

bool HeaderParser::parseCheck() {
  // check OUT REF tol X
  if (!expectFields(5) || !expectKeyword(3, "tol"))
    return false;
  Check c;
  c.output = fields[1];
  c.reference = fields[2];
  if (!parseDouble(fields[4], c.tolerance) || c.tolerance < 0)
    return fail("malformed tolerance '" + fields[4] + "'");
  b.checks.push_back(std::move(c));
  lines.checks.push_back(lineNo);
  return true;
}

bool parse(const std::string &bytes, Bundle &out, std::string &error) {
  out = Bundle();
  if (bytes.empty()) {
    error = "bundle: empty file";
    return false;
  }

  LineMap lines;
  HeaderParser header(out, lines);
  size_t pos = 0, headerEnd = 0;
  int lineNo = 0;
  bool end = false;
  while (!end) {
    if (pos >= bytes.size()) {
      error = "bundle: header has no 'end' line (truncated?)";
      return false;
    }
    size_t nl = bytes.find('\n', pos);
    ++lineNo;
    std::string line = bytes.substr(
        pos, nl == std::string::npos ? std::string::npos : nl - pos);
    if (!header.parseLine(lineNo, line, end)) {
      error = header.error;
      return false;
    }
    if (end)
      headerEnd = pos;
    if (nl == std::string::npos) {
      // The sections start after the newline of `end`.
      error = end ? "bundle line " + std::to_string(lineNo) +
                        ": 'end' has no newline (truncated)"
                  : "bundle: header has no 'end' line (truncated?)";
      return false;
    }
    pos = nl + 1;
  }

  uint64_t expected = 0;
  for (size_t i = 0; i < out.modules.size(); ++i)
    expected += header.ptxSizes[i] + header.cubinSizes[i];
  uint64_t available = bytes.size() - pos;
  if (available < expected) {
    error = "bundle: file ends " + std::to_string(expected - available) +
            " bytes early (truncated)";
    return false;
  }
  if (available > expected) {
    error = "bundle: " + std::to_string(available - expected) +
            " bytes after the last section";
    return false;
  }
  for (size_t i = 0; i < out.modules.size(); ++i) {
    Module &m = out.modules[i];
    m.ptx = bytes.substr(pos, header.ptxSizes[i]);
    pos += header.ptxSizes[i];
    m.cubin = bytes.substr(pos, header.cubinSizes[i]);
    pos += header.cubinSizes[i];
    for (auto [section, data, declared] :
         {std::tuple<const char *, const std::string &, const std::string &>{
              "PTX", m.ptx, header.ptxHashes[i]},
          {"cubin", m.cubin, header.cubinHashes[i]}})
      if (!sameHash(data, declared)) {
        error = std::string("bundle: ") + section + " of module '" + m.name +
                "' has FNV-1a " + fnv1a64Hex(data) + " but header says " +
                declared + " (corrupt file)";
        return false;
      }
  }
  if (!validateImpl(out, &lines, error))
    return false;
  // Last: an edit that breaks a rule above is named by the rule.
  if (!sameHash(bytes.substr(0, headerEnd), header.headerHash)) {
    error = "bundle: the header has FNV-1a " +
            fnv1a64Hex(bytes.substr(0, headerEnd)) + " but its 'end' line says " +
            header.headerHash + " (corrupt or edited file)";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Files
//===----------------------------------------------------------------------===//

bool readFile(const std::string &path, std::string &bytes, std::string &error) {
  // A directory opens as an empty stream; say what it is instead.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    error = "'" + path + "' is a directory";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "cannot read '" + path + "'";
    return false;
  }
  bytes = ss.str();
  return true;
}

bool writeFile(const std::string &path, const std::string &bytes,
               std::string &error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) {
    error = "cannot open '" + path + "' for writing: " + std::strerror(errno);
    return false;
  }
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) {
    error = "cannot write '" + path + "'";
    return false;
  }
  return true;
}

} // namespace bundle
} // namespace tile
