//===- WeightPrologue.cpp - A matmul's B dequantized in its K loop -*- C++ -*-===//

#include "WeightPrologue.h"

#include "llvm/ADT/SetVector.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Collects the ops of W's computation into `ops`; false where a value is
/// not a leaf or an op of the shapes WeightPrologue.h allows.
struct PrologueMatcher {
  Block *block;
  int64_t n, k;
  llvm::SetVector<Operation *> ops;
  int64_t group = 0;

  /// An op that only `user` uses, in the matmul's block.
  bool ownedBy(Operation *op, Operation *user) const {
    return op && op->getBlock() == block && op->hasOneUse() &&
           *op->getUsers().begin() == user;
  }

  static bool hasShape(Value value, ArrayRef<int64_t> shape) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return type && type.getShape() == shape;
  }

  /// A leaf or an elementwise op of the chain computing `value` ([N, K])
  /// for `user`.
  bool matchValue(Value value, Operation *user) {
    Operation *def = value.getDefiningOp();
    if (isa_and_nonnull<MapOp, CastOp>(def) && ownedBy(def, user)) {
      ops.insert(def);
      return llvm::all_of(def->getOperands(), [&](Value operand) {
        return !isa<RankedTensorType>(operand.getType()) ||
               (hasShape(operand, {n, k}) && matchValue(operand, def));
      });
    }
    if (auto unpack = dyn_cast_or_null<UnpackOp>(def)) {
      if (!ownedBy(def, user))
        return false;
      ops.insert(def);
      return true; // its input is [N, K / 2] (the verifier's)
    }
    if (auto repeat = dyn_cast_or_null<RepeatOp>(def)) {
      if (!ownedBy(def, user) || repeat.getDim() != 1)
        return false;
      ops.insert(def);
      int64_t times = repeat.getTimes();
      // Every product must lie within one group of each repeat: their
      // greatest common divisor (not the smallest, which a product of
      // 32 would take across a group boundary of 48).
      group = group ? std::gcd(group, times) : times;
      // S [N, K / g], or S' [K / g, N] transposed.
      if (auto transpose = repeat.getInput().getDefiningOp<TransposeOp>();
          transpose && ownedBy(transpose, def) &&
          cast<ShapedType>(transpose.getType()).getRank() == 2)
        ops.insert(transpose);
      return true;
    }
    if (auto bcast = dyn_cast_or_null<BroadcastOp>(def)) {
      if (!ownedBy(def, user) || bcast.getDims().size() != 1 ||
          bcast.getDims()[0] != 1 || !hasShape(bcast.getInput(), {n}))
        return false;
      ops.insert(def);
      return true;
    }
    // A tensor read as it is (not one of this block's other computations
    // of W's shape: those are read from memory too).
    return true;
  }
};

} // namespace

std::optional<WeightPrologue> tile::matchWeightPrologue(MatmulOp matmul) {
  if (matmul.isBlockScaled())
    return std::nullopt;
  auto transpose = matmul.getRhs().getDefiningOp<TransposeOp>();
  if (!transpose || !transpose->hasOneUse() ||
      transpose->getBlock() != matmul->getBlock())
    return std::nullopt;
  auto weightType = dyn_cast<RankedTensorType>(transpose.getInput().getType());
  if (!weightType || weightType.getRank() != 2)
    return std::nullopt;
  Operation *def = transpose.getInput().getDefiningOp();
  if (!isa_and_nonnull<MapOp, CastOp>(def))
    return std::nullopt;
  PrologueMatcher matcher;
  matcher.block = matmul->getBlock();
  matcher.n = weightType.getDimSize(0);
  matcher.k = weightType.getDimSize(1);
  if (!matcher.matchValue(transpose.getInput(), transpose))
    return std::nullopt;
  WeightPrologue prologue;
  prologue.transpose = transpose;
  prologue.weight = transpose.getInput();
  prologue.ops.assign(matcher.ops.begin(), matcher.ops.end());
  prologue.ops.push_back(transpose);
  llvm::sort(prologue.ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  prologue.group = matcher.group;
  return prologue;
}
