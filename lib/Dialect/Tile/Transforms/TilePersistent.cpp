//===- TilePersistent.cpp - Programs to output tiles ------------*- C++ -*-===//
//
// tile-persistent: for a kernel over a 2-D grid of output tiles (or 3-D:
// split-K's K ranges, outermost) whose config asks for it, replaces the
// program ids by tile coordinates taken in a better order, over a 1-D
// grid:
// - `group_rows` = G > 1: tiles in groups of G block-rows, column by column
//   inside a group, so that the tiles in flight together share B tiles in
//   L2 (measured on the H200, bench/RESULTS.md "tile order");
// - `persistent`: min(tiles, SMs) programs (the target's SM count), each
//   looping over tiles p, p + P, ...: the prologue and epilogue of one tile
//   overlap the next tile's copies once the loop is pipelined and warp
//   specialized.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "tile-persistent"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPERSISTENTPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The block-row and block-column of tile `tile` (row-major index over
/// numM x numN tiles) in groups of `groupRows` block-rows.
std::pair<Value, Value> groupedTileOrder(OpBuilder &b, Location loc,
                                         Value tile, int64_t numM,
                                         int64_t numN, int64_t groupRows) {
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

struct TilePersistentPass
    : public tile::impl::TilePersistentPassBase<TilePersistentPass> {
  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](KernelOp kernel) {
      auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      size_t rank = kernel.getGrid().size();
      if (!config || rank < 2 || rank > 3 ||
          (!config.getPersistent() && config.getGroupRows() <= 1))
        return WalkResult::advance();
      if (failed(rewrite(kernel, config)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult rewrite(KernelOp kernel, ConfigAttr config) {
    int64_t numM = kernel.getGrid()[0], numN = kernel.getGrid()[1];
    int64_t numSplits = kernel.getGrid().size() == 3 ? kernel.getGrid()[2] : 1;
    int64_t tiles = numM * numN * numSplits;
    int64_t programs = tiles;
    // A 1-D grid of every tile must stay under CUDA's limit along x;
    // beyond it the grid keeps its dimensions (and its row-major order).
    if (!config.getPersistent() && tiles > 2147483647)
      return success();
    if (config.getPersistent()) {
      TargetAttr target = TargetAttr::lookup(kernel);
      int64_t sms = target ? target.getSmCount() : 0;
      if (sms <= 0)
        return kernel.emitError() << "a persistent kernel needs the target's "
                                     "SM count (tile.target with sms, or a "
                                     "chip in the table)";
      programs = std::min(tiles, sms);
    }
    Block &body = kernel.getBody().front();
    Location loc = kernel.getLoc();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), 0);
    Value tile = pid;
    Block *inner = &body;
    if (config.getPersistent()) {
      // for tile = pid; tile < tiles; tile += programs { old body }
      Value end = arith::ConstantIndexOp::create(b, loc, tiles);
      Value step = arith::ConstantIndexOp::create(b, loc, programs);
      auto loop = scf::ForOp::create(b, loc, pid, end, step);
      inner = loop.getBody();
      // Everything after the loop's ops moves into it, but the terminator.
      auto first = std::next(Block::iterator(loop));
      auto last = Block::iterator(body.getTerminator());
      inner->getOperations().splice(Block::iterator(inner->getTerminator()),
                                    body.getOperations(), first, last);
      tile = loop.getInductionVar();
      b.setInsertionPointToStart(inner);
    }
    // The K range outermost: the programs in flight together work on one
    // range of K for many output tiles.
    Value split = arith::ConstantIndexOp::create(b, loc, 0);
    if (numSplits > 1) {
      Value perSplit = arith::ConstantIndexOp::create(b, loc, numM * numN);
      split = arith::DivUIOp::create(b, loc, tile, perSplit);
      tile = arith::RemUIOp::create(b, loc, tile, perSplit);
    }
    auto [blockRow, blockCol] = groupedTileOrder(
        b, loc, tile, numM, numN, std::max<int64_t>(1, config.getGroupRows()));
    Value coordinate[3] = {blockRow, blockCol, split};
    SmallVector<ProgramIdOp> ids;
    kernel.walk([&](ProgramIdOp id) {
      if (id.getResult() != pid)
        ids.push_back(id);
    });
    for (ProgramIdOp id : ids) {
      id.replaceAllUsesWith(coordinate[id.getDim()]);
      id.erase();
    }
    kernel.setGridAttr(b.getDenseI64ArrayAttr({programs}));
    return success();
  }
};

} // namespace
