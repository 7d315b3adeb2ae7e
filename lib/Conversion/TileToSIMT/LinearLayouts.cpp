//===- LinearLayouts.cpp - Reductions and broadcasts of MMA tiles -*- C++ -*-===//
//
// Tiles in MMA-family layouts (#tile.mma and its #tile.slice) reduce and
// broadcast without going through memory where their linear map allows
// (TileLayouts.h): a reduction along a dimension folds, in each thread,
// the slots whose basis moves along it, then the lanes whose basis does
// (xor shuffles), then, only where warps split the dimension, the warps'
// partials through shared memory; its result is the input's layout with
// the dimension sliced away, so broadcasting it back is a shuffle of slots
// inside each thread. A row max over a wgmma accumulator is two shuffles
// per row: the attention kernel's online softmax needs nothing more.
//
//===----------------------------------------------------------------------===//

#include "SIMTLowering.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::simt;

namespace {

Value idx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Applies a combiner region to two scalars.
Value combine(OpBuilder &b, Region &combiner, Value x, Value y) {
  IRMapping mapping;
  Block &block = combiner.front();
  mapping.map(block.getArgument(0), x);
  mapping.map(block.getArgument(1), y);
  for (Operation &inner : block.without_terminator())
    b.clone(inner, mapping);
  return mapping.lookup(cast<YieldOp>(block.getTerminator()).getValue());
}

struct LinearBroadcastLowering : SIMTPattern<BroadcastOp> {
  LinearBroadcastLowering(const TypeConverter &converter, MLIRContext *ctx,
                          SIMTLayout &layout)
      : SIMTPattern(converter, ctx, layout, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto outType = cast<TileType>(op.getType());
    if (!isLinearLayout(outType.getLayout()) || op.getDims().size() != 1)
      return rewriter.notifyMatchFailure(op, "not a slice to its parent");
    layout.enter(op);
    unsigned dim = op.getDims()[0];
    LinearLayout parent =
        *getLinearLayout(outType.getLayout(), outType.getShape());
    SmallVector<int64_t> lanes;
    for (int64_t s = 0; s < parent.getNumSlots(); ++s)
      lanes.push_back(sliceSlotOf(parent, dim, s));
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getInput(),
                                                   adaptor.getInput(), lanes);
    return success();
  }
};

struct LinearReduceLowering : SIMTPattern<ReduceOp> {
  LinearReduceLowering(const TypeConverter &converter, MLIRContext *ctx,
                       SIMTLayout &layout)
      : SIMTPattern(converter, ctx, layout, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto inType = cast<TileType>(op.getInput().getType());
    auto outType = cast<TileType>(op.getType());
    if (!isLinearLayout(inType.getLayout()) || inType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "not an MMA-family layout");
    layout.enter(op);
    Location loc = op.getLoc();
    unsigned dim = op.getDim();
    LinearLayout in = *getLinearLayout(inType.getLayout(), inType.getShape());
    auto along = [&](const Offset &basis) {
      return basis[dim] != 0 && basis[1 - dim] == 0;
    };
    for (const Offset &basis : in.slot)
      if (!along(basis) && basis[dim] != 0)
        return op.emitOpError() << "cannot reduce a layout whose slots move "
                                   "along both dimensions at once";
    Region &combiner = op.getCombiner();
    Type element = inType.getElementType();
    // 1. In each thread: every result slot folds the input slots that
    //    differ from it only in bits along `dim`.
    int64_t outSlots = layout.slots(outType);
    SmallVector<Value> partials(outSlots);
    for (int64_t s = 0; s < in.getNumSlots(); ++s) {
      int64_t r = sliceSlotOf(in, dim, s);
      Value value = vector::ExtractOp::create(rewriter, loc,
                                              adaptor.getInput(), s);
      partials[r] = partials[r] ? combine(rewriter, combiner, partials[r], value)
                                : value;
    }
    // 2. Lanes whose basis moves along `dim`: xor shuffles.
    Value width = arith::ConstantIntOp::create(rewriter, loc,
                                               rewriter.getI32Type(), 32);
    for (auto [bit, basis] : llvm::enumerate(in.lane)) {
      if (!along(basis))
        continue;
      Value offset = arith::ConstantIntOp::create(
          rewriter, loc, rewriter.getI32Type(), int64_t(1) << bit);
      for (Value &partial : partials) {
        Value other = gpu::ShuffleOp::create(rewriter, loc, partial, offset,
                                             width, gpu::ShuffleMode::XOR)
                          .getShuffleResult();
        partial = combine(rewriter, combiner, partial, other);
      }
    }
    // 3. Warps whose basis moves along `dim`: each publishes its partials
    //    (lane and warp bits along `dim` are copies now, so one writer per
    //    element and warp index along `dim`), then folds the others'.
    SmallVector<int64_t> warpBits;
    for (auto [bit, basis] : llvm::enumerate(in.warp))
      if (along(basis))
        warpBits.push_back(bit);
    if (!warpBits.empty()) {
      int64_t groups = int64_t(1) << warpBits.size();
      int64_t extent = outType.getDimSize(0);
      Value buffer =
          layout.sharedView(rewriter, loc, element, groups * extent, 0);
      Value warp = arith::DivUIOp::create(rewriter, loc, layout.threadId,
                                          idx(rewriter, loc, 32));
      // This warp's index among the warps along `dim`.
      Value group = idx(rewriter, loc, 0);
      for (auto [i, bit] : llvm::enumerate(warpBits)) {
        Value set = arith::AndIOp::create(
            rewriter, loc,
            arith::ShRUIOp::create(rewriter, loc, warp, idx(rewriter, loc, bit)),
            idx(rewriter, loc, 1));
        group = arith::AddIOp::create(
            rewriter, loc, group,
            arith::MulIOp::create(rewriter, loc, set,
                                  idx(rewriter, loc, int64_t(1) << i)));
      }
      SmallVector<Value> rows = layout.slotCoordinates(rewriter, loc, outType);
      // One writer per element and group: the threads whose bits that
      // hold copies (other than the groups' own warp bits) are clear.
      LinearLayout out =
          *getLinearLayout(outType.getLayout(), outType.getShape());
      int64_t copyBits = 0;
      for (auto [bit, basis] : llvm::enumerate(out.lane))
        if (basis == Offset{0, 0})
          copyBits |= int64_t(1) << bit;
      for (auto [bit, basis] : llvm::enumerate(out.warp))
        if (basis == Offset{0, 0} && !llvm::is_contained(warpBits, bit))
          copyBits |= int64_t(1) << (bit + 5);
      Value owner = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq,
          arith::AndIOp::create(rewriter, loc, layout.threadId,
                                idx(rewriter, loc, copyBits)),
          idx(rewriter, loc, 0));
      Value base = arith::MulIOp::create(rewriter, loc, group,
                                         idx(rewriter, loc, extent));
      for (int64_t r = 0; r < outSlots; ++r) {
        Value row = vector::ExtractOp::create(rewriter, loc, rows[0], r);
        auto ifWrite = scf::IfOp::create(rewriter, loc, owner, false);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(ifWrite.thenBlock()->getTerminator());
        memref::StoreOp::create(
            rewriter, loc, partials[r], buffer,
            ValueRange{arith::AddIOp::create(rewriter, loc, base, row)});
      }
      layout.barrier(rewriter, loc);
      for (int64_t r = 0; r < outSlots; ++r) {
        Value row = vector::ExtractOp::create(rewriter, loc, rows[0], r);
        Value acc;
        for (int64_t g = 0; g < groups; ++g) {
          Value value = memref::LoadOp::create(
              rewriter, loc, buffer,
              ValueRange{arith::AddIOp::create(
                  rewriter, loc, row, idx(rewriter, loc, g * extent))});
          acc = acc ? combine(rewriter, combiner, acc, value) : value;
        }
        partials[r] = acc;
      }
      layout.barrier(rewriter, loc);
    }
    Value result = arith::ConstantOp::create(
        rewriter, loc, layout.vectorType(outType),
        DenseElementsAttr::get(layout.vectorType(outType),
                               rewriter.getZeroAttr(element)));
    for (auto [r, partial] : llvm::enumerate(partials)) {
      // The init folds in once (it is the combiner's identity, so this
      // only matters for its type and for NaN-propagating combiners).
      Value folded = combine(rewriter, combiner, adaptor.getInit(), partial);
      result = vector::InsertOp::create(rewriter, loc, folded, result, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void simt::populateLinearLayoutPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        SIMTLayout &layout) {
  patterns.add<LinearBroadcastLowering, LinearReduceLowering>(
      converter, patterns.getContext(), layout);
}
