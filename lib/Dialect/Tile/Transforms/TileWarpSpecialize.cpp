//===- TileWarpSpecialize.cpp - Producer and consumer warpgroups -*- C++ -*-===//
//
// tile-warp-specialize: a kernel whose config asks for it, and whose
// pipeline marked the ops that issue copies (`tile.producer`), becomes one
// tile.warp_specialize of two partitions over the same body:
// - the producer (one warpgroup, 40 registers a thread, 32 beside four
//   consumer warpgroups): the body with
//   everything but the marked ops, the loops around them and the index
//   arithmetic they need removed; a loop-carried value only consumers use
//   is dropped;
// - the consumers (the config's threads, the registers the producer gave
//   up): the body without the marked ops.
// The buffers and barriers tile-pipeline put at the top of the kernel stay
// in front of both, shared. The producer then runs ahead through the ring,
// across output tiles of a persistent loop, held back only by the empty
// barriers: the consumers' epilogue of one tile overlaps the next tile's
// copies (the structure of CUTLASS's warp-specialized Hopper GEMMs).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "tile-warp-specialize"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEWARPSPECIALIZEPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The producer's warpgroup and its registers: enough for loop counters
/// and addresses (CUTLASS gives its producers 40; FlashAttention-3 gives
/// 32 beside three consumer warpgroups).
constexpr int64_t kProducerThreads = 128;
constexpr int64_t kProducerRegisters = 40;
constexpr int64_t kMinProducerRegisters = 32;

bool isProducerOp(Operation *op) {
  for (Operation *at = op; at; at = at->getParentOp())
    if (at->hasAttr("tile.producer"))
      return true;
  return false;
}

/// Whether a copy is nested in `op`'s regions.
bool containsProducerOp(Operation *op) {
  return op
      ->walk([&](Operation *nested) {
        return nested != op && nested->hasAttr("tile.producer")
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

struct TileWarpSpecializePass
    : public tile::impl::TileWarpSpecializePassBase<TileWarpSpecializePass> {
  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](KernelOp kernel) {
      auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      if (!config || !config.getWarpSpecialize())
        return WalkResult::advance();
      bool marked = false;
      kernel.walk([&](Operation *op) { marked |= op->hasAttr("tile.producer"); });
      if (!marked)
        return WalkResult::advance();
      if (failed(specialize(kernel, config)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult specialize(KernelOp kernel, ConfigAttr config) {
    Block &body = kernel.getBody().front();
    Location loc = kernel.getLoc();
    // Shared buffers and barriers (and constants) stay in front.
    SmallVector<Operation *> rest;
    for (Operation &op : body.without_terminator())
      if (!isa<SharedOp, BarrierGroupOp, arith::ConstantOp>(op))
        rest.push_back(&op);
    int64_t consumers = config.getThreads();
    int64_t total = consumers + kProducerThreads;
    if (total > 1024)
      return kernel.emitError() << "warp specialization needs "
                                << kProducerThreads
                                << " threads more than the config's "
                                << consumers << ", over 1024";
    // What the producer gives up of the launch's registers goes to the
    // consumers. The producer keeps up to 40, down to 32 where that buys
    // the consumers more: four consumer warpgroups (640 threads start with
    // 96 registers) get 112 beside a producer of 32, 104 beside one of 40.
    // (At 24 ptxas spilled the attention producer's loop state.)
    int64_t pool = launchRegistersPerThread(total) * total;
    int64_t registers = std::min<int64_t>(
        256,
        (pool - kProducerThreads * kMinProducerRegisters) / consumers / 8 * 8);
    int64_t producerRegisters = std::min<int64_t>(
        kProducerRegisters,
        (pool - consumers * registers) / kProducerThreads / 8 * 8);
    OpBuilder b(body.getTerminator());
    auto op = WarpSpecializeOp::create(
        b, loc, b.getDenseI64ArrayAttr({kProducerThreads, consumers}),
        b.getDenseI64ArrayAttr({producerRegisters, registers}),
        /*numPartitions=*/2);
    for (Region &region : op.getPartitions()) {
      Block *block = new Block();
      region.push_back(block);
      OpBuilder end = OpBuilder::atBlockEnd(block);
      ReturnOp::create(end, loc);
    }
    Block *producer = &op.getPartitions()[0].front();
    Block *consumer = &op.getPartitions()[1].front();
    OpBuilder clone(producer->getTerminator());
    IRMapping mapping;
    for (Operation *inner : rest)
      clone.clone(*inner, mapping);
    for (Operation *inner : rest)
      inner->moveBefore(consumer->getTerminator());

    // The consumers: without the copies.
    SmallVector<Operation *> marked;
    consumer->walk([&](Operation *inner) {
      if (inner->hasAttr("tile.producer"))
        marked.push_back(inner);
    });
    for (Operation *inner : marked) {
      if (inner->getNumResults() != 0)
        return inner->emitOpError() << "a producer op with results cannot be "
                                       "taken from the consumers";
      inner->erase();
    }

    // The producer: the copies and what they need (the ops that compute
    // their operands, the loops and branches around them, a loop-carried
    // value's init and yield), nothing else. A loop-carried value only the
    // consumers need is carried unchanged, and dropped below.
    llvm::SmallPtrSet<Operation *, 32> needed;
    SmallVector<Operation *> worklist;
    producer->walk([&](Operation *inner) {
      if (isProducerOp(inner))
        worklist.push_back(inner);
    });
    auto need = [&](Operation *inner) {
      if (inner && producer->getParentOp()->isProperAncestor(inner) &&
          needed.insert(inner).second)
        worklist.push_back(inner);
    };
    auto needValue = [&](Value value) {
      if (Operation *def = value.getDefiningOp()) {
        need(def);
        return;
      }
      auto arg = cast<BlockArgument>(value);
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp())) {
        need(loop);
        if (arg != loop.getInductionVar()) {
          unsigned i = arg.getArgNumber() - 1;
          if (Operation *init = loop.getInitArgs()[i].getDefiningOp())
            need(init);
          if (Operation *yielded =
                  loop.getBody()->getTerminator()->getOperand(i).getDefiningOp())
            need(yielded);
        }
      }
    };
    while (!worklist.empty()) {
      Operation *inner = worklist.pop_back_val();
      needed.insert(inner);
      for (Value operand : inner->getOperands())
        needValue(operand);
      // A copy needs what its body uses; a loop or branch needed around a
      // copy only its own operands; one needed for its results (a value a
      // loop starts from) all of its body, until it is found unused below.
      if (inner->hasAttr("tile.producer") || !containsProducerOp(inner))
        inner->walk([&](Operation *nested) {
          needed.insert(nested);
          for (Value operand : nested->getOperands())
            needValue(operand);
        });
      need(inner->getParentOp());
    }
    SmallVector<Operation *> unneeded;
    for (Operation &inner : producer->without_terminator())
      inner.walk<WalkOrder::PreOrder>([&](Operation *nested) {
        if (needed.contains(nested) || isa<scf::YieldOp>(nested))
          return WalkResult::advance();
        unneeded.push_back(nested);
        return WalkResult::skip(); // goes with its parent
      });
    for (Operation *inner : unneeded)
      for (Value result : inner->getResults())
        for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
          auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
          auto loop = yield ? dyn_cast<scf::ForOp>(yield->getParentOp())
                            : scf::ForOp();
          if (loop)
            use.set(loop.getRegionIterArgs()[use.getOperandNumber()]);
        }
    for (Operation *inner : llvm::reverse(unneeded)) {
      inner->dropAllUses();
      inner->erase();
    }
    RewritePatternSet patterns(&getContext());
    scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
    scf::IfOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(op, std::move(patterns))))
      return kernel.emitError() << "could not simplify the partitions";
    // What fed only a dropped loop-carried value (attention's first key
    // block, computed before the loop) is unused now; ops with effects
    // (tile.wgmma and its wait, loads) are not erased by the driver. A loop
    // that holds copies stays, even where its results are unused (a tile
    // loop carrying its ring base).
    for (bool erased = true; erased;) {
      SmallVector<Operation *> unused; // post-order: nested ops first
      producer->walk([&](Operation *inner) {
        if (inner->getNumResults() != 0 && inner->use_empty() &&
            !isProducerOp(inner) && !containsProducerOp(inner))
          unused.push_back(inner);
      });
      for (Operation *inner : unused)
        inner->erase();
      erased = !unused.empty();
    }
    // An arrival counts programs once each: kept in both partitions, a
    // program would arrive twice and its tile's sum would start early.
    if (producer->walk([](LastArrivalOp) { return WalkResult::interrupt(); })
            .wasInterrupted())
      return kernel.emitError()
             << "the producer's copies need a tile.last_arrival, which the "
                "consumers run";
    kernel.setThreads(total);
    kernel.setMinProgramsPerSm(1);
    return success();
  }
};

} // namespace
