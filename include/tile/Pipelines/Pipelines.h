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
      llvm::cl::desc("Matmul strategy: auto (wgmma on sm_90a, mma.sync on "
                     "sm_80..sm_90, else SIMT), wgmma, mma-sync, simt"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("How dots reach the tensor cores: rewrite (the "
                     "whole-kernel matmul rewrites) or passes (tile-configure, "
                     "tile-assign-layouts, tile-promote, tile-mma, "
                     "tile-persistent, tile-pipeline, tile-warp-specialize)"),
      llvm::cl::init("rewrite")};
  PassOptions::Option<int64_t> stages{
      *this, "stages", llvm::cl::desc("Shared-memory stages of the TMA ring"),
      llvm::cl::init(4)};
  PassOptions::Option<int64_t> groupRows{
      *this, "group-rows",
      llvm::cl::desc("Block-rows per group of the Hopper matmul tile order"),
      llvm::cl::init(8)};
  PassOptions::Option<int64_t> persistentPrograms{
      *this, "persistent-programs",
      llvm::cl::desc("Programs of the persistent Hopper matmul grid (0: one "
                     "program per tile)"),
      llvm::cl::init(132)};
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
