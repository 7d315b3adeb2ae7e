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
#include "SIMTLowering.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "convert-tile-to-simt"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_CONVERTTILETOSIMTPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

using namespace mlir::tile::simt;

//===----------------------------------------------------------------------===//
// SIMTLayout
//===----------------------------------------------------------------------===//

void SIMTLayout::enter(Operation *op) {
  ThreadScope scope = launch;
  current = op;
  inFirstCopy = false;
  for (Region *region = op->getParentRegion(); region;) {
    inFirstCopy |= firstCopyRegions.contains(region);
    auto it = partitions.find(region);
    if (it != partitions.end()) {
      scope = it->second;
      break;
    }
    Operation *parent = region->getParentOp();
    if (!parent || isa<gpu::LaunchOp>(parent))
      break;
    region = parent->getParentRegion();
  }
  threads = scope.threads;
  threadId = scope.threadId;
  warpId = scope.warpId;
  barrierId = scope.barrierId;
  replica = scope.replica;
  partition = scope.region;
}

int64_t SIMTLayout::runOf(TileType type) const {
  if (auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(type.getLayout()))
    return blocked.getRun();
  if (type.getLayout())
    return 1;
  return type.getNumElements() % (threads * vectorWidth) == 0 ? vectorWidth
                                                               : 1;
}

Value SIMTLayout::rawPositions(OpBuilder &b, Location loc,
                               TileType type) const {
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

Value SIMTLayout::positions(OpBuilder &b, Location loc, TileType type) const {
  Value raw = rawPositions(b, loc, type);
  if (type.getNumElements() >= threads)
    return raw;
  return arith::RemUIOp::create(
      b, loc, raw, indexSplat(b, loc, indexVector(type),
                              type.getNumElements()));
}

SmallVector<Value> SIMTLayout::coordinates(OpBuilder &b, Location loc,
                                           TileType type, Value linear) const {
  if (type.getRank() == 1)
    return {linear};
  VectorType vt = indexVector(type);
  Value cols = indexSplat(b, loc, vt, type.getDimSize(1));
  return {arith::DivUIOp::create(b, loc, linear, cols),
          arith::RemUIOp::create(b, loc, linear, cols)};
}

/// The coordinate along `dim` that the set bits of `value` (a lane or warp
/// index) add under `bases` (disjoint, so a sum).
static Value threadPart(OpBuilder &b, Location loc, Value value,
                        ArrayRef<Offset> bases, int dim) {
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value sum = c(0);
  for (auto [bit, basis] : llvm::enumerate(bases)) {
    if (basis[dim] == 0)
      continue;
    Value bitIndex = c(bit);
    Value shifted = arith::ShRUIOp::create(b, loc, value, bitIndex);
    Value lowBit = c(1);
    Value set = arith::AndIOp::create(b, loc, shifted, lowBit);
    Value weight = c(basis[dim]);
    Value term = arith::MulIOp::create(b, loc, set, weight);
    sum = arith::AddIOp::create(b, loc, sum, term);
  }
  return sum;
}

SmallVector<Value> SIMTLayout::threadCoordinates(OpBuilder &b, Location loc,
                                                 TileType type) const {
  LinearLayout linear = *getLinearLayout(type.getLayout(), type.getShape());
  Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
  Value lane = arith::RemUIOp::create(b, loc, threadId, c32);
  Value warp = arith::DivUIOp::create(b, loc, threadId, c32);
  SmallVector<Value> result;
  for (int dim = 0; dim < type.getRank(); ++dim) {
    // One at a time: the order of a call's arguments is unspecified.
    Value fromLane = threadPart(b, loc, lane, linear.lane, dim);
    Value fromWarp = threadPart(b, loc, warp, linear.warp, dim);
    result.push_back(arith::AddIOp::create(b, loc, fromLane, fromWarp));
  }
  return result;
}

SmallVector<Value> SIMTLayout::slotCoordinates(OpBuilder &b, Location loc,
                                               TileType type) const {
  if (!isLinearLayout(type.getLayout()))
    return coordinates(b, loc, type, positions(b, loc, type));
  LinearLayout linear = *getLinearLayout(type.getLayout(), type.getShape());
  Value c32 = arith::ConstantIndexOp::create(b, loc, 32);
  Value lane = arith::RemUIOp::create(b, loc, threadId, c32);
  Value warp = arith::DivUIOp::create(b, loc, threadId, c32);
  VectorType vt = indexVector(type);
  SmallVector<Value> result;
  for (int dim = 0; dim < type.getRank(); ++dim) {
    Value fromLane = threadPart(b, loc, lane, linear.lane, dim);
    Value fromWarp = threadPart(b, loc, warp, linear.warp, dim);
    Value thread = arith::AddIOp::create(b, loc, fromLane, fromWarp);
    SmallVector<Attribute> slotOffsets;
    for (int64_t s = 0; s < linear.getNumSlots(); ++s)
      slotOffsets.push_back(b.getIndexAttr(linear.slotOffset(s)[dim]));
    Value slotsPart = arith::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, slotOffsets));
    result.push_back(arith::AddIOp::create(b, loc, slotsPart,
                                           splat(b, loc, vt, thread)));
  }
  return result;
}

bool SIMTLayout::hasCopies(TileType type) const {
  if (!isLinearLayout(type.getLayout()))
    return type.getNumElements() < threads;
  LinearLayout linear = *getLinearLayout(type.getLayout(), type.getShape());
  auto zero = [](const Offset &basis) { return basis == Offset{0, 0}; };
  return llvm::any_of(linear.slot, zero) || llvm::any_of(linear.lane, zero) ||
         llvm::any_of(linear.warp, zero);
}

Value SIMTLayout::owners(OpBuilder &b, Location loc, TileType type) const {
  if (!isLinearLayout(type.getLayout())) {
    VectorType vt = indexVector(type);
    Value raw = rawPositions(b, loc, type);
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult, raw,
        indexSplat(b, loc, vt, type.getNumElements()));
  }
  LinearLayout linear = *getLinearLayout(type.getLayout(), type.getShape());
  auto c = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  // A thread owns an element when every bit whose basis is zero is clear.
  int64_t zeroBits = 0;
  for (auto [bit, basis] : llvm::enumerate(linear.lane))
    if (basis == Offset{0, 0})
      zeroBits |= int64_t(1) << bit;
  for (auto [bit, basis] : llvm::enumerate(linear.warp))
    if (basis == Offset{0, 0})
      zeroBits |= int64_t(1) << (bit + 5);
  Value zeroMask = c(zeroBits);
  Value copyIndex = arith::AndIOp::create(b, loc, threadId, zeroMask);
  Value zero = c(0);
  Value thread = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       copyIndex, zero);
  auto vt = VectorType::get({linear.getNumSlots()}, b.getI1Type());
  SmallVector<bool> slotOwners;
  for (int64_t s = 0; s < linear.getNumSlots(); ++s)
    slotOwners.push_back(!linear.isCopySlot(s));
  Value slotPart = arith::ConstantOp::create(
      b, loc, vt, DenseElementsAttr::get(vt, slotOwners));
  return arith::AndIOp::create(b, loc, slotPart,
                               vector::BroadcastOp::create(b, loc, vt, thread));
}

Value SIMTLayout::allTrue(OpBuilder &b, Location loc, TileType type) const {
  auto vt = VectorType::get({slots(type)}, b.getI1Type());
  return arith::ConstantOp::create(b, loc, vt,
                                   DenseElementsAttr::get(vt, true));
}

Value SIMTLayout::baseOffset(OpBuilder &b, Location loc) const {
  if (alignBase)
    return alignedBase;
  return arith::ConstantIndexOp::create(b, loc, 0);
}

Value SIMTLayout::sharedViewAt(OpBuilder &b, Location loc, Type elementType,
                               int64_t numElements, Value byteOffset) const {
  auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto baseType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                  MemRefLayoutAttrInterface(), workgroup);
  Value base = gpu::DynamicSharedMemoryOp::create(b, loc, baseType);
  auto viewType = MemRefType::get({numElements}, elementType,
                                  MemRefLayoutAttrInterface(), workgroup);
  if (alignBase)
    byteOffset = arith::AddIOp::create(b, loc, alignedBase, byteOffset);
  return memref::ViewOp::create(b, loc, viewType, base, byteOffset,
                                ValueRange{});
}

Value SIMTLayout::sharedView(OpBuilder &b, Location loc, Type elementType,
                             int64_t numElements, int64_t byteOffset) {
  if (partition)
    scratchUsers.insert(partition);
  // The copies of a replicated partition would share the region, each
  // synchronizing on its own barrier: only what copy 0 alone runs may.
  if (replica && !inFirstCopy && !replicatedScratchUser && current)
    replicatedScratchUser = {current->getLoc(),
                             current->getName().getStringRef().str()};
  byteOffset += reservedBytes;
  int64_t end = byteOffset + numElements * storageBytes(elementType);
  sharedBytes = std::max(sharedBytes, end);
  return sharedViewAt(b, loc, elementType, numElements,
                      arith::ConstantIndexOp::create(b, loc, byteOffset));
}

void SIMTLayout::writeShared(OpBuilder &b, Location loc, TileType type,
                             Value value, Value buffer) const {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value index;
  if (!isLinearLayout(type.getLayout())) {
    index = positions(b, loc, type);
  } else {
    SmallVector<Value> coords = slotCoordinates(b, loc, type);
    index = coords[0];
    if (type.getRank() == 2)
      index = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(b, loc, coords[0],
                                indexSplat(b, loc, indexVector(type),
                                           type.getDimSize(1))),
          coords[1]);
  }
  vector::ScatterOp::create(b, loc, /*resultType=*/Type(), buffer,
                            ValueRange{zero}, index, owners(b, loc, type),
                            value);
}

Value SIMTLayout::readShared(OpBuilder &b, Location loc, TileType slotsOf,
                             Type elementType, Value buffer,
                             Value indices) const {
  auto vt = VectorType::get({slots(slotsOf)}, elementType);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value pass = arith::ConstantOp::create(
      b, loc, vt, DenseElementsAttr::get(vt, b.getZeroAttr(elementType)));
  return vector::GatherOp::create(b, loc, vt, buffer, ValueRange{zero},
                                  indices, allTrue(b, loc, slotsOf), pass);
}

void SIMTLayout::barrier(OpBuilder &b, Location loc) const {
  if (barrierId == 0) {
    gpu::BarrierOp::create(b, loc);
    return;
  }
  Value id = arith::ConstantIntOp::create(b, loc, b.getI32Type(), barrierId);
  if (replica)
    id = arith::AddIOp::create(
        b, loc, id,
        arith::IndexCastUIOp::create(b, loc, b.getI32Type(), replica));
  Value count = arith::ConstantIntOp::create(b, loc, b.getI32Type(), threads);
  NVVM::BarrierOp::create(b, loc, Type(), id, count,
                          NVVM::BarrierReductionAttr(), Value());
}

Value simt::sharedByteOffsetValue(OpBuilder &b, Location loc,
                                  TileType sharedType, Value row, Value col,
                                  int64_t startByte) {
  auto layout = cast<SharedLayoutAttr>(sharedType.getLayout());
  int64_t eb = storageBytes(sharedType.getElementType());
  ArrayRef<int64_t> shape = sharedType.getShape();
  int64_t cols = shape.back(), rows = shape.size() == 2 ? shape[0] : 1;
  if (layout.getTransposed()) {
    std::swap(rows, cols);
    std::swap(row, col);
  }
  Type type = row.getType();
  auto c = [&](int64_t v) -> Value {
    if (auto vt = dyn_cast<VectorType>(type))
      return arith::ConstantOp::create(
          b, loc, vt, DenseElementsAttr::get(vt, b.getIndexAttr(v)));
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  if (layout.getSwizzle() == 0 && layout.getRowXor() == 0) {
    Value linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, c(cols + layout.getPadding())),
        col);
    return arith::MulIOp::create(b, loc, linear, c(eb));
  }
  if (int64_t rowXor = layout.getRowXor()) {
    // Bit log2(X / 4) of the offset in the row flips with bit log2(X).
    Value inRow = arith::MulIOp::create(b, loc, col, c(eb));
    Value half = arith::AndIOp::create(b, loc, inRow, c(rowXor));
    Value flip = arith::ShRUIOp::create(b, loc, half, c(2));
    Value swizzled = arith::XOrIOp::create(b, loc, inRow, flip);
    Value rowStart = arith::MulIOp::create(
        b, loc, row, c((cols + layout.getPadding()) * eb));
    return arith::AddIOp::create(b, loc, rowStart, swizzled);
  }
  int64_t swizzle = layout.getSwizzle(), blockCols = swizzle / eb;
  Value block = arith::DivUIOp::create(b, loc, col, c(blockCols));
  Value inBlock = arith::RemUIOp::create(b, loc, col, c(blockCols));
  Value blockBytes = c(rows * swizzle);
  Value blockStart = arith::MulIOp::create(b, loc, block, blockBytes);
  Value rowBytes = c(swizzle);
  Value rowStart = arith::MulIOp::create(b, loc, row, rowBytes);
  Value lineStart = arith::AddIOp::create(b, loc, blockStart, rowStart);
  Value elementBytes = c(eb);
  Value inLine = arith::MulIOp::create(b, loc, inBlock, elementBytes);
  Value offset = arith::AddIOp::create(b, loc, lineStart, inLine);
  if (startByte)
    offset = arith::AddIOp::create(b, loc, offset, c(startByte));
  Value lineShift = c(7);
  Value line = arith::ShRUIOp::create(b, loc, offset, lineShift);
  Value lineMask = c(swizzle / 16 - 1);
  Value bits = arith::AndIOp::create(b, loc, line, lineMask);
  Value swizzled = arith::XOrIOp::create(
      b, loc, offset, arith::ShLIOp::create(b, loc, bits, c(4)));
  if (!startByte)
    return swizzled;
  return arith::SubIOp::create(b, loc, swizzled, c(startByte));
}

/// Global positions and in-bounds mask of each slot of a tile at `offsets`
/// in a memref; shared by loads and stores.
std::pair<Value, Value>
simt::globalAccess(OpBuilder &b, Location loc, const SIMTLayout &layout,
             TileType type, MemRefType memrefType, ValueRange offsets) {
  VectorType vt = layout.indexVector(type);
  SmallVector<Value> coords = layout.slotCoordinates(b, loc, type);
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

Value simt::uniformWarpIndex(OpBuilder &b, Location loc, Region &scope,
                             Value threadId) {
  // The scope's own wgmma ops: those whose closest partition is the scope
  // (none for the launch's body).
  auto partitions = dyn_cast<WarpSpecializeOp>(scope.getParentOp());
  WalkResult walk = scope.walk([&](WgmmaOp op) {
    return op.getUniformWarp() &&
                   op->getParentOfType<WarpSpecializeOp>() == partitions
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (!walk.wasInterrupted())
    return Value();
  return broadcastWarpIndex(b, loc, threadId);
}

Value simt::broadcastWarpIndex(OpBuilder &b, Location loc, Value threadId) {
  Type i32 = b.getI32Type();
  Value warp = arith::IndexCastUIOp::create(
      b, loc, i32,
      arith::DivUIOp::create(b, loc, threadId,
                             arith::ConstantIndexOp::create(b, loc, 32)));
  Value lane0 = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value width = arith::ConstantIntOp::create(b, loc, i32, 32);
  Value broadcast =
      gpu::ShuffleOp::create(b, loc, warp, lane0, width, gpu::ShuffleMode::IDX)
          .getShuffleResult();
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), broadcast);
}

Value simt::combineScalars(OpBuilder &b, Region &combiner, Value x,
                           Value y) {
  IRMapping mapping;
  Block &block = combiner.front();
  mapping.map(block.getArgument(0), x);
  mapping.map(block.getArgument(1), y);
  for (Operation &inner : block.without_terminator())
    b.clone(inner, mapping);
  return mapping.lookup(cast<YieldOp>(block.getTerminator()).getValue());
}

Value simt::loadRun(OpBuilder &b, Location loc, VectorType type, Value memref,
                    ValueRange indices, int64_t alignBytes,
                    std::optional<int64_t> l2Fetch) {
  int64_t bytes = type.getNumElements() * storageBytes(type.getElementType());
  if (!l2Fetch || (bytes != 2 && bytes != 4 && bytes != 8) ||
      !isGlobalMemRef(memref.getType()))
    return vector::LoadOp::create(b, loc, type, memref, indices,
                                  /*nontemporal=*/false,
                                  llvm::MaybeAlign(alignBytes));
  // LLVM 22's NVPTX has no way to ask a load for an L2 prefetch size (nor
  // MLIR's NVVM dialect an op), so the load is inline PTX: its address is
  // the memref's aligned pointer plus the element offset (strided
  // metadata), made a global address as ld.global wants it.
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  Value address = arith::AddIOp::create(
      b, loc, pointer,
      arith::MulIOp::create(
          b, loc, linear,
          idx(b, loc, storageBytes(type.getElementType()))));
  Value address64 =
      arith::IndexCastUIOp::create(b, loc, b.getI64Type(), address);
  Type word = b.getIntegerType(bytes * 8);
  StringRef constraint = bytes == 2 ? "=h,l" : bytes == 4 ? "=r,l" : "=l,l";
  std::string text = llvm::formatv("{{ .reg .u64 %g; cvta.to.global.u64 %g, "
                                   "$1; ld.global.L2::{0}B.b{1} $0, [%g]; }",
                                   *l2Fetch, bytes * 8)
                         .str();
  // Side effects: kept where the load was (the order the prefetch chose).
  Value loaded = LLVM::InlineAsmOp::create(
                     b, loc, word, ValueRange{address64}, text, constraint,
                     /*has_side_effects=*/true, /*is_align_stack=*/false,
                     LLVM::tailcallkind::TailCallKind::None,
                     /*asm_dialect=*/LLVM::AsmDialectAttr(),
                     /*operand_attrs=*/ArrayAttr())
                     .getResult(0);
  return LLVM::BitcastOp::create(b, loc, type, loaded);
}

/// A 1-D view of a static, identity-layout memref.
Value simt::flatten(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto [strides, offset] = type.getStridesAndOffset();
  if (type.getRank() == 1 && strides[0] != 1) {
    // A 1-D view across rows (a column of a row-major buffer: a scale per
    // row and K block): the elements it spans, contiguous from its first,
    // which globalAccess addresses through the stride.
    int64_t span = (type.getDimSize(0) - 1) * strides[0] + 1;
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    auto flat = MemRefType::get(
        {span}, type.getElementType(),
        StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, {1}),
        type.getMemorySpace());
    return memref::ReinterpretCastOp::create(
        b, loc, flat, metadata.getBaseBuffer(),
        OpFoldResult(metadata.getOffset()),
        ArrayRef<OpFoldResult>{b.getIndexAttr(span)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }
  if (type.getRank() == 1)
    return memref;
  SmallVector<ReassociationIndices> all = {
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()))};
  return memref::CollapseShapeOp::create(b, loc, memref, all);
}

namespace {

struct SplatLowering : SIMTPattern<SplatOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    auto type = cast<TileType>(op.getType());
    rewriter.replaceOp(op, layout.splat(rewriter, op.getLoc(),
                                        layout.vectorType(type),
                                        adaptor.getValue()));
    return success();
  }
};

/// tile.iota: each slot's own coordinate along the dimension.
struct IotaLowering : SIMTPattern<IotaOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    auto type = cast<TileType>(op.getType());
    SmallVector<Value> coords =
        layout.slotCoordinates(rewriter, op.getLoc(), type);
    rewriter.replaceOpWithNewOp<arith::IndexCastOp>(
        op, layout.vectorType(type), coords[op.getDim()]);
    return success();
  }
};

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
                 !isProvablyMultipleOf(offsets[rank - 1], run);
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
  Value runLength = c(run);
  Value intoRun = arith::RemUIOp::create(b, loc, start, runLength);
  Value zero = c(0);
  Value aligned = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        intoRun, zero);
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
  Value start = vector::BroadcastOp::create(b, loc, vt, at[rank - 1]);
  Value offsets =
      arith::ConstantOp::create(b, loc, vt, DenseElementsAttr::get(vt, steps));
  Value column = arith::AddIOp::create(b, loc, start, offsets);
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
    layout.enter(op);
    Location loc = op.getLoc();
    auto type = cast<TileType>(op.getType());
    if (isSharedTile(type))
      return rewriter.notifyMatchFailure(op, "into shared memory: "
                                             "SharedMemory.cpp");
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
    // in_bounds: every slot is inside, no predicate on its load (a ring
    // slot's scales, read at a constant offset by tile-pipeline's loads).
    if (op.getInBounds())
      mask = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(cast<ShapedType>(mask.getType()), true));
    VectorType vt = layout.vectorType(type);
    TypedAttr padding = op.getPaddingAttr()
                            ? op.getPaddingAttr()
                            : rewriter.getZeroAttr(type.getElementType());
    Value pass = arith::ConstantOp::create(
        rewriter, loc, vt, DenseElementsAttr::get(vt, padding));
    Value flat = flatten(rewriter, loc, adaptor.getSource());
    if (std::optional<int64_t> l2Fetch = op.getL2Fetch()) {
      rewriter.replaceOp(op, loadSlots(rewriter, loc, flat, linear, mask,
                                       pass, *l2Fetch));
      return success();
    }
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    rewriter.replaceOpWithNewOp<vector::GatherOp>(op, vt, flat,
                                                  ValueRange{zero}, linear,
                                                  mask, pass);
    return success();
  }

  /// The slots one by one, each inside `mask` read by loadRun with the
  /// load's l2_fetch (vector.gather has no way to carry it), the rest
  /// `pass`.
  static Value loadSlots(OpBuilder &b, Location loc, Value flat, Value linear,
                         Value mask, Value pass, int64_t l2Fetch) {
    auto vt = cast<VectorType>(pass.getType());
    Type element = vt.getElementType();
    auto one = VectorType::get({1}, element);
    Value result = pass;
    for (int64_t i = 0; i < vt.getNumElements(); ++i) {
      Value at = vector::ExtractOp::create(b, loc, linear, i);
      Value inside = vector::ExtractOp::create(b, loc, mask, i);
      auto branch = scf::IfOp::create(b, loc, one, inside, /*withElse=*/true);
      {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(branch.thenBlock());
        scf::YieldOp::create(
            b, loc,
            loadRun(b, loc, one, flat, at, storageBytes(element), l2Fetch));
        b.setInsertionPointToStart(branch.elseBlock());
        Value padding = vector::ExtractOp::create(b, loc, pass, i);
        scf::YieldOp::create(
            b, loc, ValueRange{vector::BroadcastOp::create(b, loc, one, padding)
                                   .getResult()});
      }
      result = vector::InsertOp::create(
          b, loc, vector::ExtractOp::create(b, loc, branch.getResult(0), 0),
          result, i);
    }
    return result;
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
        Value loaded = loadRun(rewriter, loc, runType, adaptor.getSource(),
                               at, bytes, op.getL2Fetch());
        scf::YieldOp::create(rewriter, loc, loaded);
        rewriter.setInsertionPointToStart(branch.elseBlock());
        Value elsewise = padRun;
        if (runs.partial) {
          auto [linear, inside] =
              runElements(rewriter, loc, op.getSource().getType(), at,
                          runs.run);
          Value flat = flatten(rewriter, loc, adaptor.getSource());
          Value base = arith::ConstantIndexOp::create(rewriter, loc, 0);
          elsewise = vector::GatherOp::create(rewriter, loc, runType, flat,
                                              ValueRange{base}, linear, inside,
                                              padRun);
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
    layout.enter(op);
    Location loc = op.getLoc();
    auto baseType = MemRefType::get(
        {ShapedType::kDynamic}, rewriter.getI8Type(),
        MemRefLayoutAttrInterface(), op.getBuffer().getType().getMemorySpace());
    Value base = gpu::DynamicSharedMemoryOp::create(rewriter, loc, baseType);
    Value offset = arith::ConstantIndexOp::create(
        rewriter, loc, layout.sharedOffsets.lookup(op));
    if (layout.alignBase)
      offset = arith::AddIOp::create(rewriter, loc, layout.alignedBase, offset);
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
    layout.enter(op);
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
    layout.enter(op);
    if (!layout.asyncCopies) {
      rewriter.eraseOp(op); // the copies were synchronous
      return success();
    }
    Location loc = op.getLoc();
    NVVM::CpAsyncWaitGroupOp::create(rewriter, loc, op.getPending());
    // cp.async writes through the generic proxy; a wgmma reading the
    // tiles reads through the async proxy (the barrier after this orders
    // the other threads' copies).
    fenceAsyncProxy(rewriter, loc, layout);
    rewriter.eraseOp(op);
    return success();
  }
};

struct StoreLowering : SIMTPattern<StoreOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
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
          Value flat = flatten(rewriter, loc, adaptor.getDest());
          Value base = arith::ConstantIndexOp::create(rewriter, loc, 0);
          vector::ScatterOp::create(rewriter, loc, /*resultType=*/Type(), flat,
                                    ValueRange{base}, linear, inside, slice);
        }
      }
      rewriter.eraseOp(op);
      return success();
    }
    auto [linear, mask] = globalAccess(rewriter, loc, layout, type,
                                       op.getDest().getType(),
                                       adaptor.getIndices());
    if (layout.hasCopies(type))
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
    layout.enter(op);
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
    layout.enter(op);
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
    layout.enter(op);
    Location loc = op.getLoc();
    auto type = cast<TileType>(op.getType());
    int64_t slots = layout.slots(type);
    auto i32Vector = VectorType::get({slots}, rewriter.getI32Type());
    auto i1Vector = VectorType::get({slots}, rewriter.getI1Type());
    SmallVector<Value> coords = layout.slotCoordinates(rewriter, loc, type);
    auto index = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    auto clamp = [&](Value v, int64_t size) -> Value {
      Value below = arith::MinSIOp::create(rewriter, loc, v, index(size));
      return arith::MaxSIOp::create(rewriter, loc, below, index(0));
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
        Value los = vector::BroadcastOp::create(rewriter, loc, i32Vector, lo32);
        Value fromLo = arith::SubIOp::create(rewriter, loc, pos, los);
        Value widths =
            vector::BroadcastOp::create(rewriter, loc, i32Vector, width);
        inside = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                       fromLo, widths);
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
    layout.enter(op);
    Location loc = op.getLoc();
    auto inType = cast<TileType>(op.getInput().getType());
    auto outType = cast<TileType>(op.getType());
    if (op.getDims().empty()) {
      rewriter.replaceOp(op, adaptor.getInput());
      return success();
    }
    if (isLinearLayout(outType.getLayout()))
      return rewriter.notifyMatchFailure(op, "MMA-family layouts broadcast "
                                             "in LinearLayouts.cpp");
    if (inType.getRank() != 1 || outType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "only rank 1 to 2 broadcasts");
    // The input as the slice of the blocked result (tile-assign-layouts'
    // choice for a loaded per-row scale): each slot of the result takes
    // the input's slot of its row, no exchange.
    if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(inType.getLayout())) {
      FailureOr<LinearLayout> parent =
          getLinearLayout(outType.getLayout(), outType.getShape());
      if (failed(parent) || slice.getParent() != outType.getLayout())
        return op.emitOpError() << "cannot broadcast " << inType << " into "
                                << outType;
      SmallVector<int64_t> lanes;
      for (int64_t s = 0; s < parent->getNumSlots(); ++s)
        lanes.push_back(sliceSlotOf(*parent, op.getDims()[0], s));
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, adaptor.getInput(),
                                                     adaptor.getInput(), lanes);
      return success();
    }
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
    Type element = inType.getElementType();
    int64_t run = layout.runOf(outType);
    VectorType vt = layout.vectorType(outType);
    if (op.getDims()[0] == 1 && run > 1 && outType.getDimSize(1) % run == 0 &&
        vt.getNumElements() % run == 0) {
      SmallVector<Value> coords = layout.coordinates(
          rewriter, loc, outType, layout.positions(rewriter, loc, outType));
      // A row's value over runs within the row (a group scale along K): one
      // read per run, spread over its slots; straight from global memory
      // where the input is a load only this broadcast reads (no exchange,
      // no barrier), else from the input written to shared memory.
      int64_t runs = vt.getNumElements() / run;
      SmallVector<int64_t> starts, spread;
      for (int64_t j = 0; j < runs; ++j)
        starts.push_back(j * run);
      for (int64_t i = 0; i < vt.getNumElements(); ++i)
        spread.push_back(i / run);
      // The input runs along the rows (the result's new dimension is 1).
      Value rows =
          vector::ShuffleOp::create(rewriter, loc, coords[0], coords[0], starts);
      auto runType = VectorType::get({runs}, element);
      auto indexType = VectorType::get({runs}, rewriter.getIndexType());
      auto maskType = VectorType::get({runs}, rewriter.getI1Type());
      Value zero = idx(rewriter, loc, 0);
      Value pass = arith::ConstantOp::create(
          rewriter, loc, runType,
          DenseElementsAttr::get(runType, rewriter.getZeroAttr(element)));
      Value perRun;
      if (Value fromGlobal =
              readRunsFromLoad(rewriter, loc, op, rows, indexType, maskType,
                               pass)) {
        perRun = fromGlobal;
      } else {
        Value buffer = layout.sharedView(rewriter, loc, element,
                                         inType.getNumElements(), 0);
        layout.writeShared(rewriter, loc, inType, adaptor.getInput(), buffer);
        layout.barrier(rewriter, loc);
        Value all = arith::ConstantOp::create(
            rewriter, loc, maskType,
            DenseElementsAttr::get(maskType, rewriter.getBoolAttr(true)));
        perRun = vector::GatherOp::create(rewriter, loc, runType, buffer,
                                          ValueRange{zero}, rows, all, pass);
        layout.barrier(rewriter, loc);
      }
      rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, perRun, perRun,
                                                     spread);
      return success();
    }
    Value buffer = layout.sharedView(rewriter, loc, element,
                                     inType.getNumElements(), 0);
    layout.writeShared(rewriter, loc, inType, adaptor.getInput(), buffer);
    layout.barrier(rewriter, loc);
    SmallVector<Value> coords = layout.coordinates(
        rewriter, loc, outType, layout.positions(rewriter, loc, outType));
    // The input runs along the result dimension that is not new.
    Value source = op.getDims()[0] == 0 ? coords[1] : coords[0];
    Value result =
        layout.readShared(rewriter, loc, outType, element, buffer, source);
    layout.barrier(rewriter, loc);
    rewriter.replaceOp(op, result);
    return success();
  }

  /// Where the broadcast's input is a tile.load from a 1-D buffer in
  /// global memory that nothing else reads: the elements at `rows` (of the
  /// loaded tile) read from the buffer, zero past its end; else null. The
  /// load, unused then, goes away.
  Value readRunsFromLoad(ConversionPatternRewriter &rewriter, Location loc,
                         BroadcastOp op, Value rows, VectorType indexType,
                         VectorType maskType, Value pass) const {
    auto load = op.getInput().getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse() || load.getPadding())
      return Value();
    MemRefType type = load.getSource().getType();
    if (type.getRank() != 1 || !type.hasStaticShape() ||
        isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
      return Value();
    auto [strides, offset] = type.getStridesAndOffset();
    Value memref = rewriter.getRemappedValue(load.getSource());
    Value start = rewriter.getRemappedValue(load.getIndices()[0]);
    Value at = arith::AddIOp::create(
        rewriter, loc, rows,
        vector::BroadcastOp::create(rewriter, loc, indexType, start));
    Value extent = arith::ConstantOp::create(
        rewriter, loc, indexType,
        DenseElementsAttr::get(indexType,
                               rewriter.getIndexAttr(type.getDimSize(0))));
    Value inside = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ult, at, extent);
    // A strided view (a column of a row-major buffer) as the span it
    // covers, addressed through the stride (flatten's).
    Value flat = flatten(rewriter, loc, memref);
    if (strides[0] != 1) {
      Value stride = arith::ConstantOp::create(
          rewriter, loc, indexType,
          DenseElementsAttr::get(indexType, rewriter.getIndexAttr(strides[0])));
      at = arith::MulIOp::create(rewriter, loc, at, stride);
    }
    Value zero = idx(rewriter, loc, 0);
    return vector::GatherOp::create(rewriter, loc, cast<VectorType>(pass.getType()), flat,
                                    ValueRange{zero}, at, inside, pass);
  }
};

/// tile.unpack. Where the result's runs are twice the input's (explicit
/// #tile.blocked layouts of one thread count, tile-assign-layouts' choice
/// for a dequantized weight), input slot k holds element e and result
/// slots 2k and 2k + 1 hold elements 2e and 2e + 1 (docs/layouts.md): each
/// thread splits its own bytes. Otherwise every owner writes its bytes to
/// the scratch region, row-major, and after a barrier each result slot
/// reads the byte that holds it.
struct UnpackLowering : SIMTPattern<UnpackOp> {
  using SIMTPattern::SIMTPattern;

  static Value splatByte(OpBuilder &b, Location loc, VectorType type,
                         int8_t value) {
    return arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getI8IntegerAttr(value)));
  }

  /// Each byte of `bytes` shifted up by `shiftUp` (4 for the low nibble, 0
  /// for the high one; per slot or for all), then down by 4: the nibble,
  /// sign- or zero-extended.
  static Value nibbles(OpBuilder &b, Location loc, Value bytes, Value shiftUp,
                       bool isSigned) {
    Value four = splatByte(b, loc, cast<VectorType>(bytes.getType()), 4);
    Value top = arith::ShLIOp::create(b, loc, bytes, shiftUp);
    if (isSigned)
      return arith::ShRSIOp::create(b, loc, top, four);
    return arith::ShRUIOp::create(b, loc, top, four);
  }

  LogicalResult
  matchAndRewrite(UnpackOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    auto inType = cast<TileType>(op.getInput().getType());
    auto outType = cast<TileType>(op.getType());
    if (inType.getRank() > 2)
      return rewriter.notifyMatchFailure(op, "only tiles of rank 1 or 2");
    bool isSigned = op.getSignExtend();
    bool interleaved = op.getInterleaved();
    auto in = dyn_cast_or_null<BlockedLayoutAttr>(inType.getLayout());
    auto out = dyn_cast_or_null<BlockedLayoutAttr>(outType.getLayout());
    // Each thread splits its own bytes, slot s into slots 2 s and 2 s + 1:
    // blocked runs twice as long, or wgmma's register A in runs twice as
    // wide as the bytes' (their slots hold a run first: TileLayouts.cpp).
    int64_t inRun = 0;
    if (in && out && in.getThreads() == out.getThreads() &&
        out.getRun() == 2 * in.getRun() &&
        inType.getNumElements() % (in.getThreads() * in.getRun()) == 0)
      inRun = in.getRun();
    auto inOperand = dyn_cast_or_null<DotOperandLayoutAttr>(inType.getLayout());
    auto outOperand =
        dyn_cast_or_null<DotOperandLayoutAttr>(outType.getLayout());
    if (inOperand && outOperand &&
        inOperand.getParent() == outOperand.getParent() &&
        inOperand.getParent().getKind() == MmaKind::wgmma &&
        inOperand.getIndex() == 0 && outOperand.getIndex() == 0 &&
        outOperand.getKWidth() == 2 * inOperand.getKWidth())
      inRun = inOperand.getKWidth();
    if (inRun) {
      auto bytesType = cast<VectorType>(adaptor.getInput().getType());
      int64_t count = bytesType.getNumElements();
      // Interleaved values need each thread's words to be the stored ones.
      bool wholeWords = count % 4 == 0 && (!op.byWords() || inRun % 4 == 0);
      if (wholeWords && op.getBits()) {
        // Bit b of value e is bit bits[4 (e % 8) + b] of word e / 8: four
        // (shift, and, shift, or) a value, the form tile-packed-dequant
        // reads (tile::matchBitFields) and replaces where it decodes the
        // values in pairs.
        ArrayRef<int64_t> order = *op.getBits();
        Type i32 = rewriter.getI32Type();
        auto wordsType = VectorType::get({count / 4}, i32);
        auto valuesType = VectorType::get({2 * count}, i32);
        Value words = vector::BitCastOp::create(rewriter, loc, wordsType,
                                                adaptor.getInput());
        SmallVector<int64_t> wordOf;
        for (int64_t e = 0; e < 2 * count; ++e)
          wordOf.push_back(e / 8);
        Value spread =
            vector::ShuffleOp::create(rewriter, loc, words, words, wordOf);
        auto splat = [&](int32_t v) -> Value {
          return arith::ConstantOp::create(
              rewriter, loc, valuesType,
              DenseElementsAttr::get(valuesType,
                                     rewriter.getI32IntegerAttr(v)));
        };
        Value values;
        for (int64_t bit = 0; bit < 4; ++bit) {
          SmallVector<int32_t> at;
          for (int64_t e = 0; e < 2 * count; ++e)
            at.push_back(order[4 * (e % 8) + bit]);
          Value down = arith::ConstantOp::create(
              rewriter, loc, valuesType,
              DenseElementsAttr::get(valuesType, ArrayRef<int32_t>(at)));
          // One op a statement: the order of a call's arguments is the
          // host compiler's (scripts/compare-builds.sh).
          Value shifted = arith::ShRUIOp::create(rewriter, loc, spread, down);
          Value one = splat(1);
          Value got = arith::AndIOp::create(rewriter, loc, shifted, one);
          if (bit > 0) {
            Value to = splat(bit);
            got = arith::ShLIOp::create(rewriter, loc, got, to);
          }
          values =
              values
                  ? arith::OrIOp::create(rewriter, loc, values, got).getResult()
                  : got;
        }
        if (isSigned) {
          Value top = splat(28);
          Value up = arith::ShLIOp::create(rewriter, loc, values, top);
          values = arith::ShRSIOp::create(rewriter, loc, up, top);
        }
        rewriter.replaceOpWithNewOp<arith::TruncIOp>(
            op, VectorType::get({2 * count}, rewriter.getI8Type()), values);
        return success();
      }
      if (wholeWords) {
        // On 32-bit words: value e is bits [4 (e % 8), 4 (e % 8) + 4) of
        // word e / 8 (bytes are little-endian, the low nibble first),
        // moved to the top and shifted back (one bfe each in PTX); i8
        // vectors would be taken apart byte by byte.
        Type i32 = rewriter.getI32Type();
        auto wordsType = VectorType::get({count / 4}, i32);
        Value words = vector::BitCastOp::create(rewriter, loc, wordsType,
                                                adaptor.getInput());
        SmallVector<int64_t> wordOf;
        SmallVector<int32_t> up;
        for (int64_t e = 0; e < 2 * count; ++e) {
          wordOf.push_back(e / 8);
          int64_t nibble =
              interleaved ? UnpackOp::interleavedNibble(e % 8) : e % 8;
          up.push_back(28 - 4 * nibble);
        }
        Value spread =
            vector::ShuffleOp::create(rewriter, loc, words, words, wordOf);
        auto valuesType = VectorType::get({2 * count}, i32);
        Value shiftUp = arith::ConstantOp::create(
            rewriter, loc, valuesType,
            DenseElementsAttr::get(valuesType, ArrayRef<int32_t>(up)));
        Value shiftDown = arith::ConstantOp::create(
            rewriter, loc, valuesType,
            DenseElementsAttr::get(valuesType, rewriter.getI32IntegerAttr(28)));
        Value top = arith::ShLIOp::create(rewriter, loc, spread, shiftUp);
        Value values =
            isSigned ? arith::ShRSIOp::create(rewriter, loc, top, shiftDown)
                           .getResult()
                     : arith::ShRUIOp::create(rewriter, loc, top, shiftDown)
                           .getResult();
        rewriter.replaceOpWithNewOp<arith::TruncIOp>(
            op, VectorType::get({2 * count}, rewriter.getI8Type()), values);
        return success();
      }
      if (!op.byWords()) {
        Value four = splatByte(rewriter, loc, bytesType, 4);
        Value zero = splatByte(rewriter, loc, bytesType, 0);
        Value low = nibbles(rewriter, loc, adaptor.getInput(), four, isSigned);
        Value high = nibbles(rewriter, loc, adaptor.getInput(), zero, isSigned);
        rewriter.replaceOpWithNewOp<vector::InterleaveOp>(op, low, high);
        return success();
      }
    }
    Type i8 = rewriter.getI8Type();
    Value scratch =
        layout.sharedView(rewriter, loc, i8, inType.getNumElements(), 0);
    layout.writeShared(rewriter, loc, inType, adaptor.getInput(), scratch);
    layout.barrier(rewriter, loc);
    SmallVector<Value> at = layout.slotCoordinates(rewriter, loc, outType);
    VectorType indexType = layout.indexVector(outType);
    Value two = layout.indexSplat(rewriter, loc, indexType, 2);
    Value column = at.back();
    Value rowStart;
    if (outType.getRank() == 2) {
      Value rowBytes =
          layout.indexSplat(rewriter, loc, indexType, inType.getDimSize(1));
      rowStart = arith::MulIOp::create(rewriter, loc, at[0], rowBytes);
    }
    if (std::optional<ArrayRef<int64_t>> order = op.getBits()) {
      // Each value's four bits from their bytes (value v = column % 8 of
      // word column / 8, bit b at word bit bits[4 v + b]: a select over the
      // eight values), or-ed together, as TileReference.cpp reads them.
      VectorType byteVector = layout.vectorType(outType);
      auto index = [&](int64_t v) {
        return layout.indexSplat(rewriter, loc, indexType, v);
      };
      // One op a statement: the order of a call's arguments is the host
      // compiler's (scripts/compare-builds.sh).
      Value eight = index(8);
      Value v = arith::RemUIOp::create(rewriter, loc, column, eight);
      Value word = arith::DivUIOp::create(rewriter, loc, column, eight);
      Value four = index(4);
      Value wordStart = arith::MulIOp::create(rewriter, loc, word, four);
      if (rowStart)
        wordStart = arith::AddIOp::create(rewriter, loc, rowStart, wordStart);
      Value value = splatByte(rewriter, loc, byteVector, 0);
      for (int64_t bit = 0; bit < 4; ++bit) {
        Value position = index((*order)[bit]);
        for (int64_t other = 1; other < 8; ++other) {
          Value which = index(other);
          Value isOther = arith::CmpIOp::create(
              rewriter, loc, arith::CmpIPredicate::eq, v, which);
          Value there = index((*order)[4 * other + bit]);
          position =
              arith::SelectOp::create(rewriter, loc, isOther, there, position);
        }
        Value byteOffset =
            arith::DivUIOp::create(rewriter, loc, position, eight);
        Value byteIndex =
            arith::AddIOp::create(rewriter, loc, wordStart, byteOffset);
        Value bytes = layout.readShared(rewriter, loc, outType, i8, scratch,
                                        byteIndex);
        Value bitInByte =
            arith::RemUIOp::create(rewriter, loc, position, eight);
        Value inByte =
            arith::IndexCastOp::create(rewriter, loc, byteVector, bitInByte);
        Value shifted = arith::ShRUIOp::create(rewriter, loc, bytes, inByte);
        Value one = splatByte(rewriter, loc, byteVector, 1);
        Value got = arith::AndIOp::create(rewriter, loc, shifted, one);
        if (bit > 0) {
          Value to = splatByte(rewriter, loc, byteVector, bit);
          got = arith::ShLIOp::create(rewriter, loc, got, to);
        }
        value = arith::OrIOp::create(rewriter, loc, value, got);
      }
      layout.barrier(rewriter, loc);
      if (isSigned) {
        Value byFour = splatByte(rewriter, loc, byteVector, 4);
        Value top = arith::ShLIOp::create(rewriter, loc, value, byFour);
        value = arith::ShRSIOp::create(rewriter, loc, top, byFour);
      }
      rewriter.replaceOp(op, value);
      return success();
    }
    Value byteIndex = arith::DivUIOp::create(rewriter, loc, column, two);
    // Which half of its byte each value is: the column's parity, or the
    // interleaved order's.
    Value half = arith::RemUIOp::create(rewriter, loc, column, two);
    if (interleaved)
      std::tie(byteIndex, half) =
          buildInterleavedNibble(rewriter, loc, column);
    if (rowStart)
      byteIndex = arith::AddIOp::create(rewriter, loc, rowStart, byteIndex);
    Value bytes = layout.readShared(rewriter, loc, outType, i8, scratch,
                                    byteIndex);
    layout.barrier(rewriter, loc);
    // Low nibbles (half 0) shift up by 4, high ones by 0.
    VectorType byteVector = layout.vectorType(outType);
    Value halfBytes = arith::IndexCastOp::create(rewriter, loc, byteVector, half);
    Value fours = splatByte(rewriter, loc, byteVector, 4);
    Value down = arith::MulIOp::create(rewriter, loc, halfBytes, fours);
    Value up = arith::SubIOp::create(rewriter, loc, fours, down);
    rewriter.replaceOp(op, nibbles(rewriter, loc, bytes, up, isSigned));
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
    layout.enter(op);
    Location loc = op.getLoc();
    auto inType = cast<TileType>(op.getInput().getType());
    auto outType = cast<TileType>(op.getType());
    if (inType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "only rank-2 tiles");
    if (isLinearLayout(inType.getLayout()))
      return rewriter.notifyMatchFailure(op, "MMA-family layouts reduce in "
                                             "LinearLayouts.cpp");
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
    layout.barrier(rewriter, loc);

    // Each slot folds the line of the input through its output element.
    VectorType vt = layout.indexVector(outType);
    Value kept = layout.positions(rewriter, loc, outType);
    Value init = layout.splat(rewriter, loc, layout.vectorType(outType),
                              adaptor.getInit());
    auto c = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Value begin = c(0), end = c(extent), step = c(1);
    auto loop =
        scf::ForOp::create(rewriter, loc, begin, end, step, ValueRange{init});
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
    layout.barrier(rewriter, loc);
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
    return combineScalars(rewriter, combiner, a, b);
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
  layout.barrier(rewriter, loc);
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
  layout.barrier(rewriter, loc);
  return result;
}

struct DotLowering : SIMTPattern<DotOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    auto lhsType = cast<TileType>(op.getLhs().getType());
    auto rhsType = cast<TileType>(op.getRhs().getType());
    auto accType = cast<TileType>(op.getType());
    int64_t k = lhsType.getDimSize(1), n = rhsType.getDimSize(1);
    Type elementType = lhsType.getElementType();
    // Operands in registers go through the scratch region; operands in
    // shared memory are read where they are.
    Value lhsBuf = adaptor.getLhs(), rhsBuf = adaptor.getRhs();
    bool lhsShared = isSharedTile(lhsType), rhsShared = isSharedTile(rhsType);
    if (!lhsShared || !rhsShared) {
      int64_t lhsBytes =
          lhsShared ? 0 : lhsType.getNumElements() * storageBytes(elementType);
      int64_t rhsOffset = llvm::alignTo(lhsBytes, 16);
      if (!lhsShared)
        lhsBuf = layout.sharedView(rewriter, loc, elementType,
                                   lhsType.getNumElements(), 0);
      if (!rhsShared)
        rhsBuf = layout.sharedView(rewriter, loc, rhsType.getElementType(),
                                   rhsType.getNumElements(), rhsOffset);
      if (!lhsShared)
        layout.writeShared(rewriter, loc, lhsType, adaptor.getLhs(), lhsBuf);
      if (!rhsShared)
        layout.writeShared(rewriter, loc, rhsType, adaptor.getRhs(), rhsBuf);
      layout.barrier(rewriter, loc);
    }

    VectorType vt = layout.indexVector(accType);
    SmallVector<Value> ij = layout.slotCoordinates(rewriter, loc, accType);
    auto c = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(rewriter, loc, v);
    };
    Value begin = c(0), end = c(k), step = c(1);
    auto loop = scf::ForOp::create(rewriter, loc, begin, end, step,
                                   ValueRange{adaptor.getAcc()});
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(loop.getBody());
      Value kk = layout.splat(rewriter, loc, vt, loop.getInductionVar());
      // Element (row, col) of an operand: row-major in the scratch, where
      // its layout says in shared memory.
      auto index = [&](TileType type, bool shared, Value row, Value col) {
        if (shared) {
          Value byteOffset =
              sharedByteOffsetValue(rewriter, loc, type, row, col);
          Value elementBytes = layout.indexSplat(
              rewriter, loc, vt, storageBytes(type.getElementType()));
          return arith::DivUIOp::create(rewriter, loc, byteOffset,
                                        elementBytes)
              .getResult();
        }
        return arith::AddIOp::create(
                   rewriter, loc,
                   arith::MulIOp::create(
                       rewriter, loc, row,
                       layout.indexSplat(rewriter, loc, vt,
                                         type.getDimSize(1))),
                   col)
            .getResult();
      };
      // Under k_runs, B's row kk meets A's column perm(kk); under
      // lhs_k_runs, A's column kk meets B's row perm(kk).
      Value aColumn = kk, bRow = kk;
      if (std::optional<int64_t> runs = op.getKRuns())
        aColumn = layout.splat(
            rewriter, loc, vt,
            buildKRunsColumn(rewriter, loc, *runs, loop.getInductionVar()));
      if (std::optional<int64_t> runs = op.getLhsKRuns())
        bRow = layout.splat(
            rewriter, loc, vt,
            buildKRunsColumn(rewriter, loc, *runs, loop.getInductionVar()));
      Value aIdx = index(lhsType, lhsShared, ij[0], aColumn);
      Value bIdx = index(rhsType, rhsShared, bRow, ij[1]);
      (void)n;
      Type f32 = rewriter.getF32Type();
      Value a = buildElementCast(
          rewriter, loc,
          layout.readShared(rewriter, loc, accType, elementType, lhsBuf, aIdx),
          f32);
      Value b = buildElementCast(
          rewriter, loc,
          layout.readShared(rewriter, loc, accType, rhsType.getElementType(),
                           rhsBuf, bIdx),
          f32);
      Value next = math::FmaOp::create(rewriter, loc, a, b,
                                       loop.getRegionIterArgs()[0]);
      scf::YieldOp::create(rewriter, loc, next);
    }
    layout.barrier(rewriter, loc);
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

/// Checks what the patterns assume, so that bad input gets a located error
/// rather than a "failed to legalize" from the conversion driver.
static LogicalResult checkLaunch(gpu::LaunchOp launch, SIMTLayout &layout) {
  WalkResult result = launch.walk([&](Operation *op) {
    if (op->getDialect() && !isa<TileDialect>(op->getDialect()))
      return WalkResult::advance();
    layout.enter(op);
    int64_t threads = layout.threads;
    bool inPartition = layout.barrierId != 0;
    // Warpgroups take turns only where there are two or more.
    if (isa<TurnStartOp, TurnBeginOp, TurnEndOp>(op) &&
        (threads < 256 || threads % 128 != 0)) {
      op->emitOpError() << "needs two or more whole warpgroups but runs on "
                        << threads << " threads";
      return WalkResult::interrupt();
    }
    // A turn ends in its own block before any barrier or nested region
    // (which could hold one): a warpgroup waiting there inside its turn
    // would wait for one that waits for the turn (tile-pingpong keeps to
    // this; hand-written IR must too).
    if (isa<TurnBeginOp>(op)) {
      Operation *next = op->getNextNode();
      while (next && !isa<TurnEndOp>(next) &&
             !isa<TurnBeginOp, TurnStartOp, BarrierOp, LastArrivalOp>(next) &&
             (next->getNumRegions() == 0 || isa<MapOp>(next)))
        next = next->getNextNode();
      if (!next || !isa<TurnEndOp>(next)) {
        op->emitOpError() << "needs a tile.turn_end later in its block with "
                             "no barrier, turn or nested region before it";
        return WalkResult::interrupt();
      }
    }
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
      if (!tileType || isSharedTile(tileType))
        continue;
      Attribute tileLayout = tileType.getLayout();
      if (isLinearLayout(tileLayout)) {
        int64_t held =
            getLinearLayout(tileLayout, tileType.getShape())->getNumThreads();
        if (held != threads) {
          op->emitOpError() << "has a tile laid out over " << held
                            << " threads in a scope of " << threads << ": "
                            << tileType;
          return WalkResult::interrupt();
        }
        continue;
      }
      if (auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(tileLayout)) {
        if (blocked.getThreads() != threads) {
          op->emitOpError() << "has a tile laid out over "
                            << blocked.getThreads()
                            << " threads in a scope of " << threads << ": "
                            << tileType;
          return WalkResult::interrupt();
        }
      } else if (inPartition) {
        op->emitOpError() << "needs tiles with layouts inside a "
                             "tile.warp_specialize partition (run "
                             "tile-assign-layouts) but got "
                          << tileType;
        return WalkResult::interrupt();
      }
      int64_t elements = tileType.getNumElements();
      if (elements % threads != 0 && threads % elements != 0) {
        op->emitOpError() << "cannot spread a tile of " << elements
                          << " elements over " << threads
                          << " threads (one must divide the other)";
        return WalkResult::interrupt();
      }
    }
    // Row-major buffers, or views of one row of them at any offset (wide
    // rows shifted to run boundaries), or contiguous views at any offset
    // (one head's rows of [heads * S, D]): all flatten to one dimension.
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
        // A 1-D view across rows (a column): element by element through
        // its stride (flatten).
        rowView |= memrefType.getRank() == 1 && strides[0] > 0 &&
                   !ShapedType::isDynamic(strides[0]);
        bool contiguous = memrefType.hasStaticShape();
        int64_t expected = 1;
        for (int64_t dim = memrefType.getRank() - 1; dim >= 0 && contiguous;
             --dim) {
          contiguous = strides[dim] == expected;
          expected *= memrefType.getDimSize(dim);
        }
        rowView |= contiguous;
      }
      if (!memrefType.hasStaticShape() ||
          (!memrefType.getLayout().isIdentity() && !rowView)) {
        op->emitOpError() << "expected a static, row-major memref (or a "
                             "contiguous view of one) but got "
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
    OpBuilder entry = OpBuilder::atBlockBegin(&launch.getBody().front());
    layout.warpId = uniformWarpIndex(entry, launch.getLoc(), launch.getBody(),
                                     layout.threadId);
    layout.launch = {layout.threadId, layout.threads, 0,      nullptr,
                     false,           layout.warpId,  Value()};
    layout.asyncCopies = asyncCopies;
    launch.walk([&](WgmmaOp) { layout.asyncProxyReads = true; });
    if (failed(preparePartitions(launch, layout)))
      return failure();
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
    // Buffers in shared memory at the start of the dynamic shared memory:
    // tile.shared buffers, and the tiles that tile.load and
    // tile.convert_layout put in shared memory. 16-byte aligned, and
    // 1024-byte aligned for swizzled tiles (TMA and wgmma need it), counted
    // from a base aligned at run time.
    auto isSwizzled = [](Type type) {
      auto tile = dyn_cast<TileType>(type);
      auto shared = tile ? dyn_cast_or_null<SharedLayoutAttr>(tile.getLayout())
                         : SharedLayoutAttr();
      return shared && shared.getSwizzle() != 0;
    };
    // A TMA copy's destination must also be 128-byte aligned (CUTLASS
    // aligns its TMA buffers so; a misaligned one faults): a buffer with a
    // slot that tile.tma_load fills starts on 128 bytes (its slots then do
    // where their bytes are multiples of 128, as tile-pipeline makes them).
    auto tmaFilled = [](SharedOp shared) {
      return llvm::any_of(shared->getUsers(), [](Operation *user) {
        return isa<ViewOp>(user) &&
               llvm::any_of(user->getUsers(), [&](Operation *reader) {
                 auto copy = dyn_cast<TmaLoadOp>(reader);
                 return copy && copy.getDest() == user->getResult(0);
               });
      });
    };
    auto reserve = [&](Operation *op, int64_t bytes, bool swizzled) {
      auto shared = dyn_cast<SharedOp>(op);
      bool tma = shared && tmaFilled(shared);
      int64_t alignment = swizzled ? 1024 : tma ? 128 : 16;
      layout.alignBase |= swizzled || tma;
      layout.reservedBytes = llvm::alignTo(layout.reservedBytes, alignment);
      layout.sharedOffsets[op] = layout.reservedBytes;
      layout.reservedBytes += llvm::alignTo(bytes, 16);
    };
    launch.walk([&](Operation *op) {
      if (auto shared = dyn_cast<SharedOp>(op)) {
        MemRefType type = shared.getBuffer().getType();
        // A tile.tma_store's staging slots are swizzled by 128 bytes.
        bool swizzled = llvm::any_of(shared->getUsers(), [](Operation *user) {
          return isa<TmaStoreOp>(user);
        });
        int64_t bytes =
            type.getNumElements() * storageBytes(type.getElementType());
        // Its slots as its views lay them out (padded rows take more).
        for (Operation *user : shared->getUsers()) {
          auto view = dyn_cast<ViewOp>(user);
          if (!view)
            continue;
          auto tile = cast<TileType>(view.getType());
          swizzled |= isSwizzled(tile);
          int64_t slots = 1;
          for (int64_t d = 0; d < type.getRank() - tile.getRank(); ++d)
            slots *= type.getDimSize(d);
          bytes = std::max(bytes, slots * sharedBytesOf(tile));
        }
        reserve(op, bytes, swizzled);
      } else if (isa<LoadOp, ConvertLayoutOp>(op) &&
                 isSharedTile(op->getResult(0).getType())) {
        auto type = cast<TileType>(op->getResult(0).getType());
        reserve(op, sharedBytesOf(type), isSwizzled(type));
      }
    });
    layout.sharedBytes = layout.reservedBytes;
    if (failed(checkLaunch(launch, layout)))
      return failure();
    if (layout.alignBase) {
      // (1024 - base % 1024) % 1024: the dynamic base is only 16-byte
      // aligned (DESIGN.md, pitfall 3).
      OpBuilder b = OpBuilder::atBlockBegin(&launch.getBody().front());
      Location loc = launch.getLoc();
      auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                  gpu::AddressSpace::Workgroup);
      Value base = gpu::DynamicSharedMemoryOp::create(
          b, loc,
          MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                          MemRefLayoutAttrInterface(), workgroup));
      Value address =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, base);
      Value c1024 = arith::ConstantIndexOp::create(b, loc, 1024);
      layout.alignedBase = arith::RemUIOp::create(
          b, loc,
          arith::SubIOp::create(b, loc, c1024,
                                arith::RemUIOp::create(b, loc, address, c1024)),
          c1024);
    }

    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([&](TileType type) -> Type {
      if (isSharedTile(type))
        return MemRefType::get(
            {sharedBytesOf(type) / storageBytes(type.getElementType())},
            type.getElementType(), MemRefLayoutAttrInterface(),
            type.getMemorySpace());
      return layout.vectorType(type);
    });

    ConversionTarget target(*ctx);
    target.addIllegalDialect<TileDialect>();
    target.addLegalDialect<arith::ArithDialect, gpu::GPUDialect,
                           math::MathDialect, memref::MemRefDialect,
                           NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                           scf::SCFDialect, vector::VectorDialect,
                           LLVM::LLVMDialect>();
    // Partitions stay until their insides are lowered (Partitions.cpp).
    target.addLegalOp<WarpSpecializeOp, UnrealizedConversionCastOp>();
    target.addDynamicallyLegalOp<ReturnOp>([](ReturnOp op) {
      return isa<WarpSpecializeOp>(op->getParentOp());
    });
    RewritePatternSet patterns(ctx);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    patterns.add<SplatLowering, IotaLowering, LoadLowering, StoreLowering, MapLowering,
                 CastLowering, MaskLowering, BroadcastLowering, UnpackLowering,
                 ReduceLowering,
                 DotLowering, SharedLowering, CopyAsyncLowering,
                 WaitAsyncLowering>(converter, ctx, layout);
    populateLinearLayoutPatterns(converter, patterns, layout);
    populateSharedMemoryPatterns(converter, patterns, layout);
    populateTensorCorePatterns(converter, patterns, layout);
    if (failed(applyPartialConversion(launch, target, std::move(patterns))))
      return failure();
    if (failed(lowerPartitions(launch, layout)))
      return failure();
    if (layout.scratchUsers.size() > 1)
      return launch.emitError()
             << "more than one tile.warp_specialize partition needs scratch "
                "shared memory (reductions, broadcasts, layout conversions); "
                "only one may";
    if (layout.replicatedScratchUser)
      return emitError(layout.replicatedScratchUser->first)
             << "'" << layout.replicatedScratchUser->second
             << "' op needs scratch shared memory (a reduction, broadcast "
                "or layout conversion) in every copy of a replicated "
                "tile.warp_specialize partition, which would share it; only "
                "what copy 0 alone runs (under scf.if tile.replica == 0) may";
    if (layout.alignBase)
      layout.sharedBytes += 1024;

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
