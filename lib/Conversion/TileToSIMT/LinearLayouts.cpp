//===- LinearLayouts.cpp - Reductions, broadcasts, stores of MMA tiles -*- C++
//-*-===//
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

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::simt;

namespace {

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

/// A register-to-register tile.convert_layout between linear layouts that
/// keep every element in its thread (a wgmma accumulator cast to bf16
/// becoming wgmma's register A operand; a slice of an mma layout of
/// another instr N): a shuffle of each thread's slots, often the identity.
struct SlotPermutationLowering : SIMTPattern<ConvertLayoutOp> {
  SlotPermutationLowering(const TypeConverter &converter, MLIRContext *ctx,
                          SIMTLayout &layout)
      : SIMTPattern(converter, ctx, layout, /*benefit=*/3) {}
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = cast<TileType>(op.getInput().getType());
    auto to = cast<TileType>(op.getType());
    if (isSharedTile(from) || isSharedTile(to))
      return rewriter.notifyMatchFailure(op, "not between registers");
    std::optional<SmallVector<int64_t>> permutation =
        getSlotPermutation(from.getLayout(), to.getLayout(), to.getShape());
    if (!permutation)
      return rewriter.notifyMatchFailure(op, "elements change threads");
    if (llvm::equal(*permutation, llvm::seq<int64_t>(0, permutation->size()))) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(
        op, adaptor.getInput(), adaptor.getInput(), *permutation);
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
    // The repetition of an instruction N that is not a power of two runs
    // along N: its row sums fold it in step 1; column sums are not built.
    if (in.outerCount > 1 && !along(in.outerStride))
      return op.emitOpError()
             << "cannot reduce across rows a tile whose layout repeats along "
                "its columns (an instruction N that is not a power of two)";
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
      partials[r] = partials[r] ? combineScalars(rewriter, combiner, partials[r], value)
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
        partial = combineScalars(rewriter, combiner, partial, other);
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
        Value bitIndex = idx(rewriter, loc, bit);
        Value shifted = arith::ShRUIOp::create(rewriter, loc, warp, bitIndex);
        Value lowBit = idx(rewriter, loc, 1);
        Value set = arith::AndIOp::create(rewriter, loc, shifted, lowBit);
        Value weight = idx(rewriter, loc, int64_t(1) << i);
        Value term = arith::MulIOp::create(rewriter, loc, set, weight);
        group = arith::AddIOp::create(rewriter, loc, group, term);
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
      Value copyMask = idx(rewriter, loc, copyBits);
      Value copyIndex =
          arith::AndIOp::create(rewriter, loc, layout.threadId, copyMask);
      Value zero = idx(rewriter, loc, 0);
      Value owner = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, copyIndex, zero);
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
          acc = acc ? combineScalars(rewriter, combiner, acc, value) : value;
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
      Value folded = combineScalars(rewriter, combiner, adaptor.getInit(), partial);
      result = vector::InsertOp::create(rewriter, loc, folded, result, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Slots s and s + 1 of `value` (a tile in an MMA layout). Where it is
/// an elementwise chain (maps, casts, broadcasts of slices) over other
/// tiles, the chain is evaluated again on these two slots: the epilogue
/// then runs chunk by chunk next to its stores, with the accumulator and
/// a few values live, not all 128 results of each op of the chain (the
/// whole-tile evaluation spilled in GEMM + bias + GELU, and goes away as
/// dead code).
Value evaluatePair(ConversionPatternRewriter &rewriter, Location loc,
                   Value value, int64_t s, int depth = 0) {
  Operation *def = value.getDefiningOp();
  auto pairOf = [&](Value converted, int64_t first) -> Value {
    return vector::ShuffleOp::create(rewriter, loc, converted, converted,
                                     ArrayRef<int64_t>{first, first + 1});
  };
  if (depth < 16) {
    if (auto map = dyn_cast_or_null<MapOp>(def)) {
      SmallVector<Value> inputs;
      for (Value input : map.getInputs())
        inputs.push_back(evaluatePair(rewriter, loc, input, s, depth + 1));
      return vectorizeScalarRegion(rewriter, map.getBody(), inputs, 2);
    }
    if (auto castOp = dyn_cast_or_null<CastOp>(def))
      return buildElementCast(
          rewriter, loc,
          evaluatePair(rewriter, loc, castOp.getInput(), s, depth + 1),
          cast<TileType>(castOp.getType()).getElementType());
    auto bcast = dyn_cast_or_null<BroadcastOp>(def);
    auto out = bcast ? cast<TileType>(bcast.getType()) : TileType();
    if (bcast && bcast.getDims().size() == 1 &&
        isLinearLayout(out.getLayout())) {
      // Both slots come from the slice's slots for them.
      LinearLayout parent = *getLinearLayout(out.getLayout(), out.getShape());
      unsigned dim = bcast.getDims()[0];
      Value input = rewriter.getRemappedValue(bcast.getInput());
      if (input)
        return vector::ShuffleOp::create(
            rewriter, loc, input, input,
            ArrayRef<int64_t>{sliceSlotOf(parent, dim, s),
                              sliceSlotOf(parent, dim, s + 1)});
    }
  }
  return pairOf(rewriter.getRemappedValue(value), s);
}

/// The chunk width for storing a tile in `mma` layout through shared
/// memory: a whole number of 8-column groups such that every slot's
/// column chunk is known at compile time (the lanes add less than 8
/// columns, warps along N a multiple of instr N: with more than one warp
/// along N a chunk must hold all of their columns), and about `budget`
/// bytes of scratch.
int64_t storeChunkColumns(MmaLayoutAttr mma, TileType type, int64_t budget) {
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t eb = storageBytes(type.getElementType());
  int64_t least = mma.getWarps()[1] > 1
                      ? mma.getFragmentColumns() * mma.getWarps()[1]
                      : 8;
  int64_t width = least;
  while (width * 2 <= cols && cols % (width * 2) == 0 &&
         rows * width * 2 * eb <= budget)
    width *= 2;
  return std::min(width, cols);
}

/// A store of an MMA-layout tile: column chunk by column chunk, every
/// thread writes its fragments (pairs of columns) into a scratch slab of
/// rows padded by 16 bytes (the 8 rows a warp's fragment store touches
/// start in different banks), then reads back rows of 16-byte runs and
/// stores those. Stored straight from the fragments, a warp writes 4-byte
/// pieces of 8 rows: 5-10% slower at 4096^3 (bench/RESULTS.md, session 2).
struct MmaStoreLowering : SIMTPattern<StoreOp> {
  MmaStoreLowering(const TypeConverter &converter, MLIRContext *ctx,
                   SIMTLayout &layout)
      : SIMTPattern(converter, ctx, layout, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<TileType>(op.getValue().getType());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(type.getLayout());
    MemRefType dest = op.getDest().getType();
    Type element = type.getElementType();
    int64_t eb = storageBytes(element);
    // (Into shared memory the fragments go straight: staged through the
    // scratch they would be copied twice, k_warpgroups' partial sums.)
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(dest.getMemorySpace());
    bool shared = space && space.getValue() == gpu::AddressSpace::Workgroup;
    if (!mma || type.getRank() != 2 || !dest.hasStaticShape() ||
        !dest.getLayout().isIdentity() || dest.getRank() != 2 ||
        element.getIntOrFloatBitWidth() % 8 != 0 ||
        (dest.getDimSize(1) * eb) % 16 != 0 || (16 / eb) > 8 || shared)
      return rewriter.notifyMatchFailure(op, "not an MMA tile into 16-byte "
                                             "rows of global memory");
    layout.enter(op);
    Location loc = op.getLoc();
    int64_t rows = type.getDimSize(0);
    int64_t width = storeChunkColumns(mma, type, 8 * 1024);
    int64_t run = 16 / eb, pad = 16 / eb, stride = width + pad;
    // A chunk's column offset must also be a multiple of the run for the
    // reads of runs to stay aligned.
    if (width % run != 0 || !isProvablyMultipleOf(adaptor.getIndices()[1], run))
      return rewriter.notifyMatchFailure(op, "columns not whole runs");
    LinearLayout linear = *getLinearLayout(mma, type.getShape());
    SmallVector<Value> thread = layout.threadCoordinates(rewriter, loc, type);
    // This thread's part of a fragment's scratch offset; each slot adds a
    // constant.
    Value threadAt = arith::AddIOp::create(
        rewriter, loc,
        arith::MulIOp::create(rewriter, loc, thread[0],
                              idx(rewriter, loc, stride)),
        thread[1]);
    Value scratch = layout.sharedView(rewriter, loc, element, rows * stride, 0);
    int64_t threads = layout.threads;
    int64_t runsPerRow = width / run;
    int64_t totalRuns = rows * runsPerRow;
    auto pairType = VectorType::get({2}, element);
    auto runType = VectorType::get({run}, element);
    int64_t chunks = type.getDimSize(1) / width;
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      if (chunk > 0)
        layout.barrier(rewriter, loc); // the last chunk is read
      // Slot pairs (bit 0 is the next column) of this chunk.
      for (int64_t s = 0; s < linear.getNumSlots(); s += 2) {
        if (linear.slotOffset(s)[1] / width != chunk)
          continue;
        Offset slot = linear.slotOffset(s);
        Value at = arith::AddIOp::create(
            rewriter, loc, threadAt,
            idx(rewriter, loc,
                slot[0] * stride + slot[1] - chunk * width));
        Value pair = evaluatePair(rewriter, loc, op.getValue(), s);
        vector::StoreOp::create(rewriter, loc, pair, scratch, ValueRange{at},
                                false, llvm::MaybeAlign(2 * eb));
      }
      layout.barrier(rewriter, loc);
      for (int64_t p = 0; p * threads < totalRuns; ++p) {
        Value q = arith::AddIOp::create(rewriter, loc, layout.threadId,
                                        idx(rewriter, loc, p * threads));
        OpBuilder::InsertionGuard guard(rewriter);
        if ((p + 1) * threads > totalRuns) {
          Value inTile = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::ult, q,
              idx(rewriter, loc, totalRuns));
          auto ifIn = scf::IfOp::create(rewriter, loc, inTile, false);
          rewriter.setInsertionPoint(ifIn.thenBlock()->getTerminator());
        }
        Value row = arith::DivUIOp::create(rewriter, loc, q,
                                           idx(rewriter, loc, runsPerRow));
        Value perRow = idx(rewriter, loc, runsPerRow);
        Value runInRow = arith::RemUIOp::create(rewriter, loc, q, perRow);
        Value runLength = idx(rewriter, loc, run);
        Value colRun =
            arith::MulIOp::create(rewriter, loc, runInRow, runLength);
        Value gRow = arith::AddIOp::create(rewriter, loc, adaptor.getIndices()[0],
                                           row);
        Value chunkStart = idx(rewriter, loc, chunk * width);
        Value colInTile =
            arith::AddIOp::create(rewriter, loc, colRun, chunkStart);
        Value gCol = arith::AddIOp::create(
            rewriter, loc, adaptor.getIndices()[1], colInTile);
        // Rows are whole runs: a run is wholly inside or wholly outside.
        Value inside = insideRowsCols(rewriter, loc, gRow, gCol,
                                      dest.getDimSize(0), dest.getDimSize(1));
        auto ifInside = scf::IfOp::create(rewriter, loc, inside, false);
        rewriter.setInsertionPoint(ifInside.thenBlock()->getTerminator());
        Value values = vector::LoadOp::create(
            rewriter, loc, runType, scratch,
            ValueRange{arith::AddIOp::create(
                rewriter, loc,
                arith::MulIOp::create(rewriter, loc, row,
                                      idx(rewriter, loc, stride)),
                colRun)},
            false, llvm::MaybeAlign(16));
        vector::StoreOp::create(rewriter, loc, values, adaptor.getDest(),
                                ValueRange{gRow, gCol}, false,
                                llvm::MaybeAlign(16));
      }
    }
    layout.barrier(rewriter, loc); // the scratch is free again
    (void)pairType;
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.tma_store: block by block (128 bytes of each row), every thread
/// writes its fragment pairs into a staging slot swizzled as the TMA's
/// 128-byte swizzle reads it (16-byte unit u of row r at u ^ (r mod 8):
/// a warp's pairs of 8 rows land in 8 different banks), fences them for
/// the async proxy, and after the scope's barrier one thread asks the TMA
/// to copy the slot out (cp.async.bulk.tensor, one bulk group a block).
/// Before that barrier the same thread waits until every earlier copy has
/// read its slot, so the slot the next block writes is free once the
/// barrier passes; where the first block's slot may still be read by the
/// last copy of the op's previous run (one slot, or an odd number of
/// blocks), the op starts with that wait and a barrier. The scope's end
/// waits for its copies to finish.
struct TmaStoreLowering : SIMTPattern<TmaStoreOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(TmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<TileType>(op.getValue().getType());
    Type element = type.getElementType();
    int64_t eb = storageBytes(element);
    int64_t rows = type.getDimSize(0), blockCols = 128 / eb;
    int64_t blocks = type.getDimSize(1) / blockCols;
    int64_t slots = op.getStaging().getType().getDimSize(0);
    int64_t slotBytes = rows * 128;
    LinearLayout linear = *getLinearLayout(type.getLayout(), type.getShape());
    // The swizzle's row bits must be the thread's alone: slots 8 rows
    // apart, as every MMA fragment's are.
    for (int64_t s = 0; s < linear.getNumSlots(); ++s)
      if (linear.slotOffset(s)[0] % 8 != 0)
        return op.emitOpError()
               << "needs its layout's slots a multiple of 8 rows apart";
    // The most column bytes a thread adds (lanes and warps), with a pair:
    // every pair must stay in its slot's 128-byte block (warps along N
    // would take it into the next).
    int64_t threadColBytes = 0;
    for (int64_t w = 0; w < linear.getNumWarps(); ++w)
      for (int64_t l = 0; l < 32; ++l)
        threadColBytes =
            std::max(threadColBytes, linear.apply(0, l, w)[1] * eb);
    threadColBytes += 2 * eb;
    for (int64_t s = 0; s < linear.getNumSlots(); s += 2)
      if ((linear.slotOffset(s)[1] % blockCols) * eb + threadColBytes > 128)
        return op.emitOpError()
               << "needs each thread's pairs in one 128-byte column block "
                  "(a layout whose warps are along M)";

    auto bytes = [&](int64_t v) { return idx(rewriter, loc, v); };
    SmallVector<Value> thread = layout.threadCoordinates(rewriter, loc, type);
    // A slot's byte (r, c): r * 128 + c * eb, its 16-byte unit xor-ed with
    // r mod 8 (the thread's, see above).
    Value rowBytes =
        arith::MulIOp::create(rewriter, loc, thread[0], bytes(128));
    Value colBytes = arith::MulIOp::create(rewriter, loc, thread[1], bytes(eb));
    Value flip = arith::ShLIOp::create(
        rewriter, loc,
        arith::AndIOp::create(rewriter, loc, thread[0], bytes(7)), bytes(4));
    Value threadBase = arith::AddIOp::create(rewriter, loc, rowBytes, colBytes);
    auto shared = op.getStaging().getDefiningOp<SharedOp>();
    int64_t stagingAt = layout.sharedOffsets.lookup(shared);
    Value buffer = layout.sharedViewAt(
        rewriter, loc, element, slots * slotBytes / eb, bytes(stagingAt));

    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    auto boxType = MemRefType::get({rows, blockCols}, element,
                                   MemRefLayoutAttrInterface(), workgroup);
    Value desc = typedTmaDescriptor(rewriter, loc, adaptor.getDescriptor(),
                                    boxType, /*swizzle=*/128);
    auto onElected = [&](function_ref<void()> build) {
      Value elected = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::eq, layout.threadId, bytes(0));
      auto ifElected = scf::IfOp::create(rewriter, loc, elected, false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifElected.thenBlock()->getTerminator());
      build();
    };
    auto copiesRead = [&] {
      NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, loc, 0,
                                           rewriter.getUnitAttr());
    };
    auto slotFree = [&] {
      onElected(copiesRead);
      layout.barrier(rewriter, loc);
    };
    if (slots == 1 || blocks % 2 == 1)
      slotFree();
    auto baseType =
        MemRefType::get({ShapedType::kDynamic}, rewriter.getI8Type(),
                        MemRefLayoutAttrInterface(), workgroup);
    for (int64_t block = 0; block < blocks; ++block) {
      int64_t slot = block % slots;
      if (slots == 1 && block > 0)
        slotFree();
      for (int64_t s = 0; s < linear.getNumSlots(); s += 2) {
        Offset at = linear.slotOffset(s);
        if (at[1] / blockCols != block)
          continue;
        int64_t slotCol = (at[1] - block * blockCols) * eb;
        int64_t constant = slot * slotBytes + at[0] * 128;
        Value offset;
        if (slotCol % 16 + threadColBytes <= 16) {
          // The thread's bytes and the pair stay in the slot column's
          // 16-byte unit: the xor moves that unit alone, so the address
          // is the thread's base plus one of 8 per-thread values plus a
          // constant (an immediate offset).
          Value unit =
              arith::XOrIOp::create(rewriter, loc, flip, bytes(slotCol & 0x70));
          offset = arith::AddIOp::create(
              rewriter, loc,
              arith::AddIOp::create(rewriter, loc, threadBase, unit),
              bytes(constant + (slotCol & ~int64_t(0x70))));
        } else {
          Value inRow =
              arith::AddIOp::create(rewriter, loc, colBytes, bytes(slotCol));
          Value swizzled = arith::XOrIOp::create(rewriter, loc, inRow, flip);
          offset = arith::AddIOp::create(
              rewriter, loc,
              arith::AddIOp::create(rewriter, loc, rowBytes, swizzled),
              bytes(constant));
        }
        Value index = arith::DivUIOp::create(rewriter, loc, offset, bytes(eb));
        Value pair = evaluatePair(rewriter, loc, op.getValue(), s);
        vector::StoreOp::create(rewriter, loc, pair, buffer, ValueRange{index},
                                false, llvm::MaybeAlign(2 * eb));
      }
      // The writes, for the TMA (the async proxy) to read; and every
      // earlier copy has read its slot once the barrier passes.
      NVVM::FenceProxyOp::create(
          rewriter, loc,
          NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
          NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
      if (slots == 2)
        onElected(copiesRead);
      layout.barrier(rewriter, loc);
      onElected([&] {
        Value dynamic =
            gpu::DynamicSharedMemoryOp::create(rewriter, loc, baseType);
        Value start = bytes(stagingAt + slot * slotBytes);
        if (layout.alignBase)
          start =
              arith::AddIOp::create(rewriter, loc, layout.alignedBase, start);
        Value source = memref::ViewOp::create(rewriter, loc, boxType, dynamic,
                                              start, ValueRange{});
        // TMA coordinates are innermost first.
        Value col = arith::AddIOp::create(
            rewriter, loc, adaptor.getIndices()[1], bytes(block * blockCols));
        nvgpu::TmaAsyncStoreOp::create(rewriter, loc, source, desc,
                                       ValueRange{col, adaptor.getIndices()[0]},
                                       Value());
        NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
      });
    }
    // The scope's end (after the op's outermost loop in it) waits for the
    // copies to finish: shared memory must outlive their reads.
    Region *scope = layout.partition;
    Operation *outer = op;
    while (outer->getParentRegion() != scope &&
           !isa<gpu::LaunchOp>(outer->getParentOp()))
      outer = outer->getParentOp();
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointAfter(outer);
      onElected([&] {
        NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, loc, 0, UnitAttr());
      });
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A load into an MMA-family layout: slots in runs of consecutive columns
/// (the slot bits whose bases are columns 1, 2, 4, ...) move as one vector
/// where the run is inside the memref, element by element (masked) where
/// it is not.
struct LinearLoadLowering : SIMTPattern<LoadOp> {
  LinearLoadLowering(const TypeConverter &converter, MLIRContext *ctx,
                     SIMTLayout &layout)
      : SIMTPattern(converter, ctx, layout, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<TileType>(op.getType());
    MemRefType source = op.getSource().getType();
    if (!isLinearLayout(type.getLayout()) || !source.hasStaticShape() ||
        !source.getLayout().isIdentity() ||
        type.getElementTypeBitWidth() % 8 != 0)
      return rewriter.notifyMatchFailure(op, "not an MMA-family load");
    layout.enter(op);
    Location loc = op.getLoc();
    LinearLayout linear = *getLinearLayout(type.getLayout(), type.getShape());
    int rank = type.getRank(), last = rank - 1;
    int64_t run = 1;
    for (const Offset &basis : linear.slot) {
      Offset expected = {0, 0};
      expected[last] = run;
      if (basis != expected)
        break;
      run *= 2;
    }
    int64_t cols = source.getDimSize(last);
    // Runs must start aligned: every row of whole runs, and the column
    // offset a multiple of the run.
    if (run == 1 || cols % run != 0 || cols < run ||
        !isProvablyMultipleOf(adaptor.getIndices()[last], run))
      return rewriter.notifyMatchFailure(op, "no runs");
    Type element = type.getElementType();
    SmallVector<Value> base = layout.threadCoordinates(rewriter, loc, type);
    for (int d = 0; d < rank; ++d)
      base[d] = arith::AddIOp::create(rewriter, loc, base[d],
                                      adaptor.getIndices()[d]);
    TypedAttr padding = op.getPaddingAttr() ? op.getPaddingAttr()
                                            : rewriter.getZeroAttr(element);
    auto runType = VectorType::get({run}, element);
    Value padRun = arith::ConstantOp::create(
        rewriter, loc, runType, DenseElementsAttr::get(runType, padding));
    VectorType vt = layout.vectorType(type);
    Value result = arith::ConstantOp::create(
        rewriter, loc, vt, DenseElementsAttr::get(vt, padding));
    for (int64_t s = 0; s < linear.getNumSlots(); s += run) {
      SmallVector<Value> at;
      Value inside;
      for (int d = 0; d < rank; ++d) {
        Value global = arith::AddIOp::create(
            rewriter, loc, base[d],
            idx(rewriter, loc, linear.slotOffset(s)[d]));
        int64_t extent = source.getDimSize(d);
        Value ok = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ult, global,
            idx(rewriter, loc, extent));
        inside = inside ? arith::AndIOp::create(rewriter, loc, inside, ok) : ok;
        // Branch-free: the address clamped into the memref (its last run
        // along the row), the padding selected where the run is outside.
        // (One branch per run kept GEMM + bias's 32 bias loads, their
        // addresses and the accumulators live at once: 164 bytes of
        // spills.)
        at.push_back(arith::MinUIOp::create(
            rewriter, loc, global,
            idx(rewriter, loc, d == last ? extent - run : extent - 1)));
      }
      Value loaded =
          loadRun(rewriter, loc, runType, adaptor.getSource(), at,
                  run * storageBytes(element), op.getL2Fetch());
      Value runValue = arith::SelectOp::create(rewriter, loc, inside, loaded,
                                               padRun);
      SmallVector<int64_t> lanes;
      for (int64_t i = 0; i < vt.getNumElements(); ++i)
        lanes.push_back(i >= s && i < s + run ? vt.getNumElements() + i - s : i);
      result = vector::ShuffleOp::create(rewriter, loc, result, runValue,
                                         lanes);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void simt::populateLinearLayoutPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        SIMTLayout &layout) {
  patterns.add<LinearBroadcastLowering, LinearReduceLowering, MmaStoreLowering,
               TmaStoreLowering, LinearLoadLowering, SlotPermutationLowering>(
      converter, patterns.getContext(), layout);
}
