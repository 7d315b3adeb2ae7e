//===- SharedMemory.cpp - Tiles in shared memory, copies, barriers -*- C++ -*-===//
//
// The patterns for tiles that live in shared memory and the ops that move
// them: tile.view (a slot of a tile.shared ring), tile.load into shared
// memory (cooperative, synchronous), tile.async_load (cp.async), tile.tma_load
// (the TMA on an mbarrier), tile.barrier_group / tile.arrive / tile.barrier,
// tile.last_arrival (a counter in global memory across programs),
// tile.cluster_sum (distributed shared memory across a cluster),
// and tile.convert_layout between register layouts or into shared memory
// (through the scratch region). A tile in shared memory is a flat
// memref<N x T, workgroup> made by memref.view of the dynamic shared memory
// at the tile's byte offset; its #tile.shared layout says where each
// element is (TileLayouts.h).
//
//===----------------------------------------------------------------------===//

#include "SIMTLowering.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::simt;

void simt::fenceAsyncProxy(OpBuilder &b, Location loc,
                           const SIMTLayout &layout) {
  if (!layout.asyncProxyReads)
    return;
  NVVM::FenceProxyOp::create(
      b, loc,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}

Value simt::typedTmaDescriptor(OpBuilder &b, Location loc, Value pointer,
                               MemRefType box, int64_t swizzle) {
  nvgpu::TensorMapSwizzleKind kind =
      swizzle == 128  ? nvgpu::TensorMapSwizzleKind::SWIZZLE_128B
      : swizzle == 64 ? nvgpu::TensorMapSwizzleKind::SWIZZLE_64B
      : swizzle == 32 ? nvgpu::TensorMapSwizzleKind::SWIZZLE_32B
                      : nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE;
  auto type = nvgpu::TensorMapDescriptorType::get(
      b.getContext(), box, kind, nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  return UnrealizedConversionCastOp::create(b, loc, type, pointer).getResult(0);
}

namespace {

/// The byte offset, past the dynamic shared memory's start, of a tile in
/// shared memory as this lowering made it (a memref.view).
FailureOr<Value> byteOffsetOf(Value flat) {
  auto view = flat.getDefiningOp<memref::ViewOp>();
  if (!view)
    return failure();
  return view.getByteShift();
}

/// Copies the tile of `type` at `indices` of `source` into `dest` (the flat
/// view of a tile in shared memory), each thread of the scope its share of
/// 16-byte chunks: with cp.async (`async`, its copies join the thread's
/// open group) or through registers. Chunks past `source`'s bounds are
/// zeros. Without 16-byte chunks (rows that are not whole 16-byte runs,
/// or a column offset that may not be a multiple of one), element by
/// element through registers; cp.async then fails.
LogicalResult copyToShared(OpBuilder &b, Location loc, const SIMTLayout &layout,
                           Operation *op, MemRefType sourceType, Value source,
                           ValueRange indices, TileType type, Value dest,
                           bool async) {
  Type element = type.getElementType();
  int64_t eb = storageBytes(element);
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t srcRows = sourceType.getDimSize(0), srcCols = sourceType.getDimSize(1);
  int64_t run = 16 / eb;
  bool chunks = element.getIntOrFloatBitWidth() % 8 == 0 &&
                sourceType.getLayout().isIdentity() &&
                (srcCols * eb) % 16 == 0 && (cols * eb) % 16 == 0 &&
                isProvablyMultipleOf(indices[1], run);
  Value tid = layout.threadId;
  int64_t threads = layout.threads;
  if (!chunks) {
    if (async)
      return op->emitOpError()
             << "needs rows of whole 16-byte runs at 16-byte-aligned columns "
                "for cp.async but got "
             << sourceType;
    // Element by element, through registers.
    int64_t elements = rows * cols;
    for (int64_t p = 0; p * threads < elements; ++p) {
      Value q = arith::AddIOp::create(b, loc, tid, idx(b, loc, p * threads));
      Value inTile = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           q, idx(b, loc, elements));
      auto guard = scf::IfOp::create(b, loc, inTile, /*withElse=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(guard.thenBlock()->getTerminator());
      Value row = arith::DivUIOp::create(b, loc, q, idx(b, loc, cols));
      Value col = arith::RemUIOp::create(b, loc, q, idx(b, loc, cols));
      Value gRow = arith::AddIOp::create(b, loc, indices[0], row);
      Value gCol = arith::AddIOp::create(b, loc, indices[1], col);
      Value inside = insideRowsCols(b, loc, gRow, gCol, srcRows, srcCols);
      auto load = scf::IfOp::create(b, loc, element, inside, true);
      {
        OpBuilder::InsertionGuard inner(b);
        b.setInsertionPointToStart(load.thenBlock());
        scf::YieldOp::create(b, loc,
                             memref::LoadOp::create(b, loc, source,
                                                    ValueRange{gRow, gCol})
                                 .getResult());
        b.setInsertionPointToStart(load.elseBlock());
        scf::YieldOp::create(
            b, loc,
            arith::ConstantOp::create(b, loc, b.getZeroAttr(element))
                .getResult());
      }
      Value byteOffset = sharedByteOffsetValue(b, loc, type, row, col);
      Value elementBytes = idx(b, loc, eb);
      Value at = arith::DivUIOp::create(b, loc, byteOffset, elementBytes);
      memref::StoreOp::create(b, loc, load.getResult(0), dest, ValueRange{at});
    }
    return success();
  }
  int64_t perRow = cols / run;
  int64_t total = rows * perRow;
  auto runType = VectorType::get({run}, element);
  for (int64_t p = 0; p * threads < total; ++p) {
    Value q = arith::AddIOp::create(b, loc, tid, idx(b, loc, p * threads));
    OpBuilder::InsertionGuard g(b);
    if ((p + 1) * threads > total) {
      Value inTile = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           q, idx(b, loc, total));
      auto guard = scf::IfOp::create(b, loc, inTile, /*withElse=*/false);
      b.setInsertionPoint(guard.thenBlock()->getTerminator());
    }
    Value row = arith::DivUIOp::create(b, loc, q, idx(b, loc, perRow));
    Value runsPerRow = idx(b, loc, perRow);
    Value runInRow = arith::RemUIOp::create(b, loc, q, runsPerRow);
    Value runLength = idx(b, loc, run);
    Value col = arith::MulIOp::create(b, loc, runInRow, runLength);
    Value gRow = arith::AddIOp::create(b, loc, indices[0], row);
    Value gCol = arith::AddIOp::create(b, loc, indices[1], col);
    // Rows are whole runs, so a run is wholly inside or wholly outside.
    Value inside = insideRowsCols(b, loc, gRow, gCol, srcRows, srcCols);
    Value byteOffset = sharedByteOffsetValue(b, loc, type, row, col);
    Value elementBytes = idx(b, loc, eb);
    Value at = arith::DivUIOp::create(b, loc, byteOffset, elementBytes);
    if (async) {
      // Outside, nothing is read (source size 0) and zeros land; the
      // address is clamped into the source so that it stays valid.
      Value whole = idx(b, loc, run);
      Value none = idx(b, loc, 0);
      Value srcElements =
          arith::SelectOp::create(b, loc, inside, whole, none);
      Value safeRow = arith::MinUIOp::create(b, loc, gRow,
                                             idx(b, loc, srcRows - 1));
      Value safeCol = arith::MinUIOp::create(b, loc, gCol,
                                             idx(b, loc, srcCols - run));
      nvgpu::DeviceAsyncCopyOp::create(
          b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), dest,
          ValueRange{at}, source, ValueRange{safeRow, safeCol},
          b.getIndexAttr(run), srcElements, /*bypassL1=*/b.getUnitAttr());
      continue;
    }
    auto load = scf::IfOp::create(b, loc, runType, inside, true);
    {
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPointToStart(load.thenBlock());
      scf::YieldOp::create(
          b, loc,
          vector::LoadOp::create(b, loc, runType, source,
                                 ValueRange{gRow, gCol}, false,
                                 llvm::MaybeAlign(16))
              .getResult());
      b.setInsertionPointToStart(load.elseBlock());
      scf::YieldOp::create(
          b, loc,
          arith::ConstantOp::create(
              b, loc, runType,
              DenseElementsAttr::get(runType, b.getZeroAttr(element)))
              .getResult());
    }
    vector::StoreOp::create(b, loc, load.getResult(0), dest, ValueRange{at},
                            false, llvm::MaybeAlign(16));
  }
  return success();
}

struct ViewLowering : SIMTPattern<ViewOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(ViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    auto shared = op.getBuffer().getDefiningOp<SharedOp>();
    auto type = cast<TileType>(op.getType());
    MemRefType buffer = op.getBuffer().getType();
    int64_t eb = storageBytes(type.getElementType());
    std::optional<int64_t> column = op.getColumn();
    // A part of each slot's columns or rows: the slot is larger than the
    // tile.
    int64_t slotBytes =
        column || op.getRow()
            ? eb * ShapedType::getNumElements(buffer.getShape().drop_front(
                       adaptor.getIndices().size()))
            : sharedBytesOf(type);
    Value slot = idx(rewriter, loc, 0);
    for (auto [d, index] : llvm::enumerate(adaptor.getIndices()))
      slot = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, slot,
                                idx(rewriter, loc, buffer.getDimSize(d))),
          index);
    Value bufferStart = idx(rewriter, loc, layout.sharedOffsets.lookup(shared));
    Value slotSize = idx(rewriter, loc, slotBytes);
    Value slotStart = arith::MulIOp::create(rewriter, loc, slot, slotSize);
    Value offset =
        arith::AddIOp::create(rewriter, loc, bufferStart, slotStart);
    // A part of each slot's columns: its first column's bytes in, in rows
    // of the slot's pitch (the tile's padded row), or in a swizzled slot
    // its column block's and then its bytes into that block's rows (a
    // wgmma descriptor from this address then walks the slot's swizzled
    // rows). (Its flat view, as the tile's type converts, then reaches
    // that far past the slot; no access does.)
    if (column && *column) {
      int64_t bytes = *column * eb;
      if (int64_t swizzle = cast<SharedLayoutAttr>(type.getLayout())
                                .getSwizzle()) {
        int64_t blockCols = swizzle / eb;
        bytes = (*column / blockCols) * type.getDimSize(0) * swizzle +
                (*column % blockCols) * eb;
      }
      offset = arith::AddIOp::create(rewriter, loc, offset,
                                     idx(rewriter, loc, bytes));
    }
    // A part of each slot's rows: its first row's bytes in (the slot's
    // rows lie one after the other: unswizzled, or one column block).
    if (Value row = adaptor.getRow())
      offset = arith::AddIOp::create(
          rewriter, loc, offset,
          arith::MulIOp::create(rewriter, loc, row,
                                idx(rewriter, loc, type.getDimSize(1) * eb)));
    rewriter.replaceOp(op, layout.sharedViewAt(rewriter, loc,
                                               type.getElementType(),
                                               sharedBytesOf(type) / eb,
                                               offset));
    return success();
  }
};

/// tile.load into shared memory: a tile of its own in shared memory,
/// written by every thread and then visible to all of them (and to the
/// async proxy). The barrier before it lets the readers of the previous
/// tile there (the last loop iteration's) finish first.
struct LoadToSharedLowering : SIMTPattern<LoadOp> {
  LoadToSharedLowering(const TypeConverter &converter, MLIRContext *ctx,
                       SIMTLayout &layout)
      : SIMTPattern(converter, ctx, layout, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<TileType>(op.getType());
    if (!isSharedTile(type))
      return rewriter.notifyMatchFailure(op, "a load into registers");
    layout.enter(op);
    Location loc = op.getLoc();
    if (type.getRank() != 2)
      return op.emitOpError() << "loads rank-2 tiles into shared memory only";
    Value dest = layout.sharedViewAt(
        rewriter, loc, type.getElementType(),
        sharedBytesOf(type) / storageBytes(type.getElementType()),
        idx(rewriter, loc, layout.sharedOffsets.lookup(op)));
    layout.barrier(rewriter, loc);
    if (failed(copyToShared(rewriter, loc, layout, op, op.getSource().getType(),
                            adaptor.getSource(), adaptor.getIndices(), type,
                            dest, /*async=*/false)))
      return failure();
    fenceAsyncProxy(rewriter, loc, layout);
    layout.barrier(rewriter, loc);
    rewriter.replaceOp(op, dest);
    return success();
  }
};

struct AsyncLoadLowering : SIMTPattern<AsyncLoadOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(AsyncLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    auto type = cast<TileType>(op.getDest().getType());
    if (!layout.asyncCopies)
      return op.emitOpError() << "needs cp.async (sm_80 or later)";
    if (type.getRank() != 2)
      return op.emitOpError() << "copies rank-2 tiles only";
    if (failed(copyToShared(rewriter, op.getLoc(), layout, op,
                            op.getSource().getType(), adaptor.getSource(),
                            adaptor.getIndices(), type, adaptor.getDest(),
                            /*async=*/true)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncCommitLowering : SIMTPattern<AsyncCommitOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(AsyncCommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (layout.asyncCopies)
      rewriter.replaceOpWithNewOp<NVVM::CpAsyncCommitGroupOp>(op);
    else
      rewriter.eraseOp(op);
    return success();
  }
};

/// One thread of the scope announces the tile's bytes to the barrier and
/// issues one TMA copy per box (the descriptor's box is [rows, swizzle
/// width]; the tile is boxes side by side, each rows x swizzle bytes).
/// Multicast: each box to every program of the mask, and the bytes that
/// land here announced (the tile's times the mask's programs, each of
/// which copies as much to all).
struct TmaLoadLowering : SIMTPattern<TmaLoadOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(TmaLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto type = cast<TileType>(op.getDest().getType());
    auto shared = cast<SharedLayoutAttr>(type.getLayout());
    Type element = type.getElementType();
    int64_t eb = storageBytes(element);
    int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
    int64_t swizzle = shared.getSwizzle();
    int64_t boxCols = tmaBoxCols(type);
    FailureOr<Value> base = byteOffsetOf(adaptor.getDest());
    if (failed(base))
      return op.emitOpError() << "needs its destination from tile.view or a "
                                 "tile.load into shared memory";
    auto workgroup = gpu::AddressSpaceAttr::get(ctx,
                                                gpu::AddressSpace::Workgroup);
    auto box = MemRefType::get({rows, boxCols}, element,
                               MemRefLayoutAttrInterface(), workgroup);
    Value desc = typedTmaDescriptor(rewriter, loc, adaptor.getDescriptor(), box,
                                    swizzle);
    Value elected = arith::CmpIOp::create(rewriter, loc,
                                          arith::CmpIPredicate::eq,
                                          layout.threadId, idx(rewriter, loc, 0));
    auto ifElected = scf::IfOp::create(rewriter, loc, elected, false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifElected.thenBlock()->getTerminator());
    std::optional<uint64_t> multicast = op.getMulticast();
    int64_t copies = multicast ? llvm::popcount(*multicast) : 1;
    nvgpu::MBarrierArriveExpectTxOp::create(
        rewriter, loc, adaptor.getBarriers(),
        idx(rewriter, loc, rows * cols * eb * copies), adaptor.getIndex(),
        Value());
    Value mask;
    if (multicast)
      mask = arith::ConstantIntOp::create(rewriter, loc, rewriter.getI16Type(),
                                          static_cast<int64_t>(*multicast));
    auto baseType = MemRefType::get({ShapedType::kDynamic},
                                    rewriter.getI8Type(),
                                    MemRefLayoutAttrInterface(), workgroup);
    Value dynamic = gpu::DynamicSharedMemoryOp::create(rewriter, loc, baseType);
    for (int64_t b = 0; b < cols / boxCols; ++b) {
      Value offset = arith::AddIOp::create(
          rewriter, loc, *base, idx(rewriter, loc, b * rows * boxCols * eb));
      Value dst = memref::ViewOp::create(rewriter, loc, box, dynamic, offset,
                                         ValueRange{});
      // TMA coordinates are innermost first.
      Value col = arith::AddIOp::create(rewriter, loc, adaptor.getIndices()[1],
                                        idx(rewriter, loc, b * boxCols));
      nvgpu::TmaAsyncLoadOp::create(
          rewriter, loc, dst, adaptor.getBarriers(), desc,
          ValueRange{col, adaptor.getIndices()[0]}, adaptor.getIndex(), mask,
          Value());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The group's barriers, initialized by thread 0 and visible to every
/// thread after a launch-wide barrier.
struct BarrierGroupLowering : SIMTPattern<BarrierGroupOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(BarrierGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    auto type = cast<nvgpu::MBarrierGroupType>(op.getType());
    Value group = nvgpu::MBarrierCreateOp::create(rewriter, loc, type);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        layout.launch.threadId,
                                        idx(rewriter, loc, 0));
    auto init = scf::IfOp::create(rewriter, loc, first, false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(init.thenBlock()->getTerminator());
      for (int64_t i = 0; i < type.getNumBarriers(); ++i) {
        Value arrivals = idx(rewriter, loc, op.getArrivals());
        Value barrier = idx(rewriter, loc, i);
        nvgpu::MBarrierInitOp::create(rewriter, loc, group, arrivals, barrier,
                                      Value());
      }
    }
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, group);
    return success();
  }
};

/// Each warp: its lanes reconverge, then lane 0 arrives (every_thread:
/// each thread arrives). With ranks, lane 0 arrives on the barrier's
/// counterpart in each program of the mask: its address there (mapa) and
/// an arrive of the default release.cta semantics, as CUTLASS's
/// ClusterBarrier::arrive(cta_id). What it orders is the warp's reads of a
/// ring slot, which tile.wgmma_wait has completed. Releasing at cluster
/// scope instead made ptxas put MEMBAR.ALL.GPU before every arrive, in the
/// K loop: an FP8 GEMM in clusters of two ran 1.86x slower on the H200
/// (bench/RESULTS.md, session 44).
struct ArriveLowering : SIMTPattern<ArriveOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(ArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    if (op.getEveryThread()) {
      nvgpu::MBarrierArriveOp::create(rewriter, loc, adaptor.getBarriers(),
                                      adaptor.getIndex());
      rewriter.eraseOp(op);
      return success();
    }
    NVVM::SyncWarpOp::create(
        rewriter, loc,
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), -1));
    Value lane = arith::RemUIOp::create(rewriter, loc, layout.threadId,
                                        idx(rewriter, loc, 32));
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        lane, idx(rewriter, loc, 0));
    auto ifFirst = scf::IfOp::create(rewriter, loc, first, false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
    std::optional<uint64_t> ranks = op.getRanks();
    if (!ranks) {
      nvgpu::MBarrierArriveOp::create(rewriter, loc, adaptor.getBarriers(),
                                      adaptor.getIndex());
      rewriter.eraseOp(op);
      return success();
    }
    auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    auto clusterPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 7);
    Value address = nvgpu::MBarrierGetOp::create(
        rewriter, loc, rewriter.getI64Type(), adaptor.getBarriers(),
        adaptor.getIndex());
    Value local = LLVM::IntToPtrOp::create(rewriter, loc, sharedPtr, address);
    for (uint64_t left = *ranks; left; left &= left - 1) {
      Value rank = arith::ConstantIntOp::create(
          rewriter, loc, rewriter.getI32Type(), llvm::countr_zero(left));
      Value there =
          NVVM::MapaOp::create(rewriter, loc, clusterPtr, local, rank);
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), there, Value(),
                                     NVVM::MemScopeKind::CTA);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Every thread: the barriers it initialized and its writes released to
/// the cluster, then the cluster's barrier (not .aligned: a producer
/// partition's lanes reach it from different branches).
struct ClusterBarrierLowering : SIMTPattern<ClusterBarrierOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(ClusterBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto launch = op->getParentOfType<gpu::LaunchOp>();
    if (!launch || !launch.hasClusterSize())
      return op.emitOpError() << "needs a launch in clusters (its kernel's "
                                 "config's cluster)";
    Location loc = op.getLoc();
    NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    NVVM::ClusterArriveOp::create(rewriter, loc, UnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, loc, UnitAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

struct BarrierLowering : SIMTPattern<BarrierOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(BarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    layout.barrier(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tile.replica: the copy of the partition's scope (Partitions.cpp), 0 in
/// a scope of one copy.
struct ReplicaLowering : SIMTPattern<ReplicaOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(ReplicaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Value replica = layout.replica;
    if (!replica)
      replica = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0);
    rewriter.replaceOp(op, replica);
    return success();
  }
};

/// Warpgroup turns (tile.turn_*): warpgroup w's turn barrier is named
/// barrier kFirstTurnBarrier + w, counting its 128 threads' bar.sync and
/// the previous warpgroup's 128 bar.arrive. Named barriers 1 and up serve
/// tile.warp_specialize's partitions (one each, one a copy of a
/// replicated partition, SIMTLayout::barrier); these start above the
/// partitions of a kernel that takes turns (two: pingpong has one consumer
/// partition; k_warpgroups' 1 + G copies never take turns, #tile.config's
/// verifier).
/// The last turn's arrive is never waited for: it stays pending on
/// barrier kFirstTurnBarrier until the program exits (as FlashAttention
/// 3's scheduler barrier leaves it), so nothing else may use these ids.
constexpr int64_t kFirstTurnBarrier = 8;
constexpr int64_t kWarpgroupThreads = 128;

/// The warpgroup of the current thread in its scope, and the scope's count.
std::pair<Value, int64_t> warpgroupOf(OpBuilder &b, Location loc,
                                      const SIMTLayout &layout) {
  Value group = arith::DivUIOp::create(b, loc, layout.threadId,
                                       idx(b, loc, kWarpgroupThreads));
  return {group, layout.threads / kWarpgroupThreads};
}

/// Named barrier kFirstTurnBarrier + `group` (an index), as an i32.
Value turnBarrier(OpBuilder &b, Location loc, Value group) {
  Value id = arith::AddIOp::create(b, loc, group, idx(b, loc, kFirstTurnBarrier));
  return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), id);
}

Value turnThreads(OpBuilder &b, Location loc) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                      2 * kWarpgroupThreads);
}

struct TurnStartLowering : SIMTPattern<TurnStartOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(TurnStartOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op); // checkLaunch saw two or more warpgroups
    Location loc = op.getLoc();
    auto [group, groups] = warpgroupOf(rewriter, loc, layout);
    Value last = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       group, idx(rewriter, loc, groups - 1));
    auto ifLast = scf::IfOp::create(rewriter, loc, last, false);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(ifLast.thenBlock()->getTerminator());
    NVVM::BarrierArriveOp::create(
        rewriter, loc,
        arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(),
                                     kFirstTurnBarrier),
        turnThreads(rewriter, loc));
    rewriter.eraseOp(op);
    return success();
  }
};

struct TurnBeginLowering : SIMTPattern<TurnBeginOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(TurnBeginOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op); // checkLaunch saw two or more warpgroups
    Location loc = op.getLoc();
    Value group = warpgroupOf(rewriter, loc, layout).first;
    NVVM::BarrierOp::create(rewriter, loc, Type(),
                            turnBarrier(rewriter, loc, group),
                            turnThreads(rewriter, loc),
                            NVVM::BarrierReductionAttr(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TurnEndLowering : SIMTPattern<TurnEndOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(TurnEndOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op); // checkLaunch saw two or more warpgroups
    Location loc = op.getLoc();
    auto [group, groups] = warpgroupOf(rewriter, loc, layout);
    Value next = arith::RemUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, group, idx(rewriter, loc, 1)),
        idx(rewriter, loc, groups));
    NVVM::BarrierArriveOp::create(rewriter, loc,
                                  turnBarrier(rewriter, loc, next),
                                  turnThreads(rewriter, loc));
    rewriter.eraseOp(op);
    return success();
  }
};

/// The fence / barrier / one atomic / fence of a grid-wide arrival, as
/// CUDA's cooperative groups synchronize a grid: every thread's global
/// stores are released at GPU scope before the scope's barrier; its first
/// thread adds one to the counter (the last to arrive also puts it back to
/// 0), fences again (the acquiring side) and writes the answer to the
/// scratch region, which every thread reads after a barrier (and a last
/// barrier frees the scratch, as for every user of it). The atomic adds the
/// arrival's weight; the last arrival is the one that makes the count.
struct LastArrivalLowering : SIMTPattern<LastArrivalOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(LastArrivalOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value flag = layout.sharedView(rewriter, loc, i32, 1, 0);
    Value zeroIndex = idx(rewriter, loc, 0);
    // CUTLASS's semaphore: the program's barrier, then one thread's
    // acquire-release fence (cumulative over what the barrier ordered
    // before it) and its atomic; the last program's fence after the atomic
    // orders its reads of the others' partials, and the barrier below
    // passes that on to its threads. (A sequentially consistent fence in
    // every thread, as before, was 4% of an int4 split-K kernel's stall
    // samples on the H200.)
    auto fence = [&]() {
      LLVM::InlineAsmOp::create(
          rewriter, loc, Type(), ValueRange{}, "fence.acq_rel.gpu;",
          "~{memory}", /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
          ArrayAttr());
    };
    layout.barrier(rewriter, loc);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        layout.threadId, zeroIndex);
    auto ifFirst = scf::IfOp::create(rewriter, loc, first, false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
      fence();
      // One program an arrival: the count's last is the one that finds
      // count - 1 arrivals before it; a weighted arrival, the one whose
      // weight makes the count.
      Value weight =
          adaptor.getWeight()
              ? arith::IndexCastOp::create(rewriter, loc, i32,
                                           adaptor.getWeight())
                    .getResult()
              : arith::ConstantIntOp::create(rewriter, loc, i32, 1).getResult();
      Value before = memref::AtomicRMWOp::create(
          rewriter, loc, arith::AtomicRMWKind::addi, weight,
          adaptor.getCounters(), ValueRange{adaptor.getIndex()});
      Value last;
      if (adaptor.getWeight()) {
        Value after = arith::AddIOp::create(rewriter, loc, before, weight);
        Value count =
            arith::ConstantIntOp::create(rewriter, loc, i32, op.getCount());
        last = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     after, count);
      } else {
        Value lastCount =
            arith::ConstantIntOp::create(rewriter, loc, i32, op.getCount() - 1);
        last = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     before, lastCount);
      }
      auto ifLast = scf::IfOp::create(rewriter, loc, last, false);
      rewriter.setInsertionPoint(ifLast.thenBlock()->getTerminator());
      Value zero = arith::ConstantIntOp::create(rewriter, loc, i32, 0);
      memref::StoreOp::create(rewriter, loc, zero, adaptor.getCounters(),
                              ValueRange{adaptor.getIndex()});
      rewriter.setInsertionPointAfter(ifLast);
      fence();
      memref::StoreOp::create(rewriter, loc,
                              arith::ExtUIOp::create(rewriter, loc, i32, last),
                              flag, ValueRange{zeroIndex});
    }
    layout.barrier(rewriter, loc);
    Value answer =
        memref::LoadOp::create(rewriter, loc, flag, ValueRange{zeroIndex});
    layout.barrier(rewriter, loc);
    rewriter.replaceOp(
        op, arith::CmpIOp::create(
                rewriter, loc, arith::CmpIPredicate::ne, answer,
                arith::ConstantIntOp::create(rewriter, loc, i32, 0)));
    return success();
  }
};

/// tile.cluster_sum: rank r > 0 of the cluster writes its registers into
/// slot r - 1 of rank 0's scratch region (mapa, st.shared::cluster), in
/// runs of four registers laid out [slot][run][thread] so that each 16-byte
/// store and load of a warp is one contiguous 512 bytes; rank 0 reads the
/// slots back in rank order and adds them to its own. The same slot
/// indices on every rank: the layouts of the partials are the same.
struct ClusterSumLowering : SIMTPattern<ClusterSumOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(ClusterSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    int64_t size = op.getSize();
    // Ranks 1 .. size - 1 write size - 1 slots: the launch must be
    // clustered by exactly (1, 1, size), else rank 0 adds what no one
    // wrote or a rank writes past the slots.
    auto launch = op->getParentOfType<gpu::LaunchOp>();
    SmallVector<int64_t, 3> cluster;
    if (launch && launch.hasClusterSize()) {
      gpu::KernelDim3 dims = *launch.getClusterSizeOperandValues();
      for (Value dim : {dims.x, dims.y, dims.z})
        if (std::optional<int64_t> v = getConstantIntValue(dim))
          cluster.push_back(*v);
    }
    if (cluster != SmallVector<int64_t, 3>{1, 1, size})
      return op.emitOpError() << "needs a launch in clusters of (1, 1, "
                              << size << ") programs (its kernel's config: "
                                 "cluster = [1, 1, "
                              << size << "])";
    Value input = adaptor.getInput();
    auto vectorType = dyn_cast<VectorType>(input.getType());
    if (!vectorType || vectorType.getNumElements() % 4 != 0)
      return op.emitOpError() << "needs each thread's part of the tile in "
                                 "runs of four registers (a tensor-core "
                                 "accumulator layout)";
    int64_t runs = vectorType.getNumElements() / 4;
    Type f32 = rewriter.getF32Type(), i32 = rewriter.getI32Type();
    auto run = VectorType::get({4}, f32);
    Value scratch =
        layout.sharedView(rewriter, loc, f32,
                          (size - 1) * runs * layout.threads * 4, 0);
    Value rank = NVVM::ClusterId::create(rewriter, loc, i32);
    // Run `r` of slot `slot` of this thread, in elements of the scratch.
    auto runIndex = [&](OpBuilder &b, Value slot, int64_t r) -> Value {
      Value first = arith::MulIOp::create(b, loc, slot, idx(b, loc, runs));
      Value at = arith::AddIOp::create(b, loc, first, idx(b, loc, r));
      Value row =
          arith::MulIOp::create(b, loc, at, idx(b, loc, layout.threads));
      Value thread = arith::AddIOp::create(b, loc, row, layout.threadId);
      return arith::MulIOp::create(b, loc, thread, idx(b, loc, 4));
    };
    // Every program of the cluster is running (its shared memory there),
    // and rank 0's earlier reads of its scratch are done (release).
    NVVM::ClusterArriveOp::create(rewriter, loc, UnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, loc, UnitAttr());
    Value zero = arith::ConstantIntOp::create(rewriter, loc, i32, 0);
    Value sender = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ne, rank, zero);
    auto ifSender = scf::IfOp::create(rewriter, loc, sender, false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifSender.thenBlock()->getTerminator());
      Value slot = arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getIndexType(),
          arith::SubIOp::create(
              rewriter, loc, rank,
              arith::ConstantIntOp::create(rewriter, loc, i32, 1)));
      auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
      auto clusterPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 7);
      Value base = arith::IndexCastUIOp::create(
          rewriter, loc, rewriter.getI64Type(),
          memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc,
                                                         scratch));
      Value local = LLVM::IntToPtrOp::create(rewriter, loc, sharedPtr, base);
      Value remote = NVVM::MapaOp::create(rewriter, loc, clusterPtr, local,
                                          zero);
      for (int64_t r = 0; r < runs; ++r) {
        Value bytes = arith::IndexCastUIOp::create(
            rewriter, loc, i32,
            arith::MulIOp::create(rewriter, loc, runIndex(rewriter, slot, r),
                                  idx(rewriter, loc, 4)));
        Value at = LLVM::GEPOp::create(rewriter, loc, clusterPtr,
                                       rewriter.getI8Type(), remote,
                                       ValueRange{bytes});
        SmallVector<int64_t> lanes = {4 * r, 4 * r + 1, 4 * r + 2, 4 * r + 3};
        Value values =
            vector::ShuffleOp::create(rewriter, loc, input, input, lanes);
        LLVM::StoreOp::create(rewriter, loc, values, at, /*alignment=*/16);
      }
    }
    // Releases the writes above to rank 0, which acquires them.
    NVVM::ClusterArriveOp::create(rewriter, loc, UnitAttr());
    NVVM::ClusterWaitOp::create(rewriter, loc, UnitAttr());
    // Every rank adds what its slots hold; only rank 0's is the sum.
    Value sum = input;
    for (int64_t slot = 0; slot + 1 < size; ++slot) {
      Value parts = input;
      for (int64_t r = 0; r < runs; ++r) {
        Value part = vector::LoadOp::create(
            rewriter, loc, run, scratch,
            ValueRange{runIndex(rewriter, idx(rewriter, loc, slot), r)},
            /*nontemporal=*/false, llvm::MaybeAlign(16));
        for (int64_t lane = 0; lane < 4; ++lane)
          parts = vector::InsertOp::create(
              rewriter, loc,
              vector::ExtractOp::create(rewriter, loc, part, lane), parts,
              4 * r + lane);
      }
      sum = arith::AddFOp::create(rewriter, loc, sum, parts);
    }
    // The scratch region is the epilogue's next.
    layout.barrier(rewriter, loc);
    rewriter.replaceOp(op, sum);
    return success();
  }
};

/// Between register layouts: every owner writes its elements to the
/// scratch region, row-major; after a barrier every slot reads its own.
/// Into shared memory: the same writes, to the tile's own place there in
/// its #tile.shared layout. (Shared memory into mma.sync operands is
/// ldmatrix: TensorCores.cpp.)
struct ConvertLayoutLowering : SIMTPattern<ConvertLayoutOp> {
  using SIMTPattern::SIMTPattern;

  /// The run of `registers`, a #tile.blocked tile, where each of its runs
  /// is consecutive elements of one row of `shared` (unswizzled, not
  /// transposed) and every element has one owner, cut to 16 bytes where
  /// row_xor moves the 16-byte units of a row apart; else 0.
  static int64_t rowRunOf(TileType registers, TileType shared) {
    auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(registers.getLayout());
    auto layout = cast<SharedLayoutAttr>(shared.getLayout());
    if (!blocked || blocked.getRun() < 2 || registers.getRank() != 2 ||
        layout.getSwizzle() != 0 || layout.getTransposed() ||
        registers.getNumElements() % (blocked.getThreads() * blocked.getRun()) !=
            0 ||
        registers.getDimSize(1) % blocked.getRun() != 0)
      return 0;
    int64_t run = blocked.getRun();
    if (layout.getRowXor())
      run = std::min<int64_t>(run, 16 / storageBytes(shared.getElementType()));
    return run;
  }

  /// Lanes [first, first + count) of `vector`.
  static Value extractLanes(OpBuilder &b, Location loc, Value vector,
                            int64_t first, int64_t count) {
    SmallVector<int64_t> lanes;
    for (int64_t i = 0; i < count; ++i)
      lanes.push_back(first + i);
    return vector::ShuffleOp::create(b, loc, vector, vector, lanes);
  }

  /// `into` with lanes [first, first + size of `part`) taken from `part`
  /// (vector.shuffle: the pipeline lowers no vector.insert_strided_slice).
  static Value insertLanes(OpBuilder &b, Location loc, Value into, Value part,
                           int64_t first) {
    int64_t total = cast<VectorType>(into.getType()).getNumElements();
    int64_t count = cast<VectorType>(part.getType()).getNumElements();
    SmallVector<int64_t> lanes;
    for (int64_t i = 0; i < total; ++i)
      lanes.push_back(i >= first && i < first + count ? total + i - first : i);
    return vector::ShuffleOp::create(b, loc, into, part, lanes);
  }

  /// The flat index, in a tile in shared memory of `shared`'s layout, of
  /// the element at slot `slot` of `coords` (a register tile's slot
  /// coordinates): where a run starts.
  static Value runStart(OpBuilder &b, Location loc, TileType shared,
                        ArrayRef<Value> coords, int64_t slot) {
    Value row = vector::ExtractOp::create(b, loc, coords[0], slot);
    Value col = vector::ExtractOp::create(b, loc, coords[1], slot);
    Value byteOffset = sharedByteOffsetValue(b, loc, shared, row, col);
    Value elementBytes =
        idx(b, loc, storageBytes(shared.getElementType()));
    return arith::DivUIOp::create(b, loc, byteOffset, elementBytes);
  }

  /// A tile in shared memory (the flat view `flat`, laid out as `from`)
  /// read into registers of `to`'s layout: a 16-byte (or shorter) load per
  /// run where `to` is blocked in runs that stay in one row of an
  /// unswizzled tile (the packed bytes of a dequantized weight, copied by
  /// cp.async), else a gather of each slot's element. The writers are done
  /// (the ring's wait and barrier, or tile.load's own barrier).
  Value readSharedTile(OpBuilder &b, Location loc, TileType from, TileType to,
                       Value flat) const {
    Type element = from.getElementType();
    int64_t eb = storageBytes(element);
    SmallVector<Value> coords = layout.slotCoordinates(b, loc, to);
    VectorType vt = layout.vectorType(to);
    Value result = arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getZeroAttr(element)));
    if (int64_t run = rowRunOf(to, from)) {
      auto runType = VectorType::get({run}, element);
      for (int64_t first = 0; first < vt.getNumElements(); first += run) {
        Value values = vector::LoadOp::create(
            b, loc, runType, flat,
            ValueRange{runStart(b, loc, from, coords, first)},
            /*nontemporal=*/false,
            llvm::MaybeAlign(std::min<int64_t>(16, run * eb)));
        result = insertLanes(b, loc, result, values, first);
      }
      return result;
    }
    // Shared tiles are rank 2 (tile.load into shared memory's rule).
    Value byteOffset = sharedByteOffsetValue(b, loc, from, coords[0], coords[1]);
    Value elementBytes = layout.indexSplat(b, loc, layout.indexVector(to), eb);
    Value at = arith::DivUIOp::create(b, loc, byteOffset, elementBytes);
    Value zero = idx(b, loc, 0);
    return vector::GatherOp::create(b, loc, vt, flat, ValueRange{zero}, at,
                                    layout.allTrue(b, loc, to), result);
  }

  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = cast<TileType>(op.getInput().getType());
    auto to = cast<TileType>(op.getType());
    if (isSharedTile(from) && isa<DotOperandLayoutAttr>(to.getLayout()))
      return rewriter.notifyMatchFailure(op, "ldmatrix: TensorCores.cpp");
    layout.enter(op);
    Location loc = op.getLoc();
    Type element = from.getElementType();
    int64_t eb = storageBytes(element);
    if (isSharedTile(from)) {
      rewriter.replaceOp(op, readSharedTile(rewriter, loc, from, to,
                                            adaptor.getInput()));
      return success();
    }
    if (isSharedTile(to)) {
      Value dest = layout.sharedViewAt(
          rewriter, loc, element, sharedBytesOf(to) / eb,
          idx(rewriter, loc, layout.sharedOffsets.lookup(op)));
      layout.barrier(rewriter, loc);
      SmallVector<Value> coords = layout.slotCoordinates(rewriter, loc, from);
      if (from.getRank() != 2)
        return op.emitOpError() << "stores rank-2 tiles into shared memory "
                                   "only";
      if (int64_t run = rowRunOf(from, to)) {
        // Each run is one row's consecutive elements, and every element
        // has one owner: a store per run (16-byte stores where it is
        // longer).
        VectorType vt = layout.vectorType(from);
        for (int64_t first = 0; first < vt.getNumElements(); first += run) {
          Value at = runStart(rewriter, loc, to, coords, first);
          Value values = extractLanes(rewriter, loc, adaptor.getInput(), first,
                                      run);
          vector::StoreOp::create(rewriter, loc, values, dest, ValueRange{at},
                                  /*nontemporal=*/false,
                                  llvm::MaybeAlign(std::min<int64_t>(16, run * eb)));
        }
      } else {
        VectorType iv = layout.indexVector(from);
        Value byteOffset =
            sharedByteOffsetValue(rewriter, loc, to, coords[0], coords[1]);
        Value elementBytes = layout.indexSplat(rewriter, loc, iv, eb);
        Value at =
            arith::DivUIOp::create(rewriter, loc, byteOffset, elementBytes);
        Value base = idx(rewriter, loc, 0);
        Value owners = layout.owners(rewriter, loc, from);
        vector::ScatterOp::create(rewriter, loc, Type(), dest,
                                  ValueRange{base}, at, owners,
                                  adaptor.getInput());
      }
      fenceAsyncProxy(rewriter, loc, layout);
      layout.barrier(rewriter, loc);
      rewriter.replaceOp(op, dest);
      return success();
    }
    Value scratch =
        layout.sharedView(rewriter, loc, element, from.getNumElements(), 0);
    layout.writeShared(rewriter, loc, from, adaptor.getInput(), scratch);
    layout.barrier(rewriter, loc);
    SmallVector<Value> coords = layout.slotCoordinates(rewriter, loc, to);
    Value linear = coords[0];
    if (to.getRank() == 2)
      linear = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(
              rewriter, loc, coords[0],
              layout.indexSplat(rewriter, loc, layout.indexVector(to),
                                to.getDimSize(1))),
          coords[1]);
    Value result =
        layout.readShared(rewriter, loc, to, element, scratch, linear);
    layout.barrier(rewriter, loc);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tile.transpose: of a tile in shared memory, the same bytes (the
/// result's layout reads them transposed); of a register tile whose
/// result's layout keeps every element in its thread (a weight held in
/// runs along K becoming mma.sync's B of that k_width), a reordering of
/// each thread's slots; of any other register tile, every owner
/// writes element (r, c) to the scratch region at the result's row-major
/// place c * R + r, and after a barrier each slot of the result reads its
/// own.
struct TransposeLowering : SIMTPattern<TransposeOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = cast<TileType>(op.getInput().getType());
    auto to = cast<TileType>(op.getType());
    if (isSharedTile(from)) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    if (std::optional<SmallVector<int64_t>> slots = getTransposeSlotPermutation(
            from.getLayout(), to.getLayout(), from.getShape())) {
      Value input = adaptor.getInput();
      rewriter.replaceOp(op, vector::ShuffleOp::create(rewriter, op.getLoc(),
                                                       input, input, *slots));
      return success();
    }
    layout.enter(op);
    Location loc = op.getLoc();
    Type element = from.getElementType();
    Value scratch =
        layout.sharedView(rewriter, loc, element, from.getNumElements(), 0);
    SmallVector<Value> in = layout.slotCoordinates(rewriter, loc, from);
    auto times = [&](Value v, TileType type, int64_t k) -> Value {
      return arith::MulIOp::create(
          rewriter, loc, v,
          layout.indexSplat(rewriter, loc, layout.indexVector(type), k));
    };
    Value at = arith::AddIOp::create(
        rewriter, loc, times(in[1], from, from.getDimSize(0)), in[0]);
    Value zero = idx(rewriter, loc, 0);
    vector::ScatterOp::create(rewriter, loc, Type(), scratch, ValueRange{zero},
                              at, layout.owners(rewriter, loc, from),
                              adaptor.getInput());
    layout.barrier(rewriter, loc);
    SmallVector<Value> out = layout.slotCoordinates(rewriter, loc, to);
    Value linear = arith::AddIOp::create(
        rewriter, loc, times(out[0], to, to.getDimSize(1)), out[1]);
    Value result =
        layout.readShared(rewriter, loc, to, element, scratch, linear);
    layout.barrier(rewriter, loc);
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void simt::populateSharedMemoryPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        SIMTLayout &layout) {
  patterns.add<ViewLowering, LoadToSharedLowering, AsyncLoadLowering,
               AsyncCommitLowering, TmaLoadLowering, BarrierGroupLowering,
               ArriveLowering, BarrierLowering, ReplicaLowering,
               ClusterBarrierLowering, LastArrivalLowering, ClusterSumLowering,
               TurnStartLowering, TurnBeginLowering, TurnEndLowering,
               ConvertLayoutLowering, TransposeLowering>(
      converter, patterns.getContext(), layout);
}
