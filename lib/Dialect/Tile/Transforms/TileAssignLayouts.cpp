//===- TileAssignLayouts.cpp - A layout on every register tile --*- C++ -*-===//
//
// tile-assign-layouts: in a kernel whose config maps its dots to tensor
// cores, every register tile gets a layout, written into its type:
//   1. anchors: each tile.dot's accumulator and result take the config's
//      #tile.mma layout (instr N narrowed to a narrower dot); a weight an
//      mma.sync dot's B is the transpose of, computed in registers, takes
//      the #tile.blocked runs that are B's fragments (k_width) transposed;
//   2. propagation, to a fixed point: an elementwise op's operands and
//      result share a layout, loop-carried values share their init's and
//      yield's, a reduction of an MMA tile gives its #tile.slice, a
//      broadcast of a slice gives its parent (and back); a value gets a
//      layout only while it has none, so the first tie from an anchor wins;
//   3. what no anchor reaches gets #tile.blocked;
//   4. wherever an op's operand then has another layout than the op needs,
//      a tile.convert_layout goes before the op.
// Other dot operands are not tied to the dot: tile-promote puts them in
// shared memory. So an epilogue, or a row max over an accumulator, computes on
// the accumulator's registers.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileLayouts.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tile-assign-layouts"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTSPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

bool isRegisterTile(Value value) {
  return isa<TileType>(value.getType()) && !isSharedTile(value.getType());
}

Attribute layoutOf(Value value) {
  return cast<TileType>(value.getType()).getLayout();
}

/// The blocked layout for a tile nothing ties to a dot: 16-byte runs where
/// the tile splits into them evenly, else single elements.
Attribute blockedFor(TileType type, int64_t threads) {
  int64_t run = std::max<int64_t>(
      1, 16 / std::max<int64_t>(1, type.getElementTypeBitWidth() / 8));
  if (type.getNumElements() % (threads * run) != 0)
    run = 1;
  return BlockedLayoutAttr::get(type.getContext(), threads, run);
}

/// Whether `value` is a loaded tile, or an elementwise map of loaded
/// tiles (a scale line decoded before its broadcast:
/// tile-hoist-broadcast-math).
bool isLoadedLine(Value value) {
  if (value.getDefiningOp<LoadOp>())
    return true;
  auto map = value.getDefiningOp<MapOp>();
  return map && llvm::all_of(map.getInputs(), isLoadedLine);
}

/// The layout of a broadcast's input where the broadcast is into `out`, a
/// #tile.blocked layout whose map is linear (powers of two), along one
/// dimension, of a rank-1 tile a load gives, or a map of such (a
/// dequantized weight's per-row scale, broadcast along K into the weight's
/// runs): the slice of `out`, so that each thread loads the rows its runs
/// are in and keeps them in registers (also when tile-pipeline loads them
/// a step ahead). Null otherwise: the input goes through shared memory.
Attribute blockedSliceFor(BroadcastOp bcast, Attribute out) {
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(out);
  auto outType = cast<TileType>(bcast.getType());
  auto inType = cast<TileType>(bcast.getInput().getType());
  if (!blocked || bcast.getDims().size() != 1 || inType.getRank() != 1 ||
      outType.getRank() != 2 || !isLoadedLine(bcast.getInput()) ||
      failed(getLinearLayout(blocked, outType.getShape())))
    return Attribute();
  unsigned dim = bcast.getDims()[0];
  return SliceLayoutAttr::get(bcast.getContext(), dim, blocked,
                              outType.getDimSize(dim));
}

class LayoutAssigner {
public:
  LayoutAssigner(KernelOp kernel, ConfigAttr config)
      : kernel(kernel), config(config) {}

  LogicalResult run();

private:
  /// Records `layout` for `value` if it has none yet; true if it did.
  bool set(Value value, Attribute layout) {
    if (!layout || !isRegisterTile(value) || layouts.count(value))
      return false;
    layouts[value] = layout;
    return true;
  }
  Attribute get(Value value) const { return layouts.lookup(value); }
  bool propagate(Operation *op);
  LogicalResult materialize();
  LogicalResult insertConversions();

  KernelOp kernel;
  ConfigAttr config;
  llvm::DenseMap<Value, Attribute> layouts;
};

/// The accumulator layout of `dot` under `config`.
MmaLayoutAttr mmaLayoutFor(DotOp dot, ConfigAttr config) {
  auto acc = cast<TileType>(dot.getAcc().getType());
  ArrayRef<int64_t> instr = config.getInstr();
  int64_t n = instr[1];
  if (config.getMma() == MmaKind::wgmma && acc.getDimSize(1) % n != 0)
    n = std::min<int64_t>(n, int64_t(1) << llvm::Log2_64(acc.getDimSize(1)));
  return MmaLayoutAttr::get(dot.getContext(), config.getMma(),
                            config.getWarps(),
                            ArrayRef<int64_t>{instr[0], n, instr[2]});
}

/// `layout` for a tile of `type`: a wgmma layout whose instr N is wider
/// than the tile (a row statistic of a 128-column score tile broadcast
/// over 64 output columns) narrowed to the tile, which keeps its rows'
/// distribution; any other layout as it is.
Attribute fitToTile(Attribute layout, TileType type) {
  auto mma = dyn_cast<MmaLayoutAttr>(layout);
  if (!mma || mma.getKind() != MmaKind::wgmma || type.getRank() != 2)
    return layout;
  int64_t fit = type.getDimSize(1) / mma.getWarps()[1];
  int64_t n = mma.getFragmentColumns();
  if (fit >= n || fit < 8)
    return layout;
  ArrayRef<int64_t> instr = mma.getInstr();
  return MmaLayoutAttr::get(
      mma.getContext(), mma.getKind(), mma.getWarps(),
      ArrayRef<int64_t>{instr[0], int64_t(1) << llvm::Log2_64(fit), instr[2]});
}

bool LayoutAssigner::propagate(Operation *op) {
  bool changed = false;
  auto tie = [&](ValueRange values) {
    Attribute known;
    for (Value v : values)
      if (Attribute l = get(v)) {
        known = l;
        break;
      }
    if (known)
      for (Value v : values)
        changed |= set(v, known);
  };
  if (isa<MapOp, CastOp, MaskOp, ClusterSumOp>(op)) {
    SmallVector<Value> values(op->getResults());
    for (Value operand : op->getOperands())
      if (isRegisterTile(operand))
        values.push_back(operand);
    tie(values);
  } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
    Attribute in = get(reduce.getInput());
    if (in && isLinearLayout(in))
      changed |= set(reduce.getResult(),
                     getReducedLayout(in, reduce.getDim()));
    if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(get(reduce.getResult())))
      if (slice.getDim() == reduce.getDim())
        changed |= set(reduce.getInput(), slice.getParent());
  } else if (auto bcast = dyn_cast<BroadcastOp>(op)) {
    if (bcast.getDims().size() == 1) {
      unsigned dim = bcast.getDims()[0];
      Attribute out = get(bcast.getResult());
      if (out && isLinearLayout(out))
        changed |= set(bcast.getInput(),
                       SliceLayoutAttr::get(op->getContext(), dim, out));
      else if (Attribute slice = blockedSliceFor(bcast, out))
        changed |= set(bcast.getInput(), slice);
      if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(get(bcast.getInput())))
        if (slice.getDim() == dim)
          changed |= set(bcast.getResult(),
                         fitToTile(slice.getParent(),
                                   cast<TileType>(bcast.getType())));
    }
  } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [init, arg, yielded, result] :
         llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(),
                   yield.getOperands(), loop.getResults()))
      if (isRegisterTile(result))
        tie({result, arg, yielded, init});
  } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
    for (auto [i, result] : llvm::enumerate(branch.getResults())) {
      if (!isRegisterTile(result))
        continue;
      SmallVector<Value> values = {result};
      for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
        if (!region->empty())
          values.push_back(region->front().getTerminator()->getOperand(i));
      tie(values);
    }
  } else if (auto dot = dyn_cast<DotOp>(op)) {
    tie({dot.getAcc(), dot.getResult()});
  }
  return changed;
}

LogicalResult LayoutAssigner::materialize() {
  int64_t threads = config.getThreads();
  bool ok = true;
  auto retype = [&](Value value, Operation *at) {
    auto type = dyn_cast<TileType>(value.getType());
    if (!type || isSharedTile(type) || !ok)
      return;
    Attribute layout = get(value);
    if (!layout)
      layout = blockedFor(type, threads);
    auto emit = [&]() -> InFlightDiagnostic {
      return at->emitOpError() << "cannot lay out its tile: ";
    };
    auto typed = TileType::getChecked(
        function_ref<InFlightDiagnostic()>(emit), type.getContext(), type.getShape(), type.getElementType(), layout,
        Attribute());
    if (!typed) {
      ok = false;
      return;
    }
    value.setType(typed);
  };
  kernel.walk([&](Operation *op) {
    for (Value result : op->getResults())
      retype(result, op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          retype(arg, op);
  });
  return success(ok);
}

LogicalResult LayoutAssigner::insertConversions() {
  auto convert = [&](OpOperand &operand, Attribute layout) {
    auto type = cast<TileType>(operand.get().getType());
    if (type.getLayout() == layout)
      return;
    OpBuilder b(operand.getOwner());
    auto to = TileType::get(type.getContext(), type.getShape(),
                            type.getElementType(), layout, Attribute());
    operand.set(ConvertLayoutOp::create(b, operand.getOwner()->getLoc(), to,
                                        operand.get()));
  };
  WalkResult walk = kernel.walk([&](Operation *op) {
    if (isa<MapOp, CastOp, MaskOp, ClusterSumOp>(op)) {
      Attribute layout = layoutOf(op->getResult(0));
      for (OpOperand &operand : op->getOpOperands())
        if (isRegisterTile(operand.get()))
          convert(operand, layout);
    } else if (auto dot = dyn_cast<DotOp>(op)) {
      convert(dot.getAccMutable(), layoutOf(dot.getResult()));
    } else if (auto reduce = dyn_cast<ReduceOp>(op)) {
      Attribute expected =
          getReducedLayout(layoutOf(reduce.getInput()), reduce.getDim());
      if (layoutOf(reduce.getResult()) != expected) {
        // The result was tied elsewhere first: reduce in the input's
        // layout, then convert.
        OpBuilder b(op->getContext());
        b.setInsertionPointAfter(op);
        auto type = cast<TileType>(reduce.getType());
        Value result = reduce.getResult();
        Type wanted = type;
        result.setType(TileType::get(type.getContext(), type.getShape(),
                                     type.getElementType(), expected,
                                     Attribute()));
        auto back = ConvertLayoutOp::create(b, op->getLoc(), wanted, result);
        result.replaceAllUsesExcept(back, back);
      }
    } else if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      Attribute out = layoutOf(bcast.getResult());
      if (bcast.getDims().empty())
        convert(bcast.getInputMutable(), out);
      else if (isLinearLayout(out) && bcast.getDims().size() == 1)
        convert(bcast.getInputMutable(),
                SliceLayoutAttr::get(op->getContext(), bcast.getDims()[0],
                                     out));
      else if (Attribute slice = blockedSliceFor(bcast, out))
        convert(bcast.getInputMutable(), slice);
      else if (!isLinearLayout(out))
        convert(bcast.getInputMutable(),
                blockedFor(cast<TileType>(bcast.getInput().getType()),
                           config.getThreads()));
      else {
        op->emitOpError() << "cannot broadcast into " << out
                          << " along more than one dimension";
        return WalkResult::interrupt();
      }
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
        if (!isRegisterTile(arg))
          continue;
        convert(loop.getInitArgsMutable()[i], layoutOf(arg));
        convert(yield->getOpOperand(i), layoutOf(arg));
      }
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      for (auto [i, result] : llvm::enumerate(branch.getResults())) {
        if (!isRegisterTile(result))
          continue;
        for (Region *region :
             {&branch.getThenRegion(), &branch.getElseRegion()})
          if (!region->empty())
            convert(region->front().getTerminator()->getOpOperand(i),
                    layoutOf(result));
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult LayoutAssigner::run() {
  kernel.walk([&](DotOp dot) {
    MmaLayoutAttr mma = mmaLayoutFor(dot, config);
    set(dot.getAcc(), mma);
    set(dot.getResult(), mma);
  });
  // A weight computed in registers as an mma.sync B (the transpose of an
  // elementwise chain, [N, K]): runs of K / 4, where that blocked layout
  // is, transposed, B's fragments of k_width K / 4 (four threads along K,
  // a warp's eight rows its eight columns), so that tile-promote can keep
  // the transpose in registers. The chain's operands follow it.
  if (config.getMma() == MmaKind::mma_sync)
    kernel.walk([&](DotOp dot) {
      auto transpose = dot.getRhs().getDefiningOp<TransposeOp>();
      if (!transpose || !isRegisterTile(transpose.getInput()) ||
          !isa_and_nonnull<MapOp, CastOp>(
              transpose.getInput().getDefiningOp()))
        return;
      auto weight = cast<TileType>(transpose.getInput().getType());
      int64_t run = dot.getKRuns() ? *dot.getKRuns() : weight.getDimSize(1) / 4;
      if (weight.getElementTypeBitWidth() != 16 || run < 4 || run > 64 ||
          !llvm::isPowerOf2_64(run))
        return;
      Attribute blocked = BlockedLayoutAttr::get(
          kernel.getContext(), config.getThreads(), run);
      auto operand = DotOperandLayoutAttr::get(
          kernel.getContext(), 1, mmaLayoutFor(dot, config), run);
      if (getTransposeSlotPermutation(blocked, operand, weight.getShape()))
        set(transpose.getInput(), blocked);
    });
  // An A in fragment-run order (lhs_k_runs: the transposed product's
  // weight) is wgmma's register A of k_width W: each thread's W stored
  // columns of rows g and g + 8 are its fragments. The chain computing it
  // (maps, its loads) follows.
  if (config.getMma() == MmaKind::wgmma)
    kernel.walk([&](DotOp dot) {
      std::optional<int64_t> runs = dot.getLhsKRuns();
      if (!runs || !isRegisterTile(dot.getLhs()))
        return;
      set(dot.getLhs(),
          DotOperandLayoutAttr::get(kernel.getContext(), 0,
                                    mmaLayoutFor(dot, config), *runs));
    });
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) { ops.push_back(op); });
  auto propagateAll = [&]() {
    for (bool changed = true; changed;) {
      changed = false;
      for (Operation *op : ops)
        changed |= propagate(op);
    }
  };
  propagateAll();
  // A tile.unpack splits each thread's own bytes where its result's runs
  // are twice its input's: the input takes half the runs its result was
  // given (above), else both get blocked layouts of 16-byte input runs
  // first, and the dequantizing map after it takes its result's.
  kernel.walk([&](UnpackOp unpack) {
    auto in = cast<TileType>(unpack.getInput().getType());
    if (isSharedTile(in))
      return;
    int64_t threads = config.getThreads();
    // Runs of wgmma's register A (lhs_k_runs): the bytes in runs half as
    // wide, each thread unpacking its own.
    if (auto out =
            dyn_cast_or_null<DotOperandLayoutAttr>(get(unpack.getResult()));
        out && out.getParent().getKind() == MmaKind::wgmma &&
        out.getKWidth() >= 4) {
      set(unpack.getInput(),
          DotOperandLayoutAttr::get(kernel.getContext(), out.getIndex(),
                                    out.getParent(), out.getKWidth() / 2));
      return;
    }
    if (auto out = dyn_cast_or_null<BlockedLayoutAttr>(get(unpack.getResult())))
      if (out.getRun() % 2 == 0 &&
          in.getNumElements() % (threads * out.getRun() / 2) == 0) {
        set(unpack.getInput(), BlockedLayoutAttr::get(
                                   kernel.getContext(), threads,
                                   out.getRun() / 2));
        return;
      }
    auto blocked = cast<BlockedLayoutAttr>(blockedFor(in, threads));
    if (blocked.getRun() == 1)
      return;
    set(unpack.getInput(), blocked);
    set(unpack.getResult(),
        BlockedLayoutAttr::get(kernel.getContext(), blocked.getThreads(),
                               2 * blocked.getRun()));
  });
  propagateAll();
  // Elementwise ops of i8 values that no anchor reached (a weight
  // dequantized before it is stored for the dot): one blocked layout for
  // the op and its operands, with runs of 16 bytes of its narrowest
  // element type, so that the bytes, their f32 scales and the bf16 result
  // need no exchange; then the ties spread it.
  for (Operation *op : ops) {
    if (!isa<MapOp, CastOp>(op))
      continue;
    SmallVector<Value> values(op->getResults());
    for (Value operand : op->getOperands())
      if (isRegisterTile(operand))
        values.push_back(operand);
    if (llvm::any_of(values, [&](Value v) { return get(v); }) ||
        llvm::none_of(op->getOperands(), [](Value v) {
          auto type = dyn_cast<TileType>(v.getType());
          return type && type.getElementType().isInteger(8);
        }))
      continue;
    auto type = cast<TileType>(op->getResult(0).getType());
    int64_t narrowest = type.getElementTypeBitWidth();
    for (Value v : values)
      narrowest = std::min<int64_t>(
          narrowest, cast<TileType>(v.getType()).getElementTypeBitWidth());
    int64_t run = std::max<int64_t>(1, 128 / std::max<int64_t>(narrowest, 8));
    int64_t threads = config.getThreads();
    if (type.getNumElements() % (threads * run) != 0)
      continue;
    Attribute blocked = BlockedLayoutAttr::get(kernel.getContext(), threads, run);
    for (Value v : values)
      set(v, blocked);
    propagateAll();
  }
  if (failed(materialize()))
    return failure();
  return insertConversions();
}

struct TileAssignLayoutsPass
    : public tile::impl::TileAssignLayoutsPassBase<TileAssignLayoutsPass> {
  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](KernelOp kernel) {
      auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      if (!config || config.getMma() == MmaKind::simt)
        return WalkResult::advance();
      LayoutAssigner assigner(kernel, config);
      if (failed(assigner.run()))
        return WalkResult::interrupt();
      // The types must verify: a tile the layout cannot hold is an error
      // at its op.
      if (failed(mlir::verify(kernel)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
