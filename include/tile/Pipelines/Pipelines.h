//===- Pipelines.h - The tile compiler's named pipelines -------*- C++ -*-===//
//
// The pipelines, built in one place and readable top to bottom:
//   tile-to-nvvm     tile level (tile.kernel) -> gpu.module in NVVM with a
//                    target attached, ready for gpu-module-to-binary.
//   tile-compile     tensor level -> tile-tile -> tile-to-nvvm (what the
//                    compile driver runs on the function under test; the
//                    reference copy takes tile-reference instead).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_PIPELINES_PIPELINES_H
#define TILE_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace tile {

/// Shared memory per SM of `chip` in bytes (the CUDA programming guide's
/// table of compute capabilities): tile-tile stages wide rows within it
/// and convert-tile-to-simt checks launches against it. 0 for a chip not
/// listed: nothing is staged, nothing checked.
int64_t sharedMemoryPerSm(llvm::StringRef chip);

struct TileToNVVMOptions : public PassPipelineOptions<TileToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("Target GPU (sm_80, sm_90a, ...)"),
      llvm::cl::init("sm_90a")};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features (+ptx80, ...)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> mma{
      *this, "mma",
      llvm::cl::desc("auto: dots take the tensor cores where the target and "
                     "their tiles allow (tile-configure decides); simt: never"),
      llvm::cl::init("auto")};
  PassOptions::Option<int64_t> sms{
      *this, "sms",
      llvm::cl::desc("SMs of the target GPU, for persistent grids (0: the "
                     "chip's flagship part, 132 for sm_90)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Hardware approximations for f32 tanh, exp and "
                     "division (tile-approximate-math)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> logisticTanh{
      *this, "logistic-tanh",
      llvm::cl::desc("Without fast-math, f32 1 +- tanh(z) as a logistic "
                     "function (tile-logistic-tanh); tile-compile lowers "
                     "the reference kernels without it, to check it"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> lineInfo{
      *this, "line-info",
      llvm::cl::desc("Line tables from the ops' locations (the user's "
                     ".mlir or Python lines): .loc/.file in the PTX, line "
                     "info in the cubin for Nsight Compute's source view"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> dependentLaunches{
      *this, "dependent-launches",
      llvm::cl::desc("On sm_90 and later, each launch after the first "
                     "starts while the one before it finishes "
                     "(tile-dependent-launches); tile-compile lowers the "
                     "reference kernels without it"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> ringRegisterLoads{
      *this, "ring-register-loads",
      llvm::cl::desc("tile-pipeline's option: loads into registers that "
                     "TMA can copy (a weight's scales) through the "
                     "producer's ring"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> overlapSteps{
      *this, "overlap-steps",
      llvm::cl::desc("tile-overlap's steps: a block-scaled K loop's "
                     "steps in one body"),
      llvm::cl::init(4)};
  PassOptions::Option<int> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level"),
      llvm::cl::init(3)};
};

/// Tile level to NVVM: kernels to gpu.launch, tiles to per-thread vectors,
/// outlining, target attachment, and the GPU module's lowering to NVVM.
void buildTileToNVVMPipeline(OpPassManager &pm,
                             const TileToNVVMOptions &options);

/// Registers tile-to-nvvm with the global pass registry.
void registerTilePipelines();

} // namespace tile
} // namespace mlir

#endif // TILE_PIPELINES_PIPELINES_H
