//===- TileFuse.cpp - Group ops into single-kernel fused ops ----*- C++ -*-===//
//
// The tile-fuse pass: matmul + elementwise epilogue, and elementwise chains,
// become tile.fused ops that tile-tile compiles into one kernel each. See
// the pass description in Passes.td for what fuses and what does not.
//
//===----------------------------------------------------------------------===//

#include "AttentionPattern.h"
#include "WeightPrologue.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/KernelPerOp.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "tile-fuse"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEFUSEPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

static bool isElementwise(Operation *op) { return isa<MapOp, CastOp>(op); }

static Operation *singleUser(Value value) {
  if (!value.hasOneUse())
    return nullptr;
  return *value.getUsers().begin();
}

/// The operand `value` of `user` can be read by the fused kernel tile by
/// tile: a tensor of the result's shape from outside the group, or a
/// broadcast of an outside tensor used only here (returned in `broadcast`).
static bool isTileableOperand(Value value, Operation *user,
                              const llvm::SetVector<Operation *> &group,
                              BroadcastOp &broadcast) {
  broadcast = nullptr;
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return true; // scalars are cloned into the kernel
  auto resultType = cast<RankedTensorType>(user->getResult(0).getType());
  Operation *def = value.getDefiningOp();
  if (def && group.contains(def))
    return true;
  if (auto bcast = dyn_cast_or_null<BroadcastOp>(def)) {
    Operation *inputDef = bcast.getInput().getDefiningOp();
    if (bcast->hasOneUse() && (!inputDef || !group.contains(inputDef))) {
      broadcast = bcast;
      return true;
    }
  }
  return type.getShape() == resultType.getShape();
}

/// Grows a group from `root` along single-use elementwise consumers, never
/// into an op that an earlier group (`taken`) already holds.
static llvm::SetVector<Operation *>
growGroup(Operation *root, const llvm::DenseSet<Operation *> &taken) {
  llvm::SetVector<Operation *> group;
  group.insert(root);
  // An elementwise root's own broadcasts of outside tensors (x + bias,
  // [M, 1] * [M, N]) are read inside its kernel, as its consumers' are:
  // never materialized.
  if (isElementwise(root))
    for (Value operand : root->getOperands()) {
      BroadcastOp bcast;
      if (isTileableOperand(operand, root, group, bcast) && bcast &&
          !taken.contains(bcast) && bcast->getBlock() == root->getBlock() &&
          !bcast.getInput().getDefiningOp<BroadcastOp>())
        group.insert(bcast);
    }
  // A matmul's B given as the transpose of an [N, K] tensor (x W^T, with
  // torch's Linear weight W) is read as stored, a K-major operand: the
  // transpose joins the group instead of writing W^T to memory (where
  // W's rows are not 16-byte runs, tile-tile pads them by a copy, as it
  // pads A's).
  // Block scales given as transposes (torch's M-major scale_a is the
  // transpose of a [K / 128, M] tensor) are read as stored too.
  if (auto matmul = dyn_cast<MatmulOp>(root))
    for (Value operand :
         {matmul.getRhs(), matmul.getScaleLhs(), matmul.getScaleRhs()})
      if (auto transpose =
              operand ? operand.getDefiningOp<TransposeOp>() : TransposeOp())
        if (transpose->hasOneUse() && !taken.contains(transpose) &&
            cast<ShapedType>(transpose.getType()).getRank() == 2 &&
            transpose->getBlock() == root->getBlock())
          group.insert(transpose);
  Value current = root->getResult(0);
  while (Operation *user = singleUser(current)) {
    if (!isElementwise(user) || user->getBlock() != root->getBlock() ||
        taken.contains(user))
      break;
    SmallVector<BroadcastOp> broadcasts;
    bool ok = true;
    for (Value operand : user->getOperands()) {
      if (operand == current)
        continue;
      BroadcastOp bcast;
      if (!isTileableOperand(operand, user, group, bcast)) {
        ok = false;
        break;
      }
      if (bcast)
        broadcasts.push_back(bcast);
    }
    if (!ok)
      break;
    for (BroadcastOp bcast : broadcasts)
      group.insert(bcast);
    group.insert(user);
    current = user->getResult(0);
  }
  return group;
}

/// The values the ops `ops` of `group` read from outside it (operands, and
/// values their regions capture), in the ops' order, each once.
static llvm::SetVector<Value>
readFromOutside(ArrayRef<Operation *> ops,
                const llvm::SetVector<Operation *> &group) {
  llvm::SetVector<Value> outside;
  auto note = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def || !group.contains(def))
      outside.insert(value);
  };
  for (Operation *op : ops) {
    for (Value operand : op->getOperands())
      note(operand);
    for (Region &region : op->getRegions()) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(region, captured);
      for (Value value : captured)
        note(value);
    }
  }
  return outside;
}

/// Whether every scalar that `group` reads from outside it is a constant,
/// which outlineGroup clones into the fused op: anything else (a function's
/// scalar argument) stays unfused, for tile-tile to reject with its own
/// error.
static bool onlyConstantScalars(const llvm::SetVector<Operation *> &group) {
  return llvm::all_of(
      readFromOutside(group.getArrayRef(), group), [](Value value) {
        return isa<ShapedType>(value.getType()) ||
               matchPattern(value, m_Constant());
      });
}

/// Replaces the ops of `group` (in block order) by one tile.fused op at the
/// position of the last one.
static FusedOp outlineGroup(const llvm::SetVector<Operation *> &group) {
  SmallVector<Operation *> ops(group.begin(), group.end());
  llvm::sort(ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  Operation *last = ops.back();

  // Outside values: tensors become inputs, scalars (constants) are cloned.
  llvm::SetVector<Value> inputs, scalars;
  for (Value value : readFromOutside(ops, group))
    (isa<RankedTensorType>(value.getType()) ? inputs : scalars).insert(value);

  OpBuilder b(last);
  auto fused = FusedOp::create(b, last->getLoc(),
                               last->getResult(0).getType(),
                               inputs.getArrayRef());
  Block *body = new Block();
  fused.getBody().push_back(body);
  IRMapping mapping;
  for (Value input : inputs)
    mapping.map(input, body->addArgument(input.getType(), input.getLoc()));
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  for (Value scalar : scalars)
    inner.clone(*scalar.getDefiningOp(), mapping); // constants, by tile-tile's rules
  for (Operation *op : ops)
    inner.clone(*op, mapping);
  YieldOp::create(inner, last->getLoc(), mapping.lookup(last->getResult(0)));
  last->getResult(0).replaceAllUsesWith(fused.getResult());
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return fused;
}

//===----------------------------------------------------------------------===//
// Attention blocks
//===----------------------------------------------------------------------===//

/// The attention blocks of `func` (AttentionPattern.h), each with the
/// single-use elementwise chain after its output (a cast to bf16), in
/// block order. With `explain`, a matmul whose A is softmax probabilities
/// but that does not fit gets a remark saying why.
static SmallVector<llvm::SetVector<Operation *>>
findAttentionGroups(func::FuncOp func, bool explain) {
  SmallVector<llvm::SetVector<Operation *>> groups;
  for (auto matmul : func.getBody().front().getOps<MatmulOp>()) {
    std::string why;
    std::optional<AttentionPattern> pattern = matchAttention(matmul, &why);
    if (!pattern) {
      // Only a matmul of a row-normalized map is worth explaining.
      auto lhs = matmul.getLhs().getDefiningOp();
      if (auto cast = dyn_cast_or_null<CastOp>(lhs))
        lhs = cast.getInput().getDefiningOp();
      auto map = dyn_cast_or_null<MapOp>(lhs);
      if (explain && map && llvm::any_of(map.getInputs(), [](Value v) {
            return v.getDefiningOp<BroadcastOp>();
          }))
        matmul.emitRemark() << "not fused as attention: " << why;
      continue;
    }
    llvm::SetVector<Operation *> group;
    for (Operation *op : pattern->ops())
      group.insert(op);
    Value current = matmul.getResult();
    while (Operation *user = singleUser(current)) {
      if (!isElementwise(user) || user->getNumOperands() != 1)
        break;
      group.insert(user);
      current = user->getResult(0);
    }
    groups.push_back(std::move(group));
  }
  return groups;
}

//===----------------------------------------------------------------------===//
// Row groups
//===----------------------------------------------------------------------===//

/// Ops a row group may hold: row reductions of rank-2 tensors, elementwise
/// ops, and broadcasts from a row's or a column's vector.
static bool isRowCandidate(Operation *op) {
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return cast<ShapedType>(reduce.getInput().getType()).getRank() == 2 &&
           reduce.getDim() == 1;
  if (auto bcast = dyn_cast<BroadcastOp>(op))
    return cast<ShapedType>(bcast.getType()).getRank() == 2 &&
           bcast.getDims().size() == 1;
  return isElementwise(op) &&
         cast<ShapedType>(op->getResult(0).getType()).getRank() <= 2;
}

/// Checks that `ops` (a connected set with a reduction) can be one row
/// kernel: one value leaves the set, it is the last op's, every rank-2
/// tensor has the same shape, and outside tensors are read whole or through
/// a broadcast.
static bool isFusableRowGroup(ArrayRef<Operation *> ops,
                              const llvm::SetVector<Operation *> &members) {
  Operation *last = ops.back();
  ArrayRef<int64_t> rowShape;
  for (Operation *op : ops) {
    // A vector broadcast down the columns (dims = [0]: one value a column)
    // computed inside the group: a row's program holds its own row's
    // values only, not every column's.
    if (auto bcast = dyn_cast<BroadcastOp>(op);
        bcast && bcast.getDims()[0] == 0)
      if (Operation *def = bcast.getInput().getDefiningOp();
          def && members.contains(def))
        return false;
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (!members.contains(user) && op != last)
          return false; // an intermediate is needed outside: materialize
    for (Value value : llvm::concat<Value>(
             llvm::to_vector(op->getOperands()),
             llvm::to_vector(op->getResults()))) {
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type)
        continue;
      if (type.getRank() == 2) {
        if (!rowShape.empty() && rowShape != type.getShape())
          return false;
        rowShape = type.getShape();
      }
      Operation *def = value.getDefiningOp();
      bool outside = !def || !members.contains(def);
      if (outside && type.getRank() != 2 && !isa<BroadcastOp>(op))
        return false;
    }
  }
  return true;
}

/// Finds connected sets of row candidates that contain a reduction and can
/// be one kernel; returns them in block order.
static SmallVector<llvm::SetVector<Operation *>>
findRowGroups(func::FuncOp func) {
  SmallVector<Operation *> candidates;
  for (Operation &op : func.getBody().front())
    if (isRowCandidate(&op))
      candidates.push_back(&op);
  // Union-find over def-use edges between candidates.
  llvm::DenseMap<Operation *, Operation *> parent;
  for (Operation *op : candidates)
    parent[op] = op;
  std::function<Operation *(Operation *)> find = [&](Operation *op) {
    while (parent[op] != op)
      op = parent[op] = parent[parent[op]];
    return op;
  };
  for (Operation *op : candidates)
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        if (parent.count(def))
          parent[find(def)] = find(op);
  llvm::MapVector<Operation *, SmallVector<Operation *>> sets;
  for (Operation *op : candidates)
    sets[find(op)].push_back(op);

  SmallVector<llvm::SetVector<Operation *>> groups;
  for (auto &[root, ops] : sets) {
    if (ops.size() < 2 || llvm::none_of(ops, [](Operation *op) {
          return isa<ReduceOp>(op);
        }))
      continue;
    llvm::SetVector<Operation *> members(ops.begin(), ops.end());
    if (isFusableRowGroup(ops, members))
      groups.push_back(std::move(members));
  }
  return groups;
}

namespace {
struct TileFusePass : public tile::impl::TileFusePassBase<TileFusePass> {
  using Base::Base;
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!isTensorLevelFunction(func))
        continue;
      // Scalars that fused regions will clone must be constants; anything
      // else is left for tile-tile to reject with its own error.
      // Row groups first: they claim the elementwise ops around their
      // reductions, which would otherwise form groups of their own.
      SmallVector<llvm::SetVector<Operation *>> attention =
          findAttentionGroups(func, explainAttention);
      llvm::erase_if(attention, [](const llvm::SetVector<Operation *> &group) {
        return !onlyConstantScalars(group);
      });
      llvm::DenseSet<Operation *> grouped;
      for (auto &group : attention)
        grouped.insert(group.begin(), group.end());
      // Weights dequantized in a matmul's K loop (WeightPrologue.h): their
      // ops belong to the matmul's group, never to one of their own.
      llvm::DenseMap<Operation *, SmallVector<Operation *>> prologues;
      for (auto matmul : func.getBody().front().getOps<MatmulOp>()) {
        if (grouped.contains(matmul))
          continue;
        std::optional<WeightPrologue> prologue = matchWeightPrologue(matmul);
        if (!prologue || llvm::any_of(prologue->ops, [&](Operation *op) {
              return grouped.contains(op);
            }))
          continue;
        grouped.insert(prologue->ops.begin(), prologue->ops.end());
        prologues[matmul] = prologue->ops;
      }
      SmallVector<llvm::SetVector<Operation *>> groups;
      for (auto &group : findRowGroups(func))
        if (llvm::none_of(group, [&](Operation *op) {
              return grouped.contains(op);
            }) &&
            onlyConstantScalars(group))
          groups.push_back(std::move(group));
      for (auto &group : groups)
        grouped.insert(group.begin(), group.end());
      for (Operation &op : func.getBody().front()) {
        if (grouped.contains(&op) || !(isa<MatmulOp>(op) || isElementwise(&op)))
          continue;
        llvm::SetVector<Operation *> group = growGroup(&op, grouped);
        if (auto prologue = prologues.find(&op); prologue != prologues.end())
          group.insert(prologue->second.begin(), prologue->second.end());
        if (group.size() < 2)
          continue;
        if (!onlyConstantScalars(group))
          continue;
        grouped.insert(group.begin(), group.end());
        groups.push_back(std::move(group));
      }
      for (auto &group : attention)
        outlineGroup(group)->setAttr("tile.attention",
                                     UnitAttr::get(&getContext()));
      for (auto &group : groups)
        outlineGroup(group);
    }
  }
};
} // namespace
