//===- TilePingpong.cpp - Warpgroups take turns at the tensor cores -*- C++ -*-===//
//
// tile-pingpong: in a kernel whose config asks for it (`pingpong`), the
// consumer warpgroups take turns issuing their tensor-core work, as
// FlashAttention 3 schedules its two consumer warpgroups: each group of
// tile.wgmma issues (from a tile.wgmma to the last one before the next
// tile.wgmma_wait in the same block, with only register math, views and
// ring waits between them) is bracketed by tile.turn_begin and
// tile.turn_end, and tile.turn_start at the top of the body gives the
// first turn. A group ends before anything else: an op with regions of
// its own (its wgmma get their own turns, never a turn inside a turn) or
// one that may wait for the other warpgroups (a barrier, shared-memory
// exchanges, reductions across warps), which inside a turn would wait
// for a warpgroup that waits for the turn. While one warpgroup computes
// its softmax, the other's products then have the tensor cores, instead
// of both warpgroups reaching the same phase together. Every warpgroup runs the same ops
// (tile ops are collective over the program's threads), so each runs
// the same sequence of turns. Runs before tile-warp-specialize, which
// leaves the turn ops to the consumers.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "tile-pingpong"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPINGPONGPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether `op` may sit inside a turn between two tile.wgmma: it involves
/// no other warp (per-thread math on register tiles, shared views, a
/// thread's wait on a ring barrier).
bool fitsInTurn(Operation &op) {
  if (isa<MapOp, BroadcastOp, CastOp, SplatOp, ViewOp, TransposeOp,
          nvgpu::MBarrierTryWaitParityOp>(op))
    return true;
  return op.getNumRegions() == 0 && isPure(&op) &&
         op.getDialect() &&
         op.getDialect()->getNamespace() == arith::ArithDialect::
                                                getDialectNamespace();
}

/// Brackets each group of tile.wgmma issues in `block` with a turn.
/// Returns whether it found any.
bool bracketIssueGroups(Block &block) {
  bool found = false;
  Operation *first = nullptr, *last = nullptr;
  auto close = [&]() {
    if (!first)
      return;
    OpBuilder b(first);
    TurnBeginOp::create(b, first->getLoc());
    b.setInsertionPointAfter(last);
    TurnEndOp::create(b, last->getLoc());
    first = last = nullptr;
    found = true;
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isa<WgmmaOp>(op)) {
      if (!first)
        first = &op;
      last = &op;
      continue;
    }
    if (!fitsInTurn(op))
      close();
    for (Region &region : op.getRegions())
      for (Block &inner : region)
        found |= bracketIssueGroups(inner);
  }
  close();
  return found;
}

struct TilePingpongPass
    : public tile::impl::TilePingpongPassBase<TilePingpongPass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      if (!config || !config.getPingpong())
        return;
      Block &body = kernel.getBody().front();
      if (!bracketIssueGroups(body)) {
        kernel.emitRemark("pingpong: no tile.wgmma to take turns at");
        return;
      }
      // The first turn, where tile-warp-specialize gives the consumers
      // their part: after the shared buffers, barriers and constants.
      Operation *at = &body.front();
      while (isa<SharedOp, BarrierGroupOp, arith::ConstantOp>(at))
        at = at->getNextNode();
      OpBuilder b(at);
      TurnStartOp::create(b, kernel.getLoc());
    });
  }
};

} // namespace
