//===- Driver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// tile-run talks to the GPU through the CUDA driver API alone. It opens
// libcuda.so.1 with dlopen rather than linking it, so that the runner starts
// on a machine without a GPU driver: there it can still parse, validate and
// reject a bundle (the "bad bundle" tests), and only a run that needs the GPU
// fails, with a CUDA error. Every driver function the runner uses is a
// function pointer in namespace `cu`, resolved from the same versioned symbol
// (cuMemAlloc_v2, ...) that linking against cuda.h would have bound.
//
// Every call goes through CU_CHECK, which on failure prints the call, where it
// was made, the error's name and text, and exits with status 3.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_RUN_DRIVER_H
#define TILE_TOOLS_TILE_RUN_DRIVER_H

#include <cuda.h>

#include <string>

/// The driver functions the runner calls. cuda.h maps most of these names to
/// versioned symbols (cuMemAlloc -> cuMemAlloc_v2); the pointers take those
/// names too, so `cu::cuMemAlloc(...)` reads like the plain API.
#define TILE_DRIVER_FUNCTIONS(X)                                               \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDeviceTotalMem)                                                          \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadData)                                                          \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                               \
  X(cuOccupancyMaxActiveClusters)                                              \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemGetInfo)                                                              \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD8Async)                                                           \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamQuery)                                                             \
  X(cuLaunchKernel)                                                            \
  X(cuLaunchKernelEx)                                                          \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventQuery)                                                              \
  X(cuEventElapsedTime)

namespace tile {
namespace run {
namespace cu {
#define TILE_DECLARE_DRIVER_FUNCTION(name) extern decltype(&::name) name;
TILE_DRIVER_FUNCTIONS(TILE_DECLARE_DRIVER_FUNCTION)
#undef TILE_DECLARE_DRIVER_FUNCTION
} // namespace cu

/// Opens libcuda.so.1 and resolves every function above. On failure returns
/// false and says why (no driver installed, or one too old for this build).
bool loadDriver(std::string &error);

/// "CUDA_ERROR_NAME (description)", or the number when the driver cannot
/// name it.
std::string cuErrorText(CUresult r);

/// What the runner is doing, printed with a CUDA error: a kernel fault shows
/// up at the next synchronization, so the call alone does not say which
/// stage faulted.
void setActivity(const std::string &what);

/// How long one wait for the device (waitForStream, waitForEvent) may last
/// before the runner calls it a hang: seconds, 0 for no limit.
void setHangLimit(double seconds);

/// cuStreamSynchronize and cuEventSynchronize that give up after the hang
/// limit: a kernel that never finishes (a deadlocked barrier protocol)
/// then ends the run with a message naming the activity and exit status 4,
/// so that a script running many bundles goes on to the next one. A CUDA
/// error is reported as by CU_CHECK.
void waitForStream(CUstream stream);
void waitForEvent(CUevent event);

/// Prints the failed call and exits with status 3.
[[noreturn]] void cuFailed(CUresult r, const char *call, const char *file,
                           int line);

} // namespace run
} // namespace tile

/// Checks one driver call; on failure prints it and exits with status 3.
#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult tileCuResult = (call);                                            \
    if (tileCuResult != CUDA_SUCCESS)                                          \
      ::tile::run::cuFailed(tileCuResult, #call, __FILE__, __LINE__);          \
  } while (0)

#endif // TILE_TOOLS_TILE_RUN_DRIVER_H
