//===- NarrowMinMax.cpp - Min/max accumulators in the inputs' narrow type -===//
//
// The tile-narrow-min-max pass (see Passes.td). A loop that takes the
// running maximum of bf16 (or f16) values widened to f32, as softmax's
// first pass does, spends per element a conversion (two instructions for
// the high half of a packed pair) and an f32 max. Widening is exact and
// monotonic, so max(ext(a), ext(b)) = ext(max(a, b)), NaN included, and
// the accumulator can stay narrow: one packed max.bf16x2 per two elements,
// one conversion after the loop.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "tile-narrow-min-max"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_NARROWMINMAXPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
bool isMinMax(Operation *op) {
  return isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp>(op);
}

/// The float constant (scalar or splat) `value` is, if it converts to
/// `narrow` without losing anything.
std::optional<APFloat> exactIn(Value value, FloatType narrow) {
  APFloat constant(0.0f);
  if (!matchPattern(value, m_ConstantFloat(&constant)) || constant.isNaN())
    return std::nullopt;
  bool losesInfo = false;
  APFloat::opStatus status = constant.convert(
      narrow.getFloatSemantics(), APFloat::rmNearestTiesToEven, &losesInfo);
  if (status != APFloat::opOK || losesInfo)
    return std::nullopt;
  return constant;
}

/// Whether `value` widens values of one narrow float type: an
/// `arith.extf`, or an `arith.select` of such values and constants (a
/// mask's filler) that the narrow type holds exactly. Sets `narrow` from the
/// first extf found; every other leaf must agree with it.
bool widensNarrow(Value value, FloatType &narrow) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>()) {
    // Types with packed min/max in PTX (sm_80): others would not lower, or
    // gain nothing.
    auto from = cast<FloatType>(getElementTypeOrSelf(ext.getIn().getType()));
    if (!(from.isBF16() || from.isF16()) || (narrow && narrow != from))
      return false;
    narrow = from;
    return true;
  }
  auto select = value.getDefiningOp<arith::SelectOp>();
  if (!select)
    return false;
  SmallVector<Value, 2> constants;
  for (Value leaf : {select.getTrueValue(), select.getFalseValue()}) {
    if (matchPattern(leaf, m_Constant()))
      constants.push_back(leaf);
    else if (!widensNarrow(leaf, narrow))
      return false;
  }
  // Constants are checked once a leaf has set the type.
  return narrow && llvm::all_of(constants, [&](Value constant) {
           return exactIn(constant, narrow).has_value();
         });
}

/// Rebuilds `value`, which widensNarrow accepted (or an exact constant), in
/// the narrow type, next to `value`'s definition.
Value narrowed(PatternRewriter &rewriter, Value value, FloatType narrow) {
  Location loc = value.getLoc();
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    return ext.getIn();
  OpBuilder::InsertionGuard guard(rewriter);
  if (Operation *def = value.getDefiningOp())
    rewriter.setInsertionPoint(def);
  if (auto select = value.getDefiningOp<arith::SelectOp>()) {
    // One at a time: the order of a call's arguments is unspecified.
    Value onTrue = narrowed(rewriter, select.getTrueValue(), narrow);
    Value onFalse = narrowed(rewriter, select.getFalseValue(), narrow);
    return arith::SelectOp::create(rewriter, loc, select.getCondition(),
                                   onTrue, onFalse);
  }
  auto attr = FloatAttr::get(narrow, *exactIn(value, narrow));
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    return arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(vector.clone(narrow), attr));
  return arith::ConstantOp::create(rewriter, loc, attr);
}

/// An scf.for whose loop-carried value is only ever min/max-ed with widened
/// narrow values (`acc = max(acc, ext(x))`, started from an exact
/// constant) carries the narrow value instead and widens it after the loop.
struct NarrowAccumulator : OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (unsigned index = 0, e = loop.getNumRegionIterArgs(); index < e; ++index) {
      BlockArgument acc = loop.getRegionIterArgs()[index];
      // Scalars and vectors (what convert-tile-to-simt makes), not tensors.
      Type accType = acc.getType();
      if (!(isa<FloatType>(accType) ||
            (isa<VectorType>(accType) &&
             isa<FloatType>(cast<VectorType>(accType).getElementType()))) ||
          !acc.hasOneUse())
        continue;
      Operation *update = yield.getOperand(index).getDefiningOp();
      if (!update || !isMinMax(update) || !update->hasOneUse() ||
          *acc.getUsers().begin() != update)
        continue;
      Value other = update->getOperand(0) == acc ? update->getOperand(1)
                                                 : update->getOperand(0);
      FloatType narrow;
      Value init = loop.getInitArgs()[index];
      if (!widensNarrow(other, narrow) || !exactIn(init, narrow))
        continue;

      Value narrowInit = narrowed(rewriter, init, narrow);
      Value narrowOther = narrowed(rewriter, other, narrow);
      // The accumulator's type changes: rebuild the loop, then narrow the
      // update in the new body.
      Type narrowType = narrowInit.getType();
      SmallVector<Value> inits(loop.getInitArgs());
      inits[index] = narrowInit;
      rewriter.setInsertionPoint(loop);
      auto newLoop = scf::ForOp::create(
          rewriter, loop.getLoc(), loop.getLowerBound(),
          loop.getUpperBound(), loop.getStep(), inits);
      newLoop->setAttrs(loop->getAttrs());
      Block *newBody = newLoop.getBody();
      rewriter.eraseBlock(newBody);
      rewriter.inlineRegionBefore(loop.getRegion(), newLoop.getRegion(),
                                  newLoop.getRegion().end());
      newBody = newLoop.getBody();
      rewriter.modifyOpInPlace(newLoop, [&] {
        newBody->getArgument(1 + index).setType(narrowType);
      });
      rewriter.setInsertionPoint(update);
      OperationState state(update->getLoc(), update->getName());
      state.addOperands({newBody->getArgument(1 + index), narrowOther});
      state.addTypes(narrowType);
      state.addAttributes(update->getAttrs());
      Operation *narrowUpdate = rewriter.create(state);
      rewriter.modifyOpInPlace(yield, [&] {
        yield->setOperand(index, narrowUpdate->getResult(0));
      });
      rewriter.eraseOp(update);

      rewriter.setInsertionPointAfter(newLoop);
      SmallVector<Value> results(newLoop.getResults());
      results[index] = arith::ExtFOp::create(
          rewriter, loop.getLoc(), loop.getResult(index).getType(),
          newLoop.getResult(index));
      rewriter.replaceOp(loop, results);
      return success();
    }
    return rewriter.notifyMatchFailure(loop, "no narrowable accumulator");
  }
};

struct NarrowMinMaxPass
    : public tile::impl::NarrowMinMaxPassBase<NarrowMinMaxPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<NarrowAccumulator>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
