//===- TileOverlap.cpp - A loop's last product under the next step ------===//
//
// tile-overlap: in a kernel whose config asks for it (`overlap`), a loop
// of two or more tile.wgmma (attention: S = Q K^T, the softmax, then
// O = alpha O + P V) is software-pipelined over two stages, FlashAttention
// 3's intra-warpgroup overlap:
//   stage 1: the last product with what only it needs: its B operand's
//            ring wait and view, its accumulator's ops (the rescaled O:
//            everything that reads a value the product carries around the
//            loop) and broadcasts used only there; and all ops after it;
//   stage 0: the rest (the first product, the softmax, P).
// Iteration j's stage 1 runs in the body of iteration j + 1:
//   stage 0 (0)
//   for j in 0 .. N - 2:
//     stage 0 (j + 1) up to its first product's issue
//     stage 1 (j) up to its product's issue       (P V of block j)
//     the rest of stage 0 (j + 1)                 (softmax of block j + 1)
//     the rest of stage 1 (j)                     (the wait for P V)
//   stage 1 (N - 1)
// so that the tensor cores compute P V of one block while the warpgroup
// computes the next block's softmax. The first product's wait in the loop
// leaves one group (P V) in flight. Values of stage 0 that stage 1 reads
// (P, the rescale factor) are carried to the next body; index arithmetic
// is computed again where it is needed. The loop must provably run at
// least once (stage 0 of iteration 0 runs unconditionally), stage 0 may
// not read what stage 1 carries, and each product needs its one wait;
// otherwise the loop stays as it is, with a remark. tile-pipeline's
// per-load barriers (config.overlap) let each ring slot go back after its
// own last product.
//
// A loop of one product started afresh each step (a block-scaled matmul's
// K loop: each 128-deep step's product is waited for, then added to the
// f32 sum times the step's scales) is unrolled by the pass's `steps`
// (default 4) instead: the first two products are issued, then each step
// is waited for with the next one in flight and promoted while that one
// runs, and the product two steps on is issued into the registers the
// promotion freed; the last step of the body is promoted with nothing in
// flight, so the tensor cores idle for one promotion in `steps`. Two
// products at a time beside the sum (192 accumulator registers a thread
// at 128 x 128); at 6 steps ptxas spills. Nothing is in flight across the
// back edge: with an in-flight accumulator carried by the loop ptxas
// serializes every wgmma (C7515 where the latch copies it, C7514 where
// the copy is coalesced away; session 46). The body's loads of global
// inputs (the scales) go first, and a tile.register_fence keeps each
// promotion before the next wait (tile-configure sets overlap on
// block-scaled matmuls: bench/RESULTS.md, sessions 26 and 46). The trip
// count is a constant or, in a stream-K kernel's loop of whole tiles and
// parts of stream_k_part steps, a select of two constants; then both must
// be whole bodies (no steps after the loop that only one of them has).
//
// Written here rather than with upstream's scf::pipelineForLoop: that
// needs a static trip count or predicated prologue ops (a causal attention
// loop's trip count is the program's), and orders each stage's ops as one
// block where this schedule interleaves them at the products.
//
//===----------------------------------------------------------------------===//

#include "RegisterPrefetch.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileLayouts.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

#include <functional>

#define DEBUG_TYPE "tile-overlap"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEOVERLAPPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether `value` (an index) is provably positive: a positive constant,
/// the unsigned minimum of two positive values, or a positive constant
/// added to a value (index arithmetic here does not wrap).
bool provablyPositive(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.isStrictlyPositive();
  if (auto min = value.getDefiningOp<arith::MinUIOp>())
    return provablyPositive(min.getLhs()) && provablyPositive(min.getRhs());
  if (auto add = value.getDefiningOp<arith::AddIOp>())
    return provablyPositive(add.getLhs()) || provablyPositive(add.getRhs());
  return false;
}

/// Whether `op` (a load or a view) reads a memref in global memory into
/// registers (not a tile in shared memory): the kernel's inputs, which a
/// K loop without global writes leaves as they are.
bool readsGlobalMemory(Operation &op) {
  return isGlobalMemRef(op.getOperand(0).getType()) &&
         llvm::none_of(op.getResultTypes(),
                       [](Type type) { return isSharedTile(type); });
}

/// Pure, region-free, scalar: recomputed in each stage that needs it.
bool isIndexArithmetic(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         llvm::all_of(op->getResultTypes(),
                      [](Type type) { return type.isIntOrIndexOrFloat(); });
}

/// Each of `values` that a register fence takes, through one: a promotion
/// computed before a wgmma wait stays before it (LLVM would otherwise sink
/// it past the wait).
void fenceAll(OpBuilder &b, Location loc, SmallVector<Value> &values) {
  for (Value &value : values)
    if (RegisterFenceOp::fences(value.getType()))
      value = RegisterFenceOp::create(b, loc, value.getType(), value);
}

class LoopRotator {
public:
  LoopRotator(scf::ForOp loop, int64_t unroll)
      : loop(loop), body(loop.getBody()), unroll(unroll) {}

  /// Pipelines the loop, or leaves it (with a remark) where it cannot.
  void run();

private:
  /// A loop of one product started from a fresh accumulator (a
  /// block-scaled matmul's step): see the file comment.
  void runOneProduct(WgmmaOp product);
  /// Clones `ops` (body ops, in body order) at `b` with the induction
  /// variable as `iv`; operands from the body outside `ops` are index
  /// arithmetic (cloned again) or already in `mapping`.
  void cloneOps(OpBuilder &b, ArrayRef<Operation *> ops, Value iv,
                IRMapping &mapping);
  /// The values of body ops outside `ops` that `ops` read, but index
  /// arithmetic.
  llvm::SetVector<Value> readsFrom(ArrayRef<Operation *> ops);

  scf::ForOp loop;
  Block *body;
  /// Steps of a one-product loop in one body (the pass's steps).
  int64_t unroll;
};

llvm::SetVector<Value> LoopRotator::readsFrom(ArrayRef<Operation *> ops) {
  llvm::DenseSet<Operation *> inside(ops.begin(), ops.end());
  llvm::SetVector<Value> outside;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (def && def->getBlock() == body && !inside.contains(def) &&
            !isIndexArithmetic(def))
          outside.insert(operand);
      }
    });
  return outside;
}

void LoopRotator::cloneOps(OpBuilder &b, ArrayRef<Operation *> ops, Value iv,
                           IRMapping &mapping) {
  mapping.map(loop.getInductionVar(), iv);
  llvm::SetVector<Operation *> stage(ops.begin(), ops.end());
  llvm::SetVector<Operation *> extra;
  SmallVector<Operation *> worklist(ops.begin(), ops.end());
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != body || stage.contains(def) ||
            mapping.contains(operand) || !isIndexArithmetic(def) ||
            !extra.insert(def))
          continue;
        worklist.push_back(def);
      }
    });
  }
  SmallVector<Operation *> ordered(extra.begin(), extra.end());
  llvm::append_range(ordered, ops);
  llvm::sort(ordered,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  for (Operation *op : ordered)
    b.clone(*op, mapping);
}

void LoopRotator::run() {
  // A loop around another (a persistent kernel's tile loop): the inner K
  // loop is the one to overlap, and the products in this body are its
  // prologue and epilogue, which run once per tile.
  if (body->walk([](scf::ForOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return;
  SmallVector<WgmmaOp> products;
  for (Operation &op : body->without_terminator())
    if (auto wgmma = dyn_cast<WgmmaOp>(op))
      products.push_back(wgmma);
  if (products.size() == 1)
    return runOneProduct(products.front());
  if (products.size() < 2)
    return; // nothing to overlap
  Location loc = loop.getLoc();
  auto remark = [&](const Twine &why) {
    emitRemark(loc) << "not overlapped: " << why;
  };
  auto waitOf = [&](WgmmaOp wgmma) -> WgmmaWaitOp {
    if (!wgmma->hasOneUse())
      return {};
    auto wait = dyn_cast<WgmmaWaitOp>(*wgmma->getUsers().begin());
    return wait && wait->getBlock() == body ? wait : WgmmaWaitOp();
  };
  WgmmaOp first = products.front(), last = products.back();
  WgmmaWaitOp firstWait = waitOf(first), lastWait = waitOf(last);
  if (!firstWait || !lastWait || !firstWait->isBeforeInBlock(last))
    return remark("a product has another use than its one wait, or the "
                  "first is not waited for before the last is issued");
  if (!matchPattern(loop.getLowerBound(), m_Zero()) ||
      !provablyPositive(loop.getUpperBound()))
    return remark("the loop is not known to run at least once");

  // Stage 1: the last product, all after it, and before it what reads a
  // value it carries (the accumulator), its B operand's wait and view, and
  // broadcasts only they use.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  llvm::DenseSet<Operation *> stage1;
  for (Operation *op = last; op != yield; op = op->getNextNode())
    stage1.insert(op);
  llvm::DenseSet<Value> carriedBy1;
  for (auto [arg, yielded] :
       llvm::zip(loop.getRegionIterArgs(), yield.getOperands())) {
    Operation *def = yielded.getDefiningOp();
    if (def && stage1.contains(def))
      carriedBy1.insert(arg);
  }
  auto readsCarried1 = [&](Operation *op) {
    bool reads = false;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        reads |= carriedBy1.contains(operand) ||
                 (operand.getDefiningOp() &&
                  operand.getDefiningOp()->getBlock() == body &&
                  stage1.contains(operand.getDefiningOp()));
    });
    return reads;
  };
  SmallVector<Operation *> before;
  for (Operation *op = &body->front(); op != last.getOperation();
       op = op->getNextNode())
    before.push_back(op);
  for (Operation *op : before)
    if (!isIndexArithmetic(op) && readsCarried1(op))
      stage1.insert(op);
  // The B operand's view (through transposes) and the ring wait before it.
  for (Value b = last.getRhs(); Operation *def = b.getDefiningOp();) {
    if (def->getBlock() != body || !def->hasOneUse())
      break;
    stage1.insert(def);
    if (auto view = dyn_cast<ViewOp>(def)) {
      if (Operation *prev = def->getPrevNode();
          prev && isa<nvgpu::MBarrierTryWaitParityOp>(prev))
        stage1.insert(prev);
      break;
    }
    if (auto transpose = dyn_cast<TransposeOp>(def)) {
      b = transpose.getInput();
      continue;
    }
    break;
  }
  // Broadcasts whose users are all in stage 1 (a rescale factor spread
  // over a tile is many registers; the row vector is few).
  for (Operation *op : llvm::reverse(before))
    if (isa<BroadcastOp>(op) && !stage1.contains(op) &&
        llvm::all_of(op->getUsers(), [&](Operation *user) {
          return stage1.contains(user);
        }))
      stage1.insert(op);

  if (stage1.contains(first) || stage1.contains(firstWait))
    return remark("the first stage reads what the second carries");

  SmallVector<Operation *> prefix0, rest0, head1, tail1;
  bool afterFirst = false, afterLast = false;
  for (Operation &op : body->without_terminator()) {
    if (&op == last.getOperation())
      afterLast = true;
    // head1 ends with the last product's issue; tail1 starts at its wait.
    if (stage1.contains(&op))
      (afterLast && &op != last.getOperation() ? tail1 : head1)
          .push_back(&op);
    else
      (afterFirst ? rest0 : prefix0).push_back(&op);
    if (&op == first.getOperation())
      afterFirst = true;
  }
  SmallVector<Operation *> stage0 = prefix0;
  llvm::append_range(stage0, rest0);
  for (Operation *op : stage0)
    if (readsCarried1(op))
      return remark("the first stage reads what the second carries");
  SmallVector<Operation *> all1 = head1;
  llvm::append_range(all1, tail1);
  // Stage 1 of iteration j runs after stage 0 of j + 1 has carried on.
  for (Operation *op : all1) {
    bool early = false;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand))
          early |= arg.getOwner() == body && arg != loop.getInductionVar() &&
                   !carriedBy1.contains(arg);
    });
    if (early)
      return remark("the second stage reads what the first carries");
  }
  llvm::SetVector<Value> cross = readsFrom(all1);
  for (Value value : readsFrom(stage0))
    if (!value.getDefiningOp() ||
        stage1.contains(value.getDefiningOp()))
      return remark("the first stage reads a value of the second");

  // N, and the pipelined loop's bound (N - 1 steps).
  OpBuilder b(loop);
  Value step = loop.getStep();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value rounded = arith::AddIOp::create(
      b, loc, loop.getUpperBound(), arith::SubIOp::create(b, loc, step, one));
  Value trips = arith::DivUIOp::create(b, loc, rounded, step);
  Value lastIv = arith::MulIOp::create(
      b, loc, arith::SubIOp::create(b, loc, trips, one), step);

  auto args = loop.getRegionIterArgs();
  auto yielded = yield.getOperands();
  // Stage 0 of iteration 0.
  IRMapping prologue;
  for (auto [arg, init] : llvm::zip(args, loop.getInitArgs()))
    prologue.map(arg, init);
  cloneOps(b, stage0, loop.getLowerBound(), prologue);
  SmallVector<Value> inits;
  for (auto [arg, init, out] : llvm::zip(args, loop.getInitArgs(), yielded))
    inits.push_back(carriedBy1.contains(arg) ? init
                                             : prologue.lookupOrDefault(out));
  for (Value value : cross)
    inits.push_back(prologue.lookup(value));

  auto pipelined =
      scf::ForOp::create(b, loc, loop.getLowerBound(), lastIv, step, inits);
  Block *newBody = pipelined.getBody();
  while (!newBody->empty()) // the builder's own terminator, if any
    newBody->back().erase();
  OpBuilder in = OpBuilder::atBlockBegin(newBody);
  Value iv = pipelined.getInductionVar();
  auto newArgs = pipelined.getRegionIterArgs();
  IRMapping next, now;
  for (auto [i, arg] : llvm::enumerate(args)) {
    next.map(arg, newArgs[i]); // stage 0 reads only what stage 0 carries
    now.map(arg, newArgs[i]);
  }
  for (auto [i, value] : llvm::enumerate(cross))
    now.map(value, newArgs[args.size() + i]);
  Value ivNext = arith::AddIOp::create(in, loc, iv, step);
  cloneOps(in, prefix0, ivNext, next);
  cloneOps(in, head1, iv, now);
  cloneOps(in, rest0, ivNext, next);
  cloneOps(in, tail1, iv, now);
  // The last product issued above stays in flight past the first's wait.
  cast<WgmmaWaitOp>(next.lookup(firstWait.getOperation())).setPending(1);
  SmallVector<Value> outs;
  for (auto [arg, out] : llvm::zip(args, yielded))
    outs.push_back(carriedBy1.contains(arg) ? now.lookupOrDefault(out)
                                            : next.lookupOrDefault(out));
  for (Value value : cross)
    outs.push_back(next.lookup(value));
  scf::YieldOp::create(in, loc, outs);

  // Stage 1 of iteration N - 1.
  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(pipelined);
  IRMapping epilogue;
  for (auto [i, arg] : llvm::enumerate(args))
    epilogue.map(arg, pipelined.getResult(i));
  for (auto [i, value] : llvm::enumerate(cross))
    epilogue.map(value, pipelined.getResult(args.size() + i));
  cloneOps(after, all1, lastIv, epilogue);
  for (auto [i, arg] : llvm::enumerate(args)) {
    Value result = carriedBy1.contains(arg)
                       ? epilogue.lookupOrDefault(yielded[i])
                       : pipelined.getResult(i);
    loop.getResult(i).replaceAllUsesWith(result);
  }
  loop.erase();
}

void LoopRotator::runOneProduct(WgmmaOp product) {
  Location loc = loop.getLoc();
  auto remark = [&](const Twine &why) {
    emitRemark(loc) << "not overlapped: " << why;
  };
  if (!product->hasOneUse())
    return remark("the product has another use than its one wait");
  auto wait = dyn_cast<WgmmaWaitOp>(*product->getUsers().begin());
  if (!wait || wait->getBlock() != body || wait.getPending() != 0)
    return remark("the product is not waited for in the loop's body");
  // Only a product started afresh each step: one that accumulates into
  // the carried sum is waited for before the next one anyway.
  Value acc = product.getAcc();
  if (loop->isAncestor(acc.getParentRegion()->getParentOp()))
    return remark("the product's accumulator is computed in the loop");
  // A constant trip count, or a choice of two (a stream-K kernel's whole
  // tiles and parts: stream_k_part).
  std::optional<TripCounts> counts = tile::tripCounts(loop);
  if (!counts)
    return remark("the loop's trip count is not a constant of at least 1, "
                  "or a choice of two");
  ArrayRef<int64_t> tripCounts = counts->counts;
  Value choice = counts->choice;
  int64_t trips = *llvm::min_element(tripCounts);
  int64_t group = std::min(unroll, std::max<int64_t>(trips, 2));
  // Of two trip counts, each a whole number of bodies (no rest after the
  // loop that only one of them has).
  if (choice && llvm::any_of(tripCounts,
                             [&](int64_t count) { return count % group != 0; }))
    return remark("the loop's trip counts " + Twine(tripCounts[0]) + " and " +
                  Twine(tripCounts[1]) + " are not both multiples of " +
                  Twine(group) + " steps a body");

  // Issue: the product, what it reads in the body (but index arithmetic,
  // recomputed where needed) and the ring waits before its views. Finish:
  // everything else (its wait, the slots' release, the promotion, the
  // producer's copies).
  llvm::DenseSet<Operation *> issueSet;
  SmallVector<Value> worklist(product->getOperands());
  issueSet.insert(product);
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || isIndexArithmetic(def) ||
        !issueSet.insert(def).second)
      continue;
    if (isa<ViewOp>(def))
      if (Operation *prev = def->getPrevNode();
          prev && isa<nvgpu::MBarrierTryWaitParityOp>(prev))
        issueSet.insert(prev);
    llvm::append_range(worklist, def->getOperands());
  }
  // Loads of inputs (the block scales) that read nothing the step
  // computes go before the body's products: ptxas places a promotion
  // where its loads have landed, and loads issued after the products
  // would put it past the next wait.
  llvm::DenseSet<Operation *> loadSet;
  // Operands computed from the induction variable, values from outside
  // the loop and the loads already taken, through index arithmetic.
  std::function<bool(Value)> fromIndices = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return value == loop.getInductionVar() ||
             value.getParentBlock() != body;
    if (def->getBlock() != body || loadSet.contains(def))
      return true;
    return isIndexArithmetic(def) &&
           llvm::all_of(def->getOperands(), fromIndices);
  };
  auto readsOnlyIndices = [&](Operation *op) {
    return llvm::all_of(op->getOperands(), fromIndices);
  };
  // A loop that writes global memory keeps its loads where they are.
  bool writesGlobal = false;
  body->walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return;
    SmallVector<MemoryEffects::EffectInstance> writes;
    effects.getEffects<MemoryEffects::Write>(writes);
    for (const MemoryEffects::EffectInstance &write : writes)
      writesGlobal |=
          write.getValue() && isGlobalMemRef(write.getValue().getType());
  });
  SmallVector<Operation *> issueOps, loadOps, finishOps;
  for (Operation &op : body->without_terminator()) {
    if (issueSet.contains(&op)) {
      issueOps.push_back(&op);
    } else if (!writesGlobal &&
               isa<LoadOp, memref::LoadOp, memref::SubViewOp>(op) &&
               readsGlobalMemory(op) && readsOnlyIndices(&op)) {
      loadSet.insert(&op);
      loadOps.push_back(&op);
    } else if (!isIndexArithmetic(&op)) {
      finishOps.push_back(&op);
    }
  }
  for (Operation *op : issueOps) {
    if (!isa<WgmmaOp, ViewOp, TransposeOp, nvgpu::MBarrierTryWaitParityOp>(
            op))
      return remark("the product's operands are more than ring views");
    for (Value operand : op->getOperands())
      if (auto arg = dyn_cast<BlockArgument>(operand);
          arg && arg.getOwner() == body && arg != loop.getInductionVar())
        return remark("the product reads what the loop carries");
  }
  for (Value value : readsFrom(finishOps))
    if (value != product.getResult() &&
        !(value.getDefiningOp() && loadSet.contains(value.getDefiningOp())))
      return remark("the finishing ops read more of the issue than the "
                    "product");

  OpBuilder b(loop);
  auto idx = [&](OpBuilder &at, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(at, loc, v);
  };
  // The induction variable of step `k` (k an index value).
  auto ivOf = [&](OpBuilder &at, Value k) -> Value {
    Value offset = arith::MulIOp::create(at, loc, k, loop.getStep());
    return arith::AddIOp::create(at, loc, loop.getLowerBound(), offset);
  };
  auto issue = [&](OpBuilder &at, Value k) -> Value {
    IRMapping mapping;
    cloneOps(at, issueOps, ivOf(at, k), mapping);
    return mapping.lookup(product.getResult());
  };
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  // Step k's input loads, into `mapping` (its finishing ops read them).
  auto load = [&](OpBuilder &at, Value k, IRMapping &mapping) {
    cloneOps(at, loadOps, ivOf(at, k), mapping);
  };
  // Step k's finishing ops on its product `inFlight` (and its loads in
  // `mapping`), updating the loop's carried values.
  auto finish = [&](OpBuilder &at, Value k, Value inFlight,
                    SmallVector<Value> &carried, int64_t pending,
                    IRMapping &mapping) {
    for (auto [arg, value] : llvm::zip(loop.getRegionIterArgs(), carried))
      mapping.map(arg, value);
    mapping.map(product.getResult(), inFlight);
    cloneOps(at, finishOps, ivOf(at, k), mapping);
    auto waited = cast<WgmmaWaitOp>(mapping.lookup(wait.getOperation()));
    waited.setPending(pending);
    // The promotion reads the product after its wait: LLVM sees the
    // accumulator defined by the wgmma, not by the wait.
    OpBuilder afterWait(waited);
    afterWait.setInsertionPointAfter(waited);
    auto fenced = RegisterFenceOp::create(afterWait, loc, waited.getType(),
                                          waited.getResult());
    waited.getResult().replaceAllUsesExcept(fenced, fenced);
    for (auto [i, out] : llvm::enumerate(yield.getOperands()))
      carried[i] = mapping.lookupOrDefault(out);
  };

  // `count` steps from step `first` (an index value) in a row: their
  // input loads, the first two products, then each step finished (its
  // wait leaving the next one in flight, its promotion overlapping that
  // product) before the product two steps on is issued into the
  // registers it frees. Two accumulators at a time beside the sum;
  // nothing is in flight across the back edge (a loop-carried in-flight
  // accumulator is copied at the latch, and ptxas then serializes every
  // wgmma: C7515).
  auto runSteps = [&](OpBuilder &at, Value first, int64_t count,
                      SmallVector<Value> &sums) {
    SmallVector<Value> ks{first};
    for (int64_t j = 1; j < count; ++j)
      ks.push_back(arith::AddIOp::create(at, loc, first, idx(at, j)));
    SmallVector<IRMapping> loads(count);
    for (int64_t j = 0; j < count; ++j)
      load(at, ks[j], loads[j]);
    SmallVector<Value> products;
    for (int64_t j = 0; j < std::min<int64_t>(count, 2); ++j)
      products.push_back(issue(at, ks[j]));
    for (int64_t j = 0; j < count; ++j) {
      bool last = j + 1 == count;
      finish(at, ks[j], products[j], sums, last ? 0 : 1, loads[j]);
      if (last)
        break;
      // The promotion stays before the next wait, where it overlaps the
      // next product.
      fenceAll(at, loc, sums);
      if (j + 2 < count)
        products.push_back(issue(at, ks[j + 2]));
    }
  };
  Value bodies = idx(b, trips / group);
  if (choice)
    bodies =
        arith::SelectOp::create(b, loc, choice, idx(b, tripCounts[0] / group),
                                idx(b, tripCounts[1] / group));
  auto rotated = scf::ForOp::create(b, loc, idx(b, 0), bodies, idx(b, 1),
                                    loop.getInitArgs());
  Block *newBody = rotated.getBody();
  while (!newBody->empty())
    newBody->back().erase();
  OpBuilder in = OpBuilder::atBlockBegin(newBody);
  SmallVector<Value> sums(rotated.getRegionIterArgs());
  Value first =
      arith::MulIOp::create(in, loc, rotated.getInductionVar(), idx(in, group));
  runSteps(in, first, group, sums);
  scf::YieldOp::create(in, loc, sums);

  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(rotated);
  SmallVector<Value> results(rotated.getResults());
  if (int64_t rest = choice ? 0 : trips % group)
    runSteps(after, idx(after, trips - rest), rest, results);
  for (auto [old, value] : llvm::zip(loop.getResults(), results))
    old.replaceAllUsesWith(value);
  loop.erase();
}

struct TileOverlapPass
    : public tile::impl::TileOverlapPassBase<TileOverlapPass> {
  using TileOverlapPassBase::TileOverlapPassBase;

  void runOnOperation() override {
    if (steps < 2) {
      mlir::emitError(getOperation().getLoc())
          << "tile-overlap: steps must be at least 2, not "
          << static_cast<int64_t>(steps);
      return signalPassFailure();
    }
    getOperation().walk([&](KernelOp kernel) {
      auto config =
          kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      if (!config || !config.getOverlap())
        return;
      SmallVector<scf::ForOp> loops;
      kernel.walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops)
        LoopRotator(loop, steps).run();
    });
  }
};

} // namespace
