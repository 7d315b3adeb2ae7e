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

#include "tile/Conversion/NibbleFields.h"
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

/// sitofp / uitofp to f32 of 4-bit fields of words (tile.unpack's int4;
/// NibbleFields.h): no extract. A field at bits [l, l + 4) with l + 4 <= 23
/// is already in the mantissa of the f32 with exponent 23 - l, whose ulp
/// is 2^-l: the word and 0xF << l, or the exponent's bits, is 2^(23 - l)
/// + n (signed fields xor 8 << l as well: n ^ 8 = q + 8), and one
/// subtraction leaves the value. Fields at bits 20 and up come from the
/// word shifted right by 16. One logic op and one add a value, where the
/// extract alone is two (bfe) and the magic add two more.
template <typename ConvertOp>
struct FieldsToFloat : OpRewritePattern<ConvertOp> {
  using OpRewritePattern<ConvertOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<VectorType>(op.getType());
    if (!type || type.getRank() != 1 || !type.getElementType().isF32())
      return rewriter.notifyMatchFailure(op, "not a vector of f32");
    std::optional<tile::NibbleFields> fields =
        tile::matchConvertedNibbleFields(op);
    if (!fields)
      return rewriter.notifyMatchFailure(op, "not 4-bit fields of words "
                                             "converted to their values");
    bool isSigned = fields->isSigned;

    Location loc = op.getLoc();
    Value words = fields->words;
    int64_t count = cast<VectorType>(words.getType()).getNumElements();
    int64_t lanes = type.getNumElements();
    auto lanesType = VectorType::get({lanes}, rewriter.getI32Type());
    bool anyHigh = llvm::any_of(fields->low, [](int64_t l) { return l >= 20; });
    Value high = words;
    if (anyHigh) {
      auto wordsType = cast<VectorType>(words.getType());
      Value sixteen = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(wordsType, rewriter.getI32IntegerAttr(16)));
      high = arith::ShRUIOp::create(rewriter, loc, words, sixteen);
    }
    SmallVector<int64_t> pick;
    SmallVector<int32_t> masks, magics;
    SmallVector<float> biases;
    for (auto [word, low] : llvm::zip(fields->word, fields->low)) {
      int64_t l = low >= 20 ? low - 16 : low;
      pick.push_back(low >= 20 ? count + word : word);
      masks.push_back(int32_t(0xFu << l));
      uint32_t magic = uint32_t(150 - l) << 23;
      if (isSigned)
        magic |= 8u << l;
      magics.push_back(int32_t(magic));
      biases.push_back(float(1 << (23 - l)) + (isSigned ? 8.0f : 0.0f));
    }
    auto constant = [&](VectorType vt, auto values) -> Value {
      return arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(vt, llvm::ArrayRef(values)));
    };
    Value lanesWords =
        vector::ShuffleOp::create(rewriter, loc, words, high, pick);
    Value field = arith::AndIOp::create(rewriter, loc, lanesWords,
                                        constant(lanesType, masks));
    Value magic = constant(lanesType, magics);
    Value biased =
        isSigned
            ? arith::XOrIOp::create(rewriter, loc, field, magic).getResult()
            : arith::OrIOp::create(rewriter, loc, field, magic).getResult();
    Value asFloat = arith::BitcastOp::create(rewriter, loc, type, biased);
    rewriter.replaceOpWithNewOp<arith::SubFOp>(op, asFloat,
                                               constant(type, biases));
    return success();
  }
};

struct SmallIntToFloatPass
    : public tile::impl::SmallIntToFloatPassBase<SmallIntToFloatPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MagicAdd<arith::SIToFPOp>, MagicAdd<arith::UIToFPOp>>(
        &getContext());
    patterns.add<FieldsToFloat<arith::SIToFPOp>,
                 FieldsToFloat<arith::UIToFPOp>>(&getContext(),
                                                 /*benefit=*/2);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
