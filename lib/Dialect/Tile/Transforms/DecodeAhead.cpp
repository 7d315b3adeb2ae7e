//===- DecodeAhead.cpp - A K loop's register operand a step early ---------===//

#include "DecodeAhead.h"
#include "RegisterPrefetch.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The one tile.wgmma_wait {pending = 0} of `product`, in its block.
WgmmaWaitOp waitOf(WgmmaOp product) {
  if (!product->hasOneUse())
    return {};
  auto wait = dyn_cast<WgmmaWaitOp>(*product->getUsers().begin());
  return wait && wait->getBlock() == product->getBlock() &&
                 wait.getPending() == 0
             ? wait
             : WgmmaWaitOp();
}

/// Whether `value` is available at a point of the loop's body that has
/// `mapping`: defined outside the body, or mapped already.
bool available(Block *body, Value value, const IRMapping &mapping) {
  return value.getParentBlock() != body || mapping.contains(value);
}

} // namespace

scf::ForOp tile::decodeOperandAhead(scf::ForOp loop) {
  std::optional<ConstantBounds> bounds = constantBounds(loop);
  if (!bounds || bounds->trips < 2)
    return loop;
  Block *body = loop.getBody();
  SmallVector<WgmmaOp> products;
  for (Operation &op : body->without_terminator()) {
    if (op.getNumRegions() && !isa<MapOp>(op))
      return loop; // control flow in the step: not this form
    if (auto product = dyn_cast<WgmmaOp>(op))
      products.push_back(product);
  }
  if (products.size() < 2)
    return loop;
  // A chain: each product waited for once (pending 0), the wait feeding
  // the next product's accumulator and nothing else.
  SmallVector<WgmmaWaitOp> waits;
  for (WgmmaOp product : products) {
    waits.push_back(waitOf(product));
    if (!waits.back())
      return loop;
  }
  for (size_t k = 0; k + 1 < products.size(); ++k)
    if (products[k + 1].getAcc() != waits[k].getResult() ||
        !waits[k].getResult().hasOneUse())
      return loop;
  WgmmaOp first = products.front();
  WgmmaWaitOp lastWait = waits.back();
  // Products are issued early and waited for later than they were: an op
  // before the last wait that writes memory or signals (a ring slot's
  // release) could then act while a product still reads shared memory.
  for (Operation &op : body->without_terminator()) {
    if (&op == lastWait.getOperation())
      break;
    if (isa<WgmmaOp, WgmmaWaitOp, nvgpu::MBarrierTryWaitParityOp>(op))
      continue;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (op.getNumRegions() == 0 && !effects)
      return loop; // unknown effects
    if (effects && effects.hasEffect<MemoryEffects::Write>())
      return loop;
  }
  auto acc = dyn_cast<BlockArgument>(first.getAcc());
  Value operand = first.getLhs();
  Operation *operandDef = operand.getDefiningOp();
  // The carried sum feeds the first product alone: it is in flight when
  // the step starts.
  if (!acc || acc.getOwner() != body || !acc.hasOneUse() || !operandDef ||
      operandDef->getBlock() != body || !operand.hasOneUse() ||
      isSharedTile(operand.getType()))
    return loop;

  // The operand's computation, and the ring wait before its one view of
  // shared memory: a step ahead it reads its slot only after that wait.
  // Any other read of shared memory (a second view, a load of a shared
  // memref) would have no wait of its own: the loop is left.
  SmallVector<Operation *> slice = sliceInBody(loop, operand);
  Operation *ringWait = nullptr;
  int64_t views = 0;
  for (Operation *op : slice) {
    if (isa<WgmmaOp, WgmmaWaitOp>(op))
      return loop;
    if (isa<ViewOp>(op)) {
      ringWait = op->getPrevNode();
      if (!isa_and_nonnull<nvgpu::MBarrierTryWaitParityOp>(ringWait) ||
          ++views > 1)
        return loop;
      continue;
    }
    for (Value v : op->getOperands())
      if (isa<MemRefType>(v.getType()) && !isGlobalMemRef(v.getType()))
        return loop;
  }
  // Ops with regions (tile.map) are cloned whole: a value of the body
  // they read inside would not be remapped.
  for (Operation *op : slice) {
    bool captures = false;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (Operation *def = v.getDefiningOp();
            def && def->getBlock() == body && !llvm::is_contained(slice, def))
          captures = true;
        else if (auto arg = dyn_cast<BlockArgument>(v);
                 arg && arg.getOwner() == body && nested != op)
          captures = true;
    });
    if (captures)
      return loop;
  }
  // The ops only the operand needs leave the body.
  llvm::DenseSet<Operation *> only;
  for (Operation *op : llvm::reverse(slice))
    if (llvm::all_of(op->getUses(), [&](OpOperand &use) {
          return only.contains(use.getOwner()) ||
                 &use == &first.getLhsMutable();
        }))
      only.insert(op);
  // Step j + 1's operand is computed before the last product's wait,
  // from the values the loop carries into step j + 1: each must be there.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  auto args = loop.getRegionIterArgs();
  llvm::DenseSet<Value> readArgs;
  SmallVector<Operation *> cloned = slice;
  if (ringWait) {
    llvm::append_range(cloned, sliceInBody(loop, ringWait->getOperands()));
    cloned.push_back(ringWait);
  }
  for (Operation *op : cloned)
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (llvm::is_contained(args, v))
          readArgs.insert(v);
    });
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (!readArgs.contains(arg))
      continue;
    Operation *def = yield.getOperand(i).getDefiningOp();
    if (arg == acc ||
        (def && def->getBlock() == body &&
         (only.contains(def) || isa<WgmmaOp, WgmmaWaitOp>(def) ||
          !def->isBeforeInBlock(lastWait))))
      return loop;
  }

  // What follows the last wait (the ring slot's release) waits for the
  // step's last product, which now runs into the next step: it moves
  // there, after that product's wait, recomputed from the induction
  // variable (so it may read nothing else of the body), or after the loop
  // for the last step.
  SmallVector<Operation *> deferred;
  for (Operation *op = lastWait->getNextNode(); op != yield;
       op = op->getNextNode())
    deferred.push_back(op);
  for (Operation *op : deferred) {
    // A release, or something that writes nothing (a write would move
    // past the next step's reads).
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    bool writes = !effects || effects.hasEffect<MemoryEffects::Write>();
    if ((writes && !isa<ArriveOp>(op)) || op->getNumRegions() ||
        llvm::any_of(op->getResults(), [&](Value r) {
          return !r.use_empty();
        }))
      return loop;
    if (!clonableAtAnyIteration(loop, op->getOperands()))
      return loop;
  }
  // The loop's sum is the last wait's, and only the loop carries it.
  int64_t sumIndex = -1;
  for (auto [i, v] : llvm::enumerate(yield.getOperands()))
    if (v == lastWait.getResult())
      sumIndex = i;
  if (sumIndex < 0 || !lastWait.getResult().hasOneUse() ||
      args[sumIndex] != acc)
    return loop;

  Location loc = loop.getLoc();
  Value iv = loop.getInductionVar();
  // The operand at induction variable `at`, the loop's carried values
  // mapped in `mapping` to what they are at that step.
  auto operandAt = [&](OpBuilder &b, Value at, IRMapping &mapping) {
    if (ringWait) {
      cloneSliceAt(loop, b, ringWait->getOperands(), at, mapping);
      b.clone(*ringWait, mapping);
    }
    cloneSliceAt(loop, b, operand, at, mapping);
    return mapping.lookup(operand);
  };
  // The deferred ops of the step at induction variable `at`.
  auto finishAt = [&](OpBuilder &b, Value at) {
    IRMapping mapping;
    for (Operation *op : deferred) {
      cloneSliceAt(loop, b, op->getOperands(), at, mapping);
      b.clone(*op, mapping);
    }
  };
  // A step's ops (but the operand's own) at `b`, `mapping` holding the
  // carried values (the sum possibly still in flight: the last step's
  // last product) and the operand: each product as soon as its operands
  // are there, on the one before it in flight, that one then waited for
  // (pending 1: its operand's registers are free, and the product just
  // issued runs under the next operand's decode). After the first
  // product, the last step's deferred ops (`previous`: its induction
  // variable); after the last, (`ahead`) the next step's first operand.
  // Returns the yielded values (the sum in flight) and the next operand.
  auto emitStep = [&](OpBuilder &b, IRMapping &mapping, Value ivValue,
                      Value previous, bool ahead) {
    Value next;
    size_t issued = 0;
    auto issueReady = [&] {
      while (issued < products.size() &&
             llvm::all_of(products[issued]->getOperands(), [&](Value v) {
               return available(body, v, mapping);
             })) {
        Value carriedSum = mapping.lookupOrDefault(acc);
        b.clone(*products[issued], mapping);
        Value waitedFor = issued > 0
                              ? mapping.lookup(products[issued - 1].getResult())
                              : carriedSum;
        if (issued > 0 || previous)
          WgmmaWaitOp::create(b, loc, waitedFor.getType(), waitedFor,
                              /*pending=*/1);
        if (issued == 0 && previous)
          finishAt(b, previous);
        // The next product accumulates onto this one in flight.
        mapping.map(waits[issued].getResult(),
                    mapping.lookup(products[issued].getResult()));
        ++issued;
      }
    };
    issueReady();
    for (Operation &op : body->without_terminator()) {
      if (&op == lastWait.getOperation())
        break;
      if (only.contains(&op) || isa<WgmmaOp, WgmmaWaitOp>(op))
        continue;
      b.clone(op, mapping);
      issueReady();
    }
    if (ahead) {
      IRMapping carried;
      for (auto [i, arg] : llvm::enumerate(args))
        carried.map(arg, mapping.lookupOrDefault(yield.getOperand(i)));
      Value ivNext = arith::AddIOp::create(b, loc, ivValue, loop.getStep());
      next = operandAt(b, ivNext, carried);
    }
    SmallVector<Value> outs;
    for (Value v : yield.getOperands())
      outs.push_back(mapping.lookupOrDefault(v));
    return std::make_pair(outs, next);
  };

  // Step 0's operand, then step 0 itself (nothing in flight before it).
  OpBuilder b(loop);
  IRMapping prologue;
  for (auto [arg, init] : llvm::zip(args, loop.getInitArgs()))
    prologue.map(arg, init);
  prologue.map(iv, loop.getLowerBound());
  Value operand0 = operandAt(b, loop.getLowerBound(), prologue);
  prologue.map(operand, operand0);
  auto [firstOuts, operand1] =
      emitStep(b, prologue, loop.getLowerBound(), Value(), true);
  // The loop starts from a finished sum: an accumulator in flight into the
  // loop's first iteration is copied into its carried registers, and
  // ptxas then serializes every wgmma (C7512). Step 0's slot goes back in
  // the loop's first step (or the last step's, if that is step 1).
  Value sum0 = firstOuts[sumIndex];
  firstOuts[sumIndex] =
      WgmmaWaitOp::create(b, loc, sum0.getType(), sum0, /*pending=*/0);
  // Steps 1 .. N - 2 in the loop, the sum carried in flight.
  Value start = b.createOrFold<arith::AddIOp>(loc, loop.getLowerBound(),
                                             loop.getStep());
  Value last = arith::ConstantIndexOp::create(b, loc, bounds->last());
  SmallVector<Value> inits(firstOuts);
  inits.push_back(operand1);
  auto ahead = scf::ForOp::create(b, loc, start, last, loop.getStep(), inits);
  Block *newBody = ahead.getBody();
  while (!newBody->empty()) // the builder's own terminator, if any
    newBody->back().erase();
  OpBuilder in = OpBuilder::atBlockBegin(newBody);
  IRMapping inLoop;
  Value newIv = ahead.getInductionVar();
  inLoop.map(iv, newIv);
  for (auto [arg, newArg] : llvm::zip(args, ahead.getRegionIterArgs()))
    inLoop.map(arg, newArg);
  inLoop.map(operand, ahead.getRegionIterArgs().back());
  Value previous = arith::SubIOp::create(in, loc, newIv, loop.getStep());
  auto [outs, next] = emitStep(in, inLoop, newIv, previous, true);
  outs.push_back(next);
  scf::YieldOp::create(in, loc, outs);

  // The last step, its operand from the loop; then its sum, waited for,
  // and its deferred ops.
  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(ahead);
  IRMapping epilogue;
  epilogue.map(iv, last);
  for (auto [i, arg] : llvm::enumerate(args))
    epilogue.map(arg, ahead.getResult(i));
  epilogue.map(operand, ahead.getResults().back());
  Value beforeLast = arith::SubIOp::create(after, loc, last, loop.getStep());
  auto [results, none] = emitStep(after, epilogue, last, beforeLast, false);
  (void)none;
  Value sum = results[sumIndex];
  results[sumIndex] = WgmmaWaitOp::create(after, loc, sum.getType(), sum,
                                          /*pending=*/0);
  finishAt(after, last);
  for (auto [old, result] : llvm::zip(loop.getResults(), results))
    old.replaceAllUsesWith(result);
  loop.erase();
  return ahead;
}
