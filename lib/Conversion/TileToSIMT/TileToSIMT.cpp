//===- TileToSIMT.cpp - Tile values to per-thread vectors -------*- C++ -*-===//
//
// The SIMT lowering of tile-level ops inside a gpu.launch of T threads. A
// tile of E elements becomes vector<P x elt> in each thread, P = max(1, E/T),
// in the strided layout (docs/layouts.md): slot k of thread t holds element
// (k * T + t) mod E in row-major order, so consecutive threads touch
// consecutive elements (coalesced) and, when E < T, threads t and t + E hold
// the same element. Elementwise work stays in registers; reductions,
// broadcasts and dots exchange elements through one dynamic shared memory
// region, reused by each op between barriers and sized on the launch.
//
// This is the path without tensor cores: the f32 reference-speed matmul and
// the lowering of elementwise and reduction kernels.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"

#define DEBUG_TYPE "convert-tile-to-simt"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_CONVERTTILETOSIMTPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The layout of tiles in one launch, and the shared memory its ops need.
struct SIMTLayout {
  int64_t threads;
  Value threadId;          // gpu.thread_id x, as the launch's block argument
  int64_t sharedBytes = 0; // the largest scratch any op needs

  int64_t slots(TileType type) const {
    return std::max<int64_t>(1, type.getNumElements() / threads);
  }
  VectorType vectorType(TileType type) const {
    return VectorType::get({slots(type)}, type.getElementType());
  }
  VectorType indexVector(TileType type) const {
    return VectorType::get({slots(type)}, IndexType::get(type.getContext()));
  }

  Value splat(OpBuilder &b, Location loc, VectorType type, Value scalar) const {
    return vector::BroadcastOp::create(b, loc, type, scalar);
  }
  Value indexSplat(OpBuilder &b, Location loc, VectorType type,
                   int64_t value) const {
    return arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getIndexAttr(value)));
  }

  /// k * T + t for each slot k: the element's position before wrapping.
  Value rawPositions(OpBuilder &b, Location loc, TileType type) const {
    VectorType vt = indexVector(type);
    SmallVector<Attribute> slotIndices;
    for (int64_t k = 0; k < vt.getNumElements(); ++k)
      slotIndices.push_back(b.getIndexAttr(k));
    Value step = arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, slotIndices));
    Value scaled = arith::MulIOp::create(b, loc, step,
                                         indexSplat(b, loc, vt, threads));
    return arith::AddIOp::create(b, loc, scaled, splat(b, loc, vt, threadId));
  }

  /// Row-major linear index of the element each slot holds.
  Value positions(OpBuilder &b, Location loc, TileType type) const {
    Value raw = rawPositions(b, loc, type);
    if (type.getNumElements() >= threads)
      return raw;
    return arith::RemUIOp::create(
        b, loc, raw, indexSplat(b, loc, indexVector(type),
                                type.getNumElements()));
  }

  /// True for the one copy of each element that stores write (replicated
  /// small tiles would otherwise write each element several times).
  Value owners(OpBuilder &b, Location loc, TileType type) const {
    VectorType vt = indexVector(type);
    Value raw = rawPositions(b, loc, type);
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, raw,
        indexSplat(b, loc, vt, type.getNumElements()));
  }

  /// Per-dimension coordinates of linear positions in the tile.
  SmallVector<Value> coordinates(OpBuilder &b, Location loc, TileType type,
                                 Value linear) const {
    if (type.getRank() == 1)
      return {linear};
    VectorType vt = indexVector(type);
    Value cols = indexSplat(b, loc, vt, type.getDimSize(1));
    return {arith::DivUIOp::create(b, loc, linear, cols),
            arith::RemUIOp::create(b, loc, linear, cols)};
  }

  Value allTrue(OpBuilder &b, Location loc, TileType type) const {
    auto vt = VectorType::get({slots(type)}, b.getI1Type());
    return arith::ConstantOp::create(b, loc, vt,
                                     DenseElementsAttr::get(vt, true));
  }

  /// A view of `numElements` elements of `elementType` at `byteOffset` in
  /// the launch's dynamic shared memory; records the bytes needed.
  Value sharedView(OpBuilder &b, Location loc, Type elementType,
                   int64_t numElements, int64_t byteOffset) {
    auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
    auto baseType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                    MemRefLayoutAttrInterface(), workgroup);
    Value base = gpu::DynamicSharedMemoryOp::create(b, loc, baseType);
    auto viewType = MemRefType::get({numElements}, elementType,
                                    MemRefLayoutAttrInterface(), workgroup);
    Value offset = arith::ConstantIndexOp::create(b, loc, byteOffset);
    int64_t end =
        byteOffset + numElements * elementType.getIntOrFloatBitWidth() / 8;
    sharedBytes = std::max(sharedBytes, end);
    return memref::ViewOp::create(b, loc, viewType, base, offset, ValueRange{});
  }

  /// Writes a tile held in `value` to the shared view `buffer`, row-major.
  void writeShared(OpBuilder &b, Location loc, TileType type, Value value,
                   Value buffer) const {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    vector::ScatterOp::create(b, loc, /*resultType=*/Type(), buffer,
                              ValueRange{zero}, positions(b, loc, type),
                              owners(b, loc, type), value);
  }

  /// Reads, for each slot, element `indices[slot]` of the shared view.
  Value readShared(OpBuilder &b, Location loc, TileType slotsOf,
                   Type elementType, Value buffer, Value indices) const {
    auto vt = VectorType::get({slots(slotsOf)}, elementType);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value pass = arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getZeroAttr(elementType)));
    return vector::GatherOp::create(b, loc, vt, buffer, ValueRange{zero},
                                    indices, allTrue(b, loc, slotsOf), pass);
  }
};

template <typename OpTy>
class SIMTPattern : public OpConversionPattern<OpTy> {
public:
  SIMTPattern(const TypeConverter &converter, MLIRContext *ctx,
              SIMTLayout &layout)
      : OpConversionPattern<OpTy>(converter, ctx), layout(layout) {}

protected:
  SIMTLayout &layout;
};

struct SplatLowering : SIMTPattern<SplatOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<TileType>(op.getType());
    rewriter.replaceOp(op, layout.splat(rewriter, op.getLoc(),
                                        layout.vectorType(type),
                                        adaptor.getValue()));
    return success();
  }
};

/// Global positions and in-bounds mask of each slot of a tile at `offsets`
/// in a memref; shared by loads and stores.
static std::pair<Value, Value>
globalAccess(OpBuilder &b, Location loc, const SIMTLayout &layout,
             TileType type, MemRefType memrefType, ValueRange offsets) {
  VectorType vt = layout.indexVector(type);
  SmallVector<Value> coords =
      layout.coordinates(b, loc, type, layout.positions(b, loc, type));
  auto [strides, unusedOffset] = memrefType.getStridesAndOffset();
  Value mask, linear;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value global = arith::AddIOp::create(b, loc, coords[d],
                                         layout.splat(b, loc, vt, offsets[d]));
    Value inBounds = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, global,
        layout.indexSplat(b, loc, vt, memrefType.getDimSize(d)));
    mask = mask ? arith::AndIOp::create(b, loc, mask, inBounds) : inBounds;
    Value term = arith::MulIOp::create(
        b, loc, global, layout.indexSplat(b, loc, vt, strides[d]));
    linear = linear ? arith::AddIOp::create(b, loc, linear, term) : term;
  }
  return {linear, mask};
}

/// A 1-D view of a static, identity-layout memref.
static Value flatten(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  SmallVector<ReassociationIndices> all = {
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()))};
  return memref::CollapseShapeOp::create(b, loc, memref, all);
}

struct LoadLowering : SIMTPattern<LoadOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<TileType>(op.getType());
    auto [linear, mask] =
        globalAccess(rewriter, loc, layout, type, op.getSource().getType(),
                     adaptor.getIndices());
    VectorType vt = layout.vectorType(type);
    TypedAttr padding = op.getPaddingAttr()
                            ? op.getPaddingAttr()
                            : rewriter.getZeroAttr(type.getElementType());
    Value pass = arith::ConstantOp::create(
        rewriter, loc, vt, DenseElementsAttr::get(vt, padding));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    rewriter.replaceOpWithNewOp<vector::GatherOp>(
        op, vt, flatten(rewriter, loc, adaptor.getSource()), ValueRange{zero},
        linear, mask, pass);
    return success();
  }
};

struct StoreLowering : SIMTPattern<StoreOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<TileType>(op.getValue().getType());
    auto [linear, mask] = globalAccess(rewriter, loc, layout, type,
                                       op.getDest().getType(),
                                       adaptor.getIndices());
    if (type.getNumElements() < layout.threads)
      mask = arith::AndIOp::create(rewriter, loc, mask,
                                   layout.owners(rewriter, loc, type));
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    vector::ScatterOp::create(rewriter, loc, /*resultType=*/Type(),
                              flatten(rewriter, loc, adaptor.getDest()),
                              ValueRange{zero}, linear, mask,
                              adaptor.getValue());
    rewriter.eraseOp(op);
    return success();
  }
};

struct MapLowering : SIMTPattern<MapOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(MapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<TileType>(op.getType());
    Value result = vectorizeScalarRegion(rewriter, op.getBody(), adaptor.getInputs(),
                                   layout.slots(type));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CastLowering : SIMTPattern<CastOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type to = cast<TileType>(op.getType()).getElementType();
    rewriter.replaceOp(op, buildElementCast(rewriter, op.getLoc(),
                                            adaptor.getInput(), to));
    return success();
  }
};

struct MaskLowering : SIMTPattern<MaskOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(MaskOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<TileType>(op.getType());
    VectorType vt = layout.indexVector(type);
    SmallVector<Value> coords = layout.coordinates(
        rewriter, loc, type, layout.positions(rewriter, loc, type));
    Value keep;
    for (auto [coord, bound] : llvm::zip(coords, adaptor.getBounds())) {
      Value inside = arith::CmpIOp::create(rewriter, loc,
                                           arith::CmpIPredicate::ult, coord,
                                           layout.splat(rewriter, loc, vt, bound));
      keep = keep ? arith::AndIOp::create(rewriter, loc, keep, inside) : inside;
    }
    Value fill = layout.splat(rewriter, loc, layout.vectorType(type),
                              adaptor.getFill());
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, keep, adaptor.getInput(),
                                                 fill);
    return success();
  }
};

struct BroadcastLowering : SIMTPattern<BroadcastOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<TileType>(op.getInput().getType());
    auto outType = cast<TileType>(op.getType());
    if (op.getDims().empty()) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    if (inType.getRank() != 1 || outType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "only rank 1 to 2 broadcasts");
    Value buffer = layout.sharedView(rewriter, loc, inType.getElementType(),
                                     inType.getNumElements(), 0);
    layout.writeShared(rewriter, loc, inType, adaptor.getInput(), buffer);
    gpu::BarrierOp::create(rewriter, loc);
    SmallVector<Value> coords = layout.coordinates(
        rewriter, loc, outType, layout.positions(rewriter, loc, outType));
    // The input runs along the result dimension that is not new.
    Value source = op.getDims()[0] == 0 ? coords[1] : coords[0];
    Value result = layout.readShared(rewriter, loc, outType,
                                     inType.getElementType(), buffer, source);
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ReduceLowering : SIMTPattern<ReduceOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto inType = cast<TileType>(op.getInput().getType());
    auto outType = cast<TileType>(op.getType());
    if (inType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "only rank-2 tiles");
    int64_t dim = op.getDim();
    int64_t cols = inType.getDimSize(1), extent = inType.getDimSize(dim);
    Type elementType = inType.getElementType();
    Value buffer = layout.sharedView(rewriter, loc, elementType,
                                     inType.getNumElements(), 0);
    layout.writeShared(rewriter, loc, inType, adaptor.getInput(), buffer);
    gpu::BarrierOp::create(rewriter, loc);

    // Each slot folds the line of the input through its output element.
    VectorType vt = layout.indexVector(outType);
    Value kept = layout.positions(rewriter, loc, outType);
    Value init = layout.splat(rewriter, loc, layout.vectorType(outType),
                              adaptor.getInit());
    auto c = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto loop = scf::ForOp::create(rewriter, loc, c(0), c(extent), c(1),
                                   ValueRange{init});
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value j = layout.splat(rewriter, loc, vt, loop.getInductionVar());
      Value colsV = layout.indexSplat(rewriter, loc, vt, cols);
      Value source =
          dim == 1 ? arith::AddIOp::create(
                         rewriter, loc,
                         arith::MulIOp::create(rewriter, loc, kept, colsV), j)
                   : arith::AddIOp::create(
                         rewriter, loc,
                         arith::MulIOp::create(rewriter, loc, j, colsV), kept);
      Value element = layout.readShared(rewriter, loc, outType, elementType,
                                        buffer, source);
      Value next = vectorizeScalarRegion(rewriter, op.getCombiner(),
                                   {loop.getRegionIterArgs()[0], element},
                                   layout.slots(outType));
      scf::YieldOp::create(rewriter, loc, next);
    }
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

struct DotLowering : SIMTPattern<DotOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto lhsType = cast<TileType>(op.getLhs().getType());
    auto rhsType = cast<TileType>(op.getRhs().getType());
    auto accType = cast<TileType>(op.getType());
    int64_t k = lhsType.getDimSize(1), n = rhsType.getDimSize(1);
    Type elementType = lhsType.getElementType();
    int64_t lhsBytes =
        lhsType.getNumElements() * elementType.getIntOrFloatBitWidth() / 8;
    int64_t rhsOffset = llvm::alignTo(lhsBytes, 16);
    Value lhsBuf = layout.sharedView(rewriter, loc, elementType,
                                     lhsType.getNumElements(), 0);
    Value rhsBuf = layout.sharedView(rewriter, loc, elementType,
                                     rhsType.getNumElements(), rhsOffset);
    layout.writeShared(rewriter, loc, lhsType, adaptor.getLhs(), lhsBuf);
    layout.writeShared(rewriter, loc, rhsType, adaptor.getRhs(), rhsBuf);
    gpu::BarrierOp::create(rewriter, loc);

    VectorType vt = layout.indexVector(accType);
    SmallVector<Value> ij = layout.coordinates(
        rewriter, loc, accType, layout.positions(rewriter, loc, accType));
    Value rowBase = arith::MulIOp::create(rewriter, loc, ij[0],
                                          layout.indexSplat(rewriter, loc, vt, k));
    auto c = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto loop = scf::ForOp::create(rewriter, loc, c(0), c(k), c(1),
                                   ValueRange{adaptor.getAcc()});
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value kk = layout.splat(rewriter, loc, vt, loop.getInductionVar());
      Value aIdx = arith::AddIOp::create(rewriter, loc, rowBase, kk);
      Value bIdx = arith::AddIOp::create(
          rewriter, loc,
          arith::MulIOp::create(rewriter, loc, kk,
                                layout.indexSplat(rewriter, loc, vt, n)),
          ij[1]);
      Type f32 = rewriter.getF32Type();
      Value a = buildElementCast(
          rewriter, loc,
          layout.readShared(rewriter, loc, accType, elementType, lhsBuf, aIdx),
          f32);
      Value b = buildElementCast(
          rewriter, loc,
          layout.readShared(rewriter, loc, accType, elementType, rhsBuf, bIdx),
          f32);
      Value next = math::FmaOp::create(rewriter, loc, a, b,
                                       loop.getRegionIterArgs()[0]);
      scf::YieldOp::create(rewriter, loc, next);
    }
    gpu::BarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

/// Checks what the patterns assume, so that bad input gets a located error
/// rather than a "failed to legalize" from the conversion driver.
static LogicalResult checkLaunch(gpu::LaunchOp launch, int64_t threads) {
  WalkResult result = launch.walk([&](Operation *op) {
    if (op->getDialect() && !isa<TileDialect>(op->getDialect()))
      return WalkResult::advance();
    // Tensor-level ops have no SIMT lowering: tile-tile turns them into
    // kernels over tiles first.
    auto isTensor = [](Type type) { return isa<TensorType>(type); };
    if (llvm::any_of(op->getOperandTypes(), isTensor) ||
        llvm::any_of(op->getResultTypes(), isTensor)) {
      op->emitOpError() << "expected tile operands and results inside a GPU "
                           "launch but got tensors (tensor-level ops must be "
                           "tiled first: run tile-tile)";
      return WalkResult::interrupt();
    }
    for (Type type : llvm::concat<Type>(llvm::to_vector(op->getOperandTypes()),
                                        llvm::to_vector(op->getResultTypes()))) {
      auto tileType = dyn_cast<TileType>(type);
      if (!tileType)
        continue;
      int64_t elements = tileType.getNumElements();
      if (elements % threads != 0 && threads % elements != 0) {
        op->emitOpError() << "cannot spread a tile of " << elements
                          << " elements over " << threads
                          << " threads (one must divide the other)";
        return WalkResult::interrupt();
      }
    }
    auto checkMemref = [&](Type type) {
      auto memrefType = cast<MemRefType>(type);
      if (!memrefType.hasStaticShape() || !memrefType.getLayout().isIdentity()) {
        op->emitOpError() << "expected a static, row-major memref but got "
                          << memrefType;
        return false;
      }
      return true;
    };
    if (auto load = dyn_cast<LoadOp>(op))
      if (!checkMemref(load.getSource().getType()))
        return WalkResult::interrupt();
    if (auto store = dyn_cast<StoreOp>(op))
      if (!checkMemref(store.getDest().getType()))
        return WalkResult::interrupt();
    if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      if (!bcast.getDims().empty() &&
          cast<TileType>(bcast.getType()).getRank() != 2) {
        op->emitOpError() << "SIMT lowering supports broadcasts from rank 1 "
                             "to rank 2 only";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct ConvertTileToSIMTPass
    : public tile::impl::ConvertTileToSIMTPassBase<ConvertTileToSIMTPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    WalkResult leftover = module.walk([&](Operation *op) {
      if (isa<KernelOp>(op)) {
        op->emitOpError() << "must be converted to gpu.launch first "
                             "(run convert-tile-kernel-to-gpu)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (leftover.wasInterrupted())
      return signalPassFailure();

    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    for (gpu::LaunchOp launch : launches)
      if (failed(convertLaunch(launch)))
        return signalPassFailure();

    // Tile values outside any launch cannot be lowered here. (Host-level
    // ops, such as tile.tma_descriptor, stay for the bundle writer.)
    module.walk([&](Operation *op) {
      if (isa_and_nonnull<TileDialect>(op->getDialect()) &&
          !isa<TmaDescriptorOp>(op)) {
        op->emitOpError() << "is outside a GPU launch and was not lowered";
        signalPassFailure();
      }
    });
  }

  LogicalResult convertLaunch(gpu::LaunchOp launch) {
    APInt threads, one1, one2;
    if (!matchPattern(launch.getBlockSizeX(), m_ConstantInt(&threads)) ||
        !matchPattern(launch.getBlockSizeY(), m_ConstantInt(&one1)) ||
        !matchPattern(launch.getBlockSizeZ(), m_ConstantInt(&one2)) ||
        !one1.isOne() || !one2.isOne())
      return launch.emitOpError()
             << "expected a constant block of (T, 1, 1) threads for the SIMT "
                "lowering";
    SIMTLayout layout{threads.getSExtValue(), launch.getThreadIds().x};
    if (failed(checkLaunch(launch, layout.threads)))
      return failure();

    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [&](TileType type) -> Type { return layout.vectorType(type); });

    ConversionTarget target(*ctx);
    target.addIllegalDialect<TileDialect>();
    target.addLegalDialect<arith::ArithDialect, gpu::GPUDialect,
                           math::MathDialect, memref::MemRefDialect,
                           scf::SCFDialect, vector::VectorDialect>();
    RewritePatternSet patterns(ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    patterns.add<SplatLowering, LoadLowering, StoreLowering, MapLowering,
                 CastLowering, MaskLowering, BroadcastLowering, ReduceLowering,
                 DotLowering>(converter, ctx, layout);
    if (failed(applyPartialConversion(launch, target, std::move(patterns))))
      return failure();

    // Keep what an earlier lowering asked for if it is more.
    APInt earlier;
    if (Value existing = launch.getDynamicSharedMemorySize())
      if (matchPattern(existing, m_ConstantInt(&earlier)))
        layout.sharedBytes =
            std::max<int64_t>(layout.sharedBytes, earlier.getSExtValue());
    if (layout.sharedBytes > 0) {
      OpBuilder b(launch);
      Value bytes = arith::ConstantIntOp::create(
          b, launch.getLoc(), b.getI32Type(),
          llvm::alignTo(layout.sharedBytes, 16));
      launch.getDynamicSharedMemorySizeMutable().assign(bytes);
    }
    return success();
  }
};

} // namespace
