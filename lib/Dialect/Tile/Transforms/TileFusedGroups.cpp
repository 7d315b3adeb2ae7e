//===- TileFusedGroups.cpp - tile-tile for tile.fused groups ---*- C++ -*-===//
//
// tile-tile's half for fused groups (tile-fuse's tile.fused): a matmul with
// its epilogue, an elementwise chain, or a row group (reductions with the
// elementwise ops and broadcasts around them: softmax, layernorm,
// rmsnorm), each as one kernel. docs/pipeline.md describes the row
// groups' schedules; bench/RESULTS.md has the measurements behind them.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "WeightPrologue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "tile-tile"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::tiling;

/// The most bytes of a row's per-group values one product's load takes for
/// the whole step (one 64-bit load a row; more would need vector tiles).
static constexpr int64_t kStepLineBytes = 8;

/// Byte values of S [N, G] (a repeat's, one per group of `times` along K)
/// for the product at `sub` of `step`, read for the whole step at once: a
/// step of several groups reads each row's values as one integer of their
/// bytes (S viewed as [N, G / perStep] of i(8 perStep)), loaded by the
/// step's first product, and each product takes its byte. Null where that
/// does not apply (bytes of a step that do not fill a power-of-two integer
/// of at most kStepLineBytes, G not whole steps of them, a buffer that is not
/// a static row-major one): the caller then reads its own column. The
/// runtimes take 16-byte-aligned buffers (docs/python.md), so the rows'
/// integers are aligned; steps start at multiples of the step (a split's
/// range is whole steps, kChunk), so a step's groups are one integer's.
static Value stepGroupBytes(KernelBuilder &kb, OpBuilder &b, RepeatOp repeat,
                            Value stored, Value n0, int64_t tn,
                            WeightStep &step, int64_t sub) {
  Location loc = kb.loc;
  auto type = cast<MemRefType>(stored.getType());
  int64_t times = repeat.getTimes();
  if (!type.getElementType().isInteger(8) || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || step.k % times != 0)
    return nullptr;
  int64_t perStep = step.k / times, groups = type.getDimSize(1);
  if (perStep < 2 || perStep > kStepLineBytes ||
      !llvm::isPowerOf2_64(perStep) || groups % perStep != 0)
    return nullptr;
  auto wideType = b.getIntegerType(8 * perStep);
  Value &line = step.lines[repeat];
  if (!line) {
    // A step of a split's last K range may lie past K (its x columns are
    // zeros there): it reads the last step's values, never past S. (The
    // per-product loads read the last group's there: where a decode makes
    // an infinite weight of one of the others, 0 * inf adds a NaN to a row
    // that is infinite already.)
    int64_t lines = groups / perStep;
    Value flat = memref::CollapseShapeOp::create(
        b, loc, stored, SmallVector<ReassociationIndices>{{0, 1}});
    Value view = memref::ViewOp::create(
        b, loc, MemRefType::get({type.getDimSize(0), lines}, wideType), flat,
        kb.index(b, 0), ValueRange{});
    // (One op a statement: argument order is the compiler's, and gcc and
    // clang builds must write the same IR.)
    Value stepIndex = arith::DivUIOp::create(b, loc, step.start,
                                             kb.index(b, times * perStep));
    Value lastLine = kb.index(b, lines - 1);
    Value column = arith::MinUIOp::create(b, loc, stepIndex, lastLine);
    line = loadLine(kb, b, view, 0, column, n0, tn);
  }
  // The product's byte (little-endian: group j in bits 8j .. 8j + 7).
  int64_t shift = 8 * (sub / times);
  MapBuilder mb{b, loc};
  return mb.map(TileType::get({tn}, b.getI8Type()), {line},
                [&](OpBuilder &ib, ValueRange x) -> Value {
                  Value bits = x[0];
                  if (shift)
                    bits = arith::ShRUIOp::create(
                        ib, loc, bits,
                        arith::ConstantOp::create(
                            ib, loc, ib.getIntegerAttr(wideType, shift)));
                  return arith::TruncIOp::create(ib, loc, ib.getI8Type(),
                                                 bits);
                });
}

/// The step's tile of a weight computed in the K loop (WeightPrologue.h):
/// each leaf's tile at (n0, kk) of W, then the chain's ops on tiles.
/// The ops are those matchWeightPrologue collected, so each is one of the
/// kinds below. A repeat's bytes are read a step at a time where
/// stepGroupBytes applies (MXFP4 16x8192x8192: 32.9 -> 30.9 us,
/// bench/RESULTS.md session 38).
static Value
buildWeightTile(KernelBuilder &kb, OpBuilder &b, const WeightPrologue &prologue,
                FusedOp fused, Value n0, Value kk, int64_t tn, int64_t tk,
                WeightStep &step, int64_t sub) {
  Location loc = kb.loc;
  IRMapping tiles;
  auto buffer = [&](Value value) -> Value {
    auto arg = cast<BlockArgument>(value);
    return kb.arg(kb.bufs.operands[arg.getArgNumber()]);
  };
  // Outside tensors of W's shape read tile by tile.
  auto tileOf = [&](Value value) -> Value {
    if (Value known = tiles.lookupOrNull(value))
      return known;
    Type element = cast<ShapedType>(value.getType()).getElementType();
    return LoadOp::create(b, loc, TileType::get({tn, tk}, element),
                          buffer(value), ValueRange{n0, kk}, nullptr);
  };
  // Constants of the body that the chain's maps use.
  for (Operation &op : fused.getBody().front())
    if (isa<arith::ConstantOp>(op))
      b.clone(op, tiles);
  for (Operation *op : prologue.ops) {
    if (op == prologue.transpose)
      break;
    if (auto unpack = dyn_cast<UnpackOp>(op)) {
      Value half = arith::DivUIOp::create(b, loc, kk, kb.index(b, 2));
      Value bytes = LoadOp::create(b, loc, TileType::get({tn, tk / 2}, b.getI8Type()),
                                   buffer(unpack.getInput()),
                                   ValueRange{n0, half}, nullptr);
      tiles.map(unpack.getResult(),
                UnpackOp::create(b, loc, TileType::get({tn, tk}, b.getI8Type()),
                                 bytes, unpack.getSignExtend(),
                                 unpack.getInterleaved(), unpack.getBitsAttr())
                    .getResult());
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      // One column of S [N, K / g] (or one row of S' [K / g, N]) per step:
      // the K step divides g.
      Value stored = repeat.getInput();
      int64_t alongDim = 0;
      if (auto transpose = stored.getDefiningOp<TransposeOp>()) {
        stored = transpose.getInput();
        alongDim = 1;
      }
      // The last K range of a split may run past K (its x columns are
      // zeros there): its steps read the last group's values, never past
      // the buffer.
      Value line;
      if (alongDim == 0)
        line = stepGroupBytes(kb, b, repeat, buffer(stored), n0, tn, step, sub);
      if (!line) {
        int64_t groups =
            cast<ShapedType>(stored.getType()).getDimSize(1 - alongDim);
        Value group = arith::DivUIOp::create(
            b, loc, kk, kb.index(b, repeat.getTimes()));
        Value lastGroup = kb.index(b, groups - 1);
        Value column = arith::MinUIOp::create(b, loc, group, lastGroup);
        line = loadLine(kb, b, buffer(stored), alongDim, column, n0, tn);
      }
      auto type = TileType::get(
          {tn, tk}, cast<ShapedType>(repeat.getType()).getElementType());
      tiles.map(repeat.getResult(),
                BroadcastOp::create(b, loc, type, line,
                                    b.getDenseI64ArrayAttr({1}))
                    .getResult());
    } else if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      Type element = cast<ShapedType>(bcast.getType()).getElementType();
      Value line = LoadOp::create(b, loc, TileType::get({tn}, element),
                                  buffer(bcast.getInput()), ValueRange{n0},
                                  nullptr);
      tiles.map(bcast.getResult(),
                BroadcastOp::create(b, loc, TileType::get({tn, tk}, element),
                                    line, b.getDenseI64ArrayAttr({1}))
                    .getResult());
    } else if (isa<MapOp, CastOp>(op)) {
      for (Value operand : op->getOperands())
        if (isa<RankedTensorType>(operand.getType()))
          tiles.map(operand, tileOf(operand));
      Operation *clone = b.clone(*op, tiles);
      Type element =
          cast<ShapedType>(op->getResult(0).getType()).getElementType();
      clone->getResult(0).setType(TileType::get({tn, tk}, element));
    }
    // A transpose of scales is read through its repeat's view.
  }
  return tiles.lookup(prologue.weight);
}

/// Row groups: the most row elements one thread holds in registers, and the
/// threads of a program that walks a wider row in chunks.
static constexpr int64_t kMaxRowElementsPerThread = 32;
static constexpr int64_t kWideRowThreads = 512;
static constexpr int64_t kWideUnalignedRowThreads = 512;
static constexpr int64_t kWideRowRunsPerThread = 2;
/// Shared memory a staged wide-row program leaves to the hardware (1 KB per
/// program) and to its own scratch.
static constexpr int64_t kSharedReservedPerProgram = 3 * 1024;


//===----------------------------------------------------------------------===//
// Fused groups
//===----------------------------------------------------------------------===//

/// Tiles the ops of a tile.fused region from `begin` on, with the tile
/// values already computed in `tiles` (tensor value -> tile value): each
/// op becomes the same op on tiles of `tileShape` at `offsets`. Region
/// arguments (outside tensors) are loaded as tiles where an op reads them.
/// With `only`, just those ops (and every constant) are tiled, and ops
/// whose result is already in `tiles` are skipped.
/// With `views`, region argument n is read from views[n] where that is set
/// (a view of the argument's buffer) instead of the buffer itself.
static LogicalResult
tileGroupRange(KernelBuilder &kb, OpBuilder &b, FusedOp fused,
               Block::iterator begin, IRMapping &tiles,
               ArrayRef<int64_t> tileShape, ArrayRef<Value> offsets,
               const llvm::SmallPtrSetImpl<Operation *> *only = nullptr,
               ArrayRef<Value> views = {}) {
  Block &body = fused.getBody().front();
  Location loc = kb.loc;
  // Loads the tile of outside tensor `value` (a region argument) at the
  // result dimensions `dims`.
  auto loadArgument = [&](Value value, ArrayRef<int64_t> dims) -> Value {
    auto arg = cast<BlockArgument>(value);
    unsigned number = arg.getArgNumber();
    Value buffer = number < views.size() && views[number]
                       ? views[number]
                       : kb.arg(kb.bufs.operands[number]);
    SmallVector<int64_t> shape;
    SmallVector<Value> indices;
    for (int64_t d : dims) {
      shape.push_back(tileShape[d]);
      indices.push_back(offsets[d]);
    }
    auto type = TileType::get(
        shape, cast<ShapedType>(value.getType()).getElementType());
    return LoadOp::create(b, loc, type, buffer, indices, nullptr);
  };
  int64_t rank = tileShape.size();
  SmallVector<int64_t> allDims = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  auto tileOf = [&](Value value) -> Value {
    if (Value tile = tiles.lookupOrNull(value))
      return tile;
    if (!isa<RankedTensorType>(value.getType()))
      return tiles.lookupOrDefault(value); // a scalar cloned into the kernel
    Value tile = loadArgument(value, allDims);
    tiles.map(value, tile);
    return tile;
  };
  // Elementwise results have the shape of their operands' tiles (rank 1 for
  // per-row values such as a row's max, rank 2 otherwise).
  auto tileType = [&](Value tensor, ValueRange operandTiles = {}) {
    Type element = cast<ShapedType>(tensor.getType()).getElementType();
    for (Value operand : operandTiles)
      if (auto type = dyn_cast<TileType>(operand.getType()))
        return TileType::get(type.getShape(), element);
    return TileType::get(tileShape, element);
  };

  for (Operation &op : llvm::make_range(begin, body.without_terminator().end())) {
    if (isa<arith::ConstantOp>(op)) {
      b.clone(op, tiles);
      continue;
    }
    if (only && (!only->contains(&op) || tiles.contains(op.getResult(0))))
      continue;
    LogicalResult result =
        TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](MapOp map) -> LogicalResult {
              SmallVector<Value> inputs;
              for (Value input : map.getInputs())
                inputs.push_back(tileOf(input));
              auto tiled = MapOp::create(
                  b, loc, tileType(map.getResult(), inputs), inputs);
              map.getBody().cloneInto(&tiled.getBody(), tiles);
              tiles.map(map.getResult(), tiled.getResult());
              return success();
            })
            .Case([&](CastOp castOp) -> LogicalResult {
              Value input = tileOf(castOp.getInput());
              tiles.map(castOp.getResult(),
                        CastOp::create(b, loc,
                                       tileType(castOp.getResult(), input),
                                       input));
              return success();
            })
            .Case([&](BroadcastOp bcast) -> LogicalResult {
              Value input = tiles.lookupOrNull(bcast.getInput());
              auto inputType =
                  cast<RankedTensorType>(bcast.getInput().getType());
              if (!input && inputType.getNumElements() == 1 &&
                  (int64_t)bcast.getDims().size() == rank) {
                // A one-element tensor (a per-tensor scale): one load, the
                // same for every thread, splat.
                unsigned number =
                    cast<BlockArgument>(bcast.getInput()).getArgNumber();
                Value zero = kb.index(b, 0);
                SmallVector<Value> at(inputType.getRank(), zero);
                Value scalar = memref::LoadOp::create(
                    b, loc, kb.arg(kb.bufs.operands[number]), at);
                tiles.map(bcast.getResult(),
                          SplatOp::create(b, loc, tileType(bcast.getResult()),
                                          scalar));
                return success();
              }
              if (!input) {
                SmallVector<int64_t> kept;
                for (int64_t d = 0; d < rank; ++d)
                  if (!llvm::is_contained(bcast.getDims(), d))
                    kept.push_back(d);
                input = loadArgument(bcast.getInput(), kept);
              }
              tiles.map(bcast.getResult(),
                        BroadcastOp::create(b, loc, tileType(bcast.getResult()),
                                            input, bcast.getDimsAttr()));
              return success();
            })
            .Case([&](ReduceOp reduce) -> LogicalResult {
              // A row reduction inside a group: the tile must span the whole
              // reduced dimension, so one program sees every element of its
              // rows. Padding past the row's end is masked to the identity.
              int64_t dim = reduce.getDim();
              auto inputType =
                  cast<RankedTensorType>(reduce.getInput().getType());
              if (rank != 2 || dim != 1 ||
                  tileShape[1] < inputType.getDimSize(1))
                return reduce.emitOpError()
                       << "can be fused only as a row reduction whose tile "
                          "spans the row";
              Value input = tileOf(reduce.getInput());
              Value init = tiles.lookupOrDefault(reduce.getInit());
              // A tile of one row is always inside: every row group's grid
              // and row loop stop at the last row. So only a row tile
              // wider than the row needs the mask: measured, a mask on a
              // row of 5120 was a compare and a select per element.
              std::optional<int64_t> column = getConstantIntValue(offsets[1]);
              bool wholeRow = tileShape[0] == 1 && column == 0 &&
                              tileShape[1] == inputType.getDimSize(1);
              Value masked = input;
              if (!wholeRow) {
                SmallVector<Value> bounds;
                for (int64_t d = 0; d < rank; ++d)
                  bounds.push_back(arith::SubIOp::create(
                      b, loc, kb.index(b, inputType.getDimSize(d)),
                      offsets[d]));
                masked = MaskOp::create(b, loc, input.getType(), input, init,
                                        bounds);
              }
              auto outType = TileType::get(
                  {tileShape[0]}, inputType.getElementType());
              auto tiled = ReduceOp::create(b, loc, outType, masked, init,
                                            b.getI64IntegerAttr(1));
              reduce.getCombiner().cloneInto(&tiled.getCombiner(), tiles);
              tiles.map(reduce.getResult(), tiled.getResult());
              return success();
            })
            .Default([&](Operation *other) {
              return other->emitOpError()
                     << "cannot be tiled inside a fused group yet (only "
                        "elementwise ops, broadcasts and row reductions)";
            });
    if (failed(result))
      return failure();
  }
  return success();
}

/// tileGroupRange over the whole region; returns the tile it yields.
static FailureOr<Value> tileGroupOps(KernelBuilder &kb, OpBuilder &b,
                                     FusedOp fused, Block::iterator begin,
                                     IRMapping &tiles,
                                     ArrayRef<int64_t> tileShape,
                                     ArrayRef<Value> offsets) {
  if (failed(tileGroupRange(kb, b, fused, begin, tiles, tileShape, offsets)))
    return failure();
  Block &body = fused.getBody().front();
  return tiles.lookup(cast<YieldOp>(body.getTerminator()).getValue());
}

/// The ops of `body` that `value` depends on, stopping at values already in
/// `known`.
static llvm::SmallPtrSet<Operation *, 16>
sliceOf(Value value, Block &body, const IRMapping &known) {
  llvm::SmallPtrSet<Operation *, 16> slice;
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &body || known.contains(v) ||
        !slice.insert(def).second)
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  return slice;
}

namespace {
/// Where one wide row's chunks lie and how a pass walks them (tileWideRows).
/// Chunk k covers columns k - shift .. k - shift + its width; k - shift is
/// an index before the row's start where negative. Only the first chunk
/// (which starts before the row when shifted) and those from `tail` on
/// (the last ends after the row) reach outside the row. So every pass is
/// two loops: one over those edge chunks, where reductions mask and loads
/// and stores check each run's bounds, and one over the interior chunks,
/// whose loads and stores are in_bounds (measured on softmax 4096x50257:
/// the interior loop of the max pass is a third of the edge loop's
/// instructions). Edge chunks are `edgeChunk` wide (a run or a quarter run
/// per thread: edgeElementsPerThread) and the interior ones `chunk`: a
/// full-width edge chunk at the tail did a whole chunk's work, with the
/// checks, for what is left of the row (1105 to 1112 of 8192 columns at
/// 50257). Loops, not peeled copies of
/// the chunk: a peeled first chunk took ptxas from 128 to 217 registers
/// there.
struct ChunkWalk {
  KernelBuilder &kb;
  OpBuilder &b;
  Block &body;
  Location loc;
  SmallVector<int64_t> tileShape, edgeShape;
  /// Chunks are read at [tileRow, col] of views[n] where set (one-row
  /// views, columns shifted by `shift`), else of the operands themselves;
  /// or, where staged[n] is set (the row in shared memory), at [0, k] of
  /// that buffer.
  Value tileRow, shift;
  ArrayRef<Value> views;
  SmallVector<Value> staged;
  Value zero, one, step, edgeStep;
  /// Interior chunks run from edgeStep to `tail`; `edges` edge chunks: the
  /// head, then ceil((end - tail) / edgeChunk) from `tail` on.
  Value tail, edges;

  ChunkWalk(KernelBuilder &kb, OpBuilder &b, Block &body, int64_t cols,
            int64_t chunk, int64_t edgeChunk, Value tileRow, Value shift,
            ArrayRef<Value> views)
      : kb(kb), b(b), body(body), loc(kb.loc), tileShape({1, chunk}),
        edgeShape({1, edgeChunk}), tileRow(tileRow), shift(shift),
        views(views) {
    Value end = kb.index(b, cols);
    if (shift)
      end = arith::AddIOp::create(b, loc, end, shift);
    step = kb.index(b, chunk);
    edgeStep = kb.index(b, edgeChunk);
    zero = kb.index(b, 0);
    one = kb.index(b, 1);
    // Interior chunks: from edgeChunk, as many whole chunks as fit before
    // `end` (none if the row ends inside the first edge chunk).
    Value afterHead = arith::SubIOp::create(
        b, loc, arith::MaxUIOp::create(b, loc, end, edgeStep), edgeStep);
    tail = arith::AddIOp::create(
        b, loc, edgeStep,
        arith::MulIOp::create(
            b, loc, arith::DivUIOp::create(b, loc, afterHead, step), step));
    edges = arith::AddIOp::create(
        b, loc, one,
        arith::CeilDivUIOp::create(
            b, loc,
            arith::SubIOp::create(b, loc,
                                  arith::MaxUIOp::create(b, loc, end, tail),
                                  tail),
            edgeStep));
  }

  Value column(Value k) {
    return shift ? arith::SubIOp::create(b, loc, k, shift).getResult() : k;
  }

  /// The row inputs a pass (the ops of `slice`) reads whole, not through a
  /// broadcast: walk() loads those itself. In the body's order (the set's
  /// order is the pointers'), so that the IR is the same from run to run.
  SmallVector<BlockArgument>
  rowInputs(const llvm::SmallPtrSetImpl<Operation *> &slice) {
    SmallVector<BlockArgument> inputs;
    for (Operation &op : body.without_terminator()) {
      if (!slice.contains(&op) || isa<BroadcastOp>(op))
        continue;
      for (Value operand : op.getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand);
            arg && arg.getOwner() == &body &&
            isa<RankedTensorType>(arg.getType()) &&
            cast<RankedTensorType>(arg.getType()).getRank() == 2 &&
            !llvm::is_contained(inputs, arg))
          inputs.push_back(arg);
    }
    return inputs;
  }

  /// The shared-memory buffer holding input `arg`'s row, if staged.
  Value stagedBuffer(BlockArgument arg) {
    unsigned number = arg.getArgNumber();
    return number < staged.size() ? staged[number] : Value();
  }

  /// Where input `arg`'s row is read in global memory: its one-row view,
  /// or the operand itself.
  Value source(BlockArgument arg) {
    unsigned number = arg.getArgNumber();
    return number < views.size() && views[number]
               ? views[number]
               : kb.arg(kb.bufs.operands[number]);
  }

  /// Input `arg`'s tile of `shape` of chunk `k` (from its shared-memory
  /// row where staged); `inBounds` for an interior chunk, wholly inside the
  /// row. `col` is column(k) where the caller has it.
  Value loadChunk(BlockArgument arg, ArrayRef<int64_t> shape, Value k,
                  bool inBounds, Value col = {}) {
    auto type = TileType::get(
        shape, cast<RankedTensorType>(arg.getType()).getElementType());
    Value buffer = stagedBuffer(arg);
    auto load = buffer ? LoadOp::create(b, loc, type, buffer,
                                        ValueRange{zero, k}, nullptr)
                       : LoadOp::create(b, loc, type, source(arg),
                                        ValueRange{tileRow,
                                                   col ? col : column(k)},
                                        nullptr);
    load.setInBounds(inBounds);
    return load;
  }

  using ChunkBody = function_ref<FailureOr<SmallVector<Value>>(
      Value k, Value col, bool edge, ValueRange carried, IRMapping &local)>;
  using Carried = std::pair<SmallVector<Value>, SmallVector<Value>>;

  /// Runs `chunkBody(k, col, edge, carried, local)` over every chunk, edges
  /// first, each loop carrying its own values (`edgeInits`,
  /// `interiorInits`: the two chunk widths make different tiles); returns
  /// each loop's final carried values. `local` starts as `tiles`, and also
  /// maps each of `inputs` to its tile of the chunk, loaded here: in_bounds
  /// in the interior, bounds-checked at the edges (from shared memory where
  /// staged).
  ///
  /// With `ahead`, interior tiles are loaded one chunk ahead and carried
  /// by the loop: a chunk's compute waited for its own loads, and that
  /// latency was not hidden (softmax 4096x50257 at 16 warps per SM: 73%
  /// issue-active with two-run-per-thread edge chunks, 58% with one-run).
  FailureOr<Carried> walk(ArrayRef<BlockArgument> inputs, bool ahead,
                          ValueRange edgeInits, ValueRange interiorInits,
                          const IRMapping &tiles, ChunkBody chunkBody) {
    Carried results;
    // The interior's first chunk, when loaded ahead, is loaded before the
    // edge loop, which then hides its latency (softmax 4096x50257: 311
    // against 318 us with --fast-math, 372.5 against 373.6 exact).
    // (Whether the interior has a chunk is not known here: the load is
    // bounds-checked.)
    SmallVector<Value> firstInterior;
    if (ahead)
      for (BlockArgument arg : inputs)
        firstInterior.push_back(loadChunk(arg, tileShape, edgeStep,
                                          /*inBounds=*/false));
    for (bool edge : {true, false}) {
      bool carry = ahead && !edge && !inputs.empty();
      SmallVector<Value> inits(edge ? edgeInits : interiorInits);
      size_t own = inits.size();
      if (carry)
        llvm::append_range(inits, firstInterior);
      auto loop = edge ? scf::ForOp::create(b, loc, zero, edges, one, inits)
                       : scf::ForOp::create(b, loc, edgeStep, tail, step,
                                            inits);
      OpBuilder::InsertionGuard guard(b);
      if (inits.empty()) // the loop already ends in its scf.yield
        b.setInsertionPoint(loop.getBody()->getTerminator());
      else
        b.setInsertionPointToStart(loop.getBody());
      Value k = loop.getInductionVar();
      if (edge) { // edge j: chunk 0, then tail + (j - 1) * edgeChunk
        Value j = arith::SubIOp::create(b, loc, k, one);
        Value first =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k, zero);
        Value jSteps = arith::MulIOp::create(b, loc, j, edgeStep);
        Value later = arith::AddIOp::create(b, loc, tail, jSteps);
        k = arith::SelectOp::create(b, loc, first, zero, later);
      }
      // Interior chunks end by `tail`, inside the row: their loads and
      // stores say so (in_bounds), and convert-tile-to-simt drops the
      // bounds checks. (LLVM had dropped them on its own where `tail`
      // folded to a constant, but not for the next chunk's loads.)
      IRMapping local = tiles;
      ValueRange carried = loop.getRegionIterArgs();
      SmallVector<Value> next;
      if (carry) {
        // The next chunk's loads first, where there is a next chunk.
        Value nextK = arith::AddIOp::create(b, loc, k, step);
        Value hasNext = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, nextK, tail);
        auto ifNext = scf::IfOp::create(
            b, loc, TypeRange(carried.drop_front(own)), hasNext,
            /*withElseRegion=*/true);
        {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPointToStart(ifNext.thenBlock());
          SmallVector<Value> loaded;
          for (BlockArgument arg : inputs)
            loaded.push_back(loadChunk(arg, tileShape, nextK,
                                       /*inBounds=*/true));
          scf::YieldOp::create(b, loc, loaded);
          b.setInsertionPointToStart(ifNext.elseBlock());
          scf::YieldOp::create(b, loc, carried.drop_front(own));
        }
        next.assign(ifNext.getResults().begin(), ifNext.getResults().end());
        for (auto [arg, tile] : llvm::zip(inputs, carried.drop_front(own)))
          local.map(arg, tile);
      } else if (!edge) {
        for (BlockArgument arg : inputs)
          local.map(arg, loadChunk(arg, tileShape, k, /*inBounds=*/true));
      }
      Value col = column(k);
      if (edge)
        for (BlockArgument arg : inputs)
          local.map(arg,
                    loadChunk(arg, edgeShape, k, /*inBounds=*/false, col));
      FailureOr<SmallVector<Value>> yielded =
          chunkBody(k, col, edge, carried.take_front(own), local);
      if (failed(yielded))
        return failure();
      llvm::append_range(*yielded, next);
      if (!inits.empty())
        scf::YieldOp::create(b, loc, *yielded);
      (edge ? results.first : results.second)
          .assign(loop.getResults().begin(),
                  loop.getResults().begin() + own);
    }
    return results;
  }
};
} // namespace

/// Elements per thread of a wide row's edge chunks (ChunkWalk): a quarter
/// run (4 bytes of the narrowest type; at least one element) where that
/// takes no more edge chunks than a whole run would, for every shift of the
/// row; else a whole run. (Such a tile has one element per thread in each
/// slot, V = 1 in docs/layouts.md: dearer per column, hence the count.)
/// Edge chunks pay for masks, bounds checks and the columns past the row:
/// at 50257 bf16 columns, edge chunks of a run per thread covered 12288
/// columns for 1105 to 1112 of the row, quarter runs cover 2048 (softmax
/// 4096x50257 exact: 302.6 -> 275.2 us, bench/RESULTS.md, session 6).
static int64_t edgeElementsPerThread(int64_t cols, int64_t run,
                                     int64_t shiftToRuns, int64_t threads,
                                     int64_t chunk) {
  int64_t quarter = std::max<int64_t>(1, run / 4);
  // ChunkWalk's count: the head, then whole chunks from the head's end,
  // then edge chunks to the row's end.
  auto edges = [&](int64_t perThread, int64_t end) {
    int64_t width = threads * perThread;
    int64_t tail = width + (std::max(end, width) - width) / chunk * chunk;
    return 1 + llvm::divideCeil(std::max(end, tail) - tail, width);
  };
  for (int64_t shift = 0; shift < std::max<int64_t>(1, shiftToRuns); ++shift)
    if (edges(quarter, cols + shift) > edges(run, cols + shift))
      return run;
  return quarter;
}

/// A row group whose rows are too wide to hold in registers: each program
/// still owns one row, but walks it in chunks of `chunk` columns, once per
/// reduction (folding the chunks together with the reduction's own
/// combiner) and once more to compute and store the result. Each pass
/// recomputes what it needs from the inputs, so inputs are read once per
/// pass; the later passes mostly hit L2, as a program's row was read just
/// before.
///
/// With `shiftToRuns` (a run length in elements), rows that are not whole
/// 16-byte runs are read through one-row views of their buffers, and the
/// chunks start `(row * cols) % run` columns before the row, at the run
/// boundary before it: then every chunk's runs are aligned in memory and
/// move as 16-byte accesses, except the row's first and last, which
/// convert-tile-to-simt moves element by element. The masks and the views'
/// bounds keep the columns before and after the row out of the reductions
/// and the stores. Only for groups whose 2-D operands all have the row
/// layout of the result (the same shift), and whose 1-D operands are
/// per-row values.
///
/// Where the rows of the inputs fit in `stagedBytes` of shared memory
/// (softmax 4096x50257 bf16: 100.5 KB, two programs per SM on sm_90),
/// they are staged: copied there once with tile.copy_async, every 16-byte
/// run in flight at once, and each pass reads them from shared memory, so
/// inputs are read from global memory once instead of once per pass, and
/// no pass waits on global loads. A hand-written CUDA prototype of this
/// schedule measured 325 us exact and 262 us with fast math at
/// 4096x50257, against 371 and 309 for the unstaged kernel (RESULTS,
/// session 5).
static LogicalResult tileWideRows(KernelBuilder &kb, FusedOp fused,
                                  ArrayRef<Value> args, int64_t rows,
                                  int64_t cols, int64_t chunk,
                                  int64_t edgeChunk,
                                  int64_t shiftToRuns = 0,
                                  int64_t programsPerSm = 0,
                                  int64_t stagedBytes = 0) {
  Block &body = fused.getBody().front();
  Location loc = kb.loc;
  SmallVector<int64_t> grid = {rows};
  if (failed(checkGrid(fused, grid)))
    return failure();
  OpBuilder b = kb.begin(args, grid);
  // `programsPerSm` programs per SM at least: a register cap (64 per
  // thread for two programs of 512 threads). Left to itself, ptxas gave
  // the softmax 4096x50257 kernel with chunks loaded ahead (below) 94 to
  // 182 registers, one program per SM; two keep 26 MB of its rows in
  // flight, which L2 holds for the later passes (three programs per SM, of
  // 256 threads at 80 registers, took its L2 hit rate from 65% to 49%).
  if (programsPerSm > 0)
    kb.kernel.setMinProgramsPerSm(programsPerSm);
  Value row = kb.tileOffset(b, 0, 1);
  // Without a shift: chunks at [row, col], col = 0, chunk, ... With one:
  // chunks at [0, col] of the row's views, col = -shift, chunk - shift, ...
  Value tileRow = row, shift, result = kb.arg(kb.bufs.result);
  SmallVector<Value> views;
  if (shiftToRuns) {
    auto rowView = [&](Value buffer) -> Value {
      auto type = cast<MemRefType>(buffer.getType());
      if (type.getRank() == 2)
        return memref::SubViewOp::create(
            b, loc, buffer, ArrayRef<OpFoldResult>{row, b.getIndexAttr(0)},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1),
                                   b.getIndexAttr(type.getDimSize(1))},
            ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
      return memref::SubViewOp::create(
          b, loc, buffer, ArrayRef<OpFoldResult>{row},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
    };
    for (BlockArgument arg : body.getArguments())
      views.push_back(isa<RankedTensorType>(arg.getType()) && !arg.use_empty()
                          ? rowView(kb.arg(kb.bufs.operands[arg.getArgNumber()]))
                          : Value());
    result = rowView(result);
    tileRow = kb.index(b, 0);
    Value colsValue = kb.index(b, cols);
    Value rowStart = arith::MulIOp::create(b, loc, row, colsValue);
    Value runs = kb.index(b, shiftToRuns);
    shift = arith::RemUIOp::create(b, loc, rowStart, runs);
  }
  IRMapping tiles; // the reductions' results so far, one value per row
  ChunkWalk walk(kb, b, body, cols, chunk, edgeChunk, tileRow, shift, views);
  ArrayRef<int64_t> tileShape = walk.tileShape, edgeShape = walk.edgeShape;

  // Staging: where the row inputs' rows fit in `stagedBytes`, each is
  // copied once into shared memory (at k = col + shift, whole runs), and
  // every pass reads it there. The copies go chunk by chunk in the layout
  // the passes read, so each thread reads only what it copied itself: no
  // barrier.
  bool staged = false;
  if (stagedBytes > 0) {
    llvm::SmallPtrSet<Operation *, 16> everything;
    for (Operation &op : body.without_terminator())
      everything.insert(&op);
    SmallVector<BlockArgument> inputs = walk.rowInputs(everything);
    // Whole runs of the shift (edge chunks may hold less per thread).
    int64_t run = shiftToRuns ? shiftToRuns : edgeChunk / kb.threads;
    int64_t width = llvm::alignTo(cols + (shiftToRuns ? run - 1 : 0), run);
    // Byte-sized elements only: cp.async moves 16-byte runs, and an i1
    // row moves element by element.
    int64_t bytes = 0;
    bool byteSized = true;
    for (BlockArgument arg : inputs) {
      int64_t bits =
          cast<RankedTensorType>(arg.getType()).getElementTypeBitWidth();
      byteSized = byteSized && bits % 8 == 0;
      bytes += width * bits / 8;
    }
    staged = !inputs.empty() && byteSized && bytes <= stagedBytes;
    if (staged) {
      auto workgroup = gpu::AddressSpaceAttr::get(
          b.getContext(), gpu::AddressSpace::Workgroup);
      walk.staged.resize(body.getNumArguments());
      for (BlockArgument arg : inputs)
        walk.staged[arg.getArgNumber()] = SharedOp::create(
            b, loc,
            MemRefType::get(
                {1, width},
                cast<RankedTensorType>(arg.getType()).getElementType(),
                MemRefLayoutAttrInterface(), workgroup));
      auto copied = walk.walk(
          {}, /*ahead=*/false, {}, {}, tiles,
          [&](Value k, Value col, bool edge, ValueRange,
              IRMapping &) -> FailureOr<SmallVector<Value>> {
            for (BlockArgument arg : inputs)
              CopyAsyncOp::create(
                  b, loc, walk.source(arg), ValueRange{tileRow, col},
                  walk.stagedBuffer(arg), ValueRange{walk.zero, k},
                  b.getDenseI64ArrayAttr(edge ? edgeShape : tileShape));
            return SmallVector<Value>{};
          });
      if (failed(copied))
        return failure();
      WaitAsyncOp::create(b, loc, 0);
    }
  }

  for (auto reduce : body.getOps<ReduceOp>()) {
    if (reduce.getDim() != 1)
      return reduce.emitOpError()
             << "can be fused only as a row reduction (dim = 1)";
    Value init = reduce.getInit();
    if (Operation *def = init.getDefiningOp())
      init = b.clone(*def)->getResult(0);
    Type element = init.getType();
    // The loops fold each chunk into a chunk-shaped accumulator with the
    // reduction's combiner, element by element (no cross-thread work per
    // chunk); a row reduction of each loop's accumulator after them, and
    // the combiner on the two, finish it.
    auto edgeAccType = TileType::get(edgeShape, element);
    auto accType = TileType::get(tileShape, element);
    auto slice = sliceOf(reduce.getInput(), body, tiles);
    SmallVector<BlockArgument> inputs = walk.rowInputs(slice);
    // A reduction of an input itself has no op in its slice to name it;
    // walk() loads it like the others.
    auto direct = dyn_cast<BlockArgument>(reduce.getInput());
    if (direct && direct.getOwner() == &body &&
        !llvm::is_contained(inputs, direct))
      inputs.push_back(direct);
    // Loaded ahead from global memory; shared memory answers fast enough.
    Value edgeAcc = SplatOp::create(b, loc, edgeAccType, init).getResult();
    Value acc = SplatOp::create(b, loc, accType, init).getResult();
    auto folded = walk.walk(
        inputs, /*ahead=*/!staged, edgeAcc, acc, tiles,
        [&](Value, Value col, bool edge, ValueRange carried,
            IRMapping &local) -> FailureOr<SmallVector<Value>> {
          if (failed(tileGroupRange(kb, b, fused, body.begin(), local,
                                    edge ? edgeShape : tileShape,
                                    {tileRow, col}, &slice, views)))
            return failure();
          Value input = local.lookup(reduce.getInput());
          // At the edges, keeps the columns inside the row: col + j <
          // cols, unsigned, which also drops the columns before the row
          // where col is negative. (The row itself is always inside.)
          if (edge) {
            // One at a time: the order of a call's arguments is
            // unspecified.
            Value rowsLeft =
                arith::SubIOp::create(b, loc, kb.index(b, rows), row);
            Value colsValue = kb.index(b, cols);
            Value zero = kb.index(b, 0);
            input = MaskOp::create(b, loc, input.getType(), input, init,
                                   ValueRange{rowsLeft, colsValue},
                                   ValueRange{zero, col});
          }
          auto combined = MapOp::create(b, loc, input.getType(),
                                        ValueRange{carried[0], input});
          IRMapping fresh; // cloneInto adds no block argument it already maps
          reduce.getCombiner().cloneInto(&combined.getBody(), fresh);
          return SmallVector<Value>{combined.getResult()};
        });
    if (failed(folded))
      return failure();
    auto reduceRow = [&](Value acc) {
      auto reduced = ReduceOp::create(b, loc, TileType::get({1}, element),
                                      acc, init, b.getI64IntegerAttr(1));
      IRMapping fresh;
      reduce.getCombiner().cloneInto(&reduced.getCombiner(), fresh);
      return reduced.getResult();
    };
    auto both = MapOp::create(
        b, loc, TileType::get({1}, element),
        ValueRange{reduceRow(folded->first.front()),
                   reduceRow(folded->second.front())});
    IRMapping fresh;
    reduce.getCombiner().cloneInto(&both.getBody(), fresh);
    tiles.map(reduce.getResult(), both.getResult());
  }
  Value yielded = cast<YieldOp>(body.getTerminator()).getValue();
  auto storeSlice = sliceOf(yielded, body, tiles);
  if (cast<ShapedType>(fused.getType()).getRank() == 1) {
    // A per-row result (the group ends in its reductions: a
    // matrix-vector product): what follows them, once, stored at the row.
    if (failed(tileGroupRange(kb, b, fused, body.begin(), tiles, {1},
                              {tileRow}, &storeSlice, views)))
      return failure();
    StoreOp::create(b, loc, tiles.lookup(yielded), result,
                    ValueRange{tileRow});
    return success();
  }
  // The storing pass does not load ahead: it computes the most per
  // element (softmax: an exp and a division), which covers its own loads'
  // latency, and the chunk it would carry took the exact softmax 4096x50257
  // (then 256 threads) over 128 registers (a 56-byte spill; 390 against
  // 426 us without it, 337 against 347 us with --fast-math).
  auto stored = walk.walk(
      walk.rowInputs(storeSlice), /*ahead=*/false, {}, {}, tiles,
      [&](Value, Value col, bool edge, ValueRange,
          IRMapping &local) -> FailureOr<SmallVector<Value>> {
        if (failed(tileGroupRange(kb, b, fused, body.begin(), local,
                                  edge ? edgeShape : tileShape,
                                  {tileRow, col}, &storeSlice, views)))
          return failure();
        auto store = StoreOp::create(b, loc, local.lookup(yielded), result,
                                     ValueRange{tileRow, col});
        store.setInBounds(!edge);
        return SmallVector<Value>{};
      });
  return failure(failed(stored));
}

/// Whether a wide row group can walk its rows shifted to run boundaries
/// (tileWideRows' shiftToRuns): every 2-D operand has the result's shape,
/// so all rows shift alike, and no 1-D operand is broadcast along the
/// rows (a layernorm's weights would need the unshifted columns).
static bool rowsShiftAlike(FusedOp fused) {
  Block &body = fused.getBody().front();
  auto resultType = cast<ShapedType>(fused.getType());
  for (Value input : fused.getInputs()) {
    auto type = cast<ShapedType>(input.getType());
    if (type.getRank() == 2 && type.getShape() != resultType.getShape())
      return false;
  }
  bool perRowOnly = true;
  body.walk([&](BroadcastOp broadcast) {
    if (isa<BlockArgument>(broadcast.getInput()) &&
        !llvm::equal(broadcast.getDims(), ArrayRef<int64_t>{1}))
      perRowOnly = false;
  });
  return perRowOnly;
}

/// Tiles a row group on one row (a tile of 1 x `rowTile` at `offsets`) in
/// phases: one per reduction, computing just that reduction and what it
/// needs, and a last one for the result. `seedInputs` maps the row inputs afresh for
/// each phase, so that values are recomputed from them rather than held in
/// registers from one phase to the next; `results` collects the
/// reductions' results (one value per row).
static FailureOr<Value>
tileRowInPhases(KernelBuilder &kb, OpBuilder &b, FusedOp fused,
                int64_t rowTile, ArrayRef<Value> offsets, IRMapping &results,
                function_ref<void(IRMapping &)> seedInputs) {
  Block &body = fused.getBody().front();
  SmallVector<int64_t> tileShape = {1, rowTile};
  // One phase: `value` and what it needs that is not in `results` yet,
  // tiled from freshly seeded inputs.
  auto phase = [&](Value value) -> FailureOr<Value> {
    IRMapping local = results;
    seedInputs(local);
    auto slice = sliceOf(value, body, results);
    if (failed(tileGroupRange(kb, b, fused, body.begin(), local, tileShape,
                              offsets, &slice)))
      return failure();
    return local.lookup(value);
  };
  for (auto reduce : body.getOps<ReduceOp>()) {
    FailureOr<Value> reduced = phase(reduce.getResult());
    if (failed(reduced))
      return failure();
    results.map(reduce.getResult(), *reduced);
  }
  return phase(cast<YieldOp>(body.getTerminator()).getValue());
}

/// Whether every rank-2 input and result of `fused` has rows of whole
/// 16-byte runs, so that convert-tile-to-simt moves them in runs (and
/// cp.async can copy them).
static bool rowsAreWholeRuns(FusedOp fused) {
  return llvm::all_of(
      llvm::concat<const Value>(fused.getInputs(), fused->getResults()),
      [](Value v) {
        auto type = cast<ShapedType>(v.getType());
        return type.getRank() != 2 ||
               (type.getElementTypeBitWidth() % 8 == 0 &&
                (type.getDimSize(1) * type.getElementTypeBitWidth() / 8) %
                        16 ==
                    0);
      });
}

/// A row group whose programs each walk `perProgram` consecutive rows of
/// `rowTile` columns, starting the next row's loads before the current
/// row's reductions, so that a program keeps a row's bytes in flight while
/// it computes. Where rows are whole 16-byte runs, the next `stages` - 1
/// rows go to shared memory with tile.copy_async (a ring of `stages` row
/// slots per input), costing no registers; elsewhere the next row is
/// loaded into registers carried by the loop.
static LogicalResult tileRowLoop(KernelBuilder &kb, FusedOp fused,
                                 ArrayRef<Value> args, int64_t rows,
                                 int64_t rowTile, int64_t perProgram,
                                 int64_t stages) {
  Block &body = fused.getBody().front();
  Location loc = kb.loc;
  SmallVector<int64_t> grid = {ceilDiv(rows, perProgram)};
  if (failed(checkGrid(fused, grid)))
    return failure();
  OpBuilder b = kb.begin(args, grid);
  Value zero = kb.index(b, 0), one = kb.index(b, 1);
  Value first = kb.tileOffset(b, 0, perProgram);
  Value most = kb.index(b, perProgram);
  Value rowsValue = kb.index(b, rows);
  Value rowsLeft = arith::SubIOp::create(b, loc, rowsValue, first);
  Value count = arith::MinUIOp::create(b, loc, most, rowsLeft);
  Value last = arith::SubIOp::create(
      b, loc, arith::AddIOp::create(b, loc, first, count), one);

  // Inputs broadcast along the rows (a layernorm's weights) are left to
  // the loop body, where they hit L1: loaded once before the loop, LLVM
  // hoists their f32 conversion too, and holding them converted took
  // layernorm 16384x5120 from 81 to 218 registers.
  SmallVector<BlockArgument> rowInputs;
  for (BlockArgument arg : body.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (type && type.getRank() == 2 && !arg.use_empty())
      rowInputs.push_back(arg);
  }
  auto rowType = [&](BlockArgument arg) {
    return TileType::get(
        {1, rowTile}, cast<RankedTensorType>(arg.getType()).getElementType());
  };
  auto source = [&](BlockArgument arg) {
    return kb.arg(kb.bufs.operands[arg.getArgNumber()]);
  };

  bool async = rowsAreWholeRuns(fused);
  SmallVector<Value> slots; // async: per input, a ring of `stages` rows
  // Row `first + j` of the program, or past the end (copied as zeros) where
  // the program has no such row.
  auto programRow = [&](Value j) {
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         j, count);
    Value row = arith::AddIOp::create(b, loc, first, j);
    Value past = kb.index(b, rows);
    return arith::SelectOp::create(b, loc, inside, row, past);
  };
  auto startRow = [&](Value row, Value slot) {
    for (auto [arg, buffer] : llvm::zip(rowInputs, slots))
      CopyAsyncOp::create(b, loc, source(arg), ValueRange{row, zero}, buffer,
                          ValueRange{slot, zero},
                          b.getDenseI64ArrayAttr({1, rowTile}));
  };
  auto loadRow = [&](Value row) {
    SmallVector<Value> loaded;
    for (BlockArgument arg : rowInputs)
      loaded.push_back(LoadOp::create(b, loc, rowType(arg), source(arg),
                                      ValueRange{row, zero}, nullptr));
    return loaded;
  };
  if (async) {
    auto workgroup = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
    for (BlockArgument arg : rowInputs)
      slots.push_back(SharedOp::create(
          b, loc,
          MemRefType::get({stages, rowTile}, rowType(arg).getElementType(),
                          MemRefLayoutAttrInterface(), workgroup)));
    // The first stages - 1 rows, one group per input each.
    for (int64_t j = 0; j + 1 < stages; ++j) {
      Value rowOfProgram = programRow(kb.index(b, j));
      startRow(rowOfProgram, kb.index(b, j));
    }
  }
  auto loop = scf::ForOp::create(b, loc, zero, count, one,
                                 async ? SmallVector<Value>{} : loadRow(first));
  b.setInsertionPointToStart(loop.getBody());
  if (async) // the builder gave the loop without results its scf.yield
    b.setInsertionPoint(loop.getBody()->getTerminator());
  Value i = loop.getInductionVar();
  Value row = arith::AddIOp::create(b, loc, first, i);
  // The last iteration fetches its own row again (an L1/L2 hit) rather
  // than the next program's.
  Value nextRow = arith::MinUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, row, one), last);
  SmallVector<Value> next;
  SmallVector<Value> offsets = {row, zero};
  FailureOr<Value> result;
  if (async) {
    // Row i + stages - 1 goes to the slot row i - 1 used. Past the
    // program's last row the copies read nothing and arrive as zeros, but
    // still make their groups, so the wait below keeps its count.
    Value ahead = arith::AddIOp::create(b, loc, i, kb.index(b, stages - 1));
    Value aheadRow = programRow(ahead);
    Value ring = kb.index(b, stages);
    startRow(aheadRow, arith::RemUIOp::create(b, loc, ahead, ring));
    // Row i is in once only the stages - 1 rows after it may still be in
    // flight, one group per input each.
    WaitAsyncOp::create(b, loc, (stages - 1) * rowInputs.size());
    Value slot = arith::RemUIOp::create(b, loc, i, kb.index(b, stages));
    // The row stays in shared memory, so each phase reads it again there
    // rather than holding its values in registers across the reductions.
    IRMapping results;
    result = tileRowInPhases(kb, b, fused, rowTile, offsets, results,
                             [&](IRMapping &tiles) {
                               for (auto [arg, buffer] :
                                    llvm::zip(rowInputs, slots))
                                 tiles.map(arg, LoadOp::create(
                                                    b, loc, rowType(arg),
                                                    buffer,
                                                    ValueRange{slot, zero},
                                                    nullptr));
                             });
  } else {
    next = loadRow(nextRow);
    IRMapping tiles;
    for (auto [arg, current] : llvm::zip(rowInputs, loop.getRegionIterArgs()))
      tiles.map(arg, current);
    result = tileGroupOps(kb, b, fused, body.begin(), tiles, {1, rowTile},
                          offsets);
  }
  if (failed(result))
    return failure();
  // A per-row result (the group ends in a reduction: a matrix-vector
  // product) is stored at the row alone.
  auto resultTile = cast<TileType>(result->getType());
  StoreOp::create(b, loc, *result, kb.arg(kb.bufs.result),
                  ValueRange(offsets).take_front(resultTile.getRank()));
  if (!async)
    scf::YieldOp::create(b, loc, next);
  if (async) {
    // No copy outlives the program.
    b.setInsertionPointAfter(loop);
    WaitAsyncOp::create(b, loc, 0);
  }
  return success();
}

/// A fused group: the root (its first matmul, else its first op) sets the
/// schedule; the ops after it run on the root's output tile in registers.
LogicalResult tiling::tileFused(KernelBuilder &kb, FusedOp fused,
                               ArrayRef<int64_t> block, ConfigAttr config,
                               const RowGroupOptions &rowOptions,
                               bool padRows) {
  if (fused->hasAttr("tile.attention"))
    return tileAttention(kb, fused, config);
  int64_t rowsPerProgram = rowOptions.rowsPerProgram;
  int64_t rowStages = rowOptions.rowStages;
  Block &body = fused.getBody().front();
  auto resultType = cast<RankedTensorType>(fused.getType());
  Operation *root = nullptr;
  for (Operation &op : body.without_terminator())
    if (isa<MatmulOp>(op) && !root)
      root = &op;
  if (resultType.getRank() != 2 && root)
    return fused.emitOpError() << "expected a rank-2 matmul result";
  SmallVector<Value> args;
  for (Value buffer : kb.bufs.operands)
    args.push_back(buffer);
  args.push_back(kb.bufs.result);
  Location loc = kb.loc;

  bool hasReduction = llvm::any_of(body.getOperations(), [](Operation &op) {
    return isa<ReduceOp>(op);
  });
  if (!root && hasReduction) {
    // Row group (softmax, layernorm, rmsnorm): each program owns whole rows,
    // held in registers across the reductions, so the input is read once
    // and the output written once.
    RankedTensorType rowType;
    body.walk([&](ReduceOp reduce) {
      if (!rowType)
        rowType = cast<RankedTensorType>(reduce.getInput().getType());
    });
    int64_t rows = rowType.getDimSize(0), cols = rowType.getDimSize(1);
    // Threads move the row in 16-byte runs of the narrowest element type
    // (as convert-tile-to-simt lays tiles out): pad the row to whole warps
    // of runs, then give each thread 2 to 8 runs if a thread count that is
    // a multiple of 32 (at most 512) divides the row so; else fall back to a
    // power-of-two row with up to 1024 threads.
    int64_t narrowest = 16;
    auto noteType = [&](Type type) {
      if (auto shaped = dyn_cast<ShapedType>(type))
        narrowest = std::min<int64_t>(
            narrowest, shaped.getElementTypeBitWidth() / 8);
    };
    for (Value input : fused.getInputs())
      noteType(input.getType());
    noteType(fused.getType());
    int64_t run = 16 / std::max<int64_t>(1, narrowest);
    int64_t rowTile = llvm::alignTo(cols, 32 * run);
    int64_t runsInRow = rowTile / run;
    // Four or more runs per thread first: measured on the H200 (softmax
    // 8192^2 bf16, bench/RESULTS.md), 4 runs per thread (256 threads) moved
    // 89% of copy bandwidth, 2 runs (512) 84%, 1 run (1024) 61%: independent
    // 16-byte loads in flight per thread matter more than thread count.
    int64_t threads = 0;
    for (int64_t perThread : {4, 5, 6, 7, 8, 2, 3})
      if (!threads && runsInRow % perThread == 0 &&
          (runsInRow / perThread) % 32 == 0 && runsInRow / perThread <= 512)
        threads = runsInRow / perThread;
    if (!threads) {
      rowTile = llvm::PowerOf2Ceil(cols);
      threads = std::min<int64_t>(1024, std::max<int64_t>(128, rowTile / 16));
    }
    // A tile.config on the group's first reduction overrides the thread
    // count (the row is then padded to whole runs of that many threads).
    ReduceOp firstReduce;
    body.walk([&](ReduceOp reduce) {
      if (!firstReduce)
        firstReduce = reduce;
    });
    if (auto config = firstReduce->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName())) {
      threads = config.getThreads();
      rowTile = llvm::alignTo(cols, threads * run);
    }
    // Rows that would take more than 32 elements per thread (64 at 1024
    // threads for a 50257-wide row) spill registers; those are walked in
    // chunks of 2 runs per thread of 512 threads (or the configured count),
    // two programs per SM: at 50257 columns that beat 4 runs of 256
    // threads (2 programs), 2 or 1 of 1024 (1 program), 4 of 512 (spills)
    // by 5 to 40% (bench/RESULTS.md, session 4); the kernel is latency-
    // bound, and 32 warps per SM hide more than 16.
    // Rows that are not whole 16-byte runs (a 50257-wide bf16 row) and
    // cannot be shifted move element by element in convert-tile-to-simt,
    // each element with its own address and predicate: there 8 elements
    // per thread already take about 60 registers, and 512 threads beat 256
    // and 1024 (softmax 4096x50257, session 2).
    if (rowTile / threads > kMaxRowElementsPerThread) {
      bool configured = firstReduce->hasAttr(ConfigAttr::getAttrName());
      // Rows that are not whole runs move in runs all the same where they
      // can be shifted to run boundaries.
      bool shifted = !rowsAreWholeRuns(fused) && rowsShiftAlike(fused);
      bool runs = rowsAreWholeRuns(fused) || shifted;
      kb.threads = configured ? threads
                   : runs     ? kWideRowThreads
                              : kWideUnalignedRowThreads;
      int64_t perThread = runs ? run * kWideRowRunsPerThread : 8;
      // Reductions with 32-bit accumulators fold in registers
      // (convert-tile-to-simt) and need at most 2 KB of shared memory;
      // others go through it, a whole chunk at a time.
      bool registerReductions = llvm::all_of(
          body.getOps<ReduceOp>(), [](ReduceOp reduce) {
            return reduce.getInit().getType().getIntOrFloatBitWidth() == 32;
          });
      // Rows staged in shared memory (in runs only: cp.async moves runs):
      // two programs per SM, each with the 1 KB the hardware reserves per
      // program and 2 KB for the kernel's own scratch (block reductions).
      int64_t stagedBytes =
          runs && registerReductions && rowOptions.sharedMemoryPerSm > 0
              ? rowOptions.sharedMemoryPerSm / 2 - kSharedReservedPerProgram
              : 0;
      int64_t edgeChunk =
          runs ? kb.threads * edgeElementsPerThread(cols, run,
                                                    shifted ? run : 0,
                                                    kb.threads,
                                                    kb.threads * perThread)
               : kb.threads * perThread;
      return tileWideRows(kb, fused, args, rows, cols,
                          kb.threads * perThread, edgeChunk,
                          shifted ? run : 0,
                          runs && registerReductions && kb.threads <= 512
                              ? 2
                              : 0,
                          stagedBytes);
    }
    kb.threads = threads;
    int64_t perProgram = rowsPerProgram;
    if (perProgram == 0) {
      // Measured on the H200 (bench/RESULTS.md): 4 rows per program with
      // rows copied ahead took rmsnorm 16384x5120 from 68% to 90% of copy
      // bandwidth and layernorm 16384x5120 from 62% to 64%, but cost 3 to
      // 8 points on rows of 8192 bf16 (16 KB), which one row per program
      // already moves at 88-89%. So: 4 rows per program where rows are
      // whole 16-byte runs and under 16 KB.
      int64_t rowBytes = 0;
      for (Value input : fused.getInputs())
        if (auto type = dyn_cast<RankedTensorType>(input.getType());
            type && type.getRank() == 2)
          rowBytes = std::max<int64_t>(
              rowBytes, rowTile * type.getElementTypeBitWidth() / 8);
      perProgram = rowsAreWholeRuns(fused) && rowBytes < 16384 ? 4 : 1;
    }
    if (perProgram > 1)
      return tileRowLoop(kb, fused, args, rows, rowTile, perProgram,
                         rowStages);
    SmallVector<int64_t> tileShape = {1, rowTile};
    SmallVector<int64_t> grid = {rows};
    if (failed(checkGrid(fused, grid)))
      return failure();
    OpBuilder b = kb.begin(args, grid);
    SmallVector<Value> offsets = {kb.tileOffset(b, 0, 1), kb.index(b, 0)};
    IRMapping tiles;
    FailureOr<Value> result = tileGroupOps(kb, b, fused, body.begin(), tiles,
                                           tileShape, offsets);
    if (failed(result))
      return failure();
    auto resultTile = cast<TileType>(result->getType());
    SmallVector<Value> storeAt(offsets.begin(),
                               offsets.begin() + resultTile.getRank());
    StoreOp::create(b, loc, *result, kb.arg(kb.bufs.result), storeAt);
    return success();
  }

  if (!root) {
    // Elementwise group: a grid over result tiles, the whole region per tile.
    int64_t rank = resultType.getRank();
    if (rank < 1 || rank > 2 || (int64_t)block.size() < rank)
      return fused.emitOpError() << "tiling supports rank-1 or rank-2 results "
                                    "with as many block sizes";
    block = block.take_back(rank);
    SmallVector<int64_t> tileShape, grid;
    for (int64_t d = 0; d < rank; ++d) {
      tileShape.push_back(tileSizeFor(resultType.getDimSize(d), block[d]));
      grid.push_back(ceilDiv(resultType.getDimSize(d), tileShape[d]));
    }
    if (failed(checkGrid(fused, grid)))
      return failure();
    OpBuilder b = kb.begin(args, grid);
    SmallVector<Value> offsets;
    for (int64_t d = 0; d < rank; ++d)
      offsets.push_back(kb.tileOffset(b, d, tileShape[d]));
    IRMapping tiles;
    FailureOr<Value> result = tileGroupOps(kb, b, fused, body.begin(), tiles,
                                           tileShape, offsets);
    if (failed(result))
      return failure();
    StoreOp::create(b, loc, *result, kb.arg(kb.bufs.result), offsets);
    return success();
  }

  // Matmul root: the K loop as in tileMatmul, then the epilogue.
  auto matmul = cast<MatmulOp>(root);
  if (cast<ShapedType>(matmul.getType()).getRank() != 2)
    return matmul.emitOpError()
           << "with batch dimensions is tiled only inside an attention "
              "group (tile-fuse) so far";
  if (block.size() != 3)
    return fused.emitOpError() << "expected 3 block sizes [M, N, K] but got "
                               << block.size();
  auto lhs = dyn_cast<BlockArgument>(matmul.getLhs());
  auto rhs = dyn_cast<BlockArgument>(matmul.getRhs());
  // B as the tile.transpose of an [N, K] tensor (tile-fuse's): read as
  // stored, a K-major operand; or of a weight computed in the K loop.
  bool bTransposed = false;
  std::optional<WeightPrologue> prologue = matchWeightPrologue(matmul);
  if (auto transpose = matmul.getRhs().getDefiningOp<TransposeOp>()) {
    rhs = dyn_cast<BlockArgument>(transpose.getInput());
    bTransposed = true;
  }
  if (!lhs || (!rhs && !prologue))
    return matmul.emitOpError() << "expected matmul operands from outside the "
                                   "fused group";
  // Block scales, each as given or as the transpose of the tensor read
  // (tile-fuse's, as B's: torch's M-major scale_a).
  BlockArgument scaleArgs[2];
  bool scaleTransposed[2] = {false, false};
  if (matmul.isBlockScaled())
    for (auto [index, scale] : llvm::enumerate(
             std::array<Value, 2>{matmul.getScaleLhs(), matmul.getScaleRhs()})) {
      if (auto transpose = scale.getDefiningOp<TransposeOp>()) {
        scale = transpose.getInput();
        scaleTransposed[index] = true;
      }
      scaleArgs[index] = dyn_cast<BlockArgument>(scale);
      if (!scaleArgs[index])
        return matmul.emitOpError()
               << "expected block scales from outside the fused group";
    }
  int64_t m = resultType.getDimSize(0);
  Value lhsBuffer = kb.bufs.operands[lhs.getArgNumber()];
  Value rhsBuffer = rhs ? kb.bufs.operands[rhs.getArgNumber()] : Value();
  int64_t n = resultType.getDimSize(1);
  MatmulBuffers bufs = matmulBuffers(kb, lhsBuffer, rhsBuffer, kb.bufs.result,
                                     padRows, bTransposed, n);
  bufs.kRuns = matmul.getKRuns();
  // (matmulTiling refuses a transposed config on any other matmul.)
  bufs.transposedProduct =
      config && config.getTransposed() && prologue && bufs.kRuns;
  // Under k_runs each K step is whole blocks of 4 W; a repeat (per-group
  // values along K) is read once a step, so its group must hold whole
  // steps.
  if (bufs.kRuns && prologue && prologue->group &&
      prologue->group % (4 * *bufs.kRuns) != 0)
    return matmul.emitOpError()
           << "has k_runs = " << *bufs.kRuns
           << ", whose K steps of " << 4 * *bufs.kRuns
           << " its weight's groups of " << prologue->group
           << " along K do not hold whole (groups of a multiple of "
           << 4 * *bufs.kRuns << " are needed)";
  // The prologue's leaves: read by the K loop, never padded.
  llvm::SmallPtrSet<Value, 4> prologueLeaves;
  if (prologue) {
    for (Operation *op : prologue->ops)
      for (Value operand : op->getOperands())
        if (auto arg = dyn_cast<BlockArgument>(operand);
            arg && arg.getOwner() == &body) {
          prologueLeaves.insert(arg);
          Value leaf = kb.bufs.operands[arg.getArgNumber()];
          if (!llvm::is_contained(bufs.prologueArgs, leaf))
            bufs.prologueArgs.push_back(leaf);
        }
    WeightPrologue steps = *prologue;
    bufs.weightGroup = prologue->group;
    bufs.bPrologue = [steps, fused](KernelBuilder &in, OpBuilder &b, Value n0,
                                    Value kk, int64_t tn, int64_t tk,
                                    WeightStep &step, int64_t sub) {
      return buildWeightTile(in, b, steps, fused, n0, kk, tn, tk, step, sub);
    };
  }
  if (matmul.isBlockScaled())
    bufs.scales = blockScales(
        matmul, kb.bufs.operands[scaleArgs[0].getArgNumber()],
        scaleTransposed[0], kb.bufs.operands[scaleArgs[1].getArgNumber()],
        scaleTransposed[1]);
  // A matmul operand the epilogue reads too (a residual: x W^T + x where
  // N = K): the epilogue reads it as its other operands, beside the
  // matmul's (maybe padded) copy.
  Operation *rhsTranspose = matmul.getRhs().getDefiningOp();
  auto readByEpilogue = [&](BlockArgument arg) {
    return arg && llvm::any_of(arg.getUsers(), [&](Operation *user) {
             return user != matmul.getOperation() && user != rhsTranspose &&
                    !(prologue && llvm::is_contained(prologue->ops, user));
           });
  };
  bool lhsInEpilogue = readByEpilogue(lhs);
  bool rhsInEpilogue = readByEpilogue(rhs);
  // With padded columns, the epilogue's other operands with rows of N (a
  // bias, a residual) are padded too, so that its loads stay inside them.
  llvm::DenseMap<Value, Value> paddedOperands;
  SmallVector<Value> operandScratch;
  if (bufs.n != resultType.getDimSize(1))
    for (BlockArgument arg : body.getArguments()) {
      Value buffer = kb.bufs.operands[arg.getArgNumber()];
      auto type = dyn_cast_or_null<MemRefType>(buffer ? buffer.getType()
                                                      : Type());
      if ((arg == lhs && !lhsInEpilogue) || (arg == rhs && !rhsInEpilogue) ||
          arg == scaleArgs[0] ||
          arg == scaleArgs[1] || prologueLeaves.contains(arg) ||
          arg.use_empty() || !type ||
          type.getNumElements() == 1 ||
          type.getShape().back() != resultType.getDimSize(1))
        continue;
      SmallVector<int64_t> shape(type.getShape());
      shape.back() = bufs.n;
      // A read as padded for the matmul already (K = N): that copy.
      if (arg == lhs && bufs.a != buffer &&
          cast<MemRefType>(bufs.a.getType()).getShape() ==
              ArrayRef<int64_t>(shape)) {
        paddedOperands[buffer] = bufs.a;
        continue;
      }
      Value scratch = memref::AllocOp::create(
          kb.host, loc, MemRefType::get(shape, type.getElementType()));
      emitPaddingCopy(kb.host, loc,
                      kb.bufs.kernelName + "_pad_" +
                          std::to_string(arg.getArgNumber()),
                      buffer, scratch);
      paddedOperands[buffer] = scratch;
      operandScratch.push_back(scratch);
    }
  for (Value &arg : args)
    arg = arg == lhsBuffer            ? bufs.a
          : arg == rhsBuffer          ? bufs.b
          : arg == kb.bufs.result     ? bufs.c
          : paddedOperands.count(arg) ? paddedOperands[arg]
                                      : arg;
  // The epilogue's view of a matmul operand it reads (buildEpilogue finds
  // a padded one by its unpadded buffer).
  for (auto [inEpilogue, buffer] :
       {std::pair{lhsInEpilogue, lhsBuffer}, std::pair{rhsInEpilogue, rhsBuffer}}) {
    if (!inEpilogue)
      continue;
    Value seen = paddedOperands.lookup(buffer);
    if (!seen)
      seen = buffer;
    if (!llvm::is_contained(args, seen))
      args.push_back(seen);
  }
  FailureOr<MatmulTiling> tiling =
      matmulTiling(fused, m, bufs, block, config);
  if (failed(tiling))
    return failure();
  auto [tm, tn, tk, grid, splits, kChunk] = *tiling;
  int64_t k = bufs.k;
  // A repeat is read once a product (buildWeightTile: one line of
  // per-group values broadcast over the product's tile), so a product must
  // lie within one group: else its later groups would take its first
  // group's values. A step of several whole blocks (k_runs) or groups is
  // read in products of one each (productStepK); any other step must lie
  // within one group.
  if (prologue && prologue->group &&
      prologue->group % productStepK(bufs, tk) != 0)
    return matmul.emitOpError()
           << "has K steps of " << tk << " (its config's block) that its "
           << "weight's groups of " << prologue->group
           << " along K neither divide nor are a multiple of: each product "
              "must lie within one group";
  // The epilogue on a `shape` tile at (m0, n0) whose matmul value is `acc`,
  // then the store into C.
  auto buildEpilogue = [&](KernelBuilder &in, OpBuilder &b, Value acc,
                           ArrayRef<int64_t> shape, Value m0,
                           Value n0) -> LogicalResult {
    // The epilogue finds its operands by their unpadded buffers.
    for (auto [buffer, scratch] : paddedOperands)
      in.inside.map(buffer, in.arg(scratch));
    IRMapping tiles;
    tiles.map(matmul.getResult(), acc);
    // Constants before the root are needed by the epilogue too.
    for (Operation &op : body)
      if (&op == root)
        break;
      else if (isa<arith::ConstantOp>(op))
        b.clone(op, tiles);
    FailureOr<Value> result = tileGroupOps(
        in, b, fused, std::next(Block::iterator(root)), tiles, shape, {m0, n0});
    if (failed(result))
      return failure();
    StoreOp::create(b, loc, *result, in.arg(bufs.c), ValueRange{m0, n0});
    return success();
  };
  auto cleanUp = [&] {
    bufs.finish();
    for (Value scratch : operandScratch)
      memref::DeallocOp::create(kb.host, loc, scratch);
  };
  if (config && config.getStreamK()) {
    LogicalResult built = buildStreamK(
        kb, bufs, *tiling, m, args, config,
        [&](OpBuilder &b, Value sum, ArrayRef<int64_t> shape, Value m0,
            Value n0) { return buildEpilogue(kb, b, sum, shape, m0, n0); });
    cleanUp();
    return built;
  }
  if (splits > 1 && splitKInCluster(config)) {
    LogicalResult built = buildSplitKInCluster(
        kb, bufs, *tiling, args,
        [&](OpBuilder &b, Value sum, ArrayRef<int64_t> shape, Value m0,
            Value n0) { return buildEpilogue(kb, b, sum, shape, m0, n0); });
    cleanUp();
    return built;
  }
  if (splits > 1 && config.getSplitKInKernel()) {
    LogicalResult built = buildSplitKInKernel(
        kb, bufs, *tiling, m, args,
        [&](OpBuilder &b, Value sum, ArrayRef<int64_t> shape, Value m0,
            Value n0) { return buildEpilogue(kb, b, sum, shape, m0, n0); });
    cleanUp();
    return built;
  }
  // Split-K: the partial sums in a kernel of their own; the epilogue runs
  // in a second kernel, over its own tiles, on their sum.
  std::optional<SplitKPartials> partials;
  std::optional<KernelBuilder> finisher;
  KernelBuilder *epilogue = &kb;
  SmallVector<int64_t> epilogueTile = {tm, tn};
  SmallVector<int64_t> epilogueGrid = grid;
  if (splits > 1) {
    partials = buildSplitKPartials(kb, bufs, *tiling);
    finisher.emplace(kb.host, kb.op, kb.bufs, kSplitKFinishThreads);
    epilogue = &*finisher;
    epilogueTile = splitKFinishTile(m, bufs.n);
    epilogueGrid = {ceilDiv(m, epilogueTile[0]),
                    ceilDiv(bufs.n, epilogueTile[1])};
    args.push_back(partials->workspace);
  }
  OpBuilder b = epilogue->begin(args, epilogueGrid);
  Value m0 = epilogue->tileOffset(b, 0, epilogueTile[0]);
  Value n0 = epilogue->tileOffset(b, 1, epilogueTile[1]);
  Value acc =
      partials
          ? sumSplitKPartials(*epilogue, b,
                              epilogue->arg(partials->workspace), *partials,
                              splits, epilogueTile, m0, n0)
          : buildMatmulLoop(kb, b, bufs, m0, n0, tm, tn, tk, k);
  if (failed(buildEpilogue(*epilogue, b, acc, epilogueTile, m0, n0)))
    return failure();
  if (partials)
    memref::DeallocOp::create(kb.host, loc, partials->workspace);
  cleanUp();
  return success();
}

