//===- TileLevel.cpp - Compiling tile-level input ---------------*- C++ -*-===//
//
// See TileLevel.h.
//
//===----------------------------------------------------------------------===//

#include "TileLevel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tile;

static bool holdsKernels(func::FuncOp func) {
  return !func.getBody().empty() && !func.getOps<KernelOp>().empty();
}

FailureOr<func::FuncOp> mlir::tile::selectTileFunction(ModuleOp source,
                                                       StringRef functionName,
                                                       StringRef sourceName) {
  func::FuncOp func;
  for (auto candidate : source.getOps<func::FuncOp>()) {
    if (!functionName.empty() ? candidate.getName() != functionName
                              : !holdsKernels(candidate))
      continue;
    if (func)
      return emitError(candidate.getLoc())
             << "more than one function holds tile.kernel ops; choose one "
                "with --function";
    func = candidate;
  }
  if (!func) {
    InFlightDiagnostic diag = emitError(UnknownLoc::get(source->getContext()));
    if (functionName.empty())
      diag << "no tile-level function (one holding tile.kernel ops) to compile";
    else
      diag << "no function named '" << functionName << "'";
    return diag << " in " << sourceName;
  }
  if (!holdsKernels(func))
    return emitError(func.getLoc())
           << "function '" << func.getName()
           << "' holds no tile.kernel op to compile at the tile level";
  return func;
}

LogicalResult mlir::tile::verifyTileHostFunction(func::FuncOp func) {
  if (func.getNumResults() != 0)
    return emitError(func.getLoc())
           << "a tile-level function returns nothing (its kernels write "
              "their outputs into memref arguments) but '"
           << func.getName() << "' has " << func.getNumResults() << " results";
  for (BlockArgument arg : func.getArguments()) {
    auto type = dyn_cast<MemRefType>(arg.getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
        type.getRank() == 0)
      return emitError(arg.getLoc())
             << "expected a static, row-major memref of rank >= 1 as argument #"
             << arg.getArgNumber() << " of a tile-level function but got "
             << arg.getType();
  }
  for (Operation &op : func.getBody().front()) {
    if (isa<KernelOp, memref::AllocOp, memref::DeallocOp, arith::ConstantOp,
            func::ReturnOp>(op))
      continue;
    return op.emitOpError()
           << "cannot be in a tile-level host function, which holds only "
              "tile.kernel, memref.alloc / dealloc and constants";
  }
  return success();
}

SmallVector<bool> mlir::tile::writtenArguments(func::FuncOp func) {
  SmallVector<bool> written(func.getNumArguments(), false);
  func.walk([&](KernelOp kernel) {
    Block &body = kernel.getBody().front();
    kernel.walk([&](StoreOp store) {
      auto arg = dyn_cast<BlockArgument>(store.getDest());
      if (!arg || arg.getOwner() != &body)
        return;
      auto outer = dyn_cast<BlockArgument>(kernel.getArgs()[arg.getArgNumber()]);
      if (outer && outer.getOwner() == &func.getBody().front())
        written[outer.getArgNumber()] = true;
    });
  });
  return written;
}

/// (d, c) when `value` is `tile.program_id d` times the constant c > 0.
static std::optional<std::pair<int64_t, int64_t>> scaledProgramId(Value value) {
  auto mul = value.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return std::nullopt;
  for (auto [x, y] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())}) {
    auto pid = x.getDefiningOp<ProgramIdOp>();
    std::optional<int64_t> c = getConstantIntValue(y);
    if (pid && c && *c > 0)
      return std::pair<int64_t, int64_t>(pid.getDim(), *c);
  }
  return std::nullopt;
}

static bool zeroOrNoPadding(LoadOp load) {
  Attribute padding = load.getPaddingAttr();
  if (!padding)
    return true;
  auto f = dyn_cast<FloatAttr>(padding);
  return f && f.getValue().isZero();
}

static std::optional<unsigned> bodyArgNumber(KernelOp kernel, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner() != &kernel.getBody().front())
    return std::nullopt;
  return arg.getArgNumber();
}

static bool isIndexArith(Operation *op) {
  return isa<arith::MulIOp, arith::AddIOp>(op) &&
         op->getResult(0).getType().isIndex();
}

std::string mlir::tile::tensorCoreHazard(KernelOp kernel) {
  SmallVector<DotOp> dots;
  kernel.walk([&](DotOp dot) { dots.push_back(dot); });
  if (dots.size() != 1)
    return ""; // the rewrites match kernels of exactly one tile.dot
  DotOp dot = dots.front();
  auto loop = dyn_cast<scf::ForOp>(dot->getParentOp());
  if (!loop || loop->getParentOp() != kernel)
    return "its tile.dot is not in a loop directly in the kernel";

  // The K loop: for k = 0 to >= K step BK, one accumulator starting at 0,
  // loading A[m0, k] and B[k, n0] and accumulating their product.
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *lb != 0)
    return "its K loop does not run from 0 with constant bounds and step";
  if (loop.getNumRegionIterArgs() != 1 ||
      dot.getAcc() != loop.getRegionIterArgs()[0] ||
      loop.getBody()->getTerminator()->getOperand(0) != dot.getResult())
    return "its K loop does not carry exactly the tile.dot's accumulator";
  auto splat = loop.getInitArgs()[0].getDefiningOp<SplatOp>();
  if (!splat || !matchPattern(splat.getValue(), m_AnyZeroFloat()))
    return "its accumulator does not start at zero";
  auto lhs = dot.getLhs().getDefiningOp<LoadOp>();
  auto rhs = dot.getRhs().getDefiningOp<LoadOp>();
  if (!lhs || !rhs || lhs->getParentOp() != loop || rhs->getParentOp() != loop)
    return "its tile.dot operands are not loaded in the K loop";
  for (Operation &op : loop.getBody()->without_terminator())
    if (&op != lhs && &op != rhs && &op != dot && !isa<arith::ConstantOp>(op))
      return "its K loop does more than load two tiles and accumulate";
  std::optional<unsigned> aArg = bodyArgNumber(kernel, lhs.getSource());
  std::optional<unsigned> bArg = bodyArgNumber(kernel, rhs.getSource());
  if (!aArg || !bArg || !zeroOrNoPadding(lhs) || !zeroOrNoPadding(rhs))
    return "its tile.dot operands are not zero-padded loads of arguments";
  Value iv = loop.getInductionVar();
  if (lhs.getIndices().size() != 2 || rhs.getIndices().size() != 2 ||
      lhs.getIndices()[1] != iv || rhs.getIndices()[0] != iv)
    return "its loads are not A[m0, k] and B[k, n0]";
  Value m0 = lhs.getIndices()[0], n0 = rhs.getIndices()[1];
  MemRefType aType = lhs.getSource().getType();
  MemRefType bType = rhs.getSource().getType();
  int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
          n = bType.getDimSize(1);
  auto aTile = cast<TileType>(lhs.getType());
  auto bTile = cast<TileType>(rhs.getType());
  int64_t bm = aTile.getDimSize(0), bk = aTile.getDimSize(1),
          bn = bTile.getDimSize(1);
  if (bType.getDimSize(0) != k || bTile.getDimSize(0) != bk || *step != bk)
    return "its K loop's step and tiles do not agree with A and B";
  if (*ub < k || *ub - bk >= k)
    return "its K loop does not cover K exactly once";
  auto mScale = scaledProgramId(m0), nScale = scaledProgramId(n0);
  if (!mScale || !nScale || mScale->first == nScale->first ||
      mScale->second != bm || nScale->second != bn)
    return "its tile offsets are not program_id * tile size along two grid "
           "dimensions";
  ArrayRef<int64_t> grid = kernel.getGrid();
  for (auto [d, size] : llvm::enumerate(grid)) {
    int64_t expected = (int64_t)d == mScale->first    ? llvm::divideCeil(m, bm)
                       : (int64_t)d == nScale->first ? llvm::divideCeil(n, bn)
                                                      : 1;
    if (size != expected)
      return "its grid does not cover the output once";
  }

  // Before the loop: program ids, index arithmetic, constants, the splat.
  Block &body = kernel.getBody().front();
  for (Operation &op : body) {
    if (&op == loop.getOperation())
      break;
    if (!isa<ProgramIdOp, arith::ConstantOp>(op) && !isIndexArith(&op) &&
        &op != splat.getOperation())
      return "it computes something before its K loop";
  }
  for (Operation *user : splat->getUsers())
    if (user != loop.getOperation())
      return "its initial accumulator is used outside the K loop";

  // After the loop: an elementwise epilogue on [BM, BN] tiles reading
  // operands at the output tile (or row / column vectors at m0 / n0), and
  // one store of the tile at [m0, n0] into an [M, N] argument, last.
  llvm::SmallPtrSet<Operation *, 16> epilogue;
  llvm::DenseMap<Value, Value> vectorOffset; // 1-D load -> m0 or n0
  StoreOp store;
  auto fullTile = [&](Type type) {
    auto tile = dyn_cast<TileType>(type);
    return tile && tile.getRank() == 2 && tile.getDimSize(0) == bm &&
           tile.getDimSize(1) == bn;
  };
  for (Operation *op = loop->getNextNode(); op && !isa<ReturnOp>(op);
       op = op->getNextNode()) {
    if (store)
      return "something follows its store";
    epilogue.insert(op);
    if (auto load = dyn_cast<LoadOp>(op)) {
      if (!bodyArgNumber(kernel, load.getSource()))
        return "its epilogue loads from something else than an argument";
      auto tile = cast<TileType>(load.getType());
      auto idx = load.getIndices();
      if (idx.size() == 2 && idx[0] == m0 && idx[1] == n0 && fullTile(tile))
        continue;
      if (idx.size() == 1 && tile.getRank() == 1 &&
          ((idx[0] == m0 && tile.getDimSize(0) == bm) ||
           (idx[0] == n0 && tile.getDimSize(0) == bn))) {
        vectorOffset[load.getResult()] = idx[0];
        continue;
      }
      return "its epilogue loads something else than the output tile or a "
             "row / column vector of it";
    }
    if (auto bcast = dyn_cast<BroadcastOp>(op)) {
      auto it = vectorOffset.find(bcast.getInput());
      if (it == vectorOffset.end() || !fullTile(bcast.getType()) ||
          bcast.getDims().size() != 1 ||
          bcast.getDims()[0] != (it->second == n0 ? 0 : 1))
        return "its epilogue broadcasts something else than a bias vector "
               "along the output tile";
      continue;
    }
    if (isa<MapOp, CastOp>(op)) {
      if (fullTile(op->getResult(0).getType()))
        continue;
      // Elementwise on a bias vector: every input is a vector at the same
      // offset (m0 or n0), which the result then is too.
      Value offset;
      for (Value input : op->getOperands()) {
        auto it = vectorOffset.find(input);
        if (it == vectorOffset.end() || (offset && offset != it->second))
          return "its epilogue computes on tiles of another shape";
        offset = it->second;
      }
      if (!offset)
        return "its epilogue computes on tiles of another shape";
      vectorOffset[op->getResult(0)] = offset;
      continue;
    }
    if (isa<arith::ConstantOp>(op))
      continue;
    if (auto s = dyn_cast<StoreOp>(op)) {
      std::optional<unsigned> c = bodyArgNumber(kernel, s.getDest());
      MemRefType cType = s.getDest().getType();
      if (!c || cType.getRank() != 2 || cType.getDimSize(0) != m ||
          cType.getDimSize(1) != n || s.getIndices().size() != 2 ||
          s.getIndices()[0] != m0 || s.getIndices()[1] != n0 ||
          !fullTile(s.getValue().getType()))
        return "its store is not the [M, N] output's tile at [m0, n0]";
      store = s;
      continue;
    }
    return "its epilogue holds an op the tensor-core path does not evaluate";
  }
  if (!store)
    return "it stores nothing after its K loop";
  // The epilogue may read only its own values, the accumulator, arguments,
  // the tile offsets and constants.
  for (Operation *op : epilogue) {
    WalkResult walk = op->walk([&](Operation *inner) {
      for (Value operand : inner->getOperands()) {
        Operation *def = operand.getDefiningOp();
        bool ok = operand == loop.getResult(0) || operand == m0 ||
                  operand == n0 || bodyArgNumber(kernel, operand) ||
                  (def && (epilogue.contains(def) ||
                           isa<arith::ConstantOp>(def) ||
                           op->isProperAncestor(def))) ||
                  (!def && op->isAncestor(cast<BlockArgument>(operand)
                                              .getOwner()
                                              ->getParentOp()));
        if (!ok)
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return "its epilogue uses a value computed before the K loop";
  }
  return "";
}
