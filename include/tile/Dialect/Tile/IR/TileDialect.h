//===- TileDialect.h - The tile dialect -------------------------*- C++ -*-===//
//
// Declares the tile dialect, its types, attributes and operations. Include
// this one header to use any of them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_H
#define TILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <algorithm>

#include "tile/Dialect/Tile/IR/TileOpsDialect.h.inc"

#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir {
namespace tile {

/// Converts `value` (a scalar or a vector of scalars) to `elementType` with
/// the semantics of tile.cast: float extend/round-to-nearest-even, signed
/// int <-> float (float to int rounds toward zero), int sign-extend/truncate.
/// Returns `value` itself when the element type already matches.
Value buildElementCast(OpBuilder &builder, Location loc, Value value,
                       Type elementType);

/// Applies a scalar region (a map body or reduce combiner) to vectors of
/// `width` lanes: each elementwise op is recreated with vector types, and
/// scalars (constants, values captured from outside) are broadcast where a
/// vector is needed. Works for any op with the Elementwise trait, which is
/// what the map and reduce verifiers admit. Returns the yielded vector.
/// `captured`, when given, maps values captured from outside the region.
Value vectorizeScalarRegion(OpBuilder &builder, Region &region,
                            ValueRange args, int64_t width,
                            const IRMapping *captured = nullptr);

/// A's K index that B's row `p` (an index, or a vector of them) meets under
/// tile.matmul's / tile.dot's `k_runs = runs`: DotOp::kRunsColumn in index
/// arithmetic (shifts and masks: `runs` is a power of two).
Value buildKRunsColumn(OpBuilder &builder, Location loc, int64_t runs,
                       Value p);

/// Where value `column` (an index, or a vector of them) of the last
/// dimension of an interleaved tile.unpack's result is stored: {its byte's
/// index along the input's last dimension, its nibble (0: low, 1: high)}.
/// Value v = 2 q + r of word w is in byte 4 w + q / 2 + 2 r, nibble q % 2.
std::pair<Value, Value> buildInterleavedNibble(OpBuilder &builder,
                                               Location loc, Value column);

/// Whether index `value` is provably a multiple of `n`: constants, and
/// sums, differences, products, selects and minima/maxima of such, and
/// loop induction variables whose lower bound and step are.
bool isProvablyMultipleOf(Value value, int64_t n, int depth = 0);

/// Registers per thread a launch of `threads` threads (one program per SM)
/// starts with: the SM's 65536 shared out evenly, in the hardware's units of
/// 8, at most 256. A program's setmaxnreg moves registers between its
/// warpgroups within threads x this many; asking for more blocks forever.
inline int64_t launchRegistersPerThread(int64_t threads) {
  return std::min<int64_t>(256, 65536 / threads / 8 * 8);
}

/// The ops of a tensor-level function that compute on tensors (what a
/// tile.fused region holds, with scalar constants): matmul, map, reduce,
/// broadcast, cast, transpose, iota, repeat.
bool isTensorComputeOp(Operation *op);

/// On a math.exp: every Nth lane of its vector goes to the FMA pipe (a
/// polynomial) under fast math (#tile.config's fma_exp2; tile-tile puts it
/// on an attention kernel's score exponentials, tile-approximate-math reads
/// it).
inline constexpr llvm::StringLiteral kFmaExp2AttrName = "tile.fma_exp2";

/// On a host memref.alloc: the buffer must start as zeros and every launch
/// leaves it zero (tile.last_arrival's counters); the bundle's `zeroed` role.
inline constexpr llvm::StringLiteral kZeroedAttrName = "tile.zeroed";

/// On a gpu.launch_func: a programmatic dependent launch, which may start
/// while the launch before it finishes (tile-dependent-launches); the
/// bundle's `dependent`.
inline constexpr llvm::StringLiteral kDependentLaunchAttrName =
    "tile.dependent_launch";

/// Whether every reader of `tile` (in shared memory) is a tile.wgmma that
/// reads it K-major through its descriptors: transposed, as its B, or,
/// with `orA`, as it is, as its A.
bool readOnlyAsKMajorWgmmaOperand(Value tile, bool orA);

/// The fp8 element types tiles and tensors hold: f8E4M3FN and f8E5M2
/// (torch's float8_e4m3fn and float8_e5m2).
inline bool isFloat8(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
