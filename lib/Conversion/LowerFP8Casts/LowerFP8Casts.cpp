//===- LowerFP8Casts.cpp - fp8 casts to PTX's paired cvt ------------------===//
//
// The tile-lower-fp8-casts pass (see Passes.td). LLVM has no fp8 types: the
// LLVM type converter stores f8E4M3FN and f8E5M2 as i8, and arith-to-llvm
// has no lowering for arith.extf / arith.truncf to or from them. PTX
// converts fp8 in pairs (cvt.rn.f16x2.e4m3x2, cvt.rn.satfinite.e4m3x2.f32,
// and the e5m2 forms; sm_89 and later), which the NVVM dialect has as
// nvvm.convert.f8x2.to.f16x2 and nvvm.convert.f32x2.to.f8x2. So each cast
// becomes those on the casts' pairs of lanes (a scalar is a pair with a
// zero), with f16 or f32 on the other side and an exact arith cast to the
// type the op asked for.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "tile-lower-fp8-casts"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_LOWERFP8CASTSPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {

/// The lanes of `value` (a scalar or a 1-D vector) as scalars.
SmallVector<Value> lanesOf(OpBuilder &b, Location loc, Value value) {
  auto vectorType = dyn_cast<VectorType>(value.getType());
  if (!vectorType)
    return {value};
  SmallVector<Value> lanes;
  for (int64_t i = 0; i < vectorType.getNumElements(); ++i)
    lanes.push_back(vector::ExtractOp::create(b, loc, value, i));
  return lanes;
}

/// `lanes` as a value of `type` (a scalar or a 1-D vector of them).
Value fromLanes(OpBuilder &b, Location loc, Type type, ArrayRef<Value> lanes) {
  auto vectorType = dyn_cast<VectorType>(type);
  if (!vectorType)
    return lanes.front();
  return vector::FromElementsOp::create(b, loc, vectorType, lanes);
}

Type withElement(Type type, Type element) {
  if (auto vectorType = dyn_cast<VectorType>(type))
    return vectorType.clone(element);
  return element;
}

bool isPlainVectorOrScalar(Type type) {
  auto vectorType = dyn_cast<VectorType>(type);
  return !vectorType || (vectorType.getRank() == 1 && !vectorType.isScalable());
}

/// fp8 -> any float: pairs to f16 (exact: f16 holds every e4m3 and e5m2
/// value), then an exact widening.
struct ExtendFP8 : OpRewritePattern<arith::ExtFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::ExtFOp op,
                                PatternRewriter &rewriter) const override {
    Type from = getElementTypeOrSelf(op.getIn().getType());
    if (!tile::isFloat8(from) || !isPlainVectorOrScalar(op.getType()))
      return rewriter.notifyMatchFailure(op, "not an fp8 extension");
    Location loc = op.getLoc();
    Type i8 = rewriter.getI8Type(), f16 = rewriter.getF16Type();
    Value bits = arith::BitcastOp::create(
        rewriter, loc, withElement(op.getIn().getType(), i8), op.getIn());
    SmallVector<Value> bytes = lanesOf(rewriter, loc, bits);
    Value zero = arith::ConstantIntOp::create(rewriter, loc, i8, 0);
    auto pairType = VectorType::get({2}, i8);
    auto halvesType = VectorType::get({2}, f16);
    SmallVector<Value> halves;
    for (size_t i = 0; i < bytes.size(); i += 2) {
      Value second = i + 1 < bytes.size() ? bytes[i + 1] : zero;
      Value pair = vector::FromElementsOp::create(
          rewriter, loc, pairType, ValueRange{bytes[i], second});
      Value wide = NVVM::ConvertF8x2ToF16x2Op::create(
          rewriter, loc, halvesType, pair, /*relu=*/false, from);
      halves.push_back(vector::ExtractOp::create(rewriter, loc, wide, 0));
      if (i + 1 < bytes.size())
        halves.push_back(vector::ExtractOp::create(rewriter, loc, wide, 1));
    }
    Value half = fromLanes(rewriter, loc, withElement(op.getType(), f16),
                           halves);
    Type to = getElementTypeOrSelf(op.getType());
    if (to.isF16()) {
      rewriter.replaceOp(op, half);
    } else if (to.isBF16()) {
      // Through f32: both widenings and the narrowing are exact.
      Value f32 = arith::ExtFOp::create(
          rewriter, loc, withElement(op.getType(), rewriter.getF32Type()),
          half);
      rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), f32);
    } else {
      rewriter.replaceOpWithNewOp<arith::ExtFOp>(op, op.getType(), half);
    }
    return success();
  }
};

/// any float -> fp8: to f32 first (f64's rounding to f32 first can differ
/// from a direct rounding only at a tie of the fp8 format that the f64
/// misses by less than f32's precision), then pairs, rounded to nearest
/// even and saturated to the largest finite value (as cuBLAS's and
/// torch._scaled_mm's fp8 outputs are; NaN stays NaN).
struct TruncateToFP8 : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type to = getElementTypeOrSelf(op.getType());
    if (!tile::isFloat8(to) || !isPlainVectorOrScalar(op.getType()))
      return rewriter.notifyMatchFailure(op, "not an fp8 truncation");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type(), i8 = rewriter.getI8Type();
    Value in = op.getIn();
    Type from = getElementTypeOrSelf(in.getType());
    Type f32Type = withElement(in.getType(), f32);
    if (from.getIntOrFloatBitWidth() < 32)
      in = arith::ExtFOp::create(rewriter, loc, f32Type, in);
    else if (from.getIntOrFloatBitWidth() > 32)
      in = arith::TruncFOp::create(rewriter, loc, f32Type, in);
    SmallVector<Value> floats = lanesOf(rewriter, loc, in);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getF32FloatAttr(0.0));
    auto pairType = VectorType::get({2}, i8);
    SmallVector<Value> bytes;
    for (size_t i = 0; i < floats.size(); i += 2) {
      Value second = i + 1 < floats.size() ? floats[i + 1] : zero;
      // `a` goes to the high byte, `b` to the low one: lane 0.
      Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
          rewriter, loc, pairType, /*a=*/second, /*b=*/floats[i],
          NVVM::FPRoundingMode::RN, NVVM::SaturationMode::SATFINITE,
          /*relu=*/false, to);
      bytes.push_back(vector::ExtractOp::create(rewriter, loc, pair, 0));
      if (i + 1 < floats.size())
        bytes.push_back(vector::ExtractOp::create(rewriter, loc, pair, 1));
    }
    Value packed =
        fromLanes(rewriter, loc, withElement(op.getType(), i8), bytes);
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), packed);
    return success();
  }
};

/// The chip of the gpu.module around `op` ("sm_90a"), or "" if none says.
StringRef chipOf(Operation *op) {
  auto module = op->getParentOfType<gpu::GPUModuleOp>();
  if (!module && isa<gpu::GPUModuleOp>(op))
    module = cast<gpu::GPUModuleOp>(op);
  ArrayAttr targets = module ? module.getTargetsAttr() : ArrayAttr();
  if (!targets)
    return "";
  for (Attribute target : targets.getValue())
    if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
      return nvvm.getChip();
  return "";
}

struct LowerFP8CastsPass
    : public tile::impl::LowerFP8CastsPassBase<LowerFP8CastsPass> {
  void runOnOperation() override {
    // PTX converts fp8 from sm_89 on: elsewhere a located error.
    bool failedChip = false;
    getOperation()->walk([&](Operation *op) {
      if (!isa<arith::ExtFOp, arith::TruncFOp>(op))
        return;
      Type in = getElementTypeOrSelf(op->getOperand(0).getType());
      Type out = getElementTypeOrSelf(op->getResult(0).getType());
      if (!tile::isFloat8(in) && !tile::isFloat8(out))
        return;
      StringRef chip = chipOf(op);
      unsigned major = 0;
      if (!chip.consume_front("sm_") ||
          chip.take_while(llvm::isDigit).getAsInteger(10, major) ||
          major >= 89)
        return;
      op->emitError() << "converts to or from fp8, which PTX does from "
                         "sm_89 on, but the target is sm_"
                      << chip;
      failedChip = true;
    });
    if (failedChip)
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<ExtendFP8, TruncateToFP8>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
