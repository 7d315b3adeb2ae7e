//===- TileLevel.h - Compiling tile-level input -----------------*- C++ -*-===//
//
// What compileFunction needs at InputLevel::Tile (Compiler.h): choosing and
// checking the host function, which arguments its kernels write, and which
// kernels must stay away from the tensor-core matmul rewrites.
//
// Those rewrites (convert-tile-matmul-to-wgmma, -mma-sync) recognize the
// kernel tile-tile builds for a matmul (a K loop of two loads and a
// tile.dot, an elementwise epilogue, one store) and replace it by a kernel
// of their own built from the operands' shapes alone: the grid, the loop
// bounds, the accumulator's initial value and the load offsets are not
// read. A kernel written by hand that has that shape but computes something
// else (a partial K range, a bias as the initial accumulator, swapped
// offsets) would be silently replaced by a full matmul. tensorCoreHazard
// says when that could happen, and the driver then lowers the function with
// mma=simt.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_COMPILER_TILELEVEL_H
#define TILE_LIB_COMPILER_TILELEVEL_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir {
namespace tile {

/// `functionName`, or the only function of `source` holding tile.kernel ops.
FailureOr<func::FuncOp> selectTileFunction(ModuleOp source,
                                           StringRef functionName,
                                           StringRef sourceName);

/// Checks that `func` is a host function the bundle can describe: no
/// results, static row-major memref arguments, and a body of tile.kernel,
/// memref.alloc / dealloc and constants only. Emits a located error.
LogicalResult verifyTileHostFunction(func::FuncOp func);

/// Per argument of `func`: whether some kernel stores into it.
SmallVector<bool> writtenArguments(func::FuncOp func);

/// Why the tensor-core rewrites must not see `kernel`, or "" when they may:
/// it has no single tile.dot (they skip it), or it is exactly the full
/// matmul they assume (see the file comment).
std::string tensorCoreHazard(KernelOp kernel);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_COMPILER_TILELEVEL_H
