//===- tile-run.cpp - Launch, check and time a kernel bundle ---*- C++ -*-===//
//
// tile-run reads a kernel bundle (docs/bundle-format.md), encodes its TMA
// tensor maps, runs its main and reference launches on random inputs through
// the CUDA driver API, compares
// every checked output with its reference, and times the main stage against
// the device's roofline. The last line is machine-readable:
//
//   RESULT <function> status=PASS rel_err=... time_us=... tflops=... gbps=...
//          bound=memory|compute roofline_frac=... spread_us=...
//
// (time_us is the median of the timed runs, spread_us the 10th to 90th
// percentile range.)
//
// Exit status: 0 all checks pass, 1 a check failed, 2 bad usage or a bundle
// the device cannot run (parse errors come before any CUDA call, so they are
// reported on machines without a GPU), 3 a CUDA error, 4 a kernel that did
// not finish within --hang-limit seconds (the runner gives up on it).
//
//===----------------------------------------------------------------------===//

#include "Compare.h"
#include "Driver.h"
#include "HostData.h"
#include "Timing.h"

#include "tile/Runtime/Bundle.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace tile;
using namespace tile::run;
using bundle::Buffer;
using bundle::Bundle;
using bundle::Launch;
using bundle::Role;
using bundle::Stage;
using bundle::TensorMap;

//===----------------------------------------------------------------------===//
// Command line and messages
//===----------------------------------------------------------------------===//

namespace {
struct Options {
  std::string bundlePath;
  int warmup = 10;
  int repeats = 100;
  uint64_t seed = 0;
  bool seedGiven = false;
  bool time = true;
  bool quiet = false;
  bool flushL2 = false;
  double tolerance = 0;
  bool toleranceGiven = false;
  int device = 0;
  double hangLimit = 60;
};
} // namespace

static const char *const usageText =
    "usage: tile-run BUNDLE [options]\n"
    "\n"
    "Runs a kernel bundle on random inputs, checks each output against its\n"
    "reference, and times the main stage against the device's roofline.\n"
    "\n"
    "options:\n"
    "  --warmup N    untimed runs of the main stage before timing (10)\n"
    "  --repeats N   timed runs; the median is reported (100)\n"
    "  --seed S      seed of the random inputs (default: from the clock,\n"
    "                printed so that a failure can be replayed)\n"
    "  --no-time     check only; the RESULT time fields are 'na'\n"
    "  --tol X       use tolerance X for every check\n"
    "  --flush-l2    overwrite a buffer twice the L2 size before each timed\n"
    "                run, so that every run starts with a cold cache\n"
    "  --device N    CUDA device ordinal (0)\n"
    "  --hang-limit S  give up on a wait for the device after S seconds\n"
    "                (60; 0: no limit) and exit with status 4\n"
    "  --quiet       print only failures, errors and the RESULT line\n"
    "  --help        print this help\n"
    "\n"
    "exit status: 0 pass, 1 a check failed, 2 usage, bundle or device\n"
    "mismatch, 3 CUDA error, 4 a wait for the device passed --hang-limit\n";

static bool quiet = false;

/// Progress output, silenced by --quiet.
__attribute__((format(printf, 1, 2))) static void info(const char *fmt, ...) {
  if (quiet)
    return;
  va_list ap;
  va_start(ap, fmt);
  std::vprintf(fmt, ap);
  va_end(ap);
}

/// A problem with the command line, the bundle or the device: exit 2.
[[noreturn]] static void fatal(const std::string &msg) {
  std::fflush(stdout);
  std::fprintf(stderr, "tile-run: error: %s\n", msg.c_str());
  std::exit(2);
}

[[noreturn]] static void usageError(const std::string &msg) {
  std::fprintf(stderr, "tile-run: %s\nrun 'tile-run --help' for usage\n",
               msg.c_str());
  std::exit(2);
}

static bool parseInt(const std::string &s, long min, long max, long &out) {
  if (s.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  long v = std::strtol(s.c_str(), &end, 10);
  if (*end || errno || v < min || v > max)
    return false;
  out = v;
  return true;
}

/// A finite number >= 0.
static bool parseNonNegative(const std::string &s, double &out) {
  char *end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end || !std::isfinite(v) || v < 0)
    return false;
  out = v;
  return true;
}

static Options parseOptions(int argc, char **argv) {
  Options opts;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      if (arg == "-h")
        arg = "--help";
      else if (arg.size() > 1 && arg[0] == '-')
        usageError("unknown option '" + arg + "'");
      else if (!opts.bundlePath.empty())
        usageError("more than one bundle given ('" + opts.bundlePath +
                   "' and '" + arg + "')");
      else {
        opts.bundlePath = arg;
        continue;
      }
    }
    // --name=value or --name value.
    std::string name = arg, value;
    bool hasValue = false;
    size_t eq = arg.find('=');
    if (eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      hasValue = true;
    }
    auto takeValue = [&]() {
      if (!hasValue) {
        if (i + 1 >= argc)
          usageError("option '" + name + "' needs a value");
        value = argv[++i];
      }
      return value;
    };
    auto noValue = [&]() {
      if (hasValue)
        usageError("option '" + name + "' takes no value");
    };
    long n;
    if (name == "--help") {
      std::fputs(usageText, stdout);
      std::exit(0);
    } else if (name == "--warmup") {
      if (!parseInt(takeValue(), 0, 1000000, n))
        usageError("--warmup needs a count >= 0, not '" + value + "'");
      opts.warmup = int(n);
    } else if (name == "--repeats") {
      if (!parseInt(takeValue(), 1, 1000000, n))
        usageError("--repeats needs a count >= 1, not '" + value + "'");
      opts.repeats = int(n);
    } else if (name == "--device") {
      if (!parseInt(takeValue(), 0, 1024, n))
        usageError("--device needs a device ordinal, not '" + value + "'");
      opts.device = int(n);
    } else if (name == "--seed") {
      takeValue();
      char *end = nullptr;
      errno = 0;
      opts.seed = std::strtoull(value.c_str(), &end, 10);
      if (value.empty() || *end || errno || value[0] == '-')
        usageError("--seed needs an unsigned integer, not '" + value + "'");
      opts.seedGiven = true;
    } else if (name == "--tol") {
      if (!parseNonNegative(takeValue(), opts.tolerance))
        usageError("--tol needs a finite number >= 0, not '" + value + "'");
      opts.toleranceGiven = true;
    } else if (name == "--hang-limit") {
      if (!parseNonNegative(takeValue(), opts.hangLimit))
        usageError("--hang-limit needs seconds >= 0, not '" + value + "'");
    } else if (name == "--no-time") {
      noValue();
      opts.time = false;
    } else if (name == "--quiet") {
      noValue();
      opts.quiet = true;
    } else if (name == "--flush-l2") {
      noValue();
      opts.flushL2 = true;
    } else {
      usageError("unknown option '" + name + "'");
    }
  }
  if (opts.bundlePath.empty())
    usageError("no bundle given");
  return opts;
}

/// 64x128: dimensions joined by 'x'.
static std::string dimsText(const std::vector<int64_t> &dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "x" : "") + std::to_string(dims[i]);
  return s;
}

static std::string shapeText(const Buffer &b) { return dimsText(b.shape); }

/// 1536 -> "1.5 KiB".
static std::string bytesText(double bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
  return buf;
}

//===----------------------------------------------------------------------===//
// Device and modules
//===----------------------------------------------------------------------===//

namespace {
struct Device {
  CUdevice handle = 0;
  std::string name;
  int major = 0, minor = 0;
  int sms = 0;
  int clockKHz = 0;
  int l2Bytes = 0;
  int maxSharedOptin = 0;
  size_t memory = 0;
};

/// A launch with its kernel resolved and its argument array built.
struct PreparedLaunch {
  const Launch *launch = nullptr;
  size_t number = 0; // 1-based position in the bundle
  CUfunction function = nullptr;
  std::vector<CUdeviceptr> args;
  std::vector<void *> params; // points into args
};
} // namespace

static int attribute(CUdevice dev, CUdevice_attribute a) {
  int v = 0;
  CU_CHECK(cu::cuDeviceGetAttribute(&v, a, dev));
  return v;
}

static Device openDevice(int ordinal) {
  int count = 0;
  CU_CHECK(cu::cuDeviceGetCount(&count));
  if (count == 0)
    fatal("no CUDA device found");
  if (ordinal >= count)
    fatal("--device " + std::to_string(ordinal) + " but there " +
          (count == 1 ? "is 1 device"
                      : "are " + std::to_string(count) + " devices"));
  Device d;
  CU_CHECK(cu::cuDeviceGet(&d.handle, ordinal));
  char name[256] = {};
  CU_CHECK(cu::cuDeviceGetName(name, sizeof(name), d.handle));
  d.name = name;
  d.major = attribute(d.handle, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  d.minor = attribute(d.handle, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  d.sms = attribute(d.handle, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  d.clockKHz = attribute(d.handle, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  d.l2Bytes = attribute(d.handle, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  d.maxSharedOptin = attribute(
      d.handle, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  CU_CHECK(cu::cuDeviceTotalMem(&d.memory, d.handle));
  return d;
}

/// A cubin holds machine code for one major version: built for sm_XY it runs
/// on X.Z with Z >= Y; sm_XYa (arch-specific features) only on X.Y exactly;
/// sm_XYf on the family X.Z, Z >= Y. The bundle validator guaranteed the
/// spelling sm_<digits>[a|f]. PTX is forward compatible: a plain sm_XY
/// bundle also runs on any later device by letting the driver JIT-compile
/// its PTX (that is how the sm_80 path is checked on a Hopper GPU).
enum class LoadFrom { Cubin, PTX };

static LoadFrom checkTarget(const std::string &target, const Device &dev,
                            int ordinal) {
  std::string digits = target.substr(3);
  char suffix = 0;
  if (!std::isdigit(static_cast<unsigned char>(digits.back()))) {
    suffix = digits.back();
    digits.pop_back();
  }
  int major = std::atoi(digits.substr(0, digits.size() - 1).c_str());
  int minor = digits.back() - '0';
  bool cubinRuns = suffix == 'a' ? dev.major == major && dev.minor == minor
                                 : dev.major == major && dev.minor >= minor;
  if (cubinRuns)
    return LoadFrom::Cubin;
  bool ptxRuns = suffix == 0 && (dev.major > major ||
                                 (dev.major == major && dev.minor >= minor));
  if (ptxRuns) {
    info("target %s: the cubin does not run on compute capability %d.%d; "
         "loading the PTX instead (the driver JIT-compiles it)\n",
         target.c_str(), dev.major, dev.minor);
    return LoadFrom::PTX;
  }
  std::string need =
      suffix == 'a'
          ? "exactly " + std::to_string(major) + "." + std::to_string(minor)
          : std::to_string(major) + "." + std::to_string(minor) +
                " or later";
  fatal("bundle targets " + target + " but device " + std::to_string(ordinal) +
        " (" + dev.name + ") has compute capability " +
        std::to_string(dev.major) + "." + std::to_string(dev.minor) +
        "; it needs compute capability " + need);
}

static std::map<std::string, CUmodule> loadModules(const Bundle &b,
                                                   LoadFrom from) {
  std::map<std::string, CUmodule> modules;
  for (const bundle::Module &m : b.modules) {
    CUmodule mod = nullptr;
    const std::string &image = from == LoadFrom::Cubin ? m.cubin : m.ptx;
    const char *what = from == LoadFrom::Cubin ? "cubin" : "PTX";
    if (image.empty())
      fatal("module '" + m.name + "' has no " + what);
    // std::string's data() is NUL-terminated, as PTX text must be.
    CUresult r = cu::cuModuleLoadData(&mod, image.data());
    if (r != CUDA_SUCCESS)
      fatal(std::string("the driver refused the ") + what + " of module '" +
            m.name + "' (" + std::to_string(image.size()) +
            " bytes): " + cuErrorText(r));
    modules[m.name] = mod;
  }
  return modules;
}

static int functionAttribute(CUfunction f, CUfunction_attribute a) {
  int v = 0;
  CU_CHECK(cu::cuFuncGetAttribute(&v, a, f));
  return v;
}

static std::string launchText(const Launch &l, size_t number) {
  return "launch " + std::to_string(number) + " (" +
         (l.stage == Stage::Main ? "main " : "reference ") + l.module + " " +
         l.entry + ")";
}

/// `l`'s launch as cuLaunchKernelEx and cuOccupancyMaxActiveClusters take
/// it: its cluster and its dependence as attributes, in `attrs` (room for
/// two).
static CUlaunchConfig launchConfigOf(const Launch &l, CUlaunchAttribute *attrs,
                                     CUstream stream) {
  std::memset(attrs, 0, 2 * sizeof(CUlaunchAttribute));
  unsigned numAttrs = 0;
  if (l.hasCluster()) {
    CUlaunchAttribute &cluster = attrs[numAttrs++];
    cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    cluster.value.clusterDim.x = l.cluster[0];
    cluster.value.clusterDim.y = l.cluster[1];
    cluster.value.clusterDim.z = l.cluster[2];
  }
  if (l.dependent) {
    CUlaunchAttribute &overlap = attrs[numAttrs++];
    overlap.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
    overlap.value.programmaticStreamSerializationAllowed = 1;
  }
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = l.grid[0];
  config.gridDimY = l.grid[1];
  config.gridDimZ = l.grid[2];
  config.blockDimX = l.block[0];
  config.blockDimY = l.block[1];
  config.blockDimZ = l.block[2];
  config.sharedMemBytes = l.dynamicSharedBytes;
  config.hStream = stream;
  config.attrs = attrs;
  config.numAttrs = numAttrs;
  return config;
}

/// Resolves every launch's kernel, raises its dynamic shared memory limit
/// where it needs more than the default 48 KiB, and checks the launch fits
/// the kernel and the device before the driver is asked.
static std::vector<PreparedLaunch>
prepareLaunches(const Bundle &b, const Device &dev,
                const std::map<std::string, CUmodule> &modules) {
  std::map<std::string, CUfunction> functions;
  std::map<CUfunction, unsigned> dynamicShared; // largest request per kernel
  std::map<CUfunction, std::string> kernelNames;
  std::vector<PreparedLaunch> prepared(b.launches.size());
  for (size_t i = 0; i < b.launches.size(); ++i) {
    const Launch &l = b.launches[i];
    PreparedLaunch &p = prepared[i];
    p.launch = &l;
    p.number = i + 1;
    std::string key = l.module + "\n" + l.entry;
    auto it = functions.find(key);
    if (it == functions.end()) {
      CUfunction f = nullptr;
      CUresult r =
          cu::cuModuleGetFunction(&f, modules.at(l.module), l.entry.c_str());
      if (r == CUDA_ERROR_NOT_FOUND)
        fatal(launchText(l, p.number) + ": module '" + l.module +
              "' has no kernel named '" + l.entry + "'");
      CU_CHECK(r);
      it = functions.emplace(key, f).first;
    }
    p.function = it->second;
    kernelNames[p.function] = l.entry;
    unsigned &smem = dynamicShared[p.function];
    smem = std::max(smem, l.dynamicSharedBytes);

    int maxThreads =
        functionAttribute(p.function, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    long threads = long(l.block[0]) * l.block[1] * l.block[2];
    if (threads > maxThreads)
      fatal(launchText(l, p.number) + ": block of " + std::to_string(threads) +
            " threads, but kernel '" + l.entry + "' allows at most " +
            std::to_string(maxThreads));
  }

  for (const auto &[f, smem] : dynamicShared) {
    int staticSmem = functionAttribute(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    if (long(smem) + staticSmem > dev.maxSharedOptin)
      fatal("kernel '" + kernelNames[f] + "' needs " + std::to_string(smem) +
            " bytes of dynamic and " + std::to_string(staticSmem) +
            " of static shared memory, more than the device's " +
            std::to_string(dev.maxSharedOptin) + " per block");
    if (smem > 48 * 1024)
      CU_CHECK(cu::cuFuncSetAttribute(
          f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(smem)));
  }

  for (PreparedLaunch &p : prepared) {
    const Launch &l = *p.launch;
    int blocksPerSM = 0;
    CU_CHECK(cu::cuOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocksPerSM, p.function, int(l.block[0] * l.block[1] * l.block[2]),
        l.dynamicSharedBytes));
    std::string cluster = l.hasCluster()
                              ? ", cluster " + std::to_string(l.cluster[0]) +
                                    "x" + std::to_string(l.cluster[1]) + "x" +
                                    std::to_string(l.cluster[2])
                              : "";
    // Clusters need their programs on SMs of one GPC: how many fit at
    // once can be fewer than the SMs divided by the cluster's size.
    if (l.hasCluster()) {
      CUlaunchAttribute attrs[2];
      CUlaunchConfig config = launchConfigOf(l, attrs, nullptr);
      config.numAttrs = 1; // the cluster (first), as this query ran before
      int clusters = 0;
      CU_CHECK(
          cu::cuOccupancyMaxActiveClusters(&clusters, p.function, &config));
      cluster += " (" + std::to_string(clusters) + " at once)";
    }
    if (l.dependent)
      cluster += ", dependent";
    info("%s: grid %ux%ux%u, block %ux%ux%u%s, %d regs, %s static + %s "
         "dynamic smem, %d B local per thread, %d blocks/SM\n",
         launchText(l, p.number).c_str(), l.grid[0], l.grid[1], l.grid[2],
         l.block[0], l.block[1], l.block[2], cluster.c_str(),
         functionAttribute(p.function, CU_FUNC_ATTRIBUTE_NUM_REGS),
         bytesText(
             functionAttribute(p.function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES))
             .c_str(),
         bytesText(l.dynamicSharedBytes).c_str(),
         functionAttribute(p.function, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
         blocksPerSM);
  }
  return prepared;
}

//===----------------------------------------------------------------------===//
// Buffers and launches
//===----------------------------------------------------------------------===//

/// Allocates every buffer; fills inputs with random data (returned, to check
/// later that no launch wrote them) and poisons the rest with 0xFF bytes, a
/// NaN in every float type, so that an element nobody wrote cannot pass;
/// `zeroed` scratch (counters) starts as zeros, as the kernels expect.
static std::vector<CUdeviceptr>
allocateBuffers(const Bundle &b, uint64_t seed,
                std::vector<std::vector<unsigned char>> &inputs) {
  std::mt19937_64 rng(seed);
  std::vector<CUdeviceptr> ptrs(b.buffers.size());
  inputs.assign(b.buffers.size(), {});
  for (size_t i = 0; i < b.buffers.size(); ++i) {
    const Buffer &buf = b.buffers[i];
    size_t size = size_t(buf.sizeInBytes());
    CU_CHECK(cu::cuMemAlloc(&ptrs[i], size));
    if (buf.role == Role::In) {
      fillRandom(buf, rng, inputs[i]);
      CU_CHECK(cu::cuMemcpyHtoD(ptrs[i], inputs[i].data(), size));
    } else {
      CU_CHECK(
          cu::cuMemsetD8(ptrs[i], buf.role == Role::Zeroed ? 0 : 0xFF, size));
    }
    info("buffer %-12s %-7s %-8s %-14s %s\n", buf.name.c_str(),
         bundle::roleName(buf.role), bundle::dtypeName(buf.dtype),
         shapeText(buf).c_str(), bytesText(double(size)).c_str());
  }
  return ptrs;
}

/// The TMA element type of a buffer dtype; i8 and the f8 types are copied
/// as UINT8 (TMA moves bytes, their meaning is the kernel's business).
static CUtensorMapDataType tensorMapDataType(bundle::DType t) {
  switch (t) {
  case bundle::DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case bundle::DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case bundle::DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case bundle::DType::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case bundle::DType::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case bundle::DType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64;
  case bundle::DType::I8:
  case bundle::DType::F8E4M3FN:
  case bundle::DType::F8E5M2:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
  fatal(std::string("no TMA data type for dtype ") + bundle::dtypeName(t));
}

static CUtensorMapSwizzle tensorMapSwizzle(unsigned bytes) {
  switch (bytes) {
  case 32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  default:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

static std::string swizzleText(unsigned bytes) {
  return bytes ? std::to_string(bytes) + "B" : "none";
}

/// Encodes one tensor map over the buffer at `address`. The bundle lists
/// dimensions outermost first; cuTensorMapEncodeTiled wants them innermost
/// first, with byte strides for all but the innermost dimension (which is
/// contiguous: the validator checked stride 1). Out-of-bounds elements of a
/// box are filled with zeros (FLOAT_OOB_FILL_NONE).
static CUtensorMap encodeTensorMap(const TensorMap &tm, const Buffer &whole,
                                   CUdeviceptr address) {
  // The buffer as the box's rank sees it (validated when the bundle was
  // read): leading dimensions merged into rows.
  Buffer buf;
  if (!bundle::tensorMapView(whole, tm.box.size(), buf))
    fatal("tensormap '" + tm.name + "' does not fit buffer '" + whole.name + "'");
  const size_t rank = buf.shape.size();
  const uint64_t elem = bundle::dtypeSize(buf.dtype);
  cuuint64_t globalDim[bundle::kTensorMapMaxRank] = {};
  cuuint64_t globalStrides[bundle::kTensorMapMaxRank] = {};
  cuuint32_t boxDim[bundle::kTensorMapMaxRank] = {};
  cuuint32_t elementStrides[bundle::kTensorMapMaxRank] = {};
  for (size_t i = 0; i < rank; ++i) {
    size_t d = rank - 1 - i; // the bundle's dimension for TMA dimension i
    globalDim[i] = cuuint64_t(buf.shape[d]);
    boxDim[i] = cuuint32_t(tm.box[d]);
    elementStrides[i] = 1;
    if (i > 0)
      globalStrides[i - 1] = cuuint64_t(buf.strides[d]) * elem;
  }
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  CUresult r = cu::cuTensorMapEncodeTiled(
      &map, tensorMapDataType(buf.dtype), cuuint32_t(rank),
      reinterpret_cast<void *>(uintptr_t(address)), globalDim, globalStrides,
      boxDim, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      tensorMapSwizzle(tm.swizzle), CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    fatal("cannot encode tensormap '" + tm.name + "' over buffer '" + buf.name +
          "' (" + bundle::dtypeName(buf.dtype) + " " + shapeText(buf) +
          ", strides " + dimsText(buf.strides) + ", box " + dimsText(tm.box) +
          ", swizzle " + swizzleText(tm.swizzle) +
          "): cuTensorMapEncodeTiled failed: " + cuErrorText(r));
  return map;
}

/// Encodes every tensor map over its buffer's device memory and copies each
/// 128-byte CUtensorMap to a device allocation of its own (cuMemAlloc aligns
/// to 256 bytes; TMA needs 64), whose pointer a launch receives.
static std::vector<CUdeviceptr>
encodeTensorMaps(const Bundle &b, const std::vector<CUdeviceptr> &ptrs) {
  std::vector<CUdeviceptr> maps(b.tensorMaps.size());
  for (size_t i = 0; i < b.tensorMaps.size(); ++i) {
    const TensorMap &tm = b.tensorMaps[i];
    const Buffer *buf = b.findBuffer(tm.buffer);
    CUtensorMap map =
        encodeTensorMap(tm, *buf, ptrs[size_t(buf - b.buffers.data())]);
    static_assert(sizeof(CUtensorMap) == 128, "CUtensorMap is 128 bytes");
    CU_CHECK(cu::cuMemAlloc(&maps[i], sizeof(CUtensorMap)));
    CU_CHECK(cu::cuMemcpyHtoD(maps[i], &map, sizeof(CUtensorMap)));
    info("tensormap %-9s over %-12s box %-10s swizzle %s\n", tm.name.c_str(),
         tm.buffer.c_str(), dimsText(tm.box).c_str(),
         swizzleText(tm.swizzle).c_str());
  }
  return maps;
}

/// Builds each launch's parameters: a buffer's device pointer, or for a
/// tensor map the device pointer to its encoded CUtensorMap.
static void bindArguments(const Bundle &b, const std::vector<CUdeviceptr> &ptrs,
                          const std::vector<CUdeviceptr> &maps,
                          std::vector<PreparedLaunch> &prepared) {
  std::map<std::string, CUdeviceptr> pointer;
  for (size_t i = 0; i < b.buffers.size(); ++i)
    pointer[b.buffers[i].name] = ptrs[i];
  for (size_t i = 0; i < b.tensorMaps.size(); ++i)
    pointer[b.tensorMaps[i].name] = maps[i];
  for (PreparedLaunch &p : prepared) {
    for (const std::string &name : p.launch->args)
      p.args.push_back(pointer.at(name));
    // The driver reads each parameter through a pointer to it.
    for (CUdeviceptr &arg : p.args)
      p.params.push_back(&arg);
  }
}

/// Issues one launch on `stream`: cuLaunchKernel, or where the launch runs
/// in thread-block clusters or is dependent, cuLaunchKernelEx with those
/// as its launch attributes (cuLaunchKernel has no way to name them).
static void launchKernel(const PreparedLaunch &p, CUstream stream) {
  const Launch &l = *p.launch;
  void **params = const_cast<void **>(p.params.data());
  if (!l.hasCluster() && !l.dependent) {
    CU_CHECK(cu::cuLaunchKernel(p.function, l.grid[0], l.grid[1], l.grid[2],
                                l.block[0], l.block[1], l.block[2],
                                l.dynamicSharedBytes, stream, params, nullptr));
    return;
  }
  CUlaunchAttribute attrs[2];
  CUlaunchConfig config = launchConfigOf(l, attrs, stream);
  CU_CHECK(cu::cuLaunchKernelEx(&config, p.function, params, nullptr));
}

/// Every launch of `stage`, in file order: the checked runs and the timed
/// ones alike go through here, so both launch the same way.
static void enqueueStage(const std::vector<PreparedLaunch> &prepared,
                         Stage stage, CUstream stream) {
  for (const PreparedLaunch &p : prepared)
    if (p.launch->stage == stage)
      launchKernel(p, stream);
}

static std::vector<unsigned char> download(CUdeviceptr ptr, const Buffer &b) {
  std::vector<unsigned char> bytes(size_t(b.sizeInBytes()));
  CU_CHECK(cu::cuMemcpyDtoH(bytes.data(), ptr, bytes.size()));
  return bytes;
}

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

/// An element value; the 0xFF poison reads as a negative NaN, printed "nan".
static std::string valueText(double v) {
  if (std::isnan(v))
    return "nan";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  return buf;
}

/// Runs every check and prints it; returns the largest relative error
/// (NaN if any check saw a NaN) and whether all passed.
static bool runChecks(const Bundle &b, const Options &opts,
                      const std::vector<CUdeviceptr> &ptrs, double &worstRel) {
  bool allPass = true;
  worstRel = 0;
  auto ptrOf = [&](const Buffer *buf) { return ptrs[buf - b.buffers.data()]; };
  for (const bundle::Check &c : b.checks) {
    const Buffer *out = b.findBuffer(c.output);
    const Buffer *ref = b.findBuffer(c.reference);
    double tol = opts.toleranceGiven ? opts.tolerance : c.tolerance;
    CheckResult r = compareBuffers(*out, download(ptrOf(out), *out), *ref,
                                   download(ptrOf(ref), *ref), tol);
    if (std::isnan(r.relErr) || std::isnan(worstRel))
      worstRel = NAN;
    else
      worstRel = std::max(worstRel, r.relErr);
    allPass &= r.pass;

    std::string types = out->dtype == ref->dtype
                            ? bundle::dtypeName(out->dtype)
                            : std::string(bundle::dtypeName(out->dtype)) +
                                  " vs " + bundle::dtypeName(ref->dtype);
    if (r.pass) {
      info("check %s vs %s (%s, %s, tol %g): rel_err %.3e%s, at the last "
           "indices %.1e  PASS\n",
           c.output.c_str(), c.reference.c_str(), types.c_str(),
           shapeText(*out).c_str(), tol, r.relErr,
           r.absolute ? " (absolute: the reference is all zeros)" : "",
           r.edgeRelErr);
      info("    worst |out - ref| = %.3e at %s: out %s, ref %s\n",
           std::fabs(r.worstOut - r.worstRef),
           formatIndex(r.worstIndex).c_str(), valueText(r.worstOut).c_str(),
           valueText(r.worstRef).c_str());
      continue;
    }

    // Failures print even with --quiet, with the seed to replay them.
    std::printf("FAIL: check %s vs %s (%s, %s): rel_err %.3e %s tol %g "
                "(seed %llu)\n",
                c.output.c_str(), c.reference.c_str(), types.c_str(),
                shapeText(*out).c_str(), r.relErr,
                r.relErr <= tol ? "<=" : "exceeds", tol,
                static_cast<unsigned long long>(opts.seed));
    if (r.outNaN)
      std::printf("FAIL:     %lld of %lld output elements are NaN%s\n",
                  (long long)r.outNaN, (long long)r.elements,
                  r.outNaN == r.elements
                      ? " (all still poisoned: did the main launches write "
                        "this buffer?)"
                      : "");
    if (r.refNaN)
      std::printf("FAIL:     %lld of %lld reference elements are NaN%s\n",
                  (long long)r.refNaN, (long long)r.elements,
                  r.refNaN == r.elements
                      ? " (all still poisoned: did the reference launches "
                        "write this buffer?)"
                      : "");
    if (r.outInf || r.refInf)
      std::printf("FAIL:     infinities: %lld in the output, %lld in the "
                  "reference\n",
                  (long long)r.outInf, (long long)r.refInf);
    if (r.edgeRelErr > kEdgeTolerance * tol)
      std::printf("FAIL:     at the last index of dimension %d: rel_err "
                  "%.3e exceeds %g x tol (a ragged edge?)\n",
                  r.edgeDim, r.edgeRelErr, kEdgeTolerance);
    std::printf("FAIL:     worst element %s: out %s, ref %s "
                "(|out - ref| = %.3e)\n",
                formatIndex(r.worstIndex).c_str(),
                valueText(r.worstOut).c_str(), valueText(r.worstRef).c_str(),
                std::fabs(r.worstOut - r.worstRef));
  }
  return allPass;
}

/// Inputs are read-only to both stages; a changed input means a launch wrote
/// out of its bounds or the compiler wrote in place, and the reference then
/// saw other data than the main stage: it fails the check (it only warned
/// before; no bundle was seen to do it).
static bool
checkInputsUnchanged(const Bundle &b, const std::vector<CUdeviceptr> &ptrs,
                     const std::vector<std::vector<unsigned char>> &inputs) {
  bool unchanged = true;
  for (size_t i = 0; i < b.buffers.size(); ++i) {
    const Buffer &buf = b.buffers[i];
    if (buf.role != Role::In)
      continue;
    std::vector<unsigned char> now = download(ptrs[i], buf);
    size_t changed = 0;
    for (size_t k = 0; k < now.size(); ++k)
      changed += now[k] != inputs[i][k];
    if (changed) {
      std::printf("FAIL: input buffer '%s' was modified by the launches "
                  "(%zu of %zu bytes differ)\n",
                  buf.name.c_str(), changed, now.size());
      unchanged = false;
    }
  }
  return unchanged;
}

/// The main stage again, its outputs first filled with another byte (0x5A
/// instead of 0xFF): every element of every output must come out bit for
/// bit as in the first run. An element no launch wrote keeps each run's
/// fill (for integer outputs the 0xFF fill reads as -1, which the value
/// check alone may not catch), and a race or a dependence on scratch left
/// by the previous run shows as a difference (the kernels are
/// deterministic: split-K sums in a fixed order, no float atomics).
static bool checkRerunSame(const Bundle &b, const std::vector<CUdeviceptr> &ptrs,
                           const std::vector<PreparedLaunch> &launches,
                           CUstream stream) {
  std::vector<std::vector<unsigned char>> first(b.buffers.size());
  for (size_t i = 0; i < b.buffers.size(); ++i)
    if (b.buffers[i].role == Role::Out) {
      first[i] = download(ptrs[i], b.buffers[i]);
      // On `stream`, ahead of the launches (cuMemsetD8 would go to the
      // legacy default stream, which `stream` does not wait for).
      CU_CHECK(cu::cuMemsetD8Async(ptrs[i], 0x5A, first[i].size(), stream));
    }
  enqueueStage(launches, Stage::Main, stream);
  waitForStream(stream);
  bool same = true;
  for (size_t i = 0; i < b.buffers.size(); ++i) {
    const Buffer &buf = b.buffers[i];
    if (buf.role != Role::Out)
      continue;
    std::vector<unsigned char> again = download(ptrs[i], buf);
    const size_t elem = bundle::dtypeSize(buf.dtype), rank = buf.shape.size();
    std::vector<int64_t> index(rank, 0);
    int64_t offset = 0, differ = 0;
    std::vector<int64_t> firstDiffer;
    for (int64_t n = 0; n < buf.numElements(); ++n) {
      if (std::memcmp(first[i].data() + offset * elem,
                      again.data() + offset * elem, elem) != 0) {
        if (!differ)
          firstDiffer = index;
        ++differ;
      }
      for (size_t d = rank; d-- > 0;) {
        offset += buf.strides[d];
        if (++index[d] < buf.shape[d])
          break;
        offset -= buf.strides[d] * buf.shape[d];
        index[d] = 0;
      }
    }
    if (differ) {
      std::printf("FAIL: output '%s' differs between two runs of the main "
                  "launches (%lld of %lld elements, first at %s): an element "
                  "no launch wrote, or a race\n",
                  buf.name.c_str(), (long long)differ,
                  (long long)buf.numElements(),
                  formatIndex(firstDiffer).c_str());
      same = false;
    }
  }
  return same;
}

/// A `zeroed` buffer (split-K's arrival counters) must be zero again after
/// the launches: a counter left behind would make the next call's programs
/// miscount, so it fails the check.
static bool checkZeroedLeftZero(const Bundle &b,
                                const std::vector<CUdeviceptr> &ptrs) {
  bool ok = true;
  for (size_t i = 0; i < b.buffers.size(); ++i) {
    const Buffer &buf = b.buffers[i];
    if (buf.role != Role::Zeroed)
      continue;
    std::vector<unsigned char> now = download(ptrs[i], buf);
    size_t nonzero = 0;
    for (unsigned char byte : now)
      nonzero += byte != 0;
    if (nonzero) {
      std::printf("FAIL: zeroed buffer '%s' is not zero after the launches "
                  "(%zu of %zu bytes)\n",
                  buf.name.c_str(), nonzero, now.size());
      ok = false;
    }
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// Main
//===----------------------------------------------------------------------===//

int main(int argc, char **argv) {
  Options opts = parseOptions(argc, argv);
  quiet = opts.quiet;
  setHangLimit(opts.hangLimit);

  // Everything about the file is checked before the first CUDA call.
  std::string bytes, error;
  Bundle b;
  if (!bundle::readFile(opts.bundlePath, bytes, error))
    fatal(error);
  if (!bundle::parse(bytes, b, error))
    fatal(opts.bundlePath + ": " + error);

  if (!opts.seedGiven)
    opts.seed =
        uint64_t(std::chrono::system_clock::now().time_since_epoch().count());
  info("bundle %s: function %s, target %s, class %s\n", opts.bundlePath.c_str(),
       b.function.c_str(), b.target.c_str(), b.computeClass.c_str());
  if (!b.options.empty())
    info("  options: %s\n", b.options.c_str());

  if (!loadDriver(error)) {
    std::fprintf(stderr, "tile-run: CUDA error: %s\n", error.c_str());
    return 3;
  }
  setActivity("initializing the CUDA driver");
  CU_CHECK(cu::cuInit(0));
  int driverVersion = 0;
  CU_CHECK(cu::cuDriverGetVersion(&driverVersion));

  setActivity("setting up device " + std::to_string(opts.device));
  Device dev = openDevice(opts.device);
  info("device %d: %s, compute capability %d.%d, %d SMs at %.0f MHz, %s, "
       "driver %d.%d\n",
       opts.device, dev.name.c_str(), dev.major, dev.minor, dev.sms,
       dev.clockKHz / 1e3, bytesText(double(dev.memory)).c_str(),
       driverVersion / 1000, driverVersion % 1000 / 10);
  LoadFrom loadFrom = checkTarget(b.target, dev, opts.device);
  // What came with compute capability 9.0: TMA, clusters, programmatic
  // dependent launch.
  auto needsHopper = [&](const std::string &what) {
    fatal(what + " compute capability 9.0 or later, but device " +
          std::to_string(opts.device) + " (" + dev.name +
          ") has compute capability " + std::to_string(dev.major) + "." +
          std::to_string(dev.minor));
  };
  if (dev.major < 9) {
    if (!b.tensorMaps.empty())
      needsHopper("the bundle has tensormaps (TMA), which need");
    for (size_t i = 0; i < b.launches.size(); ++i) {
      const Launch &l = b.launches[i];
      if (l.hasCluster())
        needsHopper(launchText(l, i + 1) +
                    " runs in thread-block clusters, which need");
      if (l.dependent)
        needsHopper(launchText(l, i + 1) +
                    " is a programmatic dependent launch, which needs");
    }
  }
  CUcontext ctx = nullptr;
  CU_CHECK(cu::cuDevicePrimaryCtxRetain(&ctx, dev.handle));
  CU_CHECK(cu::cuCtxSetCurrent(ctx));
  CUstream stream = nullptr;
  CU_CHECK(cu::cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));

  setActivity("loading the modules");
  std::map<std::string, CUmodule> modules = loadModules(b, loadFrom);
  std::vector<PreparedLaunch> launches = prepareLaunches(b, dev, modules);

  setActivity("preparing the buffers");
  info("seed %llu (replay with --seed %llu)\n",
       static_cast<unsigned long long>(opts.seed),
       static_cast<unsigned long long>(opts.seed));
  std::vector<std::vector<unsigned char>> inputs;
  std::vector<CUdeviceptr> ptrs = allocateBuffers(b, opts.seed, inputs);
  setActivity("encoding the tensor maps");
  std::vector<CUdeviceptr> maps = encodeTensorMaps(b, ptrs);
  bindArguments(b, ptrs, maps, launches);
  // The fills, copies and tensor maps above went through the legacy default
  // stream (cuMemsetD8 and cuMemcpyHtoD may return before the device has
  // done them), which `stream`, created non-blocking, does not wait for.
  waitForStream(nullptr);

  // A kernel fault surfaces at the synchronization after its stage.
  setActivity("running the main launches");
  enqueueStage(launches, Stage::Main, stream);
  waitForStream(stream);
  setActivity("running the reference launches");
  enqueueStage(launches, Stage::Reference, stream);
  waitForStream(stream);

  setActivity("checking the outputs");
  double relErr = 0;
  bool pass = runChecks(b, opts, ptrs, relErr);
  pass = checkInputsUnchanged(b, ptrs, inputs) && pass;
  if (!b.checks.empty()) {
    setActivity("running the main launches again");
    pass = checkRerunSame(b, ptrs, launches, stream) && pass;
  }
  pass = checkZeroedLeftZero(b, ptrs) && pass;
  if (b.checks.empty())
    info("WARNING: the bundle has no checks; correctness is not verified\n");

  // Performance: the main stage against the roofline.
  std::string timeUs = "na", spreadUs = "na", tflops = "na", gbps = "na",
              bound = "na", fraction = "na";
  if (opts.time) {
    setActivity("measuring the copy bandwidth");
    size_t copyBytes = 0;
    double peakBW = measureCopyBandwidth(stream, copyBytes);
    info("copy bandwidth: %.1f GB/s (device-to-device copy of %s, bytes read "
         "+ written, median of 20)\n",
         peakBW / 1e9, bytesText(double(copyBytes)).c_str());

    setActivity("timing the main stage");
    CUdeviceptr flush = 0;
    size_t flushBytes = opts.flushL2 ? size_t(dev.l2Bytes) * 2 : 0;
    if (flushBytes)
      CU_CHECK(cu::cuMemAlloc(&flush, flushBytes));
    TimeStats t = timeStage(
        stream, [&] { enqueueStage(launches, Stage::Main, stream); },
        opts.warmup, opts.repeats, flush, flushBytes);
    if (flush)
      CU_CHECK(cu::cuMemFree(flush));

    double seconds = t.medianUs * 1e-6;
    double bytesMoved = b.minimumBytes();
    double achievedFlops = b.flops / seconds;
    double achievedBW = bytesMoved / seconds;
    double perClock = flopsPerClockPerSM(dev.major, b.computeClass);
    double peakFlops = double(dev.sms) * dev.clockKHz * 1e3 * perClock;
    info("main stage: median %.3f us, min %.3f us (%d runs after %d "
         "warm-ups%s)\n",
         t.medianUs, t.minUs, opts.repeats, opts.warmup,
         opts.flushL2 ? ", L2 flushed before each" : "");
    // The FLOP count in full (137438953472 FLOP for a 4096^3 GEMM).
    info("  %.3f TFLOP/s, %.1f GB/s (%.*g FLOP, %s minimum traffic, %.3g "
         "FLOP/byte)\n",
         achievedFlops / 1e12, achievedBW / 1e9,
         b.flops == std::floor(b.flops) ? 17 : 6, b.flops,
         bytesText(bytesMoved).c_str(),
         bytesMoved > 0 ? b.flops / bytesMoved : 0.0);

    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.3f", t.medianUs);
    timeUs = buf;
    std::snprintf(buf, sizeof(buf), "%.3f", t.p90Us - t.p10Us);
    spreadUs = buf;
    std::snprintf(buf, sizeof(buf), "%.4g", achievedFlops / 1e12);
    tflops = buf;
    std::snprintf(buf, sizeof(buf), "%.1f", achievedBW / 1e9);
    gbps = buf;

    if (perClock == 0 && b.flops > 0) {
      info("  roofline: no peak %s rate known for compute capability %d.x; "
           "bound unknown\n",
           b.computeClass.c_str(), dev.major);
    } else if (peakBW > 0) {
      // The roofline time is the larger of the two lower bounds.
      double computeTime = perClock > 0 ? b.flops / peakFlops : 0;
      double memoryTime = bytesMoved / peakBW;
      bool computeBound = computeTime > memoryTime;
      double frac = std::max(computeTime, memoryTime) / seconds;
      bound = computeBound ? "compute" : "memory";
      std::snprintf(buf, sizeof(buf), "%.3f", frac);
      fraction = buf;
      info("  roofline: %.1f TFLOP/s peak (%s: %d SMs x %.0f MHz x %.0f "
           "FLOP/clock), %.1f GB/s peak (measured copy)\n",
           peakFlops / 1e12, b.computeClass.c_str(), dev.sms,
           dev.clockKHz / 1e3, perClock, peakBW / 1e9);
      info("  %s-bound: %.1f%% of the %s roofline\n", bound.c_str(), frac * 100,
           bound.c_str());
    }
  }

  for (CUdeviceptr p : maps)
    CU_CHECK(cu::cuMemFree(p));
  for (CUdeviceptr p : ptrs)
    CU_CHECK(cu::cuMemFree(p));
  for (const auto &[name, mod] : modules)
    CU_CHECK(cu::cuModuleUnload(mod));
  CU_CHECK(cu::cuStreamDestroy(stream));
  CU_CHECK(cu::cuDevicePrimaryCtxRelease(dev.handle));

  const char *status =
      pass ? (b.checks.empty() ? "UNCHECKED" : "PASS") : "FAIL";
  if (!pass)
    std::printf("FAIL: %s: a check failed (replay with --seed %llu)\n",
                b.function.c_str(), static_cast<unsigned long long>(opts.seed));
  char rel[32] = "na";
  if (!b.checks.empty())
    std::snprintf(rel, sizeof(rel), "%.3e", relErr);
  std::printf("RESULT %s status=%s rel_err=%s time_us=%s tflops=%s gbps=%s "
              "bound=%s roofline_frac=%s spread_us=%s\n",
              b.function.c_str(), status, rel, timeUs.c_str(), tflops.c_str(),
              gbps.c_str(), bound.c_str(), fraction.c_str(), spreadUs.c_str());
  return pass ? 0 : 1;
}
