//===- WidenBF16.cpp - bf16 pairs to f32 by shift and mask ---------------===//
//
// The tile-widen-bf16 pass (see Passes.td). A bf16 is the high half of the
// f32 of the same value, so widening a packed pair needs no conversion:
// the low element is the 32-bit word shifted left by 16, the high one the
// word with its low half cleared. NVPTX widens each element with
// cvt.f32.bf16 from a 16-bit register, and the high half costs ptxas a
// PRMT to get there, then the shift: three instructions per pair instead
// of two. The SASS of softmax 4096x50257 showed it in every pass.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "tile-widen-bf16"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_WIDENBF16PASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
struct WidenPairs : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    auto from = dyn_cast<VectorType>(op.getIn().getType());
    auto to = dyn_cast<VectorType>(op.getType());
    if (!from || !to || from.getRank() != 1 || from.isScalable() ||
        !from.getElementType().isBF16() || !to.getElementType().isF32() ||
        from.getNumElements() % 2 != 0)
      return rewriter.notifyMatchFailure(op, "not an even bf16 vector to f32");

    Location loc = op.getLoc();
    int64_t pairs = from.getNumElements() / 2;
    auto wordsType = VectorType::get({pairs}, rewriter.getI32Type());
    auto splat = [&](uint32_t value) -> Value {
      return arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(wordsType, APInt(32, value)));
    };
    Value words = vector::BitCastOp::create(rewriter, loc, wordsType,
                                            op.getIn());
    // Little-endian (NVPTX): element 2i is the low half of word i.
    Value low = arith::ShLIOp::create(rewriter, loc, words, splat(16));
    Value high = arith::AndIOp::create(rewriter, loc, words,
                                       splat(0xffff0000u));
    SmallVector<int64_t> interleave;
    for (int64_t i = 0; i < pairs; ++i)
      interleave.append({i, pairs + i});
    Value lanes =
        vector::ShuffleOp::create(rewriter, loc, low, high, interleave);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, to, lanes);
    return success();
  }
};

struct WidenBF16Pass : public tile::impl::WidenBF16PassBase<WidenBF16Pass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<WidenPairs>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
