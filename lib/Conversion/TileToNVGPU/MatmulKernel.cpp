//===- MatmulKernel.cpp - Shared parts of the tensor-core paths -*- C++ -*-===//
//
// The matcher, alignment check and epilogue evaluation that the wgmma and
// mma.sync conversions share (see MatmulKernel.h).
//
//===----------------------------------------------------------------------===//

#include "MatmulKernel.h"

#include "mlir/IR/Matchers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;

static std::optional<unsigned> bodyArgNumber(KernelOp kernel, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return std::nullopt;
  return arg.getArgNumber();
}

/// `value` is `tile.program_id dim` times `size`.
static bool isProgramOffset(Value value, int64_t dim, int64_t size) {
  auto mul = value.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return false;
  auto pid = mul.getLhs().getDefiningOp<ProgramIdOp>();
  APInt factor;
  return pid && static_cast<int64_t>(pid.getDim()) == dim &&
         matchPattern(mul.getRhs(), m_ConstantInt(&factor)) &&
         factor.getSExtValue() == size;
}

/// The rewrites replace the kernel by a full C = A * B built from the
/// operands' shapes, so they may only take a kernel that computes exactly
/// that: the K loop covers all of K from a zero accumulator, A and B are
/// read at (m0, k) and (k, n0) with m0 / n0 the program's tile offsets,
/// and the grid covers M x N. A hand-written kernel that only looks like a
/// matmul (a partial K range, an accumulator starting from C) keeps its
/// own meaning on the SIMT path.
static bool computesWholeMatmul(KernelOp kernel, scf::ForOp loop, LoadOp lhs,
                                LoadOp rhs) {
  auto aType = cast<MemRefType>(lhs.getSource().getType());
  auto bType = cast<MemRefType>(rhs.getSource().getType());
  auto aTile = cast<TileType>(lhs.getType());
  auto bTile = cast<TileType>(rhs.getType());
  if (aType.getRank() != 2 || bType.getRank() != 2 ||
      !aType.hasStaticShape() || !bType.hasStaticShape())
    return false;
  int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
          n = bType.getDimSize(1);
  APInt lb, ub, step;
  if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lb)) ||
      !matchPattern(loop.getUpperBound(), m_ConstantInt(&ub)) ||
      !matchPattern(loop.getStep(), m_ConstantInt(&step)) || !lb.isZero() ||
      ub.getSExtValue() < k || step.getSExtValue() != aTile.getDimSize(1))
    return false;
  auto init = loop.getInitArgs()[0].getDefiningOp<SplatOp>();
  Attribute zero;
  if (!init || !matchPattern(init.getValue(), m_Constant(&zero)))
    return false;
  auto zeroFloat = dyn_cast<FloatAttr>(zero);
  if (!zeroFloat || !zeroFloat.getValue().isZero())
    return false;
  Value iv = loop.getInductionVar();
  if (lhs.getIndices()[1] != iv || rhs.getIndices()[0] != iv)
    return false;
  int64_t tm = aTile.getDimSize(0), tn = bTile.getDimSize(1);
  if (!isProgramOffset(lhs.getIndices()[0], 0, tm) ||
      !isProgramOffset(rhs.getIndices()[1], 1, tn))
    return false;
  ArrayRef<int64_t> grid = kernel.getGrid();
  return grid.size() == 2 && grid[0] * tm >= m && grid[1] * tn >= n &&
         bType.getDimSize(0) == k;
}

std::optional<MatmulKernel> tile::matchMatmulKernel(KernelOp kernel) {
  SmallVector<DotOp> dots;
  kernel.walk([&](DotOp dot) { dots.push_back(dot); });
  if (dots.size() != 1)
    return std::nullopt;
  DotOp dot = dots.front();
  auto lhs = dot.getLhs().getDefiningOp<LoadOp>();
  auto rhs = dot.getRhs().getDefiningOp<LoadOp>();
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  if (!lhs || !rhs || !loop || loop->getParentOp() != kernel ||
      loop.getNumRegionIterArgs() != 1 ||
      dot.getAcc() != loop.getRegionIterArgs()[0] ||
      loop.getBody()->getTerminator()->getOperand(0) != dot.getResult())
    return std::nullopt;
  std::optional<unsigned> a = bodyArgNumber(kernel, lhs.getSource());
  std::optional<unsigned> b = bodyArgNumber(kernel, rhs.getSource());
  Type element = cast<TileType>(lhs.getType()).getElementType();
  if (!a || !b || !(element.isBF16() || element.isF16()))
    return std::nullopt;
  if (!computesWholeMatmul(kernel, loop, lhs, rhs))
    return std::nullopt;
  MatmulKernel match{kernel, *a, *b, 0, lhs.getIndices()[0],
                     rhs.getIndices()[1], loop.getResult(0), {}};
  StoreOp store;
  for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
    if (isa<ReturnOp>(op))
      break;
    if (store)
      return std::nullopt; // nothing may follow the store
    if (auto load = dyn_cast<LoadOp>(op)) {
      // Epilogue operands: a full tile at (m0, n0), or a row / column
      // vector at m0 / n0 (a broadcast bias).
      if (!bodyArgNumber(kernel, load.getSource()))
        return std::nullopt;
      auto indices = load.getIndices();
      bool full = indices.size() == 2 && indices[0] == match.m0 &&
                  indices[1] == match.n0;
      bool vector = indices.size() == 1 &&
                    (indices[0] == match.m0 || indices[0] == match.n0);
      if (!full && !vector)
        return std::nullopt;
    } else if (auto s = dyn_cast<StoreOp>(op)) {
      std::optional<unsigned> c = bodyArgNumber(kernel, s.getDest());
      if (!c || s.getIndices().size() != 2 || s.getIndices()[0] != match.m0 ||
          s.getIndices()[1] != match.n0)
        return std::nullopt;
      match.outArg = *c;
      store = s;
    } else if (!isa<BroadcastOp, MapOp, CastOp, arith::ConstantOp>(op)) {
      return std::nullopt;
    }
    match.epilogue.push_back(op);
  }
  if (!store)
    return std::nullopt;
  auto outType =
      cast<MemRefType>(kernel.getBody().getArgument(match.outArg).getType());
  if (!outType.hasStaticShape() || outType.getRank() != 2)
    return std::nullopt;
  match.outRows = outType.getDimSize(0);
  match.outCols = outType.getDimSize(1);
  for (Operation *op : match.epilogue) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load)
      continue;
    auto type = cast<MemRefType>(load.getSource().getType());
    if (!type.hasStaticShape())
      return std::nullopt;
    bool covers =
        type.getRank() == 2
            ? type.getDimSize(0) >= match.outRows &&
                  type.getDimSize(1) >= match.outCols &&
                  type.getDimSize(1) % 4 == 0
            : type.getDimSize(0) >= (load.getIndices()[0] == match.n0
                                         ? match.outCols
                                         : match.outRows);
    if (!covers)
      return std::nullopt;
  }
  return match;
}

std::string tile::rowAlignmentProblem(MemRefType type) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return "it is not a static row-major memref";
  int64_t rowBytes = type.getDimSize(1) * type.getElementTypeBitWidth() / 8;
  if (rowBytes % 16 != 0)
    return "its rows are " + std::to_string(rowBytes) +
           " bytes, not a multiple of 16";
  return "";
}

Value tile::buildEpilogueLoad(OpBuilder &b, Location loc,
                              const MatmulKernel &match, LoadOp load,
                              const IRMapping &oldToNew, int64_t width,
                              Value globalRow, Value globalCol, bool clamp) {
  Value source = oldToNew.lookup(load.getSource());
  Type element = cast<TileType>(load.getType()).getElementType();
  auto aligned = llvm::MaybeAlign(width * element.getIntOrFloatBitWidth() / 8);
  // Clamped, a row stays at most the output's last, a column at most its
  // last `width` (the output's columns are whole 16-byte rows, so that is
  // W-aligned). The matcher made every operand cover the output.
  auto inside = [&](Value index, bool isRow) -> Value {
    if (!clamp)
      return index;
    Value last = arith::ConstantIndexOp::create(
        b, loc, isRow ? match.outRows - 1 : match.outCols - width);
    return arith::MinUIOp::create(b, loc, index, last);
  };
  auto vectorType = VectorType::get({width}, element);
  if (load.getIndices().size() == 2)
    return vector::LoadOp::create(
        b, loc, vectorType, source,
        ValueRange{inside(globalRow, true), inside(globalCol, false)},
        false, aligned);
  if (load.getIndices()[0] == match.n0)
    return vector::LoadOp::create(b, loc, vectorType, source,
                                  ValueRange{inside(globalCol, false)}, false,
                                  aligned);
  return memref::LoadOp::create(b, loc, source,
                                ValueRange{inside(globalRow, true)});
}

void tile::buildMatmulEpilogue(OpBuilder &b, Location loc,
                               const MatmulKernel &match,
                               const IRMapping &oldToNew, Value accValues,
                               Value globalRow, Value globalCol,
                               const IRMapping *loaded) {
  int64_t width = cast<VectorType>(accValues.getType()).getNumElements();
  auto aligned = [&](Type element) {
    return llvm::MaybeAlign(width * element.getIntOrFloatBitWidth() / 8);
  };
  IRMapping values;
  values.map(match.accumulator, accValues);
  auto asVector = [&](Value v) -> Value {
    if (isa<VectorType>(v.getType()))
      return v;
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({width}, v.getType()), v);
  };
  for (Operation *op : match.epilogue) {
    if (isa<arith::ConstantOp>(op)) {
      b.clone(*op, values);
    } else if (auto load = dyn_cast<LoadOp>(op)) {
      Value early = loaded ? loaded->lookupOrNull(load.getResult()) : Value();
      values.map(load.getResult(),
                 early ? early
                       : buildEpilogueLoad(b, loc, match, load, oldToNew,
                                           width, globalRow, globalCol,
                                           /*clamp=*/false));
    } else if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      values.map(bcast.getResult(), asVector(values.lookup(bcast.getInput())));
    } else if (auto map = dyn_cast<MapOp>(op)) {
      SmallVector<Value> inputs;
      for (Value input : map.getInputs())
        inputs.push_back(asVector(values.lookup(input)));
      values.map(map.getResult(), vectorizeScalarRegion(b, map.getBody(),
                                                        inputs, width,
                                                        &values));
    } else if (auto castOp = dyn_cast<CastOp>(op)) {
      Type to = cast<TileType>(castOp.getType()).getElementType();
      values.map(castOp.getResult(),
                 buildElementCast(b, loc, values.lookup(castOp.getInput()), to));
    } else if (auto store = dyn_cast<StoreOp>(op)) {
      Value out = oldToNew.lookup(store.getDest());
      Type element = cast<MemRefType>(out.getType()).getElementType();
      Value result = buildElementCast(
          b, loc, asVector(values.lookup(store.getValue())), element);
      vector::StoreOp::create(b, loc, result, out,
                              ValueRange{globalRow, globalCol}, false,
                              aligned(element));
    }
  }
}

SmallVector<MatmulKernel> tile::findMatmulKernels(Operation *root) {
  SmallVector<MatmulKernel> kernels;
  root->walk([&](KernelOp kernel) {
    if (std::optional<MatmulKernel> match = matchMatmulKernel(kernel))
      kernels.push_back(*match);
  });
  return kernels;
}

bool tile::rowsAllowAsyncCopies(const MatmulKernel &match,
                                StringRef mechanism) {
  KernelOp kernel = match.kernel;
  std::pair<StringRef, unsigned> operands[] = {
      {"A", match.lhsArg}, {"B", match.rhsArg}, {"the output", match.outArg}};
  for (auto [name, number] : operands) {
    auto type = cast<MemRefType>(kernel.getArgs()[number].getType());
    std::string problem = rowAlignmentProblem(type);
    if (!problem.empty()) {
      emitRemark(kernel.getLoc())
          << "matmul stays on the SIMT path: " << name << " (" << type
          << ") cannot use " << mechanism << ": " << problem;
      return false;
    }
  }
  return true;
}

std::pair<Value, Value> tile::groupedTileOrder(OpBuilder &b, Location loc,
                                               Value tile, int64_t numM,
                                               int64_t numN,
                                               int64_t groupRows) {
  auto idx = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value perGroup = idx(groupRows * numN);
  Value firstRow = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, tile, perGroup), idx(groupRows));
  Value rowsHere = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, idx(numM), firstRow),
      idx(groupRows));
  Value local = arith::RemUIOp::create(b, loc, tile, perGroup);
  Value blockRow = arith::AddIOp::create(
      b, loc, firstRow, arith::RemUIOp::create(b, loc, local, rowsHere));
  Value blockCol = arith::DivUIOp::create(b, loc, local, rowsHere);
  return {blockRow, blockCol};
}

KernelOp tile::createReplacementKernel(OpBuilder &host,
                                       const MatmulKernel &match,
                                       ValueRange extra, int64_t programs,
                                       int64_t threads, IRMapping &oldToNew) {
  KernelOp kernel = match.kernel;
  SmallVector<unsigned> oldArgs = {match.lhsArg, match.rhsArg, match.outArg};
  SmallVector<Value> operands;
  for (unsigned number : oldArgs)
    operands.push_back(kernel.getArgs()[number]);
  llvm::append_range(operands, extra);
  for (Operation *op : match.epilogue)
    if (auto load = dyn_cast<LoadOp>(op)) {
      unsigned number = cast<BlockArgument>(load.getSource()).getArgNumber();
      if (!llvm::is_contained(oldArgs, number)) {
        oldArgs.push_back(number);
        operands.push_back(kernel.getArgs()[number]);
      }
    }
  auto replacement = KernelOp::create(host, kernel.getLoc(),
                                      kernel.getSymName(), operands,
                                      {programs}, threads);
  Block &newBody = replacement.getBody().front();
  Block &oldBody = kernel.getBody().front();
  // The new arguments skip `extra` after the first three.
  for (auto [i, number] : llvm::enumerate(oldArgs))
    oldToNew.map(oldBody.getArgument(number),
                 newBody.getArgument(i < 3 ? i : i + extra.size()));
  return replacement;
}
