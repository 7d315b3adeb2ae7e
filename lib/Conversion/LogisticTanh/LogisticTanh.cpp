//===- LogisticTanh.cpp - 1 +- tanh(z) as a scaled logistic function -----===//
//
// The tile-logistic-tanh pass (see Passes.td): `1 + tanh(z)` becomes
// 2 / (1 + 2^(-2 log2(e) z)) and `1 - tanh(z)` 2 / (1 + 2^(2 log2(e) z)),
// the same value with no cancellation. Written as
//
//   p = z * (-+2 log2(e));  e = ex2.approx.ftz(p);
//   h = fma(e, 0.5, 0.5);   r = rcp.approx.ftz(h)
//
// four instructions where libdevice's tanhf, which uses the same two
// special-function instructions, evaluates both of its branches (about 17),
// then the add. Accuracy, measured on every f32 z in [-64, 64] against
// double precision (scripts/check-logistic.cu, bench/RESULTS.md): for
// 1 + tanh(z), at most 3.75 ulps for |z| <= 1 (tanhf's form: 5.68) and
// 1.99 for z > 1 (1.03); for z < -1, where the sum cancels, tanhf's form
// is off by up to 1.7e7 ulps (its absolute error near 1e-7 against a sum
// that falls to 2e^(2z)), and this one by about |z| ulps (63.4 at most),
// from rounding p (|p| 2^-24 ln 2 relative; ex2.approx adds about 2^-22
// and rcp.approx one ulp). GELU's tanh form is the use: a GEMM epilogue
// spent most of its arithmetic in tanhf.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/InlinePTX.h"
#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

#define DEBUG_TYPE "tile-logistic-tanh"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_LOGISTICTANHPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
/// Whether `value` is the f32 constant 1 (a scalar or a splat).
bool isOne(Value value) {
  FloatAttr::ValueType constant(0.0f);
  return matchPattern(value, m_ConstantFloat(&constant)) &&
         constant.isExactlyValue(1.0);
}

/// The f32 tanh (scalar or fixed 1-D vector) that `value` is, if any.
math::TanhOp tanhOf(Value value) {
  auto tanh = value.getDefiningOp<math::TanhOp>();
  // The PTX goes lane by lane.
  if (!tanh || !tile::isF32ScalarOrLanes(tanh.getType()))
    return nullptr;
  return tanh;
}

/// 2 / (1 + 2^(scale * z)) of the type of `z`.
Value scaledLogistic(PatternRewriter &rewriter, Location loc, Value z,
                     double scale) {
  Type type = z.getType();
  Value p = arith::MulFOp::create(rewriter, loc, z,
                                  tile::f32Constant(rewriter, loc, type, scale));
  Value e = tile::inlinePtxUnaryF32(rewriter, loc, "ex2.approx.ftz.f32", p);
  Value half = tile::f32Constant(rewriter, loc, type, 0.5);
  Value h = math::FmaOp::create(rewriter, loc, e, half, half);
  return tile::inlinePtxUnaryF32(rewriter, loc, "rcp.approx.ftz.f32", h);
}

const double kTwoLog2E = 2.0 / std::log(2.0);

/// 1 + tanh(z), tanh(z) + 1 -> 2 / (1 + 2^(-2 log2(e) z)).
struct OnePlusTanh : OpRewritePattern<arith::AddFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::AddFOp op,
                                PatternRewriter &rewriter) const override {
    math::TanhOp tanh = tanhOf(op.getLhs());
    Value other = op.getRhs();
    if (!tanh) {
      tanh = tanhOf(op.getRhs());
      other = op.getLhs();
    }
    if (!tanh || !isOne(other))
      return rewriter.notifyMatchFailure(op, "not 1 + tanh(z) in f32");
    rewriter.replaceOp(op, scaledLogistic(rewriter, op.getLoc(),
                                          tanh.getOperand(), -kTwoLog2E));
    return success();
  }
};

/// 1 - tanh(z) -> 2 / (1 + 2^(2 log2(e) z)).
struct OneMinusTanh : OpRewritePattern<arith::SubFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SubFOp op,
                                PatternRewriter &rewriter) const override {
    math::TanhOp tanh = tanhOf(op.getRhs());
    if (!tanh || !isOne(op.getLhs()))
      return rewriter.notifyMatchFailure(op, "not 1 - tanh(z) in f32");
    rewriter.replaceOp(op, scaledLogistic(rewriter, op.getLoc(),
                                          tanh.getOperand(), kTwoLog2E));
    return success();
  }
};

struct LogisticTanhPass
    : public tile::impl::LogisticTanhPassBase<LogisticTanhPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<OnePlusTanh, OneMinusTanh>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
