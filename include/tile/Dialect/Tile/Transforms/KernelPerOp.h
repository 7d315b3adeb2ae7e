//===- KernelPerOp.h - Tensor functions to one kernel per op ----*- C++ -*-===//
//
// The host-side half of tiling, shared by tile-tile and tile-reference: turn
// a function of tensor-level ops into a destination-passing function over
// memrefs and ask a callback for the kernel(s) of each op. The two passes
// differ only in the kernels they emit.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_KERNELPEROP_H
#define TILE_DIALECT_TILE_TRANSFORMS_KERNELPEROP_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace tile {

/// What the callback gets for one tensor-level op: the memref that holds
/// each tensor operand (null for scalar operands), the memref the result
/// goes to, and a unique kernel name.
struct OpBuffers {
  SmallVector<Value> operands;
  Value result;
  std::string kernelName;
};

using EmitKernelFn =
    function_ref<LogicalResult(OpBuilder &builder, Operation *op,
                               const OpBuffers &buffers)>;

/// True if `func` holds tensor-level tile ops (and so is for these passes).
bool isTensorLevelFunction(func::FuncOp func);

/// Rewrites `func` in place: tensor arguments become memrefs, results become
/// trailing memref arguments, intermediates become memref.alloc, and each
/// tensor-level op is replaced by what `emit` builds at the op's position.
/// Kernel names are `<func><suffix>_<index>`. Emits a located error and
/// fails on what it cannot handle (dynamic shapes, unsupported ops, a result
/// that is an argument).
LogicalResult convertToKernelPerOp(func::FuncOp func, StringRef suffix,
                                   EmitKernelFn emit);

/// Inside a kernel being built, stands for `outside` (a scalar defined by a
/// constant outside the kernel) by cloning its constant at the builder's
/// position; records the clone in `mapping`. Fails, with an error on `user`,
/// for a scalar that is not a constant.
FailureOr<Value> materializeScalar(OpBuilder &builder, Value outside,
                                   IRMapping &mapping, Operation *user);

/// Maps every value defined above `region` and used in it to a constant
/// cloned at the builder's position (for cloning the region into a kernel,
/// which is isolated from above).
LogicalResult materializeCapturedScalars(OpBuilder &builder, Region &region,
                                         IRMapping &mapping, Operation *user);

/// Clones the ops of a single-block scalar region (a map body or reduce
/// combiner) at the builder's position with its arguments bound to `args`,
/// and returns the value it yields.
Value cloneScalarRegion(OpBuilder &builder, Region &region, ValueRange args,
                        IRMapping &mapping);

/// `buffer`, a static memref of `shape` whose unit dimensions may be
/// dropped (block scales from the Python frontend), viewed with all of
/// `shape` (memref.expand_shape; `buffer` itself where it has it).
Value expandUnitDims(OpBuilder &builder, Location loc, Value buffer,
                     ArrayRef<int64_t> shape);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_KERNELPEROP_H
