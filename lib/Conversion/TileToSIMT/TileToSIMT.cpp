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
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
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
/// Bytes one element of `type` takes in memory (an i1 takes a byte).
int64_t storageBytes(Type type) {
  return (type.getIntOrFloatBitWidth() + 7) / 8;
}


/// The layout of tiles in one launch, and the shared memory its ops need.
struct SIMTLayout {
  int64_t threads = 0;
  Value threadId;          // gpu.thread_id x, as the launch's block argument
  int64_t sharedBytes = 0; // the largest scratch any op needs
  // tile.shared buffers come first in the dynamic shared memory, at these
  // offsets; the ops' own scratch starts after them.
  int64_t reservedBytes = 0;
  llvm::DenseMap<Operation *, int64_t> sharedOffsets;
  // cp.async exists (sm_80+); else copies go through registers.
  bool asyncCopies = true;
  int64_t vectorWidth = 1; // run length: 16 bytes of the narrowest type

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

  /// Consecutive elements a thread holds in a row (docs/layouts.md): the
  /// launch's run length where the tile splits evenly into runs, else 1.
  int64_t runOf(TileType type) const {
    return type.getNumElements() % (threads * vectorWidth) == 0 ? vectorWidth
                                                                 : 1;
  }

  /// The position of slot k's element before wrapping: with runs of V,
  /// ((k / V) * T + t) * V + k % V; V = 1 gives k * T + t.
  Value rawPositions(OpBuilder &b, Location loc, TileType type) const {
    VectorType vt = indexVector(type);
    int64_t run = runOf(type);
    SmallVector<Attribute> slotBases;
    for (int64_t k = 0; k < vt.getNumElements(); ++k)
      slotBases.push_back(b.getIndexAttr((k / run) * threads * run + k % run));
    Value bases = arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, slotBases));
    Value first = arith::MulIOp::create(
        b, loc, threadId, arith::ConstantIndexOp::create(b, loc, run));
    return arith::AddIOp::create(b, loc, bases, splat(b, loc, vt, first));
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
    byteOffset += reservedBytes;
    Value offset = arith::ConstantIndexOp::create(b, loc, byteOffset);
    int64_t end =
        byteOffset + numElements * storageBytes(elementType);
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

/// Where each run of a tile's slots sits in global memory, for runs that can
/// move as one 16-byte access: the run's row and column, and whether the
/// whole run is inside the memref and aligned. Empty when the tile or the
/// memref does not allow it (then loads and stores gather and scatter).
struct RunAccess {
  SmallVector<SmallVector<Value>> indices; // per run: global indices
  SmallVector<Value> ok;                   // per run: inside and aligned
  int64_t run = 1;
  // Some runs may be partly inside the memref or misaligned (a row of a
  // length that is not whole runs, a view at a dynamic offset): those move
  // element by element. Otherwise a run that is not ok is wholly outside.
  bool partial = false;
};

/// Whether `value` is provably a multiple of `n`: constants, and sums,
/// differences, products, selects and minima/maxima of such, and loop
/// induction variables whose lower bound and step are.
static bool isMultipleOf(Value value, int64_t n, int depth = 0) {
  if (n == 1)
    return true;
  if (depth > 8)
    return false;
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c % n == 0;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    auto loop = dyn_cast_or_null<scf::ForOp>(parent);
    return loop && arg == loop.getInductionVar() &&
           isMultipleOf(loop.getLowerBound(), n, depth + 1) &&
           isMultipleOf(loop.getStep(), n, depth + 1);
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  auto both = [&](Value x, Value y) {
    return isMultipleOf(x, n, depth + 1) && isMultipleOf(y, n, depth + 1);
  };
  if (isa<arith::AddIOp, arith::SubIOp, arith::MinUIOp, arith::MaxUIOp,
          arith::MinSIOp, arith::MaxSIOp>(op))
    return both(op->getOperand(0), op->getOperand(1));
  if (isa<arith::MulIOp>(op))
    return isMultipleOf(op->getOperand(0), n, depth + 1) ||
           isMultipleOf(op->getOperand(1), n, depth + 1);
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return both(select.getTrueValue(), select.getFalseValue());
  return false;
}

/// With `allowPartial` false (cp.async, which moves whole runs or zeros),
/// only memrefs whose runs are all either inside and aligned or outside.
/// With `inBounds` (the op's in_bounds), every run is inside: only
/// alignment is checked.
static std::optional<RunAccess>
runAccess(OpBuilder &b, Location loc, const SIMTLayout &layout, TileType type,
          Value memref, ValueRange offsets, bool allowPartial = true,
          bool inBounds = false) {
  auto memrefType = cast<MemRefType>(memref.getType());
  int64_t run = layout.runOf(type);
  int64_t rank = type.getRank();
  int64_t cols = type.getDimSize(rank - 1);
  int64_t size = memrefType.getDimSize(rank - 1);
  auto [strides, offset] = memrefType.getStridesAndOffset();
  // Rows start on run boundaries when there is one row or the row stride
  // is whole runs.
  bool rowsAligned = rank == 1 || memrefType.getDimSize(0) == 1 ||
                     (!ShapedType::isDynamic(strides[0]) &&
                      strides[0] % run == 0);
  bool staticOffset = !ShapedType::isDynamic(offset);
  // A run that is not aligned must move element by element. Where the
  // column offset is not provably a multiple of the run, any run may be
  // misaligned: without this, such a run was taken for one wholly outside
  // and silently dropped (a tile-level load at column 3 of rows of whole
  // runs, found in review; tile-tile's offsets are multiples).
  bool partial = size % run != 0 || !staticOffset || offset % run != 0 ||
                 !isMultipleOf(offsets[rank - 1], run);
  // Sub-byte elements (i1) take a byte each in memory, but a vector of
  // them loads and stores bit-packed: they move element by element.
  if (run == 1 || cols % run != 0 || strides[rank - 1] != 1 || !rowsAligned ||
      (partial && !allowPartial) || type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // The runs start where the tile's column offset does, counted from the
  // buffer's base (tile-tile's offsets keep runs aligned within identity
  // memrefs; a view's offset is known at run time).
  Value start = offsets[rank - 1];
  if (!staticOffset) {
    auto metadata =
        memref::ExtractStridedMetadataOp::create(b, loc, memref);
    start = arith::AddIOp::create(b, loc, start, metadata.getOffset());
  } else if (offset != 0) {
    start = arith::AddIOp::create(b, loc, start, c(offset));
  }
  Value aligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq,
      arith::RemUIOp::create(b, loc, start, c(run)), c(0));
  RunAccess access;
  access.run = run;
  access.partial = partial;
  Value first = arith::MulIOp::create(b, loc, layout.threadId, c(run));
  int64_t slots = layout.slots(type);
  for (int64_t k = 0; k < slots; k += run) {
    Value position = arith::AddIOp::create(
        b, loc, first, c((k / run) * layout.threads * run));
    SmallVector<Value> at(rank);
    if (rank == 2) {
      at[0] = arith::DivUIOp::create(b, loc, position, c(cols));
      at[1] = arith::RemUIOp::create(b, loc, position, c(cols));
    } else {
      at[0] = position;
    }
    Value ok = aligned;
    for (int64_t d = 0; d < rank; ++d) {
      at[d] = arith::AddIOp::create(b, loc, at[d], offsets[d]);
      // The whole run inside: its last element too, wherever runs may be
      // partly inside (a row that is not whole runs, or a view whose
      // offset puts aligned runs off the row's run boundaries). Unsigned:
      // an index before the start (a negative column) is outside.
      if (inBounds)
        continue;
      int64_t limit = memrefType.getDimSize(d);
      if (d == rank - 1 && partial)
        limit = size >= run ? size - run + 1 : 0;
      ok = arith::AndIOp::create(
          b, loc, ok,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, at[d],
                                c(limit)));
    }
    access.indices.push_back(at);
    access.ok.push_back(ok);
  }
  return access;
}

/// The elements of one run at `at` (a run's global indices), one by one:
/// their positions in the flattened memref and which are inside it.
static std::pair<Value, Value> runElements(OpBuilder &b, Location loc,
                                           MemRefType memrefType,
                                           ArrayRef<Value> at, int64_t run) {
  auto vt = VectorType::get({run}, b.getIndexType());
  auto [strides, unused] = memrefType.getStridesAndOffset();
  int64_t rank = memrefType.getRank();
  SmallVector<Attribute> steps;
  for (int64_t i = 0; i < run; ++i)
    steps.push_back(b.getIndexAttr(i));
  Value column = arith::AddIOp::create(
      b, loc, vector::BroadcastOp::create(b, loc, vt, at[rank - 1]),
      arith::ConstantOp::create(b, loc, vt, DenseElementsAttr::get(vt, steps)));
  auto splat = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getIndexAttr(v)));
  };
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       column,
                                       splat(memrefType.getDimSize(rank - 1)));
  Value linear = column;
  if (rank == 2) {
    Value row = vector::BroadcastOp::create(b, loc, vt, at[0]);
    inside = arith::AndIOp::create(
        b, loc, inside,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                              splat(memrefType.getDimSize(0))));
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, row, splat(strides[0])));
  }
  return {linear, inside};
}

struct LoadLowering : SIMTPattern<LoadOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<TileType>(op.getType());
    if (std::optional<RunAccess> runs =
            runAccess(rewriter, loc, layout, type, adaptor.getSource(),
                      adaptor.getIndices(), /*allowPartial=*/true,
                      op.getInBounds())) {
      rewriter.replaceOp(op, loadRuns(op, adaptor, *runs, rewriter));
      return success();
    }
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

  /// One 16-byte load per run where the run is inside and aligned; else
  /// the padding where runs cannot be partly inside, or the run's elements
  /// one by one (each inside one loaded, the rest padding).
  Value loadRuns(LoadOp op, OpAdaptor adaptor, const RunAccess &runs,
                 ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    auto type = cast<TileType>(op.getType());
    Type element = type.getElementType();
    auto runType = VectorType::get({runs.run}, element);
    TypedAttr padding = op.getPaddingAttr() ? op.getPaddingAttr()
                                            : rewriter.getZeroAttr(element);
    Value padRun = arith::ConstantOp::create(
        rewriter, loc, runType, DenseElementsAttr::get(runType, padding));
    VectorType vt = layout.vectorType(type);
    Value result = arith::ConstantOp::create(
        rewriter, loc, vt, DenseElementsAttr::get(vt, padding));
    int64_t bytes = runs.run * element.getIntOrFloatBitWidth() / 8;
    for (auto [j, at, ok] : llvm::enumerate(runs.indices, runs.ok)) {
      auto branch = scf::IfOp::create(rewriter, loc, runType, ok,
                                      /*withElse=*/true);
      {
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPointToStart(branch.thenBlock());
        Value loaded = vector::LoadOp::create(
            rewriter, loc, runType, adaptor.getSource(), at,
            /*nontemporal=*/false, llvm::MaybeAlign(bytes));
        scf::YieldOp::create(rewriter, loc, loaded);
        rewriter.setInsertionPointToStart(branch.elseBlock());
        Value elsewise = padRun;
        if (runs.partial) {
          auto [linear, inside] =
              runElements(rewriter, loc, op.getSource().getType(), at,
                          runs.run);
          elsewise = vector::GatherOp::create(
              rewriter, loc, runType,
              flatten(rewriter, loc, adaptor.getSource()),
              ValueRange{arith::ConstantIndexOp::create(rewriter, loc, 0)},
              linear, inside, padRun);
        }
        scf::YieldOp::create(rewriter, loc, elsewise);
      }
      // vector.shuffle rather than insert_strided_slice: convert-gpu-to-nvvm
      // lowers the first and not the second.
      SmallVector<int64_t> lanes;
      for (int64_t i = 0; i < vt.getNumElements(); ++i) {
        int64_t inRun = i - static_cast<int64_t>(j) * runs.run;
        lanes.push_back(inRun >= 0 && inRun < runs.run ? vt.getNumElements() + inRun
                                                      : i);
      }
      result = vector::ShuffleOp::create(rewriter, loc, result,
                                         branch.getResult(0), lanes);
    }
    return result;
  }
};

/// tile.shared: a view of the launch's dynamic shared memory at the offset
/// convertLaunch gave the buffer.
struct SharedLowering : SIMTPattern<SharedOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(SharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto baseType = MemRefType::get(
        {ShapedType::kDynamic}, rewriter.getI8Type(),
        MemRefLayoutAttrInterface(), op.getBuffer().getType().getMemorySpace());
    Value base = gpu::DynamicSharedMemoryOp::create(rewriter, loc, baseType);
    Value offset = arith::ConstantIndexOp::create(
        rewriter, loc, layout.sharedOffsets.lookup(op));
    rewriter.replaceOpWithNewOp<memref::ViewOp>(op, op.getBuffer().getType(),
                                                base, offset, ValueRange{});
    return success();
  }
};

/// tile.copy_async: each thread starts one 16-byte cp.async per run it
/// holds of the tile, to the same run of the destination tile, so that a
/// tile.load of the destination in the same layout reads in each thread
/// what that thread copied. Runs outside the source arrive as zeros
/// (cp.async's source size 0, from the source's first element, so that
/// the address stays valid); runs past the destination are not copied.
/// Where runs of the source may be partly inside it or misaligned (a view
/// at a dynamic offset: the row of a wide-row kernel, shifted to run
/// boundaries), such a run is copied by its thread element by element,
/// zeros outside, with plain loads and a shared-memory store; cp.async
/// cannot (its smallest copy is 4 bytes, from an aligned address).
/// One commit group per op.
struct CopyAsyncLowering : SIMTPattern<CopyAsyncOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(CopyAsyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = TileType::get(op.getShape(),
                              op.getSource().getType().getElementType());
    std::optional<RunAccess> from =
        runAccess(rewriter, loc, layout, type, adaptor.getSource(),
                  adaptor.getSourceIndices(), /*allowPartial=*/true);
    std::optional<RunAccess> to =
        runAccess(rewriter, loc, layout, type, adaptor.getDest(),
                  adaptor.getDestIndices(), /*allowPartial=*/false);
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    int64_t runBytes = from ? from->run * elementBytes : 0;
    // (Sub-byte elements have no runs: runAccess gives none for them.)
    if (!from || !to || runBytes % 16 != 0 || !layout.asyncCopies) {
      // Runs that cp.async cannot move (the launch's layout is not in runs,
      // as when a short row is spread over more threads than it has runs),
      // or no cp.async: a plain load and store of the tile, which the
      // patterns for tile.load and tile.store lower. Nothing is left in
      // flight, so the wait that follows returns at once.
      Value tile = LoadOp::create(rewriter, loc, type, op.getSource(),
                                  op.getSourceIndices(), nullptr);
      StoreOp::create(rewriter, loc, tile, op.getDest(), op.getDestIndices());
      if (layout.asyncCopies)
        NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
      rewriter.eraseOp(op);
      return success();
    }
    auto token = nvgpu::DeviceAsyncTokenType::get(getContext());
    Value full =
        arith::ConstantIndexOp::create(rewriter, loc, 16 / elementBytes);
    Value none = arith::ConstantIndexOp::create(rewriter, loc, 0);
    for (auto [source, ok, destAt, destOk] :
         llvm::zip(from->indices, from->ok, to->indices, to->ok)) {
      ArrayRef<Value> dest = destAt;
      // Runs past the destination's end are not copied at all.
      auto destInside = scf::IfOp::create(rewriter, loc, destOk, false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(destInside.thenBlock()->getTerminator());
      // 16 bytes per cp.async: a run of 8 f32 (32 bytes) is two copies.
      int64_t piece = 16 / elementBytes;
      auto copyRun = [&](ValueRange src0, Value size) {
        for (int64_t p = 0; p < from->run; p += piece) {
          SmallVector<Value> src(src0), dst(dest);
          Value step = arith::ConstantIndexOp::create(rewriter, loc, p);
          src.back() = arith::AddIOp::create(rewriter, loc, src.back(), step);
          dst.back() = arith::AddIOp::create(rewriter, loc, dst.back(), step);
          nvgpu::DeviceAsyncCopyOp::create(
              rewriter, loc, token, adaptor.getDest(), dst,
              adaptor.getSource(), src, rewriter.getIndexAttr(piece), size,
              /*bypassL1=*/rewriter.getUnitAttr());
        }
      };
      if (!from->partial) {
        SmallVector<Value> safe;
        for (Value at : source)
          safe.push_back(arith::SelectOp::create(rewriter, loc, ok, at, none));
        copyRun(safe, arith::SelectOp::create(rewriter, loc, ok, full, none));
        continue;
      }
      auto whole = scf::IfOp::create(rewriter, loc, ok, /*withElse=*/true);
      rewriter.setInsertionPoint(whole.thenBlock()->getTerminator());
      copyRun(source, full);
      rewriter.setInsertionPoint(whole.elseBlock()->getTerminator());
      auto runType = VectorType::get({from->run}, type.getElementType());
      auto [linear, inside] = runElements(
          rewriter, loc, op.getSource().getType(), source, from->run);
      Value zeros = arith::ConstantOp::create(
          rewriter, loc, runType,
          DenseElementsAttr::get(runType,
                                 rewriter.getZeroAttr(type.getElementType())));
      Value elements = vector::GatherOp::create(
          rewriter, loc, runType, flatten(rewriter, loc, adaptor.getSource()),
          ValueRange{none}, linear, inside, zeros);
      vector::StoreOp::create(rewriter, loc, elements, adaptor.getDest(),
                              dest);
    }
    NVVM::CpAsyncCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

struct WaitAsyncLowering : SIMTPattern<WaitAsyncOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(WaitAsyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (layout.asyncCopies)
      rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op,
                                                            op.getPending());
    else
      rewriter.eraseOp(op); // the copies were synchronous
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
    if (std::optional<RunAccess> runs =
            runAccess(rewriter, loc, layout, type, adaptor.getDest(),
                      adaptor.getIndices(), /*allowPartial=*/true,
                      op.getInBounds())) {
      int64_t bytes = runs->run * type.getElementTypeBitWidth() / 8;
      for (auto [j, at, ok] : llvm::enumerate(runs->indices, runs->ok)) {
        SmallVector<int64_t> lanes;
        for (int64_t i = 0; i < runs->run; ++i)
          lanes.push_back(static_cast<int64_t>(j) * runs->run + i);
        Value slice = vector::ShuffleOp::create(
            rewriter, loc, adaptor.getValue(), adaptor.getValue(), lanes);
        auto branch = scf::IfOp::create(rewriter, loc, ok, runs->partial);
        OpBuilder::InsertionGuard guard(rewriter);
        rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
        vector::StoreOp::create(rewriter, loc, slice, adaptor.getDest(), at,
                                /*nontemporal=*/false, llvm::MaybeAlign(bytes));
        if (runs->partial) {
          // A run partly inside or misaligned: its elements one by one.
          rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
          auto [linear, inside] = runElements(
              rewriter, loc, op.getDest().getType(), at, runs->run);
          vector::ScatterOp::create(
              rewriter, loc, /*resultType=*/Type(),
              flatten(rewriter, loc, adaptor.getDest()),
              ValueRange{arith::ConstantIndexOp::create(rewriter, loc, 0)},
              linear, inside, slice);
        }
      }
      rewriter.eraseOp(op);
      return success();
    }
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

/// tile.mask: per dimension, the tile positions kept form one interval
/// [lo, hi) = [-at, bound - at) clamped to [0, size), computed once per
/// tile in index arithmetic; each slot then compares its 32-bit position
/// with it ((pos - lo) < (hi - lo), unsigned). A dimension of size 1 is
/// one scalar test. (Comparing at + pos against the bound per slot in
/// 64-bit index arithmetic took four instructions per element and
/// dimension: softmax 4096x50257's edge chunks, read in the SASS.) This
/// is the op's unsigned compare wherever offsets and bounds are below
/// 2^62 in magnitude, as indices into memrefs are.
struct MaskLowering : SIMTPattern<MaskOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(MaskOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<TileType>(op.getType());
    int64_t slots = layout.slots(type);
    auto i32Vector = VectorType::get({slots}, rewriter.getI32Type());
    auto i1Vector = VectorType::get({slots}, rewriter.getI1Type());
    SmallVector<Value> coords = layout.coordinates(
        rewriter, loc, type, layout.positions(rewriter, loc, type));
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto clamp = [&](Value v, int64_t size) -> Value {
      return arith::MaxSIOp::create(
          rewriter, loc, arith::MinSIOp::create(rewriter, loc, v, index(size)),
          index(0));
    };
    auto toI32 = [&](Value v) -> Value {
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getI32Type(),
                                        v);
    };
    Value keep;
    for (auto [d, coord, bound] :
         llvm::enumerate(coords, adaptor.getBounds())) {
      int64_t size = type.getDimSize(d);
      Value at = adaptor.getOffsets().empty() ? index(0)
                                               : adaptor.getOffsets()[d];
      Value lo = clamp(arith::SubIOp::create(rewriter, loc, index(0), at),
                       size);
      Value hi = clamp(arith::SubIOp::create(rewriter, loc, bound, at), size);
      Value inside;
      if (size == 1) { // every slot is at position 0
        Value kept = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::slt, lo, hi);
        inside = vector::BroadcastOp::create(rewriter, loc, i1Vector, kept);
      } else {
        Value pos = arith::IndexCastOp::create(rewriter, loc, i32Vector,
                                               coord);
        Value lo32 = toI32(lo);
        Value width = arith::SubIOp::create(rewriter, loc, toI32(hi), lo32);
        inside = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ult,
            arith::SubIOp::create(
                rewriter, loc, pos,
                vector::BroadcastOp::create(rewriter, loc, i32Vector, lo32)),
            vector::BroadcastOp::create(rewriter, loc, i32Vector, width));
      }
      keep = keep ? arith::AndIOp::create(rewriter, loc, keep, inside)
                  : inside;
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
    // Adding a dimension of size 1 keeps every element where it was.
    if (inType.getNumElements() == outType.getNumElements()) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    // One element (a single row's statistic): every thread holds it.
    if (inType.getNumElements() == 1) {
      Value scalar = vector::ExtractOp::create(rewriter, loc,
                                               adaptor.getInput(), 0);
      rewriter.replaceOp(op, layout.splat(rewriter, loc,
                                          layout.vectorType(outType), scalar));
      return success();
    }
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
  Value reduceRowsInRegisters(ReduceOp op, OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter) const;
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
    if (dim == 1 && cols % (layout.threads * layout.runOf(inType)) == 0 &&
        inType.getDimSize(0) <= layout.threads &&
        elementType.getIntOrFloatBitWidth() == 32) {
      rewriter.replaceOp(op, reduceRowsInRegisters(op, adaptor, rewriter));
      return success();
    }
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

/// Row reduction when each row spans a whole number of the program's
/// threads (cols % T == 0): slot k of every thread then lies in row
/// k / (cols / T), so each thread folds its own slots per row in registers,
/// a warp combines its lanes with butterfly shuffles, and the warps combine
/// their partials through shared memory. Every thread ends with the rows it
/// holds in the (replicated) output layout.
Value ReduceLowering::reduceRowsInRegisters(
    ReduceOp op, OpAdaptor adaptor, ConversionPatternRewriter &rewriter) const {
  Location loc = op.getLoc();
  auto inType = cast<TileType>(op.getInput().getType());
  auto outType = cast<TileType>(op.getType());
  int64_t rows = inType.getDimSize(0), cols = inType.getDimSize(1);
  int64_t threads = layout.threads;
  int64_t slotsPerRow = cols / threads;
  Type elementType = inType.getElementType();
  Region &combiner = op.getCombiner();
  auto combine = [&](Value a, Value b) {
    IRMapping mapping;
    Block &block = combiner.front();
    mapping.map(block.getArgument(0), a);
    mapping.map(block.getArgument(1), b);
    for (Operation &inner : block.without_terminator())
      rewriter.clone(inner, mapping);
    return mapping.lookup(cast<YieldOp>(block.getTerminator()).getValue());
  };

  // 1. Registers: one partial per row.
  SmallVector<Value> partials;
  for (int64_t r = 0; r < rows; ++r) {
    Value acc = adaptor.getInit();
    for (int64_t k = r * slotsPerRow; k < (r + 1) * slotsPerRow; ++k)
      acc = combine(acc, vector::ExtractOp::create(rewriter, loc,
                                                   adaptor.getInput(), k));
    partials.push_back(acc);
  }
  // 2. Lanes: butterfly shuffles leave the warp's value in every lane.
  Value width = arith::ConstantIntOp::create(rewriter, loc,
                                             rewriter.getI32Type(), 32);
  for (Value &partial : partials)
    for (int64_t offset = 16; offset >= 1; offset /= 2) {
      Value off = arith::ConstantIntOp::create(rewriter, loc,
                                               rewriter.getI32Type(), offset);
      Value other = gpu::ShuffleOp::create(rewriter, loc, partial, off, width,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      partial = combine(partial, other);
    }
  // 3. Warps: lane 0 of each warp publishes; each thread folds its row's.
  int64_t warps = threads / 32;
  Value buffer =
      layout.sharedView(rewriter, loc, elementType, rows * warps, 0);
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(rewriter, loc, v);
  };
  Value lane = arith::RemUIOp::create(rewriter, loc, layout.threadId, c(32));
  Value warp = arith::DivUIOp::create(rewriter, loc, layout.threadId, c(32));
  Value isLane0 = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::eq, lane, c(0));
  auto publish = scf::IfOp::create(rewriter, loc, isLane0, false);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(publish.thenBlock()->getTerminator());
    for (auto [r, partial] : llvm::enumerate(partials))
      memref::StoreOp::create(
          rewriter, loc, partial, buffer,
          ValueRange{arith::AddIOp::create(rewriter, loc, c(r * warps), warp)});
  }
  gpu::BarrierOp::create(rewriter, loc);
  // Output slots: (k * T + t) mod rows, as positions() lays them out.
  Value rowOfSlot = layout.positions(rewriter, loc, outType);
  VectorType outVector = layout.vectorType(outType);
  Value result = layout.splat(rewriter, loc, outVector, adaptor.getInit());
  for (int64_t k = 0; k < outVector.getNumElements(); ++k) {
    Value row = vector::ExtractOp::create(rewriter, loc, rowOfSlot, k);
    Value base = arith::MulIOp::create(rewriter, loc, row, c(warps));
    Value acc = adaptor.getInit();
    for (int64_t w = 0; w < warps; ++w)
      acc = combine(acc, memref::LoadOp::create(
                             rewriter, loc, buffer,
                             ValueRange{arith::AddIOp::create(rewriter, loc,
                                                              base, c(w))}));
    result = vector::InsertOp::create(rewriter, loc, acc, result, k);
  }
  // The scratch is reused by the next op that needs shared memory.
  gpu::BarrierOp::create(rewriter, loc);
  return result;
}

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
    int64_t lhsBytes = lhsType.getNumElements() * storageBytes(elementType);
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
    // Row-major buffers, or views of one row of them at any offset (wide
    // rows shifted to run boundaries): both flatten to one dimension.
    auto checkMemref = [&](Type type) {
      auto memrefType = cast<MemRefType>(type);
      bool rowView = false;
      if (auto strided =
              dyn_cast<StridedLayoutAttr>(memrefType.getLayout())) {
        ArrayRef<int64_t> strides = strided.getStrides();
        rowView = strides.back() == 1 &&
                  !ShapedType::isDynamic(strides.front()) &&
                  (memrefType.getRank() == 1 ||
                   (memrefType.getRank() == 2 && memrefType.getDimSize(0) == 1));
      }
      if (!memrefType.hasStaticShape() ||
          (!memrefType.getLayout().isIdentity() && !rowView)) {
        op->emitOpError() << "expected a static, row-major memref (or a view "
                             "of one row) but got "
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
  using Base::Base;
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
    SIMTLayout layout;
    layout.threads = threads.getSExtValue();
    layout.threadId = launch.getThreadIds().x;
    layout.asyncCopies = asyncCopies;
    // Runs of 16 bytes of the narrowest type loaded, stored or copied, so
    // that the common case moves with 16-byte accesses (bf16: 8, f32: 4).
    int64_t narrowest = 16;
    launch.walk([&](Operation *op) {
      Type element;
      if (auto load = dyn_cast<LoadOp>(op))
        element = cast<TileType>(load.getType()).getElementType();
      else if (auto store = dyn_cast<StoreOp>(op))
        element = cast<TileType>(store.getValue().getType()).getElementType();
      else if (auto copy = dyn_cast<CopyAsyncOp>(op))
        element = copy.getSource().getType().getElementType();
      if (element && element.getIntOrFloatBitWidth() >= 8)
        narrowest = std::min<int64_t>(narrowest,
                                      element.getIntOrFloatBitWidth() / 8);
    });
    layout.vectorWidth = 16 / narrowest;
    // Runs pay off only if the loads and stores can move them whole; where
    // one cannot (a ragged row length, an unaligned stride), the plain
    // layout keeps its gathers coalesced, so the launch falls back to it.
    // (Loads, stores and copies move a run that is partly inside element
    // by element, so a 1-D buffer or a one-row view of a length that is
    // not whole runs keeps the runs; rows that do not start on run
    // boundaries do not.)
    bool allRunsMove = true;
    launch.walk([&](Operation *op) {
      TileType type;
      MemRefType memref;
      if (auto load = dyn_cast<LoadOp>(op)) {
        type = cast<TileType>(load.getType());
        memref = load.getSource().getType();
      } else if (auto store = dyn_cast<StoreOp>(op)) {
        type = cast<TileType>(store.getValue().getType());
        memref = store.getDest().getType();
      } else if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
        type = TileType::get(copy.getShape(),
                             copy.getSource().getType().getElementType());
        memref = copy.getSource().getType();
      } else {
        return;
      }
      int64_t run = layout.runOf(type);
      if (run == 1)
        return;
      int64_t rank = type.getRank();
      auto [strides, offset] = memref.getStridesAndOffset();
      bool rowsAligned = rank == 1 || memref.getDimSize(0) == 1 ||
                         (!ShapedType::isDynamic(strides[0]) &&
                          strides[0] % run == 0);
      if (type.getDimSize(rank - 1) % run != 0 || strides[rank - 1] != 1 ||
          !rowsAligned)
        allRunsMove = false;
    });
    if (!allRunsMove)
      layout.vectorWidth = 1;
    // tile.shared buffers, 16-byte aligned, at the start of the dynamic
    // shared memory.
    launch.walk([&](SharedOp shared) {
      MemRefType type = shared.getBuffer().getType();
      layout.sharedOffsets[shared] = layout.reservedBytes;
      layout.reservedBytes += llvm::alignTo(
          type.getNumElements() * storageBytes(type.getElementType()), 16);
    });
    layout.sharedBytes = layout.reservedBytes;
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
                           NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                           scf::SCFDialect, vector::VectorDialect>();
    RewritePatternSet patterns(ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    patterns.add<SplatLowering, LoadLowering, StoreLowering, MapLowering,
                 CastLowering, MaskLowering, BroadcastLowering, ReduceLowering,
                 DotLowering, SharedLowering, CopyAsyncLowering,
                 WaitAsyncLowering>(converter, ctx, layout);
    if (failed(applyPartialConversion(launch, target, std::move(patterns))))
      return failure();

    // Keep what an earlier lowering asked for if it is more.
    APInt earlier;
    if (Value existing = launch.getDynamicSharedMemorySize())
      if (matchPattern(existing, m_ConstantInt(&earlier)))
        layout.sharedBytes =
            std::max<int64_t>(layout.sharedBytes, earlier.getSExtValue());
    // The programs per SM asked for (tile.kernel's min_programs_per_sm;
    // one without) must share the SM's shared memory: else the launch
    // would fail, or quietly run fewer per SM (tile-tile sizes staged rows
    // for two; its budget keeps 2 KB for this scratch).
    auto asked = launch->getAttrOfType<IntegerAttr>("nvvm.minctasm");
    int64_t programs = asked ? asked.getInt() : 1;
    constexpr int64_t kHardwarePerProgram = 1024;
    int64_t perProgram = llvm::alignTo(layout.sharedBytes, 16);
    if (sharedMemoryPerSm > 0 && perProgram > 0 &&
        programs * (perProgram + kHardwarePerProgram) > sharedMemoryPerSm)
      return launch.emitError()
             << programs << (programs == 1 ? " program" : " programs")
             << " per SM of " << perProgram
             << " bytes of shared memory each (and 1024 the hardware keeps "
                "per program) do not fit in the SM's "
             << int64_t(sharedMemoryPerSm) << " bytes";
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
