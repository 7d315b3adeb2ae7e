//===- MatmulKernel.h - Shared parts of the tensor-core paths ---*- C++ -*-===//
//
// What the tensor-core conversions (convert-tile-matmul-to-wgmma on sm_90a,
// convert-tile-matmul-to-mma-sync on sm_80..sm_90) share: the matcher that
// recognizes the tile-level matmul kernel tile-tile emits (with the fused
// elementwise epilogue tile-fuse puts after its K loop), the check that
// operands have 16-byte-aligned rows, and the evaluation of the epilogue on
// a few consecutive accumulators of one row.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_MATMULKERNEL_H
#define TILE_CONVERSION_TILETONVGPU_MATMULKERNEL_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <optional>
#include <string>

namespace mlir {
namespace tile {

/// The pieces of a matmul kernel as tile-tile builds it.
struct MatmulKernel {
  KernelOp kernel;
  unsigned lhsArg, rhsArg, outArg; // body argument numbers
  Value m0, n0;                     // the tile's row and column offsets
  Value accumulator;                // the K loop's result
  /// What follows the K loop: loads of epilogue operands, broadcasts, maps,
  /// casts, constants, and the final store.
  SmallVector<Operation *> epilogue;
  /// The output's rows and columns: what the epilogue masks against. B
  /// may be wider (tile-tile pads B's rows to 16 bytes; an f32 output of
  /// N = 1020 already has them).
  int64_t outRows = 0, outCols = 0;
};

/// Recognizes `acc = for k { a = load A; b = load B; dot a, b, acc }` with
/// bf16 or f16 operands, followed by an elementwise epilogue (tile-fuse's
/// matmul groups) and one store at the tile's offsets, into a static 2-D
/// output. Epilogue operands must be static and cover the output (a row
/// vector at least its rows, a column vector or a 2-D operand at least its
/// columns, a 2-D operand's rows a multiple of 4 elements), since the
/// epilogue reads them vector-wide wherever the output is written.
std::optional<MatmulKernel> matchMatmulKernel(KernelOp kernel);

/// Why rows of `type` cannot be read or written 16 bytes at a time (it is
/// not a static row-major memref, or its rows are not a multiple of 16
/// bytes long), or "" when they can.
std::string rowAlignmentProblem(MemRefType type);

/// Every matmul kernel under `root`, matched.
SmallVector<MatmulKernel> findMatmulKernels(Operation *root);

/// True if A, B and the output of `match` have rows that 16-byte copies can
/// move; otherwise emits a remark at the kernel naming the operand and why
/// `mechanism` ("TMA", "16-byte cp.async") cannot use it, and returns false:
/// the kernel then stays on the SIMT path.
bool rowsAllowAsyncCopies(const MatmulKernel &match, StringRef mechanism);

/// The block-row and block-column of output tile `tile` (row-major index
/// over numM x numN block tiles) in the grouped order both tensor-core
/// paths use: groups of `groupRows` block-rows, column by column inside a
/// group, so that tiles in flight together share B tiles in L2.
std::pair<Value, Value> groupedTileOrder(OpBuilder &b, Location loc,
                                         Value tile, int64_t numM,
                                         int64_t numN, int64_t groupRows);

/// The kernel that replaces `match.kernel`, before the old one is erased:
/// its operands are A, B, the output, then `extra` (the Hopper path's TMA
/// descriptors), then every other buffer the epilogue reads (a bias, a
/// residual). Maps the old kernel's body arguments to the new kernel's in
/// `oldToNew`.
KernelOp createReplacementKernel(OpBuilder &host, const MatmulKernel &match,
                                 ValueRange extra, int64_t programs,
                                 int64_t threads, IRMapping &oldToNew);

/// Runs the matched kernel's epilogue (what followed the K loop) on
/// `accValues`, a vector<W x f32> of one thread's W consecutive accumulators
/// of row `globalRow` from column `globalCol`: operand tiles become W-wide
/// vector loads at the same place (a row vector's element becomes a
/// broadcast scalar), maps run on vectors, and the store becomes one W-wide
/// vector store, converted to the output's element type. `oldToNew` maps
/// the old kernel's body arguments to the new kernel's. Callers mask: the
/// W elements must lie inside the output, and `globalCol` must be a
/// multiple of W.
/// The results of epilogue loads a caller issued early (buildEpilogueLoad),
/// in `loaded`, are used instead of loading again.
void buildMatmulEpilogue(OpBuilder &b, Location loc, const MatmulKernel &match,
                         const IRMapping &oldToNew, Value accValues,
                         Value globalRow, Value globalCol,
                         const IRMapping *loaded = nullptr);

/// The load buildMatmulEpilogue makes for `load`, one of `match.epilogue`'s
/// operand loads, at the same place (W = `width` elements). With `clamp`,
/// the row moves to at most the output's last and the column to at most
/// its last W (inside the operand, which covers the output, and W-aligned),
/// so the load may be issued before, and outside, the caller's mask: its
/// value then matters only where the mask holds, and there the clamp
/// changes nothing.
Value buildEpilogueLoad(OpBuilder &b, Location loc, const MatmulKernel &match,
                        LoadOp load, const IRMapping &oldToNew, int64_t width,
                        Value globalRow, Value globalCol, bool clamp);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_MATMULKERNEL_H
