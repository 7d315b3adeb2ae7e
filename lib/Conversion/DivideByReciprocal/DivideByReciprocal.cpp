//===- DivideByReciprocal.cpp - Exact division by a broadcast divisor ----===//
//
// The tile-divide-by-reciprocal pass (see Passes.td). Measured on the H200
// (bench/RESULTS.md): softmax 8192^2 spends 10% of its time in the IEEE
// division of every element by the row sum; one reciprocal per row and a
// multiply plus two FMAs per element run as fast as div.approx.
//
// Why the correction is exact: r = RN(1/s) is within half an ulp of 1/s
// and q0 = RN(x*r) within one ulp of x/s, so the residual x - s*q0 is a
// float that one fma computes exactly, and RN(q0 + e*r) is RN(x/s)
// (Markstein's theorem, see Muller et al., Handbook of Floating-Point
// Arithmetic, on division with FMA). Its hypotheses need every
// intermediate in the normal range; the bounds the sequence checks keep
// them there with margin, and a vector with any lane outside them divides
// with div.rn, unless all its lanes are zeros (exp(-inf) in a masked
// softmax): x * r is their exact quotient, and no slower than the
// correction. scripts/check-division.sh checks the sequence bit for bit
// against div.rn on a GPU (0 differences in 25.8e9 quotients, RESULTS).
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <limits>

#define DEBUG_TYPE "tile-divide-by-reciprocal"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_DIVIDEBYRECIPROCALPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
/// Marks the exact division of the fallback branch, which the pattern
/// must leave alone.
constexpr StringLiteral kFallback = "tile.divide_fallback";

struct DivideByBroadcast : OpRewritePattern<arith::DivFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::DivFOp op,
                                PatternRewriter &rewriter) const override {
    auto vectorType = dyn_cast<VectorType>(op.getType());
    if (!vectorType || vectorType.getRank() != 1 ||
        vectorType.isScalable() || !vectorType.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "only fixed 1-D f32 vectors");
    // One reciprocal pays for itself only over several lanes.
    if (vectorType.getNumElements() < 2)
      return rewriter.notifyMatchFailure(op, "a single lane");
    if (op.getFastmath() != arith::FastMathFlags::none)
      return rewriter.notifyMatchFailure(op, "fast-math flags: not exact");
    if (op->hasAttr(kFallback))
      return rewriter.notifyMatchFailure(op, "the exact fallback");
    auto broadcast = op.getRhs().getDefiningOp<vector::BroadcastOp>();
    if (!broadcast || isa<VectorType>(broadcast.getSourceType()))
      return rewriter.notifyMatchFailure(op, "divisor not one scalar");

    Location loc = op.getLoc();
    Value divisor = broadcast.getSource();
    auto constant = [&](float value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getF32FloatAttr(value));
    };
    auto splat = [&](Value scalar) -> Value {
      return vector::BroadcastOp::create(rewriter, loc, vectorType, scalar);
    };

    // Per divisor, next to the broadcast (CSE shares it between
    // divisions): the correctly rounded reciprocal, NaN for a divisor out
    // of range so that every lane falls back.
    Value reciprocal, negated;
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(broadcast);
      Value magnitude = math::AbsFOp::create(rewriter, loc, divisor);
      // One op per statement: C++ leaves the order of a call's arguments
      // unspecified, and the ops would come out in the host compiler's.
      Value smallest = constant(0x1p-125f);
      Value aboveSmallest = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OGE, magnitude, smallest);
      Value largest = constant(0x1p125f);
      Value belowLargest = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OLE, magnitude, largest);
      Value inRange =
          arith::AndIOp::create(rewriter, loc, aboveSmallest, belowLargest);
      Value one = constant(1.0f);
      Value exact = arith::DivFOp::create(rewriter, loc, one, divisor);
      Value nan = constant(std::numeric_limits<float>::quiet_NaN());
      reciprocal =
          arith::SelectOp::create(rewriter, loc, inRange, exact, nan);
      negated = arith::NegFOp::create(rewriter, loc, divisor);
    }

    // Whether any lane is outside the range where the correction is
    // exact, from x alone: rounding is monotonic, so the smallest and
    // largest |q0| are RN(min|x| * |r|) and RN(max|x| * |r|). NaN-
    // propagating min and max make NaN and infinity count as outside.
    // Deciding before q0 exists keeps x and q0 from being live together.
    Value x = op.getLhs();
    Value absX = math::AbsFOp::create(rewriter, loc, x);
    Value smallestX = vector::ReductionOp::create(
        rewriter, loc, vector::CombiningKind::MINIMUMF, absX);
    Value largestX = vector::ReductionOp::create(
        rewriter, loc, vector::CombiningKind::MAXIMUMF, absX);
    Value absReciprocal = math::AbsFOp::create(rewriter, loc, reciprocal);
    auto compare = [&](arith::CmpFPredicate predicate, Value lhs,
                       float bound) -> Value {
      return arith::CmpFOp::create(rewriter, loc, predicate, lhs,
                                   constant(bound));
    };
    auto times = [&](Value a, Value b) -> Value {
      return arith::MulFOp::create(rewriter, loc, a, b);
    };
    Value tinyX = compare(arith::CmpFPredicate::ULT, smallestX, 0x1p-100f);
    Value tinyQuotient = compare(arith::CmpFPredicate::ULT,
                                 times(smallestX, absReciprocal), 0x1p-125f);
    Value tiny = arith::OrIOp::create(rewriter, loc, tinyX, tinyQuotient);
    Value hugeQuotient = compare(arith::CmpFPredicate::UGT,
                                 times(largestX, absReciprocal), 0x1p125f);
    Value anyOutside = arith::OrIOp::create(rewriter, loc, tiny, hugeQuotient);
    // One branch per vector, taken (almost) never: the whole vector then
    // divides with div.rn. Except a vector of zeros (a masked softmax's
    // exp(-inf) lanes) by a divisor in range: x * r is then exactly the
    // quotient, sign included (the correction would turn -0 into +0).
    auto branch = scf::IfOp::create(
        rewriter, loc, anyOutside,
        [&](OpBuilder &b, Location loc) {
          Value zero = constant(0.0f);
          Value allZero = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::OEQ, largestX, zero);
          Value ordered = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::ORD, reciprocal, reciprocal);
          Value zeros = arith::AndIOp::create(b, loc, allZero, ordered);
          auto zerosOrNot = scf::IfOp::create(
              b, loc, zeros,
              [&](OpBuilder &b, Location loc) {
                scf::YieldOp::create(
                    b, loc,
                    arith::MulFOp::create(b, loc, x, splat(reciprocal))
                        .getResult());
              },
              [&](OpBuilder &b, Location loc) {
                auto exact = arith::DivFOp::create(b, loc, x, op.getRhs());
                exact->setAttr(kFallback, b.getUnitAttr());
                scf::YieldOp::create(b, loc, exact.getResult());
              });
          scf::YieldOp::create(b, loc, zerosOrNot.getResult(0));
        },
        [&](OpBuilder &b, Location loc) {
          Value r = splat(reciprocal), minusS = splat(negated);
          Value q0 = arith::MulFOp::create(b, loc, x, r);
          Value residual = math::FmaOp::create(b, loc, minusS, q0, x);
          scf::YieldOp::create(
              b, loc,
              math::FmaOp::create(b, loc, residual, r, q0).getResult());
        });
    rewriter.replaceOp(op, branch.getResult(0));
    return success();
  }
};

struct DivideByReciprocalPass
    : public tile::impl::DivideByReciprocalPassBase<DivideByReciprocalPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<DivideByBroadcast>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // The marks only kept the pattern off the fallbacks.
    getOperation()->walk(
        [](arith::DivFOp op) { op->removeAttr(kFallback); });
  }
};
} // namespace
