//===- Compiler.h - Tensor-level function to kernel bundle -----*- C++ -*-===//
//
// The compile driver as a library: parse a tensor-level function, compile it
// through the real pipeline (tile-fuse, tile-tile, tile-to-nvvm) and a copy
// through the naive one (tile-reference, tile-to-nvvm), turn both into PTX
// and cubins with upstream gpu-module-to-binary, and pack one kernel bundle
// (docs/bundle-format.md). tile-compile is a thin command line over it; the
// Python module (python/src) reaches it through CompilerAPI.h.
//
// Errors are emitted as diagnostics on the context (located where the IR
// says); the caller decides how they are shown by the handler it installs.
// An error with no place in the source to point at (no such function) has
// an UnknownLoc.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILER_COMPILER_H
#define TILE_COMPILER_COMPILER_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <string>

namespace mlir {
namespace tile {

/// The last stage compileFunction runs. Tile and Reference both run the
/// real and the naive tiling (the reference must succeed too) and stop.
enum class CompileStage { Tile, NVVM, PTX, Bundle };

/// What the input function is. Tensor: a function over tensors of
/// tensor-level tile ops, compiled through tile-fuse + tile-tile with a
/// reference copy (tile-reference) checked against it. Tile: a host
/// function over memrefs holding tile.kernel ops (the form tile-tile
/// produces, or a kernel written by hand or by the Python kernel API),
/// lowered as it is: no tiling, no reference, a bundle of main launches and
/// no checks (tile-run reports it UNCHECKED).
enum class InputLevel { Tensor, Tile };

struct CompileOptions {
  /// Target GPU and PTX features, as nvvm-attach-target spells them.
  std::string chip = "sm_90a";
  std::string features = "+ptx80";
  /// CUDA toolkit for libdevice and ptxas. Empty: $CUDA_HOME, else
  /// /usr/local/cuda where it exists (see toolkitPath()).
  std::string cudaPath;
  /// Options of tile-tile, as on tile-opt ("matmul-block=64,64,16").
  std::string tileOptions;
  /// More tile-to-nvvm options for the kernels (not the reference), as on
  /// tile-opt ("sms=114").
  std::string pipelineOptions;
  /// More options of the tensor-level tile-configure, as on tile-opt
  /// ("candidate=3", "tuning-db=tune.jsonl": docs/tuning.md).
  std::string configureOptions;
  /// Run tile-fuse before tile-tile.
  bool fuse = true;
  /// Hardware approximations for f32 tanh (tile-to-nvvm's fast-math).
  bool fastMath = false;
  CompileStage stopAfter = CompileStage::Bundle;
  InputLevel level = InputLevel::Tensor;
  /// tile-to-nvvm's matmul strategy: "auto" (tensor cores wherever the
  /// target and a kernel's dots allow: tile-configure decides, before
  /// tile-tile for tensor-level matmuls and at the tile level for every
  /// kernel) or "simt" (never).
  std::string mma = "auto";
  /// At the tile level: a tensor-level function of the same file that
  /// states what the host function computes (its arguments the host
  /// function's unwritten arguments, its results the written ones, in
  /// order). Its naive kernels (tile-reference) go in the bundle as the
  /// reference, and tile-run checks every written argument against them.
  std::string referenceFunction;
  /// At the tensor level: build the naive reference kernels and the checks
  /// (off: an unchecked bundle, for benchmarks whose reference would not
  /// fit in the GPU's memory or time; tile-run says UNCHECKED).
  bool withReference = true;
  /// A file for MLIR's reproducer of a failing (or crashing) pipeline: the
  /// IR the failing pipeline started from and its passes (`tile-opt
  /// --run-reproducer FILE` replays it); empty: none.
  std::string reproducer;
  /// Line tables in the kernels' PTX and cubin (tile-to-nvvm's line-info):
  /// the user's file and line in Nsight Compute's source view.
  bool lineInfo = false;
  /// Print every stage reached into CompileResult::stages. The tools that
  /// need one stage print it from there too; turning it off saves printing
  /// the NVVM module.
  bool keepStages = true;
};

struct CompileResult {
  /// The serialized bundle (empty unless stopAfter is Bundle).
  std::string bundle;
  /// The IR of each stage reached, by name: "tensor" (the function under
  /// test), "tile" (after tile-fuse + tile-tile), "reference" (after
  /// tile-reference), "nvvm" (both lowered to NVVM, targets attached), "ptx"
  /// (every module's PTX, each after a "// module NAME" line). At the tile
  /// level: "tile" (the input function), "nvvm" and "ptx".
  std::map<std::string, std::string> stages;
};

/// The CUDA toolkit: `cudaPath` when set, else $CUDA_HOME, else
/// /usr/local/cuda when it exists, else empty.
std::string toolkitPath(StringRef cudaPath);

/// Compiles `functionName` (empty: the only tensor-level function, or at
/// the tile level the only function holding tile.kernel ops) of the
/// module in `sourceMgr`'s main buffer, whose text is `sourceText` (hashed
/// into the bundle). `context` must have the tile dialects registered
/// (registerAllTileDialects) and the passes registered globally
/// (registerAllTilePasses). Diagnostics go to the context's handlers.
FailureOr<CompileResult> compileFunction(MLIRContext &context,
                                         llvm::SourceMgr &sourceMgr,
                                         StringRef sourceText,
                                         StringRef functionName,
                                         const CompileOptions &options);

} // namespace tile
} // namespace mlir

#endif // TILE_COMPILER_COMPILER_H
