//===- BundleWriter.h - From lowered IR to a kernel bundle -----*- C++ -*-===//
//
// Reads what the pipeline left in the module (host functions of buffers and
// gpu.launch_func, gpu.binary objects) into a tile::bundle::Bundle.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILER_BUNDLEWRITER_H
#define TILE_COMPILER_BUNDLEWRITER_H

#include "tile/Runtime/Bundle.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace tile {

/// Describes the function under test before lowering: what the runner
/// needs to know that the lowered IR no longer says.
struct SourceSummary {
  std::string name;
  unsigned numInputs = 0;
  unsigned numOutputs = 0;
  double flops = 0;
  double tolerance = 1e-5;
  // The matmul operand type (bf16, f16 or f8), for the compute class.
  std::string halfKind = "bf16";
};

/// Summarizes a tensor-level function (flop count, tolerance by dtype).
SourceSummary summarizeSource(func::FuncOp func);

/// Summarizes a tile-level host function (one of tile.kernel ops): its
/// name, the matmul operand type, and an estimate of the flops: per kernel,
/// the programs of its grid times, per tile.dot / map / reduce, the tile's
/// work times the trip counts of the loops around it (constant bounds;
/// padding of partial tiles included, so an upper estimate).
SourceSummary summarizeKernels(func::FuncOp func);

/// Fills `bundle` from `binModule` (gpu.binary in `format=bin`) and
/// `isaModule` (the same lowered module in `format=isa`), whose host
/// functions are `mainName` and `refName`. Emits an error and fails on IR it
/// cannot describe.
LogicalResult fillBundle(ModuleOp binModule, ModuleOp isaModule,
                         const SourceSummary &source, StringRef refName,
                         ::tile::bundle::Bundle &bundle);

/// Fills `bundle` for a tile-level function (`source.name` in `binModule`):
/// its arguments become buffers in order, `out<i>` where `written[arg]`
/// (a kernel stores into it) and `in<i>` elsewhere; its launches are the
/// main stage. With `refName` (the host function tile-reference made of a
/// tensor-level function of the same math), its launches are the reference
/// stage, writing `out<i>.ref`, and each output is checked against them
/// within `tolerance`; without, no reference and no checks.
LogicalResult fillKernelBundle(ModuleOp binModule, ModuleOp isaModule,
                               const SourceSummary &source,
                               ArrayRef<bool> written,
                               ::tile::bundle::Bundle &bundle,
                               StringRef refName = "", double tolerance = 0);

} // namespace tile
} // namespace mlir

#endif // TILE_COMPILER_BUNDLEWRITER_H
