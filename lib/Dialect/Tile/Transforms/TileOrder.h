//===- TileOrder.h - The grouped order of output tiles ----------*- C++ -*-===//
//
// Private to lib/Dialect/Tile/Transforms: the order in which persistent
// kernels walk their output tiles, shared by tile-persistent and tile-tile's
// stream-K kernel (StreamK.cpp), which builds its persistent loop itself.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_TILEORDER_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_TILEORDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir {
namespace tile {

/// The block-row and block-column of tile `tile` (row-major index over
/// numM x numN tiles) in groups of `groupRows` block-rows, column by column
/// inside a group, so that the tiles in flight together share B tiles in
/// L2 (measured on the H200, bench/RESULTS.md "tile order").
inline std::pair<Value, Value> groupedTileOrder(OpBuilder &b, Location loc,
                                                Value tile, int64_t numM,
                                                int64_t numN,
                                                int64_t groupRows) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // One op per statement: the order of a call's arguments is unspecified
  // in C++, and ops created inside them would come out in the host
  // compiler's order.
  Value perGroup = idx(groupRows * numN);
  Value rowsPerGroup = idx(groupRows);
  Value group = arith::DivUIOp::create(b, loc, tile, perGroup);
  Value firstRow = arith::MulIOp::create(b, loc, group, rowsPerGroup);
  Value rows = idx(numM);
  Value rowsLeft = arith::SubIOp::create(b, loc, rows, firstRow);
  Value rowsHere = arith::MinUIOp::create(b, loc, rowsLeft, rowsPerGroup);
  Value local = arith::RemUIOp::create(b, loc, tile, perGroup);
  Value rowInGroup = arith::RemUIOp::create(b, loc, local, rowsHere);
  Value blockRow = arith::AddIOp::create(b, loc, firstRow, rowInGroup);
  Value blockCol = arith::DivUIOp::create(b, loc, local, rowsHere);
  return {blockRow, blockCol};
}

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_TILEORDER_H
