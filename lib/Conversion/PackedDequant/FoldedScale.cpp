//===- FoldedScale.cpp - The e2m1 restore folded into the scale ----------===//
//
// See FoldedScale.h.
//
//===----------------------------------------------------------------------===//

#include "FoldedScale.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <numeric>

using namespace mlir;

namespace mlir {
namespace tile {
namespace packed_dequant {

std::optional<ScaleOfByte> matchScaleOfByte(Value scale) {
  ScaleOfByte result;
  SmallVector<SmallVector<int64_t>> inward; // from the scale to the bitcast
  Value value = scale;
  for (int depth = 0; depth < 16; ++depth) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto ext = dyn_cast<arith::ExtFOp>(def)) {
      value = ext.getIn();
      continue;
    }
    if (auto shuffle = dyn_cast<vector::ShuffleOp>(def)) {
      if (shuffle.getV1() != shuffle.getV2())
        return std::nullopt;
      inward.push_back(llvm::to_vector(shuffle.getMask()));
      value = shuffle.getV1();
      continue;
    }
    if (auto add = dyn_cast<arith::AddFOp>(def)) {
      // x + (x - x): x where x is finite, NaN where it is inf or NaN.
      Value x;
      for (auto [a, b] : {std::pair(add.getLhs(), add.getRhs()),
                          std::pair(add.getRhs(), add.getLhs())}) {
        auto sub = b.getDefiningOp<arith::SubFOp>();
        if (sub && sub.getLhs() == a && sub.getRhs() == a) {
          x = a;
          break;
        }
      }
      if (!x)
        return std::nullopt;
      result.nanForInf = true;
      value = x;
      continue;
    }
    auto cast = dyn_cast<arith::BitcastOp>(def);
    if (!cast)
      return std::nullopt;
    Type type = getElementTypeOrSelf(cast.getType());
    if (!type.isBF16() && !type.isF32())
      return std::nullopt;
    std::optional<ByteMath> math = matchByteMath(cast.getIn());
    if (!math || !isa<VectorType>(math->byte.getType()))
      return std::nullopt;
    result.math = *math;
    result.bitWidth = type.getIntOrFloatBitWidth();
    result.shuffles.assign(inward.rbegin(), inward.rend());
    return result;
  }
  return std::nullopt;
}

/// The scale's value for byte e (nothing where the math is poison).
static std::optional<APFloat> scaleValue(const ScaleOfByte &scale,
                                         uint8_t e) {
  std::optional<APInt> bits = evaluate(scale.math.ops, e);
  if (!bits || bits->getBitWidth() != scale.bitWidth)
    return std::nullopt;
  APFloat value(scale.bitWidth == 16 ? APFloat::BFloat()
                                     : APFloat::IEEEsingle(),
                *bits);
  if (scale.nanForInf) {
    APFloat zero = value;
    zero.subtract(value, APFloat::rmNearestTiesToEven);
    value.add(zero, APFloat::rmNearestTiesToEven);
  }
  return value;
}

std::optional<FoldedScale> foldRestore(const ScaleOfByte &scale) {
  // The bf16 bits of scale(e) * 2^126 where that is finite.
  std::array<std::optional<uint16_t>, 256> folded;
  for (uint32_t e = 0; e < 256; ++e) {
    std::optional<APFloat> value = scaleValue(scale, e);
    if (!value || !value->isFinite())
      continue;
    bool inexact = false;
    value->convert(APFloat::BFloat(), APFloat::rmNearestTiesToEven, &inexact);
    if (inexact)
      continue;
    APFloat product = scalbn(*value, 126, APFloat::rmNearestTiesToEven);
    if (product.isFinite())
      folded[e] = product.bitcastToAPInt().getZExtValue();
  }
  // The guard of fewest bits (the most bytes that fold) whose folding
  // bytes' bits are affine in the byte.
  SmallVector<uint32_t> guards(256);
  std::iota(guards.begin(), guards.end(), 0);
  llvm::stable_sort(guards, [](uint32_t a, uint32_t b) {
    return llvm::popcount(a) < llvm::popcount(b);
  });
  for (uint32_t guard : guards) {
    bool passingFold = true;
    SmallVector<uint16_t> table;
    for (uint32_t e = 0; e < 256 && passingFold; ++e) {
      passingFold = (e & guard) || folded[e];
      // A byte that fails the guard takes a passing byte's entry: any
      // affine form that fits the passing bytes will do for it.
      table.push_back(folded[e & ~guard].value_or(0));
    }
    if (!passingFold)
      continue;
    if (std::optional<ByteAffine> form = fitByteAffine(table))
      return FoldedScale{uint8_t(guard), *form};
  }
  return std::nullopt;
}

Value buildFoldedScale(PatternRewriter &rewriter, Location loc,
                       const ScaleOfByte &scale, const FoldedScale &folded) {
  auto byteType = cast<VectorType>(scale.math.byte.getType());
  auto wordsType = byteType.clone(rewriter.getI32Type());
  const ByteAffine &form = folded.form;
  Value bits = arith::ExtUIOp::create(rewriter, loc, wordsType,
                                      scale.math.byte);
  Value keep = splatInt(rewriter, loc, wordsType, form.mask);
  bits = arith::AndIOp::create(rewriter, loc, bits, keep);
  if (form.shift) {
    Value by = splatInt(rewriter, loc, wordsType, std::abs(form.shift));
    if (form.shift > 0)
      bits = arith::ShLIOp::create(rewriter, loc, bits, by);
    else
      bits = arith::ShRUIOp::create(rewriter, loc, bits, by);
  }
  if (form.bias) {
    Value bias = splatInt(rewriter, loc, wordsType, form.bias);
    bits = arith::AddIOp::create(rewriter, loc, bits, bias);
  }
  bits = arith::TruncIOp::create(rewriter, loc,
                                 byteType.clone(rewriter.getI16Type()), bits);
  Value value = arith::BitcastOp::create(
      rewriter, loc, byteType.clone(rewriter.getBF16Type()), bits);
  for (ArrayRef<int64_t> mask : scale.shuffles)
    value = vector::ShuffleOp::create(rewriter, loc, value, value, mask);
  return value;
}

/// Whether every bit of `mask` is zero in every lane of `words`:
/// reduction<or>(words) & mask == 0 (matchGuard reads it back).
static Value wordsGuard(OpBuilder &b, Location loc, Value words,
                        uint64_t mask) {
  Value any =
      vector::ReductionOp::create(b, loc, vector::CombiningKind::OR, words);
  Value bits = splatInt(b, loc, any.getType(), mask);
  Value hit = arith::AndIOp::create(b, loc, any, bits);
  Value zero = splatInt(b, loc, any.getType(), 0);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, hit, zero);
}

Value buildGuard(PatternRewriter &rewriter, Location loc,
                 const ScaleOfByte &scale, const FoldedScale &folded) {
  Value words = scale.math.byte;
  uint64_t mask = folded.guard;
  if (scale.math.source) {
    words = scale.math.source->words;
    mask <<= 8 * scale.math.source->byte;
  }
  return wordsGuard(rewriter, loc, words, mask);
}

namespace {
/// Whether `op` computes each lane from the same lane of its operands
/// alone, so that it may run on some threads and not others: arith and
/// vector ops (no regions or memory), and the PTX lop3s the pass writes
/// (a side-effect-free llvm.inline_asm may hold a warp shuffle).
bool isLaneLocal(Operation *op) {
  if (op->getNumRegions() || !isMemoryEffectFree(op))
    return false;
  if (auto asmOp = dyn_cast<LLVM::InlineAsmOp>(op))
    return asmOp.getAsmString().starts_with("lop3.b32 ");
  return isa<arith::ArithDialect, vector::VectorDialect>(op->getDialect());
}

/// A guard as buildGuard makes it: the bits of `words` that must be zero.
struct WordsGuard {
  Value words;
  APInt mask;
};

std::optional<WordsGuard> matchGuard(Value condition) {
  auto cmp = condition.getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq ||
      !matchPattern(cmp.getRhs(), m_Zero()))
    return std::nullopt;
  auto hit = cmp.getLhs().getDefiningOp<arith::AndIOp>();
  APInt mask;
  if (!hit || !matchPattern(hit.getRhs(), m_ConstantInt(&mask)))
    return std::nullopt;
  auto any = hit.getLhs().getDefiningOp<vector::ReductionOp>();
  if (!any || any.getKind() != vector::CombiningKind::OR || any.getAcc())
    return std::nullopt;
  return WordsGuard{any.getVector(), mask};
}

/// One scf.if for the guarded selects `group` (one block, no use of any
/// of their results before the last): its condition the and of their
/// guards, one test a word; each side a copy of the block's math its
/// values need.
void branch(ArrayRef<arith::SelectOp> group) {
  arith::SelectOp last = group.back();
  Block *block = last->getBlock();
  OpBuilder b(last);
  b.setInsertionPointAfter(last);
  Location loc = last.getLoc();

  llvm::MapVector<Value, APInt> wordMasks;
  SmallVector<Value> otherGuards;
  for (arith::SelectOp select : group) {
    std::optional<WordsGuard> guard = matchGuard(select.getCondition());
    if (!guard) {
      otherGuards.push_back(select.getCondition());
      continue;
    }
    auto [it, inserted] = wordMasks.try_emplace(guard->words, guard->mask);
    if (!inserted)
      it->second |= guard->mask;
  }
  Value all;
  auto both = [&](Value guard) {
    all = all ? arith::AndIOp::create(b, loc, all, guard).getResult() : guard;
  };
  for (auto &[words, mask] : wordMasks)
    both(wordsGuard(b, loc, words, mask.getZExtValue()));
  for (Value guard : otherGuards)
    both(guard);

  // The math the sides' values need: lane-local ops of this block (arith,
  // vector, PTX lop3s) in their operands' slices whose results only the
  // sides use (constants stay). Each side gets its own copy: math both
  // need is cloned into both, so that each keeps the decode's order (a
  // product's placement, then its multiplies; LLVM hoists what the two
  // sides begin with alike).
  llvm::SmallPtrSet<Operation *, 8> selects;
  for (arith::SelectOp select : group)
    selects.insert(select);
  auto inBlock = [&](Value value) -> Operation * {
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != block || selects.contains(def) ||
        isa<arith::ConstantOp>(def) || !isLaneLocal(def))
      return nullptr;
    return def;
  };
  llvm::SetVector<Operation *> movable;
  SmallVector<Value> worklist;
  for (arith::SelectOp select : group)
    worklist.append({select.getTrueValue(), select.getFalseValue()});
  while (!worklist.empty()) {
    Operation *def = inBlock(worklist.pop_back_val());
    if (def && movable.insert(def))
      worklist.append(def->operand_begin(), def->operand_end());
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op :
         SmallVector<Operation *>(movable.begin(), movable.end())) {
      if (llvm::all_of(op->getUsers(), [&](Operation *user) {
            return selects.contains(user) || movable.contains(user);
          }))
        continue;
      movable.remove(op);
      changed = true;
    }
  }
  // Each side: the movable ops its values need.
  auto sideOf = [&](bool trueSide) {
    llvm::SmallPtrSet<Operation *, 32> side;
    SmallVector<Value> values;
    for (arith::SelectOp select : group)
      values.push_back(trueSide ? select.getTrueValue()
                                : select.getFalseValue());
    while (!values.empty()) {
      Operation *def = values.pop_back_val().getDefiningOp();
      if (def && movable.contains(def) && side.insert(def).second)
        values.append(def->operand_begin(), def->operand_end());
    }
    return side;
  };

  SmallVector<Type> types;
  for (arith::SelectOp select : group)
    types.push_back(select.getType());
  auto ifOp = scf::IfOp::create(b, loc, types, all, /*withElseRegion=*/true);
  for (bool trueSide : {true, false}) {
    llvm::SmallPtrSet<Operation *, 32> side = sideOf(trueSide);
    Block *body = trueSide ? ifOp.thenBlock() : ifOp.elseBlock();
    OpBuilder inside = OpBuilder::atBlockEnd(body);
    IRMapping map;
    for (Operation &op : *block) {
      if (&op == last.getOperation())
        break;
      if (side.contains(&op))
        inside.clone(op, map);
    }
    SmallVector<Value> results;
    for (arith::SelectOp select : group)
      results.push_back(map.lookupOrDefault(trueSide ? select.getTrueValue()
                                                     : select.getFalseValue()));
    scf::YieldOp::create(inside, loc, results);
  }
  for (auto [index, result] : llvm::enumerate(ifOp.getResults())) {
    arith::SelectOp select = group[index];
    select.replaceAllUsesWith(result);
    select.erase();
  }
}

/// Erases the block's ops that are now dead (the math moved into the
/// branches, the selects' own guards), last first.
void eraseDeadOps(Block *block) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*block)))
    if (isOpTriviallyDead(&op))
      op.erase();
}
} // namespace

void branchGuardedFolds(Operation *root) {
  llvm::MapVector<Block *, SmallVector<arith::SelectOp>> byBlock;
  root->walk([&](arith::SelectOp select) {
    if (select->hasAttr(kGuardedFold) &&
        select.getCondition().getType().isInteger(1))
      byBlock[select->getBlock()].push_back(select);
  });
  for (auto &[block, selects] : byBlock) {
    llvm::sort(selects, [](arith::SelectOp a, arith::SelectOp b) {
      return a->isBeforeInBlock(b);
    });
    // Runs of selects with no use of a run's result before its last.
    SmallVector<SmallVector<arith::SelectOp>> groups;
    Operation *firstUse = nullptr;
    for (arith::SelectOp select : selects) {
      if (groups.empty() ||
          (firstUse && !select->isBeforeInBlock(firstUse))) {
        groups.emplace_back();
        firstUse = nullptr;
      }
      groups.back().push_back(select);
      for (Operation *user : select->getUsers()) {
        Operation *at = block->findAncestorOpInBlock(*user);
        if (at && (!firstUse || at->isBeforeInBlock(firstUse)))
          firstUse = at;
      }
    }
    for (ArrayRef<arith::SelectOp> group : groups)
      branch(group);
    eraseDeadOps(block);
  }
}

} // namespace packed_dequant
} // namespace tile
} // namespace mlir
