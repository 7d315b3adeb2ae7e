//===- SmallIntToFloat.cpp - Narrow integers to f32 by adding 2^23 -------===//
//
// The tile-small-int-to-float pass (see Passes.td). An integer x of 16 bits
// or fewer is exact in the mantissa of an f32 whose exponent says 2^23: the
// word 0x4B400000 + x (signed; 1.5 * 2^23 keeps negative x in the binade)
// or 0x4B000000 + x (unsigned) is the float 1.5 * 2^23 (or 2^23) + x, and one
// subtraction leaves x. An integer add and a float add run at full rate;
// the cvt.rn.f32.s16 NVPTX emits runs on the conversion unit, 16 per SM per
// clock on sm_90 (a dequantized weight converts every element: 13% of a
// weight-only GEMM's instructions, bench/RESULTS.md session 15).
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "tile-small-int-to-float"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_SMALLINTTOFLOATPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
template <typename ConvertOp>
struct MagicAdd : OpRewritePattern<ConvertOp> {
  using OpRewritePattern<ConvertOp>::OpRewritePattern;
  static constexpr bool isSigned = std::is_same_v<ConvertOp, arith::SIToFPOp>;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    Type to = getElementTypeOrSelf(op.getType());
    if (!to.isF32() || !from.isInteger() || from.getIntOrFloatBitWidth() > 16)
      return rewriter.notifyMatchFailure(op, "not an integer of <= 16 bits "
                                             "to f32");
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Type words = i32, floats = to;
    if (auto vector = dyn_cast<VectorType>(op.getType())) {
      words = vector.clone(i32);
      floats = vector;
    }
    auto constant = [&](Type type, Attribute value) -> Value {
      if (auto vector = dyn_cast<VectorType>(type))
        return arith::ConstantOp::create(
            rewriter, loc, DenseElementsAttr::get(vector, value));
      return arith::ConstantOp::create(rewriter, loc, cast<TypedAttr>(value));
    };
    Value wide;
    if (isSigned)
      wide = arith::ExtSIOp::create(rewriter, loc, words, op.getIn());
    else
      wide = arith::ExtUIOp::create(rewriter, loc, words, op.getIn());
    // 1.5 * 2^23 for signed values (x in [-2^15, 2^15) stays within
    // [2^23, 2^24)), 2^23 for unsigned ones.
    uint32_t bits = isSigned ? 0x4B400000u : 0x4B000000u;
    float bias = isSigned ? 12582912.0f : 8388608.0f;
    Value magic = constant(words, rewriter.getI32IntegerAttr(int32_t(bits)));
    Value biased = arith::AddIOp::create(rewriter, loc, wide, magic);
    Value asFloat = arith::BitcastOp::create(rewriter, loc, floats, biased);
    Value offset = constant(floats, rewriter.getF32FloatAttr(bias));
    rewriter.replaceOpWithNewOp<arith::SubFOp>(op, asFloat, offset);
    return success();
  }
};

struct SmallIntToFloatPass
    : public tile::impl::SmallIntToFloatPassBase<SmallIntToFloatPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MagicAdd<arith::SIToFPOp>, MagicAdd<arith::UIToFPOp>>(
        &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
