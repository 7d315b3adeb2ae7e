//===- TileTensorOps.cpp - Tensor-level ops to tile-level kernels -*- C++ -*-===//
//
// The tile-tile pass: every tensor-level op becomes one tile.kernel whose
// programs each compute one output tile. This is where the schedule is
// applied (block sizes, threads); it does not choose it: the sizes come from
// a tile.config attribute on the op or from the pass options. Fused groups
// (tile.fused) are tiled in TileFusedGroups.cpp; KernelBuilder.h holds what
// both share.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

#define DEBUG_TYPE "tile-tile"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILETILETENSOROPSPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::tiling;

namespace {

/// The schedule of one op: tile shape per result dimension and threads.
struct Schedule {
  SmallVector<int64_t> block;
  int64_t threads;
  /// tile-configure's (or a hand-written) config, if the op has one.
  ConfigAttr config;
};

} // namespace

/// Elementwise ops (map, cast, broadcast): a grid over result tiles; each
/// program loads its operand tiles, applies `compute` and stores the result.
static LogicalResult
tileElementwise(KernelBuilder &kb, ArrayRef<int64_t> block,
                function_ref<FailureOr<Value>(OpBuilder &, ArrayRef<Value>,
                                              ArrayRef<int64_t>)>
                    compute,
                ArrayRef<SmallVector<int64_t>> operandDims) {
  auto resultType = cast<RankedTensorType>(kb.op->getResult(0).getType());
  int64_t rank = resultType.getRank();
  if (rank < 1 || rank > 2)
    return kb.op->emitOpError() << "tiling supports results of rank 1 or 2 "
                                   "but got rank "
                                << rank;
  if ((int64_t)block.size() < rank)
    return kb.op->emitOpError() << "expected at least " << rank
                                << " block sizes but got " << block.size();
  block = block.take_back(rank);
  SmallVector<int64_t> tileShape, grid;
  for (int64_t d = 0; d < rank; ++d) {
    tileShape.push_back(tileSizeFor(resultType.getDimSize(d), block[d]));
    grid.push_back(ceilDiv(resultType.getDimSize(d), tileShape[d]));
  }
  if (failed(checkGrid(kb.op, grid)))
    return failure();

  SmallVector<Value> args;
  for (Value buffer : kb.bufs.operands)
    if (buffer)
      args.push_back(buffer);
  args.push_back(kb.bufs.result);
  OpBuilder b = kb.begin(args, grid);
  SmallVector<Value> offsets;
  for (int64_t d = 0; d < rank; ++d)
    offsets.push_back(kb.tileOffset(b, d, tileShape[d]));

  // Operand i is indexed by result dimensions operandDims[i].
  SmallVector<Value> tiles;
  for (auto [buffer, dims] : llvm::zip(kb.bufs.operands, operandDims)) {
    if (!buffer)
      continue;
    auto memrefType = cast<MemRefType>(buffer.getType());
    if (dims.empty()) {
      // A one-element tensor indexed by no result dimension (a per-tensor
      // scale): one load, the same for every thread; its broadcast splats
      // it.
      SmallVector<Value> at(memrefType.getRank(), kb.index(b, 0));
      tiles.push_back(memref::LoadOp::create(b, kb.loc, kb.arg(buffer), at));
      continue;
    }
    SmallVector<int64_t> shape;
    SmallVector<Value> indices;
    for (int64_t d : dims) {
      shape.push_back(tileShape[d]);
      indices.push_back(offsets[d]);
    }
    auto tileType = TileType::get(shape, memrefType.getElementType());
    tiles.push_back(LoadOp::create(b, kb.loc, tileType, kb.arg(buffer),
                                   indices, /*padding=*/nullptr));
  }
  FailureOr<Value> result = compute(b, tiles, tileShape);
  if (failed(result))
    return failure();
  StoreOp::create(b, kb.loc, *result, kb.arg(kb.bufs.result), offsets);
  return success();
}

static LogicalResult tileMap(KernelBuilder &kb, MapOp map,
                             ArrayRef<int64_t> block) {
  int64_t rank = cast<ShapedType>(map.getType()).getRank();
  SmallVector<int64_t> all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  SmallVector<SmallVector<int64_t>> dims(map.getInputs().size(), all);
  return tileElementwise(
      kb, block,
      [&](OpBuilder &b, ArrayRef<Value> tiles,
          ArrayRef<int64_t> shape) -> FailureOr<Value> {
        auto type = TileType::get(
            shape, cast<ShapedType>(map.getType()).getElementType());
        auto tiled = MapOp::create(b, kb.loc, type, tiles);
        if (failed(kb.cloneRegion(b, map.getBody(), tiled.getBody())))
          return failure();
        return tiled.getResult();
      },
      dims);
}

static LogicalResult tileCast(KernelBuilder &kb, CastOp castOp,
                              ArrayRef<int64_t> block) {
  int64_t rank = cast<ShapedType>(castOp.getType()).getRank();
  SmallVector<SmallVector<int64_t>> dims = {
      llvm::to_vector(llvm::seq<int64_t>(0, rank))};
  return tileElementwise(
      kb, block,
      [&](OpBuilder &b, ArrayRef<Value> tiles,
          ArrayRef<int64_t> shape) -> FailureOr<Value> {
        auto type = TileType::get(
            shape, cast<ShapedType>(castOp.getType()).getElementType());
        return CastOp::create(b, kb.loc, type, tiles[0]).getResult();
      },
      dims);
}

/// A transpose: each program loads the operand tile at its result tile's
/// offsets swapped and stores its tile.transpose (exchanged through shared
/// memory by the SIMT lowering).
static LogicalResult tileTranspose(KernelBuilder &kb, TransposeOp transpose,
                                   ArrayRef<int64_t> block) {
  return tileElementwise(
      kb, block,
      [&](OpBuilder &b, ArrayRef<Value> tiles,
          ArrayRef<int64_t> shape) -> FailureOr<Value> {
        auto type = TileType::get(
            shape, cast<ShapedType>(transpose.getType()).getElementType());
        return TransposeOp::create(b, kb.loc, type, tiles[0]).getResult();
      },
      {SmallVector<int64_t>{1, 0}});
}

/// An unpack: a grid over result tiles; each program loads the bytes of
/// its tile (half as many along the last dimension, at half the offset)
/// and stores their tile.unpack.
static LogicalResult tileUnpack(KernelBuilder &kb, UnpackOp unpack,
                                ArrayRef<int64_t> block) {
  auto resultType = cast<RankedTensorType>(unpack.getType());
  int64_t rank = resultType.getRank();
  if (rank < 1 || rank > 2 || (int64_t)block.size() < rank)
    return unpack.emitOpError() << "tiling supports results of rank 1 or 2 "
                                   "with as many block sizes";
  block = block.take_back(rank);
  SmallVector<int64_t> tileShape, grid;
  for (int64_t d = 0; d < rank; ++d) {
    // At least two values along the last dimension: whole bytes (whole
    // words of eight, interleaved).
    int64_t size = tileSizeFor(resultType.getDimSize(d), block[d]);
    if (d == rank - 1)
      size = std::max<int64_t>(size, unpack.byWords() ? 8 : 2);
    tileShape.push_back(size);
    grid.push_back(ceilDiv(resultType.getDimSize(d), size));
  }
  if (failed(checkGrid(unpack, grid)))
    return failure();
  OpBuilder b = kb.begin({kb.bufs.operands[0], kb.bufs.result}, grid);
  SmallVector<Value> offsets, inputOffsets;
  for (int64_t d = 0; d < rank; ++d)
    offsets.push_back(kb.tileOffset(b, d, tileShape[d]));
  inputOffsets = offsets;
  inputOffsets.back() =
      arith::DivUIOp::create(b, kb.loc, offsets.back(), kb.index(b, 2));
  SmallVector<int64_t> inputShape(tileShape);
  inputShape.back() /= 2;
  Value bytes = LoadOp::create(b, kb.loc,
                               TileType::get(inputShape, b.getI8Type()),
                               kb.arg(kb.bufs.operands[0]), inputOffsets,
                               /*padding=*/nullptr);
  Value values = UnpackOp::create(
      b, kb.loc, TileType::get(tileShape, b.getI8Type()), bytes,
      unpack.getSignExtend(), unpack.getInterleaved(), unpack.getBitsAttr());
  StoreOp::create(b, kb.loc, values, kb.arg(kb.bufs.result), offsets);
  return success();
}

/// An iota: each program's tile.iota plus its tile's offset along `dim`.
static LogicalResult tileIota(KernelBuilder &kb, IotaOp iota,
                              ArrayRef<int64_t> block) {
  int64_t dim = iota.getDim();
  return tileElementwise(
      kb, block,
      [&](OpBuilder &b, ArrayRef<Value>,
          ArrayRef<int64_t> shape) -> FailureOr<Value> {
        Type element = cast<ShapedType>(iota.getType()).getElementType();
        auto type = TileType::get(shape, element);
        Value local = IotaOp::create(b, kb.loc, type, dim);
        Value offset = arith::IndexCastOp::create(
            b, kb.loc, element, kb.tileOffset(b, dim, shape[dim]));
        auto map = MapOp::create(b, kb.loc, type, ValueRange{local});
        Block *body = b.createBlock(&map.getBody(), {}, {element}, {kb.loc});
        OpBuilder inner = OpBuilder::atBlockBegin(body);
        Value sum = arith::AddIOp::create(inner, kb.loc, body->getArgument(0),
                                          offset);
        YieldOp::create(inner, kb.loc, sum);
        b.setInsertionPointAfter(map);
        return map.getResult();
      },
      {});
}

static LogicalResult tileBroadcast(KernelBuilder &kb, BroadcastOp bcast,
                                   ArrayRef<int64_t> block) {
  int64_t rank = cast<ShapedType>(bcast.getType()).getRank();
  SmallVector<SmallVector<int64_t>> dims(1);
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(bcast.getDims(), d))
      dims[0].push_back(d);
  return tileElementwise(
      kb, block,
      [&](OpBuilder &b, ArrayRef<Value> tiles,
          ArrayRef<int64_t> shape) -> FailureOr<Value> {
        auto type = TileType::get(
            shape, cast<ShapedType>(bcast.getType()).getElementType());
        if (!isa<TileType>(tiles[0].getType()))
          return SplatOp::create(b, kb.loc, type, tiles[0]).getResult();
        return BroadcastOp::create(b, kb.loc, type, tiles[0],
                                   bcast.getDimsAttr())
            .getResult();
      },
      dims);
}

/// A reduction of a rank-2 tensor along `dim`: each program owns a block of
/// the kept dimension and loops over chunks of the reduced one, folding each
/// chunk's partial result into a running accumulator.
static LogicalResult tileReduce(KernelBuilder &kb, ReduceOp reduce,
                                ArrayRef<int64_t> block) {
  auto inputType = cast<RankedTensorType>(reduce.getInput().getType());
  if (inputType.getRank() != 2)
    return reduce.emitOpError() << "tiling supports reductions of rank-2 "
                                   "tensors but got rank "
                                << inputType.getRank();
  if (block.size() < 2)
    return reduce.emitOpError() << "expected 2 block sizes [kept, reduced] "
                                   "but got "
                                << block.size();
  Attribute identity;
  if (!matchPattern(reduce.getInit(), m_Constant(&identity)))
    return reduce.emitOpError() << "expected a constant init (the identity "
                                   "that pads partial tiles)";
  auto padding = dyn_cast<TypedAttr>(identity);
  if (!padding)
    return reduce.emitOpError() << "expected a typed constant init (the "
                                   "identity that pads partial tiles) but "
                                   "got "
                                << identity;
  int64_t dim = reduce.getDim(), kept = 1 - dim;
  int64_t keptExtent = inputType.getDimSize(kept);
  int64_t reducedExtent = inputType.getDimSize(dim);
  int64_t keptTile = tileSizeFor(keptExtent, block[0]);
  int64_t chunk = tileSizeFor(reducedExtent, block[1]);
  SmallVector<int64_t> grid = {ceilDiv(keptExtent, keptTile)};
  if (failed(checkGrid(reduce, grid)))
    return failure();

  Value input = kb.bufs.operands[0];
  OpBuilder b = kb.begin({input, kb.bufs.result}, grid);
  Location loc = kb.loc;
  Type elementType = inputType.getElementType();
  FailureOr<Value> init = kb.scalar(b, reduce.getInit());
  if (failed(init))
    return failure();
  Value offset = kb.tileOffset(b, 0, keptTile);
  auto accType = TileType::get({keptTile}, elementType);
  Value acc0 = SplatOp::create(b, loc, accType, *init);

  SmallVector<int64_t> chunkShape = {keptTile, chunk};
  if (dim == 0)
    std::swap(chunkShape[0], chunkShape[1]);
  auto chunkType = TileType::get(chunkShape, elementType);
  Value begin = kb.index(b, 0), end = kb.index(b, reducedExtent),
        step = kb.index(b, chunk);
  auto loop = scf::ForOp::create(b, loc, begin, end, step, ValueRange{acc0});
  {
    OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
    Value k = loop.getInductionVar();
    SmallVector<Value> indices = {offset, k};
    if (dim == 0)
      std::swap(indices[0], indices[1]);
    Value tile = LoadOp::create(lb, loc, chunkType, kb.arg(input), indices,
                                padding);
    auto partial = ReduceOp::create(lb, loc, accType, tile, *init,
                                    lb.getI64IntegerAttr(dim));
    if (failed(kb.cloneRegion(lb, reduce.getCombiner(), partial.getCombiner())))
      return failure();
    auto fold = MapOp::create(
        lb, loc, accType,
        ValueRange{loop.getRegionIterArgs()[0], partial.getResult()});
    if (failed(kb.cloneRegion(lb, reduce.getCombiner(), fold.getBody())))
      return failure();
    scf::YieldOp::create(lb, loc, fold.getResult());
  }
  StoreOp::create(b, loc, loop.getResult(0), kb.arg(kb.bufs.result),
                  ValueRange{offset});
  return success();
}

/// One operand's scales for the rows (`alongRows`) or columns of the
/// step's tile at `offset` (m0 or n0) of `extent` (tm or tn) elements, K
/// block `kBlock`: SA[(m0 + r) / gm, kb] or SB[kb, (n0 + c) / gn]. A
/// scalar where the tile lies within one scale block (gm a multiple of
/// tm), a 1-D tile where every row or column has its own (gm = 1, read
/// through a 1-D view of the stored scales), else null (the tiles do not
/// fit the scale block: matmulTiling rejects those).
static Value stepScales(KernelBuilder &kb, OpBuilder &b, Value stored,
                        bool transposed, bool alongRows, Value kBlock,
                        Value offset, int64_t extent, int64_t group) {
  Location loc = kb.loc;
  // The stored buffer's (row, column) of logical (position, kb) for A's
  // scales [MA, KB], of (kb, position) for B's [KB, NB]; `transposed`
  // swaps them.
  bool positionFirst = alongRows != transposed;
  auto at = [&](Value position) -> SmallVector<Value, 2> {
    if (positionFirst)
      return {position, kBlock};
    return {kBlock, position};
  };
  if (group % extent == 0) {
    Value block = arith::DivUIOp::create(b, loc, offset, kb.index(b, group));
    return memref::LoadOp::create(b, loc, stored, at(block));
  }
  if (group != 1)
    return nullptr;
  return tiling::loadLine(kb, b, stored, positionFirst ? 0 : 1, kBlock,
                         offset, extent);
}

Value tiling::loadLine(KernelBuilder &kb, OpBuilder &b, Value stored,
                       int64_t alongDim, Value fixed, Value offset,
                       int64_t extent) {
  Location loc = kb.loc;
  auto type = cast<MemRefType>(stored.getType());
  int64_t positions = type.getDimSize(alongDim);
  SmallVector<OpFoldResult> offsets(2), sizes(2);
  offsets[alongDim] = b.getIndexAttr(0);
  sizes[alongDim] = b.getIndexAttr(positions);
  offsets[1 - alongDim] = fixed;
  sizes[1 - alongDim] = b.getIndexAttr(1);
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  auto viewType = memref::SubViewOp::inferRankReducedResultType(
      {positions}, type, offsets, sizes, strides);
  Value view = memref::SubViewOp::create(b, loc, cast<MemRefType>(viewType),
                                         stored, offsets, sizes, strides);
  return LoadOp::create(b, loc,
                        TileType::get({extent}, type.getElementType()), view,
                        ValueRange{offset}, nullptr);
}

/// acc + product * SA * SB for one K step: the rows' and the columns'
/// scales (stepScales'), multiplied once per row or column where one of
/// them is a scalar, broadcast over the tile.
static Value addScaled(OpBuilder &b, Location loc, Value acc, Value product,
                       Value rowScales, Value colScales) {
  MapBuilder mb{b, loc};
  auto accType = cast<TileType>(acc.getType());
  auto mul = [&](OpBuilder &ib, Value x, Value y) -> Value {
    return arith::MulFOp::create(ib, loc, x, y);
  };
  bool rowScalar = !isa<TileType>(rowScales.getType());
  bool colScalar = !isa<TileType>(colScales.getType());
  // A 1-D tile of one operand's scales times the other's scalar.
  auto scaled = [&](Value vector, Value scalar) -> Value {
    auto type = cast<TileType>(vector.getType());
    Value splat = SplatOp::create(b, loc, type, scalar);
    return mb.map(type, {vector, splat}, [&](OpBuilder &ib, ValueRange x) {
      return mul(ib, x[0], x[1]);
    });
  };
  SmallVector<Value> factors;
  if (rowScalar && colScalar) {
    Value both = mul(b, rowScales, colScales);
    factors.push_back(SplatOp::create(b, loc, accType, both));
  } else if (colScalar) {
    Value rows = scaled(rowScales, colScales);
    factors.push_back(BroadcastOp::create(b, loc, accType, rows,
                                          b.getDenseI64ArrayAttr({1})));
  } else if (rowScalar) {
    Value cols = scaled(colScales, rowScales);
    factors.push_back(BroadcastOp::create(b, loc, accType, cols,
                                          b.getDenseI64ArrayAttr({0})));
  } else {
    factors.push_back(BroadcastOp::create(b, loc, accType, rowScales,
                                          b.getDenseI64ArrayAttr({1})));
    factors.push_back(BroadcastOp::create(b, loc, accType, colScales,
                                          b.getDenseI64ArrayAttr({0})));
  }
  SmallVector<Value> inputs = {acc, product};
  llvm::append_range(inputs, factors);
  // One fma per element where one factor covers both scales (NVPTX keeps
  // a separate mul and add apart: .rn, no contraction).
  return mb.map(accType, inputs, [&](OpBuilder &ib, ValueRange x) {
    Value scale = x[2];
    for (Value factor : x.drop_front(3))
      scale = mul(ib, scale, factor);
    return math::FmaOp::create(ib, loc, x[1], scale, x[0]).getResult();
  });
}

Value tiling::buildMatmulLoop(KernelBuilder &kb, OpBuilder &b,
                              const MatmulBuffers &bufs, Value m0, Value n0,
                              int64_t tm, int64_t tn, int64_t tk, int64_t k,
                              Value kOffset, Value kExtent, bool withinSteps) {
  Location loc = kb.loc;
  Value a = kb.arg(bufs.a);
  Value bMat = bufs.b ? kb.arg(bufs.b) : Value();
  const MatmulBuffers::Scales &scales = bufs.scales;
  // A transposed product (bufs.transposedProduct) accumulates y^T's
  // [tn, tm] tile: each product the prologue's weight tile in stored order
  // (A, lhs_k_runs) times x's tile transposed (B); the result is that
  // tile transposed back.
  bool swapped = bufs.transposedProduct;
  auto accType = swapped ? TileType::get({tn, tm}, b.getF32Type())
                         : TileType::get({tm, tn}, b.getF32Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  Value acc0 = SplatOp::create(b, loc, accType, zero);
  Value begin = kb.index(b, 0), step = kb.index(b, tk);
  Value end = kExtent ? kExtent : kb.index(b, k);
  auto loop = scf::ForOp::create(b, loc, begin, end, step, ValueRange{acc0});
  OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
  Value kk = loop.getInductionVar();
  if (kOffset)
    kk = arith::AddIOp::create(lb, loc, kOffset, kk);
  // Each operand's own element type: fp8 operands may mix e4m3 and e5m2.
  Type aElement = cast<MemRefType>(a.getType()).getElementType();
  // A's [tm, stepK] tile at K offset `at`, and B's [stepK, tn] (swapped:
  // the weight's [tn, stepK], and x's tile transposed).
  WeightStep weightStep{kk, tk};
  auto loadOperands = [&](Value at, int64_t stepK,
                          int64_t sub) -> std::pair<Value, Value> {
    if (swapped) {
      Value weight = bufs.bPrologue(kb, lb, n0, at, tn, stepK, weightStep, sub);
      Value x = LoadOp::create(lb, loc, TileType::get({tm, stepK}, aElement),
                               a, ValueRange{m0, at}, nullptr);
      return {weight, TransposeOp::create(
                          lb, loc, TileType::get({stepK, tm}, aElement), x)};
    }
    Value aTile = LoadOp::create(lb, loc, TileType::get({tm, stepK}, aElement),
                                 a, ValueRange{m0, at}, nullptr);
    if (!bufs.bTransposed) {
      Type bElement = cast<MemRefType>(bMat.getType()).getElementType();
      return {aTile, LoadOp::create(lb, loc, TileType::get({stepK, tn}, bElement),
                                    bMat, ValueRange{at, n0}, nullptr)};
    }
    // W [N, K] as stored (or computed from the prologue's buffers), B its
    // transpose.
    Value stored;
    if (bufs.bPrologue) {
      stored = bufs.bPrologue(kb, lb, n0, at, tn, stepK, weightStep, sub);
    } else {
      Type bElement = cast<MemRefType>(bMat.getType()).getElementType();
      stored = LoadOp::create(lb, loc, TileType::get({tn, stepK}, bElement),
                              bMat, ValueRange{n0, at}, nullptr);
    }
    Type bElement = cast<TileType>(stored.getType()).getElementType();
    return {aTile, TransposeOp::create(
                       lb, loc, TileType::get({stepK, tn}, bElement), stored)};
  };
  // Every load of the step first (one ring stage), then the products in
  // order on the accumulator: one product unless productStepK cuts the
  // step into sub-steps.
  int64_t productK = productStepK(bufs, tk);
  SmallVector<std::pair<Value, Value>> products;
  for (int64_t sub = 0; sub < tk; sub += productK)
    products.push_back(loadOperands(
        productK == tk ? kk
                       : arith::AddIOp::create(lb, loc, kk, kb.index(lb, sub)),
        productK, sub));
  Value acc = loop.getRegionIterArgs()[0];
  Value next = acc;
  if (!scales.lhs) {
    IntegerAttr kRuns =
        bufs.kRuns ? lb.getI64IntegerAttr(*bufs.kRuns) : IntegerAttr();
    for (auto [aTile, bTile] : products)
      next = swapped ? DotOp::create(lb, loc, accType, aTile, bTile, next,
                                     IntegerAttr(), kRuns)
                     : DotOp::create(lb, loc, accType, aTile, bTile, next,
                                     kRuns);
  } else {
    assert(products.size() == 1 && "block scales take whole steps");
    auto [aTile, bTile] = products.front();
    // The step's product from zero, promoted into the f32 accumulator
    // with its block's scales (fp8 accumulation stays within one block).
    // The scales are loaded first, so that the loads are in flight while
    // the product is computed.
    // The last K range of a split may run past K (its A and B tiles are
    // zeros there), and so may a step of the padded K: these steps read
    // the last block's scales (of the unpadded K, as the buffers hold),
    // never past the buffers.
    // A range within the padded K's steps (a stream-K part) at an offset
    // of whole steps of one block each: the range's first block counted
    // before the loop and no clamp (LLVM cannot bound a block computed
    // from an offset that changes from part to part, and the 64-bit
    // division and clamp a step delayed each body's first product:
    // bench/RESULTS.md, session 47).
    Value kBlock;
    if (withinSteps && kOffset && tk == scales.k) {
      OpBuilder before(loop);
      Value firstBlock = arith::DivUIOp::create(before, loc, kOffset,
                                                kb.index(before, scales.k));
      Value step = arith::DivUIOp::create(lb, loc, loop.getInductionVar(),
                                          kb.index(lb, scales.k));
      kBlock = arith::AddIOp::create(lb, loc, firstBlock, step);
    } else {
      Value block = arith::DivUIOp::create(lb, loc, kk, kb.index(lb, scales.k));
      Value lastBlock = kb.index(lb, scales.kBlocks - 1);
      kBlock = arith::MinUIOp::create(lb, loc, block, lastBlock);
    }
    // The scales as 2-D buffers (the frontend drops unit dimensions),
    // viewed inside the loop as its other views are (tile-warp-specialize
    // moves the loop into a partition of its own).
    Value storedLhs =
        expandUnitDims(lb, loc, kb.arg(scales.lhs), scales.lhsShape);
    Value storedRhs =
        expandUnitDims(lb, loc, kb.arg(scales.rhs), scales.rhsShape);
    Value rowScales = stepScales(kb, lb, storedLhs, scales.lhsTransposed,
                                 /*alongRows=*/true, kBlock, m0, tm,
                                 scales.rows);
    Value colScales = stepScales(kb, lb, storedRhs, scales.rhsTransposed,
                                 /*alongRows=*/false, kBlock, n0, tn,
                                 scales.cols);
    assert(rowScales && colScales && "matmulTiling checks the scale blocks");
    Value product = DotOp::create(lb, loc, accType, aTile, bTile, acc0);
    next = addScaled(lb, loc, acc, product, rowScales, colScales);
  }
  scf::YieldOp::create(lb, loc, next);
  if (swapped)
    return TransposeOp::create(b, loc, TileType::get({tm, tn}, b.getF32Type()),
                               loop.getResult(0));
  return loop.getResult(0);
}

/// The workspace of split-K's partials: every tile whole, so that no
/// split's tile reaches into the next one's rows.
static tiling::SplitKPartials allocateWorkspace(KernelBuilder &kb,
                                                const MatmulTiling &tiling) {
  tiling::SplitKPartials partials;
  partials.rowsPerSplit = tiling.grid[0] * tiling.tm;
  partials.workspace = memref::AllocOp::create(
      kb.host, kb.loc,
      MemRefType::get(
          {tiling.splits * partials.rowsPerSplit, tiling.grid[1] * tiling.tn},
          kb.host.getF32Type()));
  return partials;
}

/// The kernel over `tiling`'s 3-D grid whose program (i, j, s) runs the K
/// loop of output tile (i, j) over the s-th K range, with arguments A, B,
/// `workspace` (if any), then `extraArgs`. Returns a builder after the loop,
/// the tile's offsets, the program's range and the loop's f32 sum.
static OpBuilder buildSplitKLoop(KernelBuilder &kb, const MatmulBuffers &bufs,
                                 const MatmulTiling &tiling, Value workspace,
                                 ValueRange extraArgs, Value &m0, Value &n0,
                                 Value &split, Value &acc) {
  Location loc = kb.loc;
  SmallVector<Value> own;
  if (workspace)
    own.push_back(workspace);
  OpBuilder b =
      kb.begin(matmulKernelArgs(bufs, own, extraArgs), tiling.grid, "_split_k");
  m0 = kb.tileOffset(b, 0, tiling.tm);
  n0 = kb.tileOffset(b, 1, tiling.tn);
  split = ProgramIdOp::create(b, loc, b.getIndexType(), 2);
  Value kOffset =
      arith::MulIOp::create(b, loc, split, kb.index(b, tiling.kChunk));
  acc = buildMatmulLoop(kb, b, bufs, m0, n0, tiling.tm, tiling.tn, tiling.tk,
                        tiling.kChunk, kOffset);
  return b;
}

/// buildSplitKLoop's kernel that stores each program's f32 partial sum at
/// row s * rowsPerSplit + i * tm of the workspace. Returns a builder after
/// the store, and the tile's offsets.
static OpBuilder buildPartialKernel(KernelBuilder &kb,
                                    const MatmulBuffers &bufs,
                                    const MatmulTiling &tiling,
                                    const tiling::SplitKPartials &partials,
                                    ValueRange extraArgs, Value &m0,
                                    Value &n0) {
  Location loc = kb.loc;
  Value split, acc;
  OpBuilder b = buildSplitKLoop(kb, bufs, tiling, partials.workspace,
                                extraArgs, m0, n0, split, acc);
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, split, kb.index(b, partials.rowsPerSplit)),
      m0);
  StoreOp::create(b, loc, acc, kb.arg(partials.workspace),
                  ValueRange{row, n0});
  return b;
}

tiling::SplitKPartials tiling::buildSplitKPartials(KernelBuilder &kb,
                                                   const MatmulBuffers &bufs,
                                                   const MatmulTiling &tiling) {
  SplitKPartials partials = allocateWorkspace(kb, tiling);
  Value m0, n0;
  buildPartialKernel(kb, bufs, tiling, partials, {}, m0, n0);
  return partials;
}

LogicalResult tiling::buildSplitKInKernel(KernelBuilder &kb,
                                          const MatmulBuffers &bufs,
                                          const MatmulTiling &tiling, int64_t m,
                                          ValueRange args,
                                          SplitKFinish finish) {
  Location loc = kb.loc;
  OpBuilder &host = kb.host;
  SplitKPartials partials = allocateWorkspace(kb, tiling);
  auto counters = memref::AllocOp::create(
      host, loc,
      MemRefType::get({tiling.grid[0] * tiling.grid[1]}, host.getI32Type()));
  counters->setAttr(kZeroedAttrName, host.getUnitAttr());
  SmallVector<Value> extraArgs = {counters};
  llvm::append_range(extraArgs, args);
  Value m0, n0;
  OpBuilder b =
      buildPartialKernel(kb, bufs, tiling, partials, extraArgs, m0, n0);

  // The output tile's number, row-major over the grid's first two
  // dimensions: its counter.
  Value tileRow = ProgramIdOp::create(b, loc, b.getIndexType(), 0);
  Value tileCol = ProgramIdOp::create(b, loc, b.getIndexType(), 1);
  Value tile = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, tileRow, kb.index(b, tiling.grid[1])),
      tileCol);
  Value last = LastArrivalOp::create(b, loc, b.getI1Type(), kb.arg(counters),
                                     tile, b.getI64IntegerAttr(tiling.splits),
                                     /*weight=*/Value());
  auto ifLast = scf::IfOp::create(b, loc, last, /*withElseRegion=*/false);
  OpBuilder in = OpBuilder::atBlockTerminator(ifLast.thenBlock());
  // Chunks of rows keep the sum's registers few; with M under one tile's
  // rows only those that hold M are added (with more row tiles, the last
  // one's chunks past M add zeros, masked at the store).
  int64_t chunkRows = std::min(tiling.tm, tileSizeFor(m, 16));
  int64_t rows = std::min<int64_t>(tiling.tm, llvm::alignTo(m, chunkRows));
  SmallVector<int64_t> shape = {chunkRows, tiling.tn};
  Value r0 = m0;
  if (rows > chunkRows) {
    // One op-creating call per statement: C++ leaves the order of a call's
    // arguments open, and the IR must not depend on the host compiler.
    Value first = kb.index(in, 0);
    Value end = kb.index(in, rows);
    Value step = kb.index(in, chunkRows);
    auto chunks = scf::ForOp::create(in, loc, first, end, step);
    in = OpBuilder::atBlockTerminator(chunks.getBody());
    r0 = arith::AddIOp::create(in, loc, m0, chunks.getInductionVar());
  }
  Value sum = sumSplitKPartials(kb, in, kb.arg(partials.workspace), partials,
                                tiling.splits, shape, r0, n0);
  if (failed(finish(in, sum, shape, r0, n0)))
    return failure();
  memref::DeallocOp::create(host, loc, partials.workspace);
  memref::DeallocOp::create(host, loc, counters);
  return success();
}

LogicalResult tiling::buildSplitKInCluster(KernelBuilder &kb,
                                           const MatmulBuffers &bufs,
                                           const MatmulTiling &tiling,
                                           ValueRange extraArgs,
                                           SplitKFinish finish) {
  Location loc = kb.loc;
  Value m0, n0, split, acc;
  OpBuilder b = buildSplitKLoop(kb, bufs, tiling, Value(), extraArgs, m0, n0,
                                split, acc);
  // The cluster is the tile's K ranges, so its rank 0 is the first range.
  Value sum = ClusterSumOp::create(b, loc, acc.getType(), acc,
                                   b.getI64IntegerAttr(tiling.splits));
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, split,
                                      kb.index(b, 0));
  auto ifFirst = scf::IfOp::create(b, loc, first, /*withElseRegion=*/false);
  OpBuilder in = OpBuilder::atBlockTerminator(ifFirst.thenBlock());
  return finish(in, sum, {tiling.tm, tiling.tn}, m0, n0);
}

Value tiling::sumSplitKPartials(KernelBuilder &kb, OpBuilder &b,
                                Value workspace,
                                const SplitKPartials &partials, int64_t splits,
                                ArrayRef<int64_t> shape, Value m0, Value n0) {
  Location loc = kb.loc;
  auto type = TileType::get(shape, b.getF32Type());
  Value sum;
  for (int64_t split = 0; split < splits; ++split) {
    Value row = arith::AddIOp::create(
        b, loc, kb.index(b, split * partials.rowsPerSplit), m0);
    Value part = LoadOp::create(b, loc, type, workspace, ValueRange{row, n0},
                                nullptr);
    if (!sum) {
      sum = part;
      continue;
    }
    auto add = MapOp::create(b, loc, type, ValueRange{sum, part});
    Block *body = b.createBlock(&add.getBody(), {},
                                {b.getF32Type(), b.getF32Type()}, {loc, loc});
    OpBuilder inner = OpBuilder::atBlockBegin(body);
    Value x = arith::AddFOp::create(inner, loc, body->getArgument(0),
                                    body->getArgument(1));
    YieldOp::create(inner, loc, x);
    b.setInsertionPointAfter(add);
    sum = add.getResult();
  }
  return sum;
}

void tiling::emitPaddingCopy(OpBuilder &host, Location loc, StringRef name,
                             Value src, Value dst) {
  auto dstType = cast<MemRefType>(dst.getType());
  auto srcType = cast<MemRefType>(src.getType());
  // Tiles of 8 x 256 (rank 2) or 2048 (rank 1), at most the buffer.
  SmallVector<int64_t> tileShape, grid;
  SmallVector<int64_t> most = dstType.getRank() == 2
                                 ? SmallVector<int64_t>{8, 256}
                                 : SmallVector<int64_t>{2048};
  for (auto [extent, limit] : llvm::zip(dstType.getShape(), most)) {
    tileShape.push_back(
        std::min<int64_t>(limit, llvm::PowerOf2Ceil(extent)));
    grid.push_back(ceilDiv(extent, tileShape.back()));
  }
  auto kernel =
      KernelOp::create(host, loc, name, ValueRange{src, dst}, grid, 256);
  Block &body = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockTerminator(&body);
  SmallVector<Value> at;
  for (auto [dim, size] : llvm::enumerate(tileShape)) {
    Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), dim);
    Value step = arith::ConstantIndexOp::create(b, loc, size);
    at.push_back(arith::MulIOp::create(b, loc, pid, step));
  }
  Value tile = LoadOp::create(
      b, loc, TileType::get(tileShape, srcType.getElementType()),
      body.getArgument(0), at, nullptr);
  StoreOp::create(b, loc, tile, body.getArgument(1), at);
}

MatmulBuffers tiling::matmulBuffers(KernelBuilder &kb, Value a, Value bMat,
                                    Value c, bool pad, bool bTransposed,
                                    int64_t n) {
  auto aType = cast<MemRefType>(a.getType());
  auto cType = cast<MemRefType>(c.getType());
  int64_t k = aType.getDimSize(1);
  if (bMat)
    n = cast<MemRefType>(bMat.getType()).getDimSize(bTransposed ? 0 : 1);
  Type element = aType.getElementType();
  auto wholeRuns = [](int64_t count, Type type) {
    return (count * type.getIntOrFloatBitWidth() / 8) % 16 == 0;
  };
  bool tensorCoreType = element.isBF16() || element.isF16() ||
                        isFloat8(element);
  auto buffersOf = [&](int64_t paddedN, int64_t paddedK) {
    MatmulBuffers buffers;
    buffers.a = a;
    buffers.b = bMat;
    buffers.c = c;
    buffers.n = paddedN;
    buffers.k = paddedK;
    buffers.bTransposed = bTransposed;
    return buffers;
  };
  if (!pad || !tensorCoreType ||
      (wholeRuns(k, element) && wholeRuns(n, element) &&
       wholeRuns(n, cType.getElementType())))
    return buffersOf(n, k);
  OpBuilder &host = kb.host;
  Location loc = kb.loc;
  // Rows of whole 16-byte runs: 8 bf16, 16 fp8.
  int64_t run = 128 / element.getIntOrFloatBitWidth();
  int64_t k8 = llvm::alignTo(k, run), n8 = llvm::alignTo(n, run);
  std::string name = kb.bufs.kernelName;
  MatmulBuffers padded = buffersOf(n8, k8);
  SmallVector<Value> scratch;
  auto scratchLike = [&](MemRefType type, int64_t rows, int64_t cols) {
    Value buffer = memref::AllocOp::create(
        host, loc, MemRefType::get({rows, cols}, type.getElementType()));
    scratch.push_back(buffer);
    return buffer;
  };
  if (k8 != k) {
    padded.a = scratchLike(aType, aType.getDimSize(0), k8);
    emitPaddingCopy(host, loc, name + "_pad_a", a, padded.a);
  }
  if (!bMat) {
    // Computed in the K loop: masked past N and K as it is.
  } else if (bTransposed && k8 != k) {
    // Rows of K, as A's; the rows past N are masked by the loads.
    padded.b = scratchLike(cast<MemRefType>(bMat.getType()), n, k8);
    emitPaddingCopy(host, loc, name + "_pad_b", bMat, padded.b);
  } else if (!bTransposed && (k8 != k || n8 != n)) {
    padded.b = scratchLike(cast<MemRefType>(bMat.getType()), k8, n8);
    emitPaddingCopy(host, loc, name + "_pad_b", bMat, padded.b);
  }
  if (!wholeRuns(n, cType.getElementType()))
    padded.c = scratchLike(cType, cType.getDimSize(0), n8);
  padded.finish = [&host, loc, name, c, padded, scratch] {
    if (padded.c != c)
      emitPaddingCopy(host, loc, name + "_unpad_c", padded.c, c);
    for (Value buffer : scratch)
      memref::DeallocOp::create(host, loc, buffer);
  };
  return padded;
}

/// C = A * B: a grid over C's tiles; each program runs the K loop.
static LogicalResult tileMatmul(KernelBuilder &kb, MatmulOp matmul,
                                ArrayRef<int64_t> block, ConfigAttr config,
                                bool padRows) {
  if (block.size() != 3)
    return matmul.emitOpError() << "expected 3 block sizes [M, N, K] but got "
                                << block.size();
  auto resultType = cast<RankedTensorType>(matmul.getType());
  if (resultType.getRank() != 2)
    return matmul.emitOpError()
           << "with batch dimensions is tiled only inside an attention "
              "group (tile-fuse) so far";
  int64_t m = resultType.getDimSize(0);
  MatmulBuffers bufs = matmulBuffers(kb, kb.bufs.operands[0],
                                     kb.bufs.operands[1], kb.bufs.result,
                                     padRows);
  bufs.kRuns = matmul.getKRuns();
  if (matmul.isBlockScaled())
    bufs.scales = blockScales(matmul, kb.bufs.operands[2], false,
                              kb.bufs.operands[3], false);
  FailureOr<MatmulTiling> tiling =
      matmulTiling(matmul, m, bufs, block, config);
  if (failed(tiling))
    return failure();
  auto [tm, tn, tk, grid, splits, kChunk] = *tiling;
  int64_t k = bufs.k;

  if (config && config.getStreamK()) {
    LogicalResult built = buildStreamK(
        kb, bufs, *tiling, m, {bufs.c}, config,
        [&](OpBuilder &b, Value sum, ArrayRef<int64_t>, Value m0, Value n0) {
          StoreOp::create(b, kb.loc, sum, kb.arg(bufs.c), ValueRange{m0, n0});
          return success();
        });
    bufs.finish();
    return built;
  }
  if (splits > 1 && splitKInCluster(config)) {
    LogicalResult built = buildSplitKInCluster(
        kb, bufs, *tiling, {bufs.c},
        [&](OpBuilder &b, Value sum, ArrayRef<int64_t>, Value m0, Value n0) {
          StoreOp::create(b, kb.loc, sum, kb.arg(bufs.c), ValueRange{m0, n0});
          return success();
        });
    bufs.finish();
    return built;
  }
  if (splits > 1 && config.getSplitKInKernel()) {
    LogicalResult built = buildSplitKInKernel(
        kb, bufs, *tiling, m, {bufs.c},
        [&](OpBuilder &b, Value sum, ArrayRef<int64_t>, Value m0, Value n0) {
          StoreOp::create(b, kb.loc, sum, kb.arg(bufs.c), ValueRange{m0, n0});
          return success();
        });
    bufs.finish();
    return built;
  }
  if (splits > 1) {
    // The partial sums, then a kernel that adds them into C.
    SplitKPartials partials = buildSplitKPartials(kb, bufs, *tiling);
    KernelBuilder finish(kb.host, kb.op, kb.bufs, kSplitKFinishThreads);
    SmallVector<int64_t> shape =
        splitKFinishTile(m, cast<MemRefType>(bufs.c.getType()).getDimSize(1));
    SmallVector<int64_t> finishGrid = {
        ceilDiv(m, shape[0]),
        ceilDiv(cast<MemRefType>(bufs.c.getType()).getDimSize(1), shape[1])};
    OpBuilder b = finish.begin({partials.workspace, bufs.c}, finishGrid);
    Value m0 = finish.tileOffset(b, 0, shape[0]);
    Value n0 = finish.tileOffset(b, 1, shape[1]);
    Value sum = sumSplitKPartials(finish, b, finish.arg(partials.workspace),
                                  partials, splits, shape, m0, n0);
    StoreOp::create(b, kb.loc, sum, finish.arg(bufs.c), ValueRange{m0, n0});
    memref::DeallocOp::create(kb.host, kb.loc, partials.workspace);
    bufs.finish();
    return success();
  }

  SmallVector<Value> args = {bufs.a, bufs.b, bufs.c};
  if (bufs.scales.lhs)
    args.append({bufs.scales.lhs, bufs.scales.rhs});
  OpBuilder b = kb.begin(args, grid);
  Value m0 = kb.tileOffset(b, 0, tm), n0 = kb.tileOffset(b, 1, tn);
  Value acc = buildMatmulLoop(kb, b, bufs, m0, n0, tm, tn, tk, k);
  StoreOp::create(b, kb.loc, acc, kb.arg(bufs.c), ValueRange{m0, n0});
  bufs.finish();
  return success();
}

namespace {
struct TileTileTensorOpsPass
    : public tile::impl::TileTileTensorOpsPassBase<TileTileTensorOpsPass> {
  using Base::Base;

  /// The op whose tile.config schedules `op`'s kernel: a fused group's
  /// root (its first matmul, else its first op), else `op`.
  static Operation *scheduledBy(Operation *op) {
    if (auto fused = dyn_cast<FusedOp>(op)) {
      // An attention group's schedule is its own (tile-configure's).
      if (fused->hasAttr("tile.attention"))
        return op;
      Operation *first = nullptr, *matmul = nullptr;
      for (Operation &inner : fused.getBody().front().without_terminator()) {
        if (isa<arith::ConstantOp>(inner))
          continue;
        if (!first)
          first = &inner;
        if (!matmul && isa<MatmulOp>(inner))
          matmul = &inner;
      }
      if (Operation *root = matmul ? matmul : first)
        return root;
    }
    return op;
  }

  /// The op's tile.config, else the option for its kind, else the default.
  Schedule scheduleFor(Operation *op) {
    // An elementwise group that reads a broadcast vector: every program
    // loads its piece and spreads it through shared memory (two barriers),
    // so larger blocks pay for that: x + bias at 8192^2 bf16 ran at 78% of
    // copy bandwidth with 8 x 256, 86% with 16 x 512 (bench/RESULTS.md,
    // session 10).
    bool readsBroadcast = false;
    if (auto fused = dyn_cast<FusedOp>(op))
      readsBroadcast =
          !fused->hasAttr("tile.attention") &&
          llvm::any_of(fused.getBody().front(),
                       [](Operation &inner) { return isa<BroadcastOp>(inner); }) &&
          llvm::none_of(fused.getBody().front(), [](Operation &inner) {
            return isa<ReduceOp, MatmulOp>(inner);
          });
    op = scheduledBy(op);
    if (auto config = op->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName()))
      return {llvm::to_vector(config.getBlock()), config.getThreads(),
              config};
    auto pick = [](ArrayRef<int64_t> option, ArrayRef<int64_t> fallback) {
      return llvm::to_vector(option.empty() ? fallback : option);
    };
    SmallVector<int64_t> block;
    if (isa<MatmulOp>(op))
      block = pick(matmulBlock, {64, 64, 16});
    else if (isa<ReduceOp>(op))
      block = pick(reduceBlock, {8, 256});
    else if (readsBroadcast)
      block = pick(elementwiseBlock, {16, 512});
    else
      block = pick(elementwiseBlock, {8, 256});
    return {block, threads, ConfigAttr()};
  }

  LogicalResult emitKernel(OpBuilder &builder, Operation *op,
                           const OpBuffers &bufs) {
    Schedule schedule = scheduleFor(op);
    if (!llvm::isPowerOf2_64(schedule.threads) || schedule.threads < 32 ||
        schedule.threads > 1024)
      return op->emitOpError() << "expected threads to be a power of two in "
                                  "[32, 1024] but got "
                               << schedule.threads;
    bool wgmma = schedule.config && schedule.config.getMma() == MmaKind::wgmma;
    for (auto [d, size] : llvm::enumerate(schedule.block))
      if (!llvm::isPowerOf2_64(size) && !(wgmma && d == 1 && size % 64 == 0))
        return op->emitOpError()
               << "expected power-of-two block sizes but got " << size;
    KernelBuilder kb(builder, op, bufs, schedule.threads);
    LogicalResult built = buildKernel(kb, op, schedule);
    // A tensor-core schedule (tile-configure's) goes on the kernel for the
    // passes after tiling.
    auto config = scheduledBy(op)->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
    if (succeeded(built) && config && config.getMma() != MmaKind::simt &&
        kb.kernel)
      kb.kernel->setAttr(ConfigAttr::getAttrName(), config);
    return built;
  }

  LogicalResult buildKernel(KernelBuilder &kb, Operation *op,
                            const Schedule &schedule) {
    return TypeSwitch<Operation *, LogicalResult>(op)
        .Case([&](MapOp map) { return tileMap(kb, map, schedule.block); })
        .Case([&](CastOp c) { return tileCast(kb, c, schedule.block); })
        .Case([&](IotaOp i) { return tileIota(kb, i, schedule.block); })
        .Case([&](UnpackOp u) { return tileUnpack(kb, u, schedule.block); })
        .Case([&](TransposeOp t) {
          return tileTranspose(kb, t, schedule.block);
        })
        .Case([&](BroadcastOp bc) {
          return tileBroadcast(kb, bc, schedule.block);
        })
        .Case([&](ReduceOp r) { return tileReduce(kb, r, schedule.block); })
        .Case([&](RepeatOp r) {
          return r.emitOpError()
                 << "has a kernel only as the keys or values of an attention "
                    "block (grouped-query attention, fused by tile-fuse)";
        })
        .Case([&](MatmulOp mm) {
          return tileMatmul(kb, mm, schedule.block, schedule.config,
                            padMatmulRows);
        })
        .Case([&](FusedOp f) {
          RowGroupOptions rowOptions;
          rowOptions.rowsPerProgram = rowsPerProgram;
          rowOptions.rowStages = rowStages;
          rowOptions.sharedMemoryPerSm = sharedMemoryPerSm;
          return tileFused(kb, f, schedule.block, schedule.config, rowOptions,
                           padMatmulRows);
        })
        .Default([](Operation *op) {
          return op->emitOpError() << "has no tiling";
        });
  }

  void runOnOperation() override {
    if (rowsPerProgram < 0)
      return emitError(getOperation().getLoc())
                 << "rows-per-program must be 0 (automatic) or more but is "
                 << static_cast<int64_t>(rowsPerProgram),
             signalPassFailure();
    if (sharedMemoryPerSm < 0)
      return emitError(getOperation().getLoc())
                 << "shared-memory-per-sm must be 0 (no staging) or more but "
                    "is "
                 << static_cast<int64_t>(sharedMemoryPerSm),
             signalPassFailure();
    if (rowStages < 2 || rowStages > 8)
      return emitError(getOperation().getLoc())
                 << "row-stages must be in [2, 8] but is "
                 << static_cast<int64_t>(rowStages),
             signalPassFailure();
    for (auto func : llvm::make_early_inc_range(
             getOperation().getOps<func::FuncOp>())) {
      if (!isTensorLevelFunction(func))
        continue;
      auto emit = [&](OpBuilder &b, Operation *op, const OpBuffers &bufs) {
        return emitKernel(b, op, bufs);
      };
      if (failed(convertToKernelPerOp(func, "", emit)))
        return signalPassFailure();
    }
  }
};
} // namespace
