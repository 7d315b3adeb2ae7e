//===- ApproximateMath.cpp - Hardware approximations of math ops -*- C++ -*-===//
//
// The tile-approximate-math pass: f32 math.tanh becomes the GPU's
// tanh.approx.f32 (one special-function-unit instruction, inline PTX:
// tile/Conversion/InlinePTX.h), f32 math.exp ex2.approx.ftz.f32 (with every
// Nth lane of a vector on the FMA pipe where the op's tile.fma_exp2 says
// so). Measured on the H200 (bench/RESULTS.md):
// libdevice's accurate tanhf in a GEMM epilogue costs ~8% of a 4096^3 bf16
// GEMM, while the rest of the epilogue (a bias add) costs 0.5%.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/InlinePTX.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

#define DEBUG_TYPE "tile-approximate-math"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
struct ApproximateTanh : OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has tanh.approx");
    // Scalar, or unrolled over a fixed 1-D vector.
    Value approx = tile::inlinePtxUnaryF32(rewriter, op.getLoc(),
                                           "tanh.approx.f32", op.getOperand());
    if (!approx)
      return rewriter.notifyMatchFailure(op, "only fixed 1-D vectors");
    rewriter.replaceOp(op, approx);
    return success();
  }
};

/// f32 exp(x) as ex2.approx.ftz.f32(x * log2(e)): two instructions. (The
/// `afn` flag alone took libdevice's __nv_fast_expf, whose ex2.approx
/// without .ftz ptxas surrounds with a range check and two multiplies to
/// keep subnormal results: five instructions per element, a fifth of the
/// fast softmax 4096x50257 kernel's, read in its SASS.) Results below
/// 2^-126 flush to zero, as fast math allows.
struct ApproximateExp : OpRewritePattern<math::ExpOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::ExpOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!tile::isF32ScalarOrLanes(type))
      return rewriter.notifyMatchFailure(
          op, "only f32 scalars and fixed 1-D vectors");
    Location loc = op.getLoc();
    const double log2e = 1.0 / std::log(2.0);
    Value scaled;
    // exp(a * c - b) (a softmax's scaled scores less their row max) as
    // ex2(fma(a, c log2(e), b * -log2(e))): one FFMA where the plain form
    // takes three multiplies and a subtraction; b * -log2(e) is one value
    // per row, which LLVM computes before the row's broadcast shuffle.
    if (auto sub = op.getOperand().getDefiningOp<arith::SubFOp>()) {
      Value a = sub.getLhs();
      double c = 1.0;
      if (auto mul = a.getDefiningOp<arith::MulFOp>())
        if (std::optional<double> constant = splatValue(mul.getRhs())) {
          a = mul.getLhs();
          c = *constant;
        }
      Value shift = arith::MulFOp::create(
          rewriter, loc, sub.getRhs(),
          tile::f32Constant(rewriter, loc, type, -log2e));
      scaled = math::FmaOp::create(
          rewriter, loc, a, tile::f32Constant(rewriter, loc, type, c * log2e),
          shift);
    } else {
      scaled = arith::MulFOp::create(
          rewriter, loc, op.getOperand(),
          tile::f32Constant(rewriter, loc, type, log2e));
    }
    // Every Nth lane on the FMA pipe where the op asks (tile.fma_exp2).
    auto every = op->getAttrOfType<IntegerAttr>(tile::kFmaExp2AttrName);
    auto vectorType = dyn_cast<VectorType>(type);
    if (every && every.getInt() > 0 && vectorType) {
      int64_t n = every.getInt();
      Value result = scaled;
      for (int64_t i = 0; i < vectorType.getNumElements(); ++i) {
        Value lane = vector::ExtractOp::create(rewriter, loc, scaled, i);
        Value value = i % n == n - 1
                          ? exp2OnFmaPipe(rewriter, loc, lane)
                          : tile::inlinePtxUnaryF32(
                                rewriter, loc, "ex2.approx.ftz.f32", lane);
        result = vector::InsertOp::create(rewriter, loc, value, result, i);
      }
      rewriter.replaceOp(op, result);
      return success();
    }
    rewriter.replaceOp(op, tile::inlinePtxUnaryF32(
                               rewriter, loc, "ex2.approx.ftz.f32", scaled));
    return success();
  }

  /// 2^x for f32 `x` on the FMA and integer pipes (no special-function
  /// unit, whose 16 results a clock per SM bound an attention kernel's
  /// softmax at head dimension 64): x = j + f with j = round(x) (adding
  /// 1.5 * 2^23 leaves j in the low mantissa bits) and f in [-0.5, 0.5];
  /// 2^f by a cubic (coefficients fitted for relative error, at most
  /// 7.8e-5 on [-0.5, 0.5]: below bf16's 3.9e-3, which the probabilities
  /// are rounded to); j added to the result's exponent field as an
  /// integer. x is first raised to -125 so that the exponent cannot
  /// underflow: 2^-125 for smaller x (and for -inf, a masked score), where
  /// ex2.approx.ftz gives 0; both vanish beside a row sum of at least 1.
  static Value exp2OnFmaPipe(PatternRewriter &b, Location loc, Value x) {
    Type f32 = b.getF32Type(), i32 = b.getI32Type();
    auto constant = [&](double v) { return tile::f32Constant(b, loc, f32, v); };
    const double roundingShift = 12582912.0; // 1.5 * 2^23
    x = arith::MaxNumFOp::create(b, loc, x, constant(-125.0));
    Value shifted = arith::AddFOp::create(b, loc, x, constant(roundingShift));
    Value j = arith::SubFOp::create(b, loc, shifted, constant(roundingShift));
    Value f = arith::SubFOp::create(b, loc, x, j);
    Value p = math::FmaOp::create(b, loc, constant(0.05508876591920853), f,
                                  constant(0.24260465800762177));
    p = math::FmaOp::create(b, loc, p, f, constant(0.6932762861251831));
    p = math::FmaOp::create(b, loc, p, f, constant(0.999928891658783));
    // The low 9 bits of `shifted`'s mantissa are j (two's complement):
    // shifted left by 23 they are j in the exponent field.
    Value exponent = arith::ShLIOp::create(
        b, loc, arith::BitcastOp::create(b, loc, i32, shifted),
        arith::ConstantIntOp::create(b, loc, i32, 23));
    Value bits = arith::AddIOp::create(
        b, loc, arith::BitcastOp::create(b, loc, i32, p), exponent);
    return arith::BitcastOp::create(b, loc, f32, bits);
  }

  /// The value of an f32 constant, scalar or splat.
  static std::optional<double> splatValue(Value value) {
    Attribute attr;
    if (!matchPattern(value, m_Constant(&attr)))
      return std::nullopt;
    if (auto splat = dyn_cast<SplatElementsAttr>(attr))
      attr = splat.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(attr))
      return f.getValueAsDouble();
    return std::nullopt;
  }
};

/// f32 divisions may use the hardware's approximate form: the `afn`
/// fast-math flag lets NVPTX select div.approx.f32 instead of the
/// IEEE-rounded sequence, which cost more than the memory traffic of a
/// softmax row.
template <typename OpTy>
struct AllowApproximation : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!getElementTypeOrSelf(op.getType()).isF32())
      return rewriter.notifyMatchFailure(op, "only f32");
    arith::FastMathFlags flags = op.getFastmath();
    if (arith::bitEnumContainsAll(flags, arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "already approximate");
    rewriter.modifyOpInPlace(op, [&] {
      op.setFastmath(flags | arith::FastMathFlags::afn);
    });
    return success();
  }
};

struct ApproximateMathPass
    : public tile::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ApproximateTanh, ApproximateExp,
                 AllowApproximation<arith::DivFOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
