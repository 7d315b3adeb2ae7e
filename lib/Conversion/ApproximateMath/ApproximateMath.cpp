//===- ApproximateMath.cpp - Hardware approximations of math ops -*- C++ -*-===//
//
// The tile-approximate-math pass: f32 math.tanh becomes the GPU's
// tanh.approx.f32 (one special-function-unit instruction). Measured on the H200 (bench/RESULTS.md): libdevice's
// accurate tanhf in a GEMM epilogue costs ~8% of a 4096^3 bf16 GEMM, while
// the rest of the epilogue (a bias add) costs 0.5%. Vectors are unrolled:
// the intrinsic is scalar.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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
    Type type = op.getType();
    if (!getElementTypeOrSelf(type).isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has tanh.approx");
    Location loc = op.getLoc();
    // Inline PTX: LLVM 22's NVPTX has no intrinsic for tanh.approx.f32
    // and MLIR's NVVM dialect no op for it.
    auto approx = [&](Value x) -> Value {
      return LLVM::InlineAsmOp::create(
                 rewriter, loc, rewriter.getF32Type(), ValueRange{x},
                 "tanh.approx.f32 $0, $1;", "=f,f",
                 /*has_side_effects=*/false, /*is_align_stack=*/false,
                 LLVM::tailcallkind::TailCallKind::None,
                 /*asm_dialect=*/LLVM::AsmDialectAttr(),
                 /*operand_attrs=*/ArrayAttr())
          .getResult(0);
    };
    auto vectorType = dyn_cast<VectorType>(type);
    if (!vectorType) {
      rewriter.replaceOp(op, approx(op.getOperand()));
      return success();
    }
    if (vectorType.getRank() != 1 || vectorType.isScalable())
      return rewriter.notifyMatchFailure(op, "only fixed 1-D vectors");
    Value result = op.getOperand();
    for (int64_t i = 0; i < vectorType.getNumElements(); ++i) {
      Value lane = vector::ExtractOp::create(rewriter, loc, op.getOperand(), i);
      result = vector::InsertOp::create(rewriter, loc, approx(lane), result, i);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// f32 divisions and exponentials may use the hardware's approximate
/// forms: the `afn` fast-math flag lets NVPTX select div.approx.f32 and
/// libdevice's fast exp instead of the IEEE-rounded sequences, which cost
/// more than the memory traffic of a softmax row.
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
    patterns.add<ApproximateTanh, AllowApproximation<arith::DivFOp>,
                 AllowApproximation<math::ExpOp>>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
