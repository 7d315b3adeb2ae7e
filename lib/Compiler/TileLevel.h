//===- TileLevel.h - Compiling tile-level input -----------------*- C++ -*-===//
//
// What compileFunction needs at InputLevel::Tile (Compiler.h): choosing and
// checking the host function, and which arguments its kernels write.
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

/// Checks that `reference`, a tensor-level function, computes what `func`
/// does: one argument per unwritten argument of `func` and one result per
/// written one, in order, of the same shapes and element types. Emits a
/// located error.
LogicalResult checkReferenceSignature(func::FuncOp func,
                                      ArrayRef<bool> written,
                                      func::FuncOp reference);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_COMPILER_TILELEVEL_H
