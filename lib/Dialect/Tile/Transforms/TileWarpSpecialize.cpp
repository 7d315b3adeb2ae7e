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
// With k_warpgroups = G > 1 the consumer partition runs as G copies of
// one code (tile.warp_specialize's replicas: a quarter of the hot code of
// G clones at G = 4, bench/RESULTS.md session 50), copy r running the K
// loop's steps r, r + G, ... (the loop's start, from tile.replica, and
// step changed; its ops still count the step by the original ones, so
// each waits on its own steps' slots) from a zero accumulator; after the
// loop copies 1 .. G - 1 store their sums in shared memory and arrive on
// an mbarrier, and copy 0 waits, adds them in order (and a start the
// accumulator had) and runs the epilogue alone. Where one warpgroup's
// products are too small to keep the tensor cores busy while it waits and
// dequantizes (a decode matmul's transposed product), the warpgroups'
// steps overlap.
//
//===----------------------------------------------------------------------===//

#include "RegisterPrefetch.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
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

/// The consumers' K loop: the one loop directly in `partition` whose body
/// waits on the ring; null where there is none, or waits elsewhere.
scf::ForOp ringLoop(Block *partition) {
  scf::ForOp found;
  WalkResult walk =
      partition->walk([&](nvgpu::MBarrierTryWaitParityOp wait) {
        auto loop = dyn_cast<scf::ForOp>(wait->getParentOp());
        if (!loop || loop->getBlock() != partition || (found && found != loop))
          return WalkResult::interrupt();
        found = loop;
        return WalkResult::advance();
      });
  return walk.wasInterrupted() ? scf::ForOp() : found;
}

/// Whether the loop's carried value `index` only accumulates products:
/// its yield reached from the iteration's value through tile.wgmma
/// accumulators and their waits alone, and the iteration's value read by
/// nothing else (a sum the warpgroups can split).
bool accumulatesProducts(scf::ForOp loop, unsigned index) {
  Value carried = loop.getRegionIterArgs()[index];
  Value at = loop.getBody()->getTerminator()->getOperand(index);
  while (at != carried) {
    if (auto wait = at.getDefiningOp<WgmmaWaitOp>())
      at = wait.getInput();
    else if (auto wgmma = at.getDefiningOp<WgmmaOp>())
      at = wgmma.getAcc();
    else
      return false;
    if (at == carried && !carried.hasOneUse())
      return false;
  }
  return true;
}

/// Whether `op` (or an op inside it) may write memory.
bool mayWrite(Operation *op) {
  WalkResult walk = op->walk([](Operation *inner) {
    if (isMemoryEffectFree(inner))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!effects) {
      if (inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance(); // its nested ops are walked
      return WalkResult::interrupt();
    }
    if (effects.hasEffect<MemoryEffects::Write>() ||
        effects.hasEffect<MemoryEffects::Allocate>() ||
        effects.hasEffect<MemoryEffects::Free>())
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// The warpgroups that take turns at the K loop of `kernel` (its config's
/// k_warpgroups), or 1 where its K loop (the loop directly in the kernel
/// that waits on the ring) has fewer than two steps: a loop of one step,
/// which the partitions' canonicalization inlines, has nothing to split.
int64_t turnTakers(KernelOp kernel, ConfigAttr config) {
  int64_t groups = config.getKWarpgroups();
  if (groups == 1)
    return 1;
  for (Operation &op : kernel.getBody().front()) {
    auto loop = dyn_cast<scf::ForOp>(op);
    if (!loop || llvm::none_of(loop.getBody()->getOperations(),
                               [](Operation &inner) {
                                 return isa<nvgpu::MBarrierTryWaitParityOp>(
                                     inner);
                               }))
      continue;
    std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
    std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep());
    if (lower && upper && step && *step > 0 &&
        llvm::divideCeil(std::max<int64_t>(*upper - *lower, 0), *step) < 2)
      return 1;
  }
  return groups;
}

/// `a + b`, elementwise, for two register tiles of one type.
Value addTiles(OpBuilder &b, Location loc, Value a, Value b2) {
  auto type = cast<TileType>(a.getType());
  auto map = MapOp::create(b, loc, type, ValueRange{a, b2});
  Type element = type.getElementType();
  OpBuilder::InsertionGuard guard(b);
  Block *block =
      b.createBlock(&map.getBody(), {}, {element, element}, {loc, loc});
  Value sum = arith::AddFOp::create(b, loc, block->getArgument(0),
                                    block->getArgument(1));
  YieldOp::create(b, loc, sum);
  return map.getResult();
}

/// Whether `value` is a splat of float zero (a K loop's fresh sum).
bool isZeroSplat(Value value) {
  auto splat = value.getDefiningOp<SplatOp>();
  return splat && matchPattern(splat.getValue(), m_PosZeroFloat());
}

/// k_warpgroups: the consumer partition, replicated G times
/// (tile.warp_specialize's replicas: one copy of the code for the G
/// warpgroups), runs the K loop's steps r, r + G, ... from its tile.replica
/// r; after the loop copy 0 waits for the others' sums, adds them in order
/// and runs the epilogue, copies 1 .. G - 1 store theirs in shared memory
/// and arrive (see the file comment).
LogicalResult takeTurnsAtK(KernelOp kernel, ConfigAttr config,
                           WarpSpecializeOp op, int64_t groups) {
  MLIRContext *ctx = kernel.getContext();
  Location loc = kernel.getLoc();
  Block *consumer = &op.getPartitions()[1].front();
  scf::ForOp loop = ringLoop(consumer);
  if (!loop)
    return kernel.emitError()
           << "k_warpgroups needs the consumers' K loop (the one loop that "
              "waits on the ring) directly in the kernel";
  // Every copy runs what comes before the loop: it must not write (a
  // store would be made G times, an arrival counted G times).
  for (Operation &op : *consumer) {
    if (&op == loop.getOperation())
      break;
    if (mayWrite(&op))
      return op.emitError() << "k_warpgroups: this op before the K loop "
                               "may write memory, and each consumer "
                               "warpgroup would run it";
  }
  // The sums handed over: the loop's results that the epilogue reads. A
  // carried value that is not such a sum would see only one warpgroup's
  // steps.
  SmallVector<unsigned> sums;
  for (OpResult result : loop->getResults()) {
    unsigned n = result.getResultNumber();
    if (result.use_empty() && loop.getRegionIterArgs()[n].use_empty())
      continue;
    auto type = dyn_cast<TileType>(result.getType());
    if (!type || type.getMemorySpace() || type.getRank() != 2 ||
        !isa<FloatType>(type.getElementType()) ||
        !accumulatesProducts(loop, n))
      return loop.emitError()
             << "k_warpgroups: the K loop's result #" << n
             << " is not a sum of tile.wgmma products that the warpgroups "
                "could add";
    sums.push_back(n);
  }
  // The hand-off: a shared buffer of G - 1 partial sums per result, and
  // an mbarrier every thread of copies 1 .. G - 1 arrives on once.
  Block &body = kernel.getBody().front();
  OpBuilder top = OpBuilder::atBlockBegin(&body);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  SmallVector<Value> buffers;
  for (unsigned n : sums) {
    auto type = cast<TileType>(loop.getResult(n).getType());
    buffers.push_back(SharedOp::create(
        top, loc,
        MemRefType::get({(groups - 1) * type.getDimSize(0),
                         type.getDimSize(1)},
                        type.getElementType(), MemRefLayoutAttrInterface(),
                        workgroup)));
  }
  // Every thread of copies 1 .. G - 1 arrives once, after its own
  // stores (a warp's lane 0 arriving for its lanes is as ordered, after
  // their __syncwarp, but compute-sanitizer's racecheck reports it).
  int64_t threads = op.getThreads()[1];
  Value handoff = BarrierGroupOp::create(
      top, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, 1),
      (groups - 1) * threads);
  OpBuilder b(loop);
  // Every copy sums from zero; a sum that starts elsewhere (an accumulate
  // into a loaded tile) gets its start added by copy 0 at the end.
  DenseMap<unsigned, Value> starts;
  for (unsigned n : sums) {
    Value init = loop.getInitArgs()[n];
    if (isZeroSplat(init))
      continue;
    auto type = cast<TileType>(init.getType());
    Value zero = arith::ConstantOp::create(
        b, loc, b.getFloatAttr(type.getElementType(), 0.0));
    loop.getInitArgsMutable()[n].assign(SplatOp::create(b, loc, type, zero));
    starts[n] = init;
  }
  auto idx = [&](OpBuilder &at, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(at, loc, value);
  };
  std::optional<ConstantBounds> whole = constantBounds(loop);
  Value replica = ReplicaOp::create(b, loc, b.getIndexType());
  Value step = loop.getStep();
  Value offset = arith::MulIOp::create(b, loc, step, replica);
  loop.setLowerBound(
      arith::AddIOp::create(b, loc, loop.getLowerBound(), offset));
  loop.setStep(b.createOrFold<arith::MulIOp>(loc, step, idx(b, groups)));

  // After the loop: copy 0 the epilogue, the others the hand-off. The
  // epilogue's reads of the sums (before the hand-off's ops exist).
  SmallVector<OpOperand *> uses;
  for (unsigned n : sums)
    for (OpOperand &use : loop.getResult(n).getUses())
      uses.push_back(&use);
  SmallVector<Operation *> epilogue;
  for (Operation *next = loop->getNextNode(); next != consumer->getTerminator();
       next = next->getNextNode())
    epilogue.push_back(next);
  OpBuilder after(kernel.getContext());
  after.setInsertionPointAfter(loop);
  Value isFirst = arith::CmpIOp::create(after, loc, arith::CmpIPredicate::eq,
                                        replica, idx(after, 0));
  auto choice = scf::IfOp::create(after, loc, isFirst, /*withElseRegion=*/true);
  for (Operation *inner : epilogue)
    inner->moveBefore(choice.thenBlock()->getTerminator());

  OpBuilder then = OpBuilder::atBlockBegin(choice.thenBlock());
  Value even = arith::ConstantIntOp::create(then, loc, then.getI1Type(), 0);
  Value ticks = idx(then, kWaitTicks);
  Value zero = idx(then, 0);
  nvgpu::MBarrierTryWaitParityOp::create(then, loc, handoff, even, ticks, zero);
  DenseMap<Value, Value> total;
  for (auto [n, buffer] : llvm::zip(sums, buffers)) {
    Value sum = loop.getResult(n);
    auto type = cast<TileType>(sum.getType());
    if (Value start = starts.lookup(n))
      sum = addTiles(then, loc, start, sum);
    for (int64_t other = 1; other < groups; ++other) {
      Value row = idx(then, (other - 1) * type.getDimSize(0));
      Value part =
          LoadOp::create(then, loc, type, buffer, ValueRange{row, zero},
                         TypedAttr(), /*in_bounds=*/true);
      sum = addTiles(then, loc, sum, part);
    }
    total[loop.getResult(n)] = sum;
  }
  for (OpOperand *use : uses)
    use->set(total.lookup(use->get()));

  OpBuilder other = OpBuilder::atBlockBegin(choice.elseBlock());
  Value column = idx(other, 0);
  Value slot = arith::SubIOp::create(other, loc, replica, idx(other, 1));
  for (auto [n, buffer] : llvm::zip(sums, buffers)) {
    auto type = cast<TileType>(loop.getResult(n).getType());
    Value row =
        arith::MulIOp::create(other, loc, slot, idx(other, type.getDimSize(0)));
    auto store = StoreOp::create(other, loc, loop.getResult(n), buffer,
                                 ValueRange{row, column});
    store.setInBounds(true);
  }
  auto arrive = ArriveOp::create(other, loc, handoff, column);
  arrive.setEveryThread(true);

  // What before the loop only the epilogue reads (a bias, a reduction, the
  // accumulator's start) goes with it: copy 0 alone computes and holds it
  // (and a reduction's scratch is then copy 0's alone, Partitions.cpp).
  // Nothing before the loop writes (checked above).
  Block *firstCopy = choice.thenBlock();
  SmallVector<Operation *> beforeLoop;
  for (Operation &inner : *consumer) {
    if (&inner == loop.getOperation())
      break;
    beforeLoop.push_back(&inner);
  }
  for (Operation *inner : llvm::reverse(beforeLoop))
    if (!inner->use_empty() &&
        llvm::all_of(inner->getUsers(), [&](Operation *user) {
          return firstCopy->findAncestorOpInBlock(*user) != nullptr;
        }))
      inner->moveBefore(&firstCopy->front());

  // The scales an iteration ahead, clamped to the whole loop's last step
  // (a copy's share may be empty).
  if (config.getPrefetch() && whole)
    (void)prefetchRegisterLoads(loop, whole->last(), config.getL2Fetch());
  return success();
}

struct TileWarpSpecializePass
    : public tile::impl::TileWarpSpecializePassBase<TileWarpSpecializePass> {
  using TileWarpSpecializePassBase::TileWarpSpecializePassBase;
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
    // Shared buffers and barriers (and constants) stay in front; cluster
    // barriers where they are, before or after the partitions (every
    // thread of the program runs them).
    SmallVector<Operation *> rest, after;
    for (Operation &op : body.without_terminator())
      if (!isa<SharedOp, BarrierGroupOp, ClusterBarrierOp, arith::ConstantOp>(
              op))
        rest.push_back(&op);
    for (Operation &op : body.without_terminator())
      if (isa<ClusterBarrierOp>(op) && !rest.empty() &&
          rest.back()->isBeforeInBlock(&op))
        after.push_back(&op);
    int64_t consumers = config.getThreads();
    int64_t groups = turnTakers(kernel, config);
    int64_t total = consumers * groups + kProducerThreads;
    if (total > 1024)
      return kernel.emitError() << "warp specialization needs "
                                << kProducerThreads
                                << " threads more than the config's "
                                << consumers * groups << ", over 1024";
    // What the producer gives up of the launch's registers goes to the
    // consumers. The producer keeps up to 40, down to 32 where that buys
    // the consumers more: four consumer warpgroups (640 threads start with
    // 96 registers) get 112 beside a producer of 32, 104 beside one of 40.
    // (At 24 ptxas spilled the attention producer's loop state.)
    int64_t pool = launchRegistersPerThread(total) * total;
    int64_t registers = std::min<int64_t>(
        256, (pool - kProducerThreads * kMinProducerRegisters) /
                 (consumers * groups) / 8 * 8);
    int64_t producerRegisters = std::min<int64_t>(
        kProducerRegisters,
        (pool - consumers * groups * registers) / kProducerThreads / 8 * 8);
    OpBuilder b(body.getTerminator());
    SmallVector<int64_t> threads = {kProducerThreads};
    SmallVector<int64_t> budgets = {producerRegisters};
    threads.push_back(consumers);
    budgets.push_back(registers);
    // k_warpgroups: the consumer partition's `groups` copies.
    auto op = WarpSpecializeOp::create(
        b, loc, b.getDenseI64ArrayAttr(threads),
        b.getDenseI64ArrayAttr(budgets),
        groups > 1 ? b.getDenseI64ArrayAttr({1, groups}) : DenseI64ArrayAttr(),
        /*numPartitions=*/2);
    for (Region &region : op.getPartitions()) {
      Block *block = new Block();
      region.push_back(block);
      OpBuilder end = OpBuilder::atBlockEnd(block);
      ReturnOp::create(end, loc);
    }
    for (Operation *barrier : after)
      barrier->moveBefore(body.getTerminator());
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
    if (groups > 1 &&
        failed(takeTurnsAtK(kernel, config, op, groups)))
      return failure();
    kernel.setThreads(total);
    kernel.setMinProgramsPerSm(1);
    return success();
  }
};

} // namespace
