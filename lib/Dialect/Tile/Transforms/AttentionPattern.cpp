//===- AttentionPattern.cpp - Recognise softmax(Q K^T) V ---------*- C++ -*-===//
//
// See AttentionPattern.h. Each check says, in `why`, which part of the
// block is not what the online softmax can compute, so that tile-fuse's
// lit test can show why a block stays unfused.
//
//===----------------------------------------------------------------------===//

#include "AttentionPattern.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The one op in `block` (a map body or combiner) before its yield, if it
/// has exactly one and it is an `OpTy` of the block's arguments in order.
template <typename OpTy>
OpTy soleBinary(Region &region) {
  Block &block = region.front();
  if (block.getOperations().size() != 2 || block.getNumArguments() != 2)
    return OpTy();
  auto op = dyn_cast<OpTy>(block.front());
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!op || !yield || yield.getValue() != op->getResult(0) ||
      op->getOperand(0) != block.getArgument(0) ||
      op->getOperand(1) != block.getArgument(1))
    return OpTy();
  return op;
}

/// A map whose body is arg0 / arg1, possibly truncated (to bf16 or f16).
bool isQuotient(MapOp map) {
  if (soleBinary<arith::DivFOp>(map.getBody()))
    return true;
  Block &block = map.getBody().front();
  if (block.getOperations().size() != 3 || block.getNumArguments() != 2)
    return false;
  auto div = dyn_cast<arith::DivFOp>(block.front());
  auto trunc = div ? dyn_cast<arith::TruncFOp>(div->getNextNode())
                   : arith::TruncFOp();
  return div && trunc && div.getLhs() == block.getArgument(0) &&
         div.getRhs() == block.getArgument(1) && trunc.getIn() == div &&
         cast<YieldOp>(block.getTerminator()).getValue() == trunc.getResult();
}

bool isFloatConstant(Value value, double expected) {
  FloatAttr attr;
  return matchPattern(value, m_Constant(&attr)) &&
         attr.getValueAsDouble() == expected;
}

/// The op making `value`'s head dimension (`dim`, the third from last) out
/// of fewer heads: a single-use tile.repeat along it, or a tile.broadcast
/// inserting it (one head); with the factor in `groups`.
Operation *sharedHeads(Value value, int64_t dim, int64_t &groups) {
  Operation *op = value.getDefiningOp();
  if (!op || !op->hasOneUse() || dim < 0)
    return nullptr;
  if (auto repeat = dyn_cast<RepeatOp>(op);
      repeat && static_cast<int64_t>(repeat.getDim()) == dim) {
    groups = repeat.getTimes();
    return op;
  }
  if (auto bcast = dyn_cast<BroadcastOp>(op);
      bcast && bcast.getDims() == ArrayRef<int64_t>{dim}) {
    groups = cast<ShapedType>(bcast.getType()).getDimSize(dim);
    return op;
  }
  return nullptr;
}

bool usedOnlyBy(Value value, ArrayRef<Operation *> users) {
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    return llvm::is_contained(users, user);
  });
}

} // namespace

SmallVector<Operation *> AttentionPattern::ops() const {
  SmallVector<Operation *> all;
  if (keysTransposed)
    all.push_back(keysTransposed);
  if (keyHeads)
    all.push_back(keyHeads);
  if (valueHeads)
    all.push_back(valueHeads);
  for (IotaOp iota : positions)
    all.push_back(iota);
  all.push_back(scores);
  for (MapOp map : scoreMaps)
    all.push_back(map);
  for (Operation *op : std::initializer_list<Operation *>{
           max, maxBroadcast, exp, sum, sumBroadcast, normalize})
    all.push_back(op);
  if (shift)
    all.push_back(shift);
  if (probabilitiesCast)
    all.push_back(probabilitiesCast);
  all.push_back(output);
  llvm::sort(all, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return all;
}

std::optional<AttentionPattern> tile::matchAttention(MatmulOp output,
                                                     std::string *why) {
  auto fail = [&](const Twine &reason) -> std::optional<AttentionPattern> {
    if (why)
      *why = reason.str();
    return std::nullopt;
  };
  AttentionPattern p;
  p.output = output;
  if (output.isBlockScaled())
    return fail("the second matmul has block scales");
  // Rows are the last dimension (batch dimensions lead).
  int64_t rank = cast<ShapedType>(output.getType()).getRank();
  int64_t rowDim = rank - 1;
  p.values = output.getRhs();
  Value probabilities = output.getLhs();
  if (auto cast = probabilities.getDefiningOp<CastOp>()) {
    if (!cast->hasOneUse())
      return fail("the probabilities' cast has other users");
    p.probabilitiesCast = cast;
    probabilities = cast.getInput();
  }
  p.normalize = probabilities.getDefiningOp<MapOp>();
  if (!p.normalize || p.normalize.getInputs().size() != 2 ||
      !isQuotient(p.normalize))
    return fail("the second matmul's A is not e / l (a tile.map of "
                "arith.divf, then at most an arith.truncf)");
  if (!p.normalize->hasOneUse())
    return fail("the probabilities are used outside the block, so they "
                "are materialized");
  p.sumBroadcast = p.normalize.getInputs()[1].getDefiningOp<BroadcastOp>();
  if (!p.sumBroadcast || p.sumBroadcast.getDims() != ArrayRef<int64_t>{rowDim})
    return fail("the divisor is not a row vector broadcast along the last "
                "dimension");
  p.sum = p.sumBroadcast.getInput().getDefiningOp<ReduceOp>();
  if (!p.sum || int64_t(p.sum.getDim()) != rowDim ||
      !isFloatConstant(p.sum.getInit(), 0.0) ||
      !soleBinary<arith::AddFOp>(p.sum.getCombiner()))
    return fail("the divisor is not a row sum (tile.reduce of arith.addf "
                "from 0 along the last dimension)");
  p.exp = p.normalize.getInputs()[0].getDefiningOp<MapOp>();
  if (!p.exp || p.sum.getInput() != p.exp.getResult())
    return fail("the row sum and the dividend are not one tile.map");
  // exp(x - m) in one map, or exp of a map x - m (softmax written out).
  Value shifted;
  {
    Block &body = p.exp.getBody().front();
    auto yielded = cast<YieldOp>(body.getTerminator()).getValue();
    auto e = yielded.getDefiningOp<math::ExpOp>();
    auto sub = e ? e.getOperand().getDefiningOp<arith::SubFOp>()
                 : arith::SubFOp();
    if (e && sub && body.getOperations().size() == 3 &&
        p.exp.getInputs().size() == 2 && sub.getLhs() == body.getArgument(0) &&
        sub.getRhs() == body.getArgument(1)) {
      shifted = p.exp.getResult();
    } else if (e && body.getOperations().size() == 2 &&
               p.exp.getInputs().size() == 1 &&
               e.getOperand() == body.getArgument(0)) {
      p.shift = p.exp.getInputs()[0].getDefiningOp<MapOp>();
      if (p.shift && p.shift->hasOneUse() &&
          p.shift.getInputs().size() == 2 &&
          soleBinary<arith::SubFOp>(p.shift.getBody()))
        shifted = p.shift.getResult();
    }
    if (!shifted)
      return fail("the numerator is not exp(x - m) (a tile.map of "
                  "arith.subf then math.exp, or math.exp of such a "
                  "subtraction)");
  }
  MapOp shiftMap = p.shift ? p.shift : p.exp;
  p.maxBroadcast = shiftMap.getInputs()[1].getDefiningOp<BroadcastOp>();
  if (!p.maxBroadcast || p.maxBroadcast.getDims() != ArrayRef<int64_t>{rowDim})
    return fail("exp's shift is not a row vector broadcast along the last "
                "dimension");
  p.max = p.maxBroadcast.getInput().getDefiningOp<ReduceOp>();
  Value x = shiftMap.getInputs()[0];
  p.x = x;
  if (!p.max || int64_t(p.max.getDim()) != rowDim || p.max.getInput() != x ||
      !isFloatConstant(p.max.getInit(),
                       -std::numeric_limits<double>::infinity()) ||
      !soleBinary<arith::MaximumFOp>(p.max.getCombiner()))
    return fail("exp's shift is not the row max of its argument "
                "(tile.reduce of arith.maximumf from -inf along the last "
                "dimension)");
  if (!usedOnlyBy(x, {p.max, shiftMap}) ||
      !usedOnlyBy(p.exp.getResult(), {p.sum, p.normalize}) ||
      !p.max->hasOneUse() || !p.maxBroadcast->hasOneUse() ||
      !p.sum->hasOneUse() || !p.sumBroadcast->hasOneUse())
    return fail("a softmax intermediate is used outside the block");
  // The score maps, back to the first matmul.
  while (auto map = x.getDefiningOp<MapOp>()) {
    if (!map->hasOneUse() && map.getResult() != p.x)
      return fail("a score map is used outside the block");
    for (Value input : map.getInputs().drop_front()) {
      auto iota = input.getDefiningOp<IotaOp>();
      if (!iota || !iota->hasOneUse() || int64_t(iota.getDim()) < rank - 2)
        return fail("a score map reads a tensor that is not a tile.iota of "
                    "query or key positions used only there");
      p.positions.push_back(iota);
    }
    p.scoreMaps.insert(p.scoreMaps.begin(), map);
    x = map.getInputs()[0];
  }
  p.scores = x.getDefiningOp<MatmulOp>();
  if (!p.scores || !p.scores->hasOneUse())
    return fail("the softmax's input is not a matmul used only there");
  if (p.scores.isBlockScaled())
    return fail("the scores' matmul has block scales");
  auto scoresType = cast<RankedTensorType>(p.scores.getType());
  if (!scoresType.getElementType().isF32())
    return fail("the scores are not an f32 matmul");
  p.queries = p.scores.getLhs();
  p.keys = p.scores.getRhs();
  if (auto transpose = p.keys.getDefiningOp<TransposeOp>();
      transpose && transpose->hasOneUse()) {
    p.keysTransposed = transpose;
    p.keys = transpose.getInput();
  }
  // Grouped-query attention: K and V of fewer heads, shared by one factor.
  int64_t keyGroups = 1, valueGroups = 1;
  p.keyHeads = sharedHeads(p.keys, rank - 3, keyGroups);
  p.valueHeads = sharedHeads(p.values, rank - 3, valueGroups);
  if (keyGroups != valueGroups || !p.keyHeads != !p.valueHeads)
    return fail("K and V do not share their heads by one factor (grouped-"
                "query attention repeats both, tile.repeat along the head "
                "dimension)");
  if (p.keyHeads) {
    p.groups = keyGroups;
    p.keys = p.keyHeads->getOperand(0);
    p.values = p.valueHeads->getOperand(0);
  }
  Type element = cast<ShapedType>(p.values.getType()).getElementType();
  if (cast<ShapedType>(output.getLhs().getType()).getElementType() != element ||
      cast<ShapedType>(p.queries.getType()).getElementType() != element ||
      !(element.isBF16() || element.isF16()))
    return fail("Q, K, V and the probabilities are not all bf16 or all f16");
  if (!cast<ShapedType>(output.getType()).getElementType().isF32())
    return fail("the output matmul does not accumulate in f32");
  return p;
}

bool tile::isCausalMask(MapOp map, int64_t rank) {
  Block &body = map.getBody().front();
  auto select = dyn_cast_or_null<arith::SelectOp>(
      cast<YieldOp>(body.getTerminator()).getValue().getDefiningOp());
  FloatAttr fill;
  if (!select || !matchPattern(select.getFalseValue(), m_Constant(&fill)) ||
      !fill.getValue().isInfinity() || !fill.getValue().isNegative())
    return false;
  auto cmp = select.getCondition().getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return false;
  auto positionDim = [&](Value v) -> int64_t {
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &body || arg.getArgNumber() == 0)
      return -1;
    auto iota = map.getInputs()[arg.getArgNumber()].getDefiningOp<IotaOp>();
    return iota ? iota.getDim() : -1;
  };
  int64_t lhs = positionDim(cmp.getLhs()), rhs = positionDim(cmp.getRhs());
  int64_t query = rank - 2, key = rank - 1;
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  if (lhs == key && rhs == query)
    return pred == P::sle || pred == P::ule;
  if (lhs == query && rhs == key)
    return pred == P::sge || pred == P::uge;
  return false;
}
