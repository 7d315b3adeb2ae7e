//===- RegisterPrefetch.cpp - A K loop's register loads an iteration early -===//

#include "RegisterPrefetch.h"

#include "tile/Dialect/Tile/IR/TileLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tile;

Value tile::rootBuffer(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

bool tile::writesTo(Region &region, Value buffer) {
  WalkResult found = region.walk([&](MemoryEffectOpInterface op) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    op.getEffects(effects);
    for (MemoryEffects::EffectInstance &effect : effects)
      if (isa<MemoryEffects::Write>(effect.getEffect()) && effect.getValue() &&
          isa<BaseMemRefType>(effect.getValue().getType()) &&
          rootBuffer(effect.getValue()) == buffer)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

bool tile::clonableAtAnyIteration(scf::ForOp loop, ValueRange values) {
  SmallVector<Value> worklist(values);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (value == loop.getInductionVar())
      continue;
    if (!loop->isAncestor(value.getParentRegion()->getParentOp()))
      continue; // defined outside the loop
    Operation *def = value.getDefiningOp();
    if (!def || def->getNumRegions() != 0 || !isMemoryEffectFree(def) ||
        def->getParentOp() != loop)
      return false;
    llvm::append_range(worklist, def->getOperands());
  }
  return true;
}

SmallVector<Operation *> tile::sliceInBody(scf::ForOp loop, ValueRange values,
                                           Operation *after) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist(values);
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getParentOp() != loop || slice.contains(def) ||
        (after && def->isBeforeInBlock(after)))
      continue;
    slice.insert(def);
    llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return ordered;
}

void tile::cloneSliceAt(scf::ForOp loop, OpBuilder &b, ValueRange values,
                        Value iv, IRMapping &mapping) {
  mapping.map(loop.getInductionVar(), iv);
  for (Operation *op : sliceInBody(loop, values))
    b.clone(*op, mapping);
}

Value tile::loadAt(scf::ForOp loop, OpBuilder &b, LoadOp load, Value iv) {
  IRMapping mapping;
  cloneSliceAt(loop, b, load->getOperands(), iv, mapping);
  return b.clone(*load, mapping)->getResult(0);
}

std::optional<ConstantBounds> tile::constantBounds(scf::ForOp loop) {
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> upper = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lower || !upper || !step || *step <= 0 || *upper <= *lower)
    return std::nullopt;
  return ConstantBounds{*lower, *step, (*upper - *lower + *step - 1) / *step};
}

std::optional<TripCounts> tile::tripCounts(scf::ForOp loop) {
  if (std::optional<ConstantBounds> bounds = constantBounds(loop))
    return TripCounts{{bounds->trips}, Value()};
  std::optional<int64_t> lower = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  auto select = loop.getUpperBound().getDefiningOp<arith::SelectOp>();
  if (!lower || !step || *step <= 0 || !select)
    return std::nullopt;
  TripCounts trips;
  for (Value upper : {select.getTrueValue(), select.getFalseValue()}) {
    std::optional<int64_t> bound = getConstantIntValue(upper);
    if (!bound || *bound <= *lower)
      return std::nullopt;
    trips.counts.push_back((*bound - *lower + *step - 1) / *step);
  }
  trips.choice = select.getCondition();
  return trips;
}

void tile::setL2Fetch(LoadOp load, int64_t bytes) {
  if (bytes)
    load.setL2FetchAttr(
        IntegerAttr::get(IntegerType::get(load.getContext(), 64), bytes));
}

scf::ForOp tile::prefetchRegisterLoads(scf::ForOp loop, int64_t l2Fetch) {
  std::optional<ConstantBounds> bounds = constantBounds(loop);
  if (!bounds)
    return loop;
  return prefetchRegisterLoads(loop, bounds->last(), l2Fetch);
}

scf::ForOp tile::prefetchRegisterLoads(scf::ForOp loop, int64_t last,
                                       int64_t l2Fetch) {
  SmallVector<LoadOp> prefetched;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto load = dyn_cast<LoadOp>(op);
        load && !isSharedTile(load.getType()) &&
        isGlobalMemRef(load.getSource().getType()) &&
        clonableAtAnyIteration(loop, load->getOperands()) &&
        !writesTo(loop.getRegion(), rootBuffer(load.getSource())))
      prefetched.push_back(load);
  if (prefetched.empty())
    return loop;
  // (Set before the clones are made: each carries it.)
  for (LoadOp load : prefetched)
    setL2Fetch(load, l2Fetch);
  Location loc = loop.getLoc();
  OpBuilder before(loop);
  Value start = loop.getLowerBound();
  if (!getConstantIntValue(start))
    start = arith::MinUIOp::create(
        before, loc, start, arith::ConstantIndexOp::create(before, loc, last));
  SmallVector<Value> first;
  for (LoadOp load : prefetched)
    first.push_back(loadAt(loop, before, load, start));
  IRRewriter rewriter(loop->getContext());
  auto widened = loop.replaceWithAdditionalYields(
      rewriter, first, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument> carried) {
        SmallVector<Value> next;
        for (auto [load, current] : llvm::zip(prefetched, carried)) {
          OpBuilder at(load);
          Value iv = loop.getInductionVar();
          Value ahead = arith::MinUIOp::create(
              at, loc, arith::AddIOp::create(at, loc, iv, loop.getStep()),
              arith::ConstantIndexOp::create(at, loc, last));
          next.push_back(loadAt(loop, at, load, ahead));
          load.replaceAllUsesWith(current);
        }
        return next;
      });
  // scf.for always takes more iter_args.
  loop = cast<scf::ForOp>(widened->getOperation());
  for (LoadOp load : prefetched)
    load.erase();
  return loop;
}
