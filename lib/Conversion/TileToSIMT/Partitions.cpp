//===- Partitions.cpp - tile.warp_specialize to thread-id branches -*- C++ -*-===//
//
// A tile.warp_specialize runs partition i on the threads after those of
// partitions 0 .. i - 1. Before the conversion each partition gets its own
// thread scope (a thread id counted from its first thread, and a named
// barrier); the ops inside lower against it. After the conversion the op
// becomes one if/else per partition boundary on the launch's thread id,
// each branch starting with setmaxnreg: ptxas honours setmaxnreg only when
// each warpgroup's role is one branch of an if/else (HOPPER.md).
//
// A partition that holds no register tiles (a TMA producer: waits on the
// ring's barriers, address arithmetic, bulk copies) runs on its first
// thread alone, as CUTLASS's elected producer does; its other threads only
// give their registers back. With every thread waiting on the ring while
// one issued the copies, LLVM's tail duplication split warp 0 into the
// issuing lane and 31 lanes spinning on barriers that lane had yet to
// arm, and on the H200 a persistent matmul + bias + relu hung (it ran at
// -O0, which keeps the lanes together; bench/RESULTS.md, session 7).
//
//===----------------------------------------------------------------------===//

#include "SIMTLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::simt;

/// Whether `region` computes on no register tile: one thread can run it.
static bool isScalarOnly(Region &region) {
  auto inRegisters = [](Type type) {
    auto tile = dyn_cast<TileType>(type);
    return tile && !tile.getMemorySpace();
  };
  WalkResult walk = region.walk([&](Operation *op) {
    if (isa<BarrierOp, LastArrivalOp, TurnStartOp, TurnBeginOp, TurnEndOp>(
            op) ||
        llvm::any_of(op->getOperandTypes(), inRegisters) ||
        llvm::any_of(op->getResultTypes(), inRegisters))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

LogicalResult simt::preparePartitions(gpu::LaunchOp launch,
                                      SIMTLayout &layout) {
  WalkResult walk = launch.walk([&](WarpSpecializeOp op) {
    int64_t first = 0, barrierId = 1;
    for (auto [i, region] : llvm::enumerate(op.getPartitions())) {
      Location loc = op.getLoc();
      OpBuilder b = OpBuilder::atBlockBegin(&region.front());
      Value local = layout.launch.threadId;
      if (first != 0)
        local = arith::SubIOp::create(
            b, loc, local, arith::ConstantIndexOp::create(b, loc, first));
      int64_t threads = op.getThreads()[i];
      int64_t copies = op.getReplicaCount(i);
      bool singleThread = op.getNumRegions() > 1 && isScalarOnly(region);
      Value replica;
      if (copies > 1) {
        if (singleThread) {
          op.emitOpError() << "partition " << i
                           << " runs on one thread and cannot be replicated";
          return WalkResult::interrupt();
        }
        // Turn barriers are numbered by warpgroup in the scope: the copies
        // would share them.
        WalkResult turns = region.walk([](Operation *inner) {
          return isa<TurnStartOp, TurnBeginOp, TurnEndOp>(inner)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        });
        if (turns.wasInterrupted()) {
          op.emitOpError() << "partition " << i
                           << " takes warpgroup turns and cannot be replicated";
          return WalkResult::interrupt();
        }
        // What copy 0 alone runs: scf.if (tile.replica == 0)'s then-region.
        region.walk([&](scf::IfOp branch) {
          auto test = branch.getCondition().getDefiningOp<arith::CmpIOp>();
          if (!test || test.getPredicate() != arith::CmpIPredicate::eq)
            return;
          std::optional<int64_t> rhs = getConstantIntValue(test.getRhs());
          if (test.getLhs().getDefiningOp<ReplicaOp>() && rhs && *rhs == 0)
            layout.firstCopyRegions.insert(&branch.getThenRegion());
        });
        // Each copy counts its threads from 0; the copy is the warp's
        // (broadcast from lane 0: uniform to ptxas).
        Value size = arith::ConstantIndexOp::create(b, loc, threads);
        Value warp = broadcastWarpIndex(b, loc, local);
        Value warpsPerCopy =
            arith::ConstantIndexOp::create(b, loc, threads / 32);
        replica = arith::DivUIOp::create(b, loc, warp, warpsPerCopy);
        local = arith::RemUIOp::create(b, loc, local, size);
      }
      ThreadScope scope;
      scope.threadId = local;
      scope.threads = threads;
      scope.barrierId = barrierId;
      scope.replica = replica;
      scope.region = &region;
      scope.singleThread = singleThread;
      scope.warpId =
          singleThread ? Value() : uniformWarpIndex(b, loc, region, local);
      layout.partitions[&region] = scope;
      first += threads * copies;
      barrierId += copies;
    }
    if (first != layout.launch.threads) {
      op.emitOpError() << "partitions hold " << first
                       << " threads but the launch has "
                       << layout.launch.threads;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Moves `region`'s block before `at`, dropping the region's tile.return.
static void inlineBefore(Region &region, Operation *at) {
  Block &source = region.front();
  source.getTerminator()->erase();
  at->getBlock()->getOperations().splice(Block::iterator(at),
                                         source.getOperations());
}

LogicalResult simt::lowerPartitions(gpu::LaunchOp launch,
                                    SIMTLayout &layout) {
  SmallVector<WarpSpecializeOp> ops;
  launch.walk([&](WarpSpecializeOp op) { ops.push_back(op); });
  // The partitions below the launch's registers give registers back, the
  // others take them.
  int64_t average = launchRegistersPerThread(layout.launch.threads);
  for (WarpSpecializeOp op : ops) {
    Location loc = op.getLoc();
    OpBuilder b(op);
    Value tid = layout.launch.threadId;
    int64_t first = 0;
    unsigned count = op.getNumRegions();
    for (unsigned i = 0; i < count; ++i) {
      int64_t threads = op.getThreads()[i] * op.getReplicaCount(i);
      int64_t registers = op.getRegisters()[i];
      // Partition i's ops go before `at`: the end of an if's then-branch
      // (all but the last), the else-branch (the last), or the op itself
      // (a single partition).
      Operation *at = op;
      if (i + 1 < count) {
        Value inside = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, tid,
            arith::ConstantIndexOp::create(b, loc, first + threads));
        auto branch = scf::IfOp::create(b, loc, inside, /*withElse=*/true);
        at = branch.thenBlock()->getTerminator();
        b.setInsertionPoint(branch.elseBlock()->getTerminator());
      } else if (count > 1) {
        at = b.getInsertionBlock()->getTerminator();
      }
      if (registers != 0) {
        OpBuilder head(at);
        NVVM::SetMaxRegisterOp::create(
            head, loc, registers,
            registers < average ? NVVM::SetMaxRegisterAction::decrease
                                : NVVM::SetMaxRegisterAction::increase);
      }
      // After setmaxnreg (every warp of the warpgroup runs it): both go
      // just before `at`, in this order.
      Region &partition = op.getPartitions()[i];
      if (layout.partitions.lookup(&partition).singleThread) {
        OpBuilder head(at);
        Value firstThread = arith::CmpIOp::create(
            head, loc, arith::CmpIPredicate::eq, tid,
            arith::ConstantIndexOp::create(head, loc, first));
        auto alone = scf::IfOp::create(head, loc, firstThread, false);
        at = alone.thenBlock()->getTerminator();
      }
      inlineBefore(partition, at);
      first += threads;
    }
    op.erase();
  }
  return success();
}
