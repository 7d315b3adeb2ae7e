//===- Driver.cpp - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// Resolves the driver functions of Driver.h from libcuda.so.1 and reports
// failed calls. See Driver.h for why the driver is not linked.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>

#include <chrono>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tile {
namespace run {

namespace cu {
#define TILE_DEFINE_DRIVER_FUNCTION(name) decltype(&::name) name = nullptr;
TILE_DRIVER_FUNCTIONS(TILE_DEFINE_DRIVER_FUNCTION)
#undef TILE_DEFINE_DRIVER_FUNCTION
} // namespace cu

// Two levels so that the argument is macro-expanded first: the versioned
// symbol (cuMemAlloc_v2) is what the driver library exports.
#define TILE_STRINGIFY_EXPANDED(x) TILE_STRINGIFY(x)
#define TILE_STRINGIFY(x) #x

/// One symbol of the driver library; null, with `error` set, if missing.
static void *lookup(void *handle, const char *symbol, std::string &error) {
  void *fn = dlsym(handle, symbol);
  if (!fn)
    error = std::string("the CUDA driver (libcuda.so.1) has no function ") +
            symbol + ": it is older than the headers tile-run was built " +
            "with (CUDA_VERSION " + std::to_string(CUDA_VERSION) + ")";
  return fn;
}

bool loadDriver(std::string &error) {
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    error = std::string("cannot load the CUDA driver: ") +
            (why ? why : "libcuda.so.1") + " (is the NVIDIA driver installed?)";
    return false;
  }
  // The handle stays open for the life of the process.
#define TILE_RESOLVE_DRIVER_FUNCTION(name)                                     \
  cu::name = reinterpret_cast<decltype(cu::name)>(                             \
      lookup(handle, TILE_STRINGIFY_EXPANDED(name), error));                   \
  if (!cu::name)                                                               \
    return false;
  TILE_DRIVER_FUNCTIONS(TILE_RESOLVE_DRIVER_FUNCTION)
#undef TILE_RESOLVE_DRIVER_FUNCTION
  return true;
}

std::string cuErrorText(CUresult r) {
  const char *name = nullptr, *text = nullptr;
  if (cu::cuGetErrorName)
    cu::cuGetErrorName(r, &name);
  if (cu::cuGetErrorString)
    cu::cuGetErrorString(r, &text);
  if (!name && r == CUDA_ERROR_STUB_LIBRARY)
    return "CUDA_ERROR_STUB_LIBRARY (the toolkit's stub libcuda.so was "
           "loaded, not a real driver)";
  std::string s = name ? name : "CUresult " + std::to_string(int(r));
  if (text)
    s += std::string(" (") + text + ")";
  return s;
}

static std::string activity;

void setActivity(const std::string &what) { activity = what; }

static double hangLimit = 0;

void setHangLimit(double seconds) { hangLimit = seconds; }

/// Polls `query` (cuStreamQuery or cuEventQuery of one stream or event)
/// until it succeeds, fails, or the hang limit passes. The driver's own
/// synchronize calls block with no deadline, and a kernel whose barriers
/// never complete would hold the runner (and the GPU) until an outer
/// timeout killed the whole script.
template <typename Query>
static void waitFor(Query query, const char *call, int line) {
  auto start = std::chrono::steady_clock::now();
  for (unsigned polls = 0;; ++polls) {
    CUresult r = query();
    if (r == CUDA_SUCCESS)
      return;
    if (r != CUDA_ERROR_NOT_READY)
      cuFailed(r, call, __FILE__, line);
    double waited = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    if (hangLimit > 0 && waited > hangLimit) {
      std::fflush(stdout);
      std::fprintf(stderr,
                   "tile-run: hang: the device did not finish within %g s "
                   "(--hang-limit)%s%s; a kernel that never completes "
                   "(a barrier protocol that deadlocks?)\n",
                   hangLimit, activity.empty() ? "" : " while ",
                   activity.c_str());
      std::fflush(stderr);
      // _Exit, not exit: the driver's exit handlers could wait for the
      // kernel that never ends; the process's end tears its context down.
      std::_Exit(4);
    }
    // Yield first (most waits are short: timing does not depend on how
    // soon the host notices, the events are the device's), then sleep.
    if (polls < 10000)
      sched_yield();
    else
      usleep(500);
  }
}

void waitForStream(CUstream stream) {
  waitFor([&] { return cu::cuStreamQuery(stream); }, "cuStreamQuery", __LINE__);
}

void waitForEvent(CUevent event) {
  waitFor([&] { return cu::cuEventQuery(event); }, "cuEventQuery", __LINE__);
}

void cuFailed(CUresult r, const char *call, const char *file, int line) {
  const char *slash = std::strrchr(file, '/');
  file = slash ? slash + 1 : file;
  std::fflush(stdout);
  std::fprintf(stderr, "tile-run: CUDA error%s%s: %s failed at %s:%d: %s\n",
               activity.empty() ? "" : " while ", activity.c_str(), call, file,
               line, cuErrorText(r).c_str());
  std::exit(3);
}

} // namespace run
} // namespace tile
