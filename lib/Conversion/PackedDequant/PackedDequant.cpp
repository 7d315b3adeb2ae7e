//===- PackedDequant.cpp - Dequantize in packed 16-bit pairs -------------===//
//
// The tile-packed-dequant pass (see Passes.td). A dequantized weight is
// written as f32 math, `truncf(mulf(sitofp(q), extf(s)))`, and ran at 9
// instructions a value on the H200 (bench/RESULTS.md, session 16): a
// field extract, a conversion, a multiply and half a pack each. Two
// rewrites do it in pairs of bf16 (or f16) instead, each the same value
// bit for bit:
//
// - The product of an integer of at most 8 bits and a 16-bit float is
//   exact in f32, so rounding it to that float once equals the 16-bit
//   multiply (mul.bf16x2: two values an instruction).
// - A 4-bit field of a word becomes a 16-bit float with one logic op
//   (a PTX lop3):
//   (w >> 4p) & 0x000F000F puts fields p and p + 4 in the low bits of each
//   half, and or-ing in 0x4300 (bf16 128.0, whose ulp is 1) makes the
//   pair 128 + n, two values a word (Marlin's and FasterTransformer's
//   trick). One packed subtraction leaves n; signed fields are xor-ed
//   with 8 first, so that 136 + q is what gets subtracted.
//
// Integer conversions to bf16 / f16 that are not 4-bit fields go through
// f32 (exact for integers of 16 bits or fewer), where
// tile-small-int-to-float gives them the magic-number add. MXFP4's e2m1
// codes are placed in bf16 pairs bit by bit, and its scale bytes decoded
// two a word (ByteFloatsInPairs).
//
//===----------------------------------------------------------------------===//

#include "ByteMath.h"

#include "tile/Conversion/InlinePTX.h"
#include "tile/Conversion/NibbleFields.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/BF16Bits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "tile-packed-dequant"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_PACKEDDEQUANTPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile::packed_dequant;

namespace {
bool isHalfFloat(Type type) { return type.isBF16() || type.isF16(); }

/// Whether `value` is exactly a `narrow` float: the widening of one
/// (extf), or the conversion of an integer of 8 bits or fewer (|q| <= 256:
/// exact in bf16's 8 significant bits).
bool isExactIn(Value value, Type narrow) {
  Operation *def = value.getDefiningOp();
  if (auto ext = dyn_cast_or_null<arith::ExtFOp>(def))
    return getElementTypeOrSelf(ext.getIn().getType()) == narrow;
  return isa_and_nonnull<arith::SIToFPOp, arith::UIToFPOp>(def) &&
         getElementTypeOrSelf(def->getOperand(0).getType())
                 .getIntOrFloatBitWidth() <= 8;
}

/// The `narrow` value that `value` (isExactIn) widens or converts.
Value narrowed(PatternRewriter &rewriter, Value value, Type narrow) {
  Operation *def = value.getDefiningOp();
  if (auto ext = dyn_cast<arith::ExtFOp>(def))
    return ext.getIn();
  Value in = def->getOperand(0);
  Type type = narrow;
  if (auto vector = dyn_cast<VectorType>(in.getType()))
    type = vector.clone(narrow);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(def);
  OperationState state(def->getLoc(), def->getName(), ValueRange{in},
                       TypeRange{type});
  return rewriter.create(state)->getResult(0);
}

/// truncf(mulf(a, b)) from f32 to bf16 / f16, where a and b are each an
/// integer of 8 bits or fewer or a widened value of the narrow type (and
/// not both widened: such a product can be an f32 subnormal, rounded
/// twice): the multiply in the narrow type. Every narrow value is a
/// multiple of its type's least subnormal, so an integer times it has at
/// most 8 + 11 significant bits above 2^-149: exact in f32, and the one
/// rounding left is the narrow multiply's.
struct NarrowIntegerProduct : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    Type narrow = getElementTypeOrSelf(op.getType());
    if (!isHalfFloat(narrow) ||
        !getElementTypeOrSelf(op.getIn().getType()).isF32())
      return rewriter.notifyMatchFailure(op, "not f32 to bf16 / f16");
    if (op.getRoundingmode() &&
        *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "not rounded to nearest");
    auto mul = op.getIn().getDefiningOp<arith::MulFOp>();
    if (!mul)
      return rewriter.notifyMatchFailure(op, "not a product");
    auto isInteger = [](Value v) {
      return isa_and_nonnull<arith::SIToFPOp, arith::UIToFPOp>(
          v.getDefiningOp());
    };
    if (!isInteger(mul.getLhs()) && !isInteger(mul.getRhs()))
      return rewriter.notifyMatchFailure(op, "no integer factor");
    if (!isExactIn(mul.getLhs(), narrow) || !isExactIn(mul.getRhs(), narrow))
      return rewriter.notifyMatchFailure(op, "a factor that is not exact "
                                             "in the narrow type");
    Value lhs = narrowed(rewriter, mul.getLhs(), narrow);
    Value rhs = narrowed(rewriter, mul.getRhs(), narrow);
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, lhs, rhs);
    return success();
  }
};

/// (words & mask) ^ bits (`flip`) or (words & mask) | bits, for a vector of
/// i32 words, as one PTX lop3.b32 a word. ptxas compiles the and and the
/// or / xor of two immediates to two LOP3s (one LOP3 takes one 32-bit
/// immediate), and there is no NVVM op or LLVM intrinsic for lop3: inline
/// PTX with both constants in it, where ptxas keeps one in a register
/// loaded once (session 22: 16 of the int4 K loop's 214 SASS
/// instructions).
Value maskAndBias(PatternRewriter &rewriter, Location loc, Value words,
                  uint32_t mask, uint32_t bits, bool flip) {
  // lop3's table: a = 0xF0, b = 0xCC, c = 0xAA; (a & b) ^ c = 0x6A,
  // (a & b) | c = 0xEA.
  std::string text = llvm::formatv("lop3.b32 $0, $1, {0:x8}, {1:x8}, {2:x2};",
                                   mask, bits, flip ? 0x6A : 0xEA)
                         .str();
  auto type = cast<VectorType>(words.getType());
  Type i32 = type.getElementType();
  SmallVector<Value> results;
  for (int64_t i = 0; i < type.getNumElements(); ++i) {
    Value word = vector::ExtractOp::create(rewriter, loc, words, i);
    results.push_back(tile::inlinePtx(rewriter, loc, i32, word, text, "=r,r"));
  }
  return vector::FromElementsOp::create(rewriter, loc, type, results);
}

/// The lanes of `fields` (4-bit fields of 32-bit words) as a vector of
/// `narrow` values, from one vector of pairs per shift p = 0..3 that some
/// lane uses: `pairOf(p)` gives fields p and p + 4 of every word (2 *
/// words halves, word-major); a shuffle puts the lanes in order.
Value fieldsInLaneOrder(PatternRewriter &rewriter, Location loc,
                        const tile::NibbleFields &fields,
                        function_ref<Value(int64_t)> pairOf) {
  int64_t count = cast<VectorType>(fields.words.getType()).getNumElements();
  // Lane e: field p + 4 h of word w is the h half of pair vector p.
  struct Lane {
    int64_t word, pair, half;
  };
  SmallVector<Lane> lanes;
  for (auto [word, low] : llvm::zip(fields.word, fields.low))
    lanes.push_back({word, (low / 4) % 4, low / 16});
  Value all;
  SmallVector<int64_t> slotOfPair(4, -1);
  for (int64_t p = 0; p < 4; ++p) {
    if (llvm::none_of(lanes, [&](const Lane &l) { return l.pair == p; }))
      continue;
    Value values = pairOf(p);
    if (!all) {
      all = values;
      slotOfPair[p] = 0;
      continue;
    }
    int64_t before = cast<VectorType>(all.getType()).getNumElements();
    slotOfPair[p] = before;
    all = vector::ShuffleOp::create(
        rewriter, loc, all, values,
        llvm::to_vector(llvm::seq<int64_t>(0, before + 2 * count)));
  }
  SmallVector<int64_t> order;
  for (const Lane &l : lanes)
    order.push_back(slotOfPair[l.pair] + 2 * l.word + l.half);
  return vector::ShuffleOp::create(rewriter, loc, all, all, order);
}

/// sitofp / uitofp to a vector of bf16 / f16 of 4-bit fields of 32-bit
/// words, as tile.unpack's lowering writes them:
///   trunci(shrsi(shli(shuffle(words), up), 28))   (shrui: unsigned)
/// where the field of lane e is bits [28 - up[e], 32 - up[e]) of word
/// shuffle[e]. Each of the four shifts p = 0..3 of the words makes one
/// vector of pairs (fields p and p + 4 of every word) with an and and an
/// or; a shuffle puts the lanes in order.
template <typename ConvertOp>
struct NibblesToHalfPairs : OpRewritePattern<ConvertOp> {
  using OpRewritePattern<ConvertOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = dyn_cast<VectorType>(op.getType());
    if (!resultType || resultType.getRank() != 1 ||
        !isHalfFloat(resultType.getElementType()))
      return rewriter.notifyMatchFailure(op, "not a vector of bf16 / f16");
    std::optional<tile::NibbleFields> fields =
        tile::matchConvertedNibbleFields(op);
    if (!fields)
      return rewriter.notifyMatchFailure(op, "not 4-bit fields of words "
                                             "converted to their values");
    bool isSigned = fields->isSigned;
    Value words = fields->words;
    auto wordsType = cast<VectorType>(words.getType());
    int64_t count = wordsType.getNumElements();

    Location loc = op.getLoc();
    Type narrow = resultType.getElementType();
    auto splat = [&](uint32_t value) {
      return splatInt(rewriter, loc, wordsType, value);
    };
    // bf16 128.0 is 0x4300 and f16 1024.0 is 0x6400: halves whose ulp is 1.
    uint32_t magic = narrow.isBF16() ? 0x4300 : 0x6400;
    uint32_t bias = magic == 0x4300 ? 128 : 1024;
    if (isSigned) {
      magic |= 8; // n ^ 8 = q + 8 for the two's complement field n.
      bias += 8;
    }
    auto pairsType = VectorType::get({2 * count}, narrow);
    Value biasSplat = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(pairsType,
                               rewriter.getFloatAttr(narrow, bias)));
    Value lanes = fieldsInLaneOrder(rewriter, loc, *fields, [&](int64_t p) {
      Value shifted = words;
      if (p > 0)
        shifted = arith::ShRUIOp::create(rewriter, loc, words, splat(4 * p));
      Value biased = maskAndBias(rewriter, loc, shifted, 0x000F000F,
                                 magic * 0x10001u, isSigned);
      Value halves =
          vector::BitCastOp::create(rewriter, loc, pairsType, biased);
      return arith::SubFOp::create(rewriter, loc, halves, biasSplat)
          .getResult();
    });
    rewriter.replaceOp(op, lanes);
    return success();
  }
};

/// Whether `value` is the splat constant `expected`.
bool isSplat(Value value, float expected) {
  DenseElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)) || !attr.isSplat())
    return false;
  auto f = dyn_cast<FloatAttr>(attr.getSplatValue<Attribute>());
  return f && f.getValue().isExactlyValue(expected);
}

/// `mul`'s operand matched by `pred`, and the other one (commuted).
template <typename Pred>
std::optional<std::pair<Value, Value>> operandWhere(Operation *mul,
                                                    Pred pred) {
  if (!mul || mul->getNumOperands() != 2)
    return std::nullopt;
  if (pred(mul->getOperand(0)))
    return std::make_pair(mul->getOperand(0), mul->getOperand(1));
  if (pred(mul->getOperand(1)))
    return std::make_pair(mul->getOperand(1), mul->getOperand(0));
  return std::nullopt;
}

/// 4-bit fields of words, bit by bit, and as nibbles where they are.
struct MatchedFields {
  tile::BitFields bits;
  std::optional<tile::NibbleFields> nibbles;

  bool operator==(const MatchedFields &other) const {
    return bits.words == other.bits.words && bits.word == other.bits.word &&
           bits.bit == other.bits.bit;
  }
};

std::optional<MatchedFields> matchFields(Value value) {
  if (std::optional<tile::NibbleFields> nibbles =
          tile::matchNibbleFields(value))
    return MatchedFields{tile::toBitFields(*nibbles), nibbles};
  if (std::optional<tile::BitFields> bits = tile::matchBitFields(value))
    return MatchedFields{*bits, std::nullopt};
  return std::nullopt;
}

/// `andi(extui(field), mask)`: the field (4-bit fields of words).
std::optional<MatchedFields> maskedField(Value value, uint64_t mask) {
  auto andi = value.getDefiningOp<arith::AndIOp>();
  if (!andi)
    return std::nullopt;
  for (auto [in, m] : {std::pair(andi.getLhs(), andi.getRhs()),
                       std::pair(andi.getRhs(), andi.getLhs())}) {
    APInt bits;
    auto ext = in.getDefiningOp<arith::ExtUIOp>();
    if (ext && matchPattern(m, m_ConstantInt(&bits)) &&
        bits.getZExtValue() == mask)
      return matchFields(ext.getIn());
  }
  return std::nullopt;
}

/// `shli(andi(extui(field), mask), by)`: the field.
std::optional<MatchedFields> placedField(Value value, uint64_t mask,
                                         uint64_t by) {
  auto shl = value.getDefiningOp<arith::ShLIOp>();
  APInt bits;
  if (!shl || !matchPattern(shl.getRhs(), m_ConstantInt(&bits)) ||
      bits.getZExtValue() != by)
    return std::nullopt;
  return maskedField(shl.getLhs(), mask);
}

/// The lanes of 4-bit fields placed bit by bit (tile.unpack's `bits`) as
/// pairs of 16-bit halves: bit b of each pair's low value goes to bit
/// target[b] of the word, the high value's to target[b] + 16. Two lanes of
/// a word whose bits are each 16 apart (mod 32) are a pair: each bit moves
/// by a rotation of the word, the same for both, so the pair is the or of
/// (rotl(words, d) & mask_d) over its bits' rotations d (one rotation and
/// an and where its bits share one; none where it is 0). Of the pair's two
/// values the low one is the one that rotates least. A shuffle puts the
/// lanes in order, as fieldsInLaneOrder does.
Value bitPairsInLaneOrder(PatternRewriter &rewriter, Location loc,
                          const tile::BitFields &fields,
                          ArrayRef<int64_t> target) {
  auto wordsType = cast<VectorType>(fields.words.getType());
  int64_t count = wordsType.getNumElements();
  using Bits = std::array<int64_t, 4>;
  auto partner = [](Bits bits) {
    for (int64_t &b : bits)
      b = (b + 16) % 32;
    return bits;
  };
  auto rotations = [&](const Bits &low) {
    Bits d;
    for (int64_t b = 0; b < 4; ++b)
      d[b] = ((target[b] - low[b]) % 32 + 32) % 32;
    return d;
  };
  auto cost = [&](const Bits &d) {
    llvm::SmallSetVector<int64_t, 4> distinct(d.begin(), d.end());
    return 2 * (int64_t)distinct.size() - (int64_t)distinct.contains(0);
  };
  // Each lane's pair, by its low value's bits, and its half.
  SmallVector<Bits> pairs;
  SmallVector<std::pair<int64_t, int64_t>> laneAt; // (pair, half)
  for (const Bits &bits : fields.bit) {
    Bits other = partner(bits);
    Bits low = cost(rotations(bits)) <= cost(rotations(other)) ? bits : other;
    auto *it = llvm::find_if(
        pairs, [&](const Bits &p) { return p == low || p == partner(low); });
    if (it == pairs.end()) {
      pairs.push_back(low);
      it = std::prev(pairs.end());
    }
    laneAt.push_back({it - pairs.begin(), bits == *it ? 0 : 1});
  }
  auto splat = [&](uint32_t value) {
    return splatInt(rewriter, loc, wordsType, value);
  };
  Value all;
  SmallVector<int64_t> slotOfPair;
  for (const Bits &low : pairs) {
    Bits d = rotations(low);
    Value pair;
    llvm::SmallSetVector<int64_t, 4> distinct(d.begin(), d.end());
    for (int64_t by : distinct) {
      uint32_t mask = 0;
      for (int64_t b = 0; b < 4; ++b)
        if (d[b] == by)
          mask |= (1u << target[b]) | (1u << (target[b] + 16));
      // One op a statement: the order of a call's arguments is the host
      // compiler's (scripts/compare-builds.sh).
      Value rotated = fields.words;
      if (by != 0) {
        Value up = splat(by);
        Value left = arith::ShLIOp::create(rewriter, loc, fields.words, up);
        Value down = splat(32 - by);
        Value right = arith::ShRUIOp::create(rewriter, loc, fields.words, down);
        rotated = arith::OrIOp::create(rewriter, loc, left, right);
      }
      Value keep = splat(mask);
      Value part = arith::AndIOp::create(rewriter, loc, rotated, keep);
      pair = pair ? arith::OrIOp::create(rewriter, loc, pair, part).getResult()
                  : part;
    }
    if (!all) {
      all = pair;
      slotOfPair.push_back(0);
      continue;
    }
    int64_t before = cast<VectorType>(all.getType()).getNumElements();
    slotOfPair.push_back(before);
    all = vector::ShuffleOp::create(
        rewriter, loc, all, pair,
        llvm::to_vector(llvm::seq<int64_t>(0, before + count)));
  }
  // Word w's pair holds halves 2 w and 2 w + 1 of the bf16 view.
  int64_t words = cast<VectorType>(all.getType()).getNumElements();
  Value halves = vector::BitCastOp::create(
      rewriter, loc, VectorType::get({2 * words}, rewriter.getBF16Type()), all);
  SmallVector<int64_t> order;
  for (auto [lane, at] : llvm::enumerate(laneAt))
    order.push_back(2 * (slotOfPair[at.first] + fields.word[lane]) + at.second);
  return vector::ShuffleOp::create(rewriter, loc, halves, halves, order);
}

/// An e2m1 (MXFP4) code decoded through f32's bits and scaled, to bf16:
///   truncf(mulf(mulf(bitcast((c & 7) << 22 | (c & 8) << 28), 2^126), s))
/// for 4-bit fields c (tile.unpack's; the decode of bench/compile-quant.sh
/// and the frontend's `mxfp4`) and an s exact in bf16 (an e8m0 scale).
/// The f32 is the code's value times 2^-126 (codes 0 and 1 subnormal):
/// placed the same way in a bf16 (exponent and mantissa bits at 8-6, sign
/// at 15) it is the same number, so each pair vector p of fields is
///   ((m << (6 - 4p)) | (m << (12 - 4p))) & 0x81C081C0,
///   m = words & (0x000F000F << 4p)
/// (two values a word: an and, two shifts and an and-or), times 2^126 and
/// times s in bf16. Exact like the f32 path: the code's value has at most
/// two significant bits and 2^126 is a power of two, so the first
/// multiply is exact; the code times any bf16 s (at most 8 significant
/// bits) is exact in f32 (a multiple of 2^-134 of at most 10 bits), so
/// both paths round that one product once, to nearest even.
struct E2m1BitsToHalfPairs : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = dyn_cast<VectorType>(op.getType());
    if (!resultType || resultType.getRank() != 1 ||
        !resultType.getElementType().isBF16() ||
        !getElementTypeOrSelf(op.getIn().getType()).isF32())
      return rewriter.notifyMatchFailure(op, "not f32 to a vector of bf16");
    if (op.getRoundingmode() &&
        *op.getRoundingmode() != arith::RoundingMode::to_nearest_even)
      return rewriter.notifyMatchFailure(op, "not rounded to nearest");
    auto isDecoded = [](Value v) {
      auto mul = v.getDefiningOp<arith::MulFOp>();
      return mul && operandWhere(mul, [](Value c) {
                      return isSplat(c, 0x1p126f);
                    }).has_value();
    };
    auto scaled =
        operandWhere(op.getIn().getDefiningOp<arith::MulFOp>(), isDecoded);
    if (!scaled || !tile::isExactBF16(scaled->second))
      return rewriter.notifyMatchFailure(op, "not a decoded code times a "
                                             "bf16-exact scale");
    auto decoded = operandWhere(scaled->first.getDefiningOp(), [](Value c) {
      return !isSplat(c, 0x1p126f);
    });
    if (!decoded)
      return rewriter.notifyMatchFailure(op, "2^126 times 2^126");
    auto bits = decoded->first.getDefiningOp<arith::BitcastOp>();
    auto ori = bits ? bits.getIn().getDefiningOp<arith::OrIOp>()
                    : arith::OrIOp();
    if (!ori)
      return rewriter.notifyMatchFailure(op, "not the code's bits");
    std::optional<MatchedFields> magnitude, sign;
    for (auto [a, b] : {std::pair(ori.getLhs(), ori.getRhs()),
                        std::pair(ori.getRhs(), ori.getLhs())}) {
      magnitude = placedField(a, 7, 22);
      sign = placedField(b, 8, 28);
      if (magnitude && sign)
        break;
    }
    if (!magnitude || !sign || !(*magnitude == *sign))
      return rewriter.notifyMatchFailure(op, "not one field's e2m1 bits");

    Location loc = op.getLoc();
    // The scale in bf16 (exact there: isExactBF16).
    auto narrowScale = [&]() -> Value {
      Value scale = scaled->second;
      if (auto ext = scale.getDefiningOp<arith::ExtFOp>())
        return ext.getIn();
      return arith::TruncFOp::create(rewriter, loc, resultType, scale);
    };
    if (!magnitude->nibbles) {
      // Placed bit by bit (tile.unpack's `bits`): each pair with its
      // rotations and ands, times 2^126 and the scale as below.
      Value lanes =
          bitPairsInLaneOrder(rewriter, loc, magnitude->bits, {6, 7, 8, 15});
      Value restore = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              resultType,
              rewriter.getFloatAttr(resultType.getElementType(), 0x1p126)));
      Value decoded = arith::MulFOp::create(rewriter, loc, lanes, restore);
      rewriter.replaceOpWithNewOp<arith::MulFOp>(op, decoded, narrowScale());
      return success();
    }
    Value words = magnitude->bits.words;
    auto wordsType = cast<VectorType>(words.getType());
    int64_t count = wordsType.getNumElements();
    Type bf16 = rewriter.getBF16Type();
    auto pairsType = VectorType::get({2 * count}, bf16);
    auto splat = [&](uint32_t value) {
      return splatInt(rewriter, loc, wordsType, value);
    };
    auto shift = [&](Value m, int64_t by) -> Value {
      if (by == 0)
        return m;
      Value amount = splat(by > 0 ? by : -by);
      if (by > 0)
        return arith::ShLIOp::create(rewriter, loc, m, amount);
      return arith::ShRUIOp::create(rewriter, loc, m, amount);
    };
    Value restore = arith::ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(pairsType, rewriter.getFloatAttr(bf16, 0x1p126)));
    Value lanes =
        fieldsInLaneOrder(rewriter, loc, *magnitude->nibbles, [&](int64_t p) {
          Value mask = splat(0x000F000Fu << (4 * p));
          Value m = arith::AndIOp::create(rewriter, loc, words, mask);
          Value low = shift(m, 6 - 4 * p);
          Value high = shift(m, 12 - 4 * p);
          Value both = arith::OrIOp::create(rewriter, loc, low, high);
          Value keep = splat(0x81C081C0u);
          Value placed = arith::AndIOp::create(rewriter, loc, both, keep);
          Value halves =
              vector::BitCastOp::create(rewriter, loc, pairsType, placed);
          return arith::MulFOp::create(rewriter, loc, halves, restore)
              .getResult();
        });
    rewriter.replaceOpWithNewOp<arith::MulFOp>(op, lanes, narrowScale());
    return success();
  }
};

/// A 16-bit float made from the bits of integer math on one byte of a
/// word (an e8m0 scale's decode, as tile-hoist-broadcast-math leaves it:
/// once a scale byte):
///   bitcast(trunci(f(extui(trunci(shrui(words, 8j))))))   to bf16 / f16
/// where f, evaluated on all 256 bytes, is ((e & m) << s) + b below 2^16,
/// then any unsigned clamps by constants (max.u16x2 / min.u16x2 on the
/// word's two 16-bit lanes). Bytes j and j + 2 of a 32-bit word are 16
/// bits apart, so an and, a shift and an add on the word make both
/// halves' bits at once (bytes 1 and 3 shift by s - 8): this makes byte
/// j's word, which CSE shares with byte j +- 2's, and takes j's half
/// (which a packed multiply reads as its .H0_H0 / .H1_H1 operand, no
/// move).
struct ByteFloatsInPairs : OpRewritePattern<arith::BitcastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::BitcastOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = dyn_cast<VectorType>(op.getType());
    if (!resultType || resultType.getRank() != 1 ||
        !isHalfFloat(resultType.getElementType()))
      return rewriter.notifyMatchFailure(op, "not a vector of bf16 / f16");
    std::optional<ByteMath> math = matchByteMath(op.getIn());
    if (!math)
      return rewriter.notifyMatchFailure(op, "not integer math on a byte "
                                             "of words");
    auto sourceType = dyn_cast<VectorType>(math->source.words.getType());
    if (!sourceType || sourceType.getShape() != resultType.getShape())
      return rewriter.notifyMatchFailure(op, "words of another shape");
    // Unsigned clamps by constants that end the math (the frontend's e8m0
    // decode: max(e << 7, 0x40), 2^-127 for e = 0) apply to both halves
    // at once as 16-bit lanes, after the rest is fitted; casts of 16
    // bits or more among them keep the lanes' values.
    ArrayRef<Operation *> ops = math->ops;
    size_t fitted = ops.size();
    for (size_t i = ops.size(); i > 1; --i) {
      Operation *tail = ops[i - 1];
      if (isa<arith::MaxUIOp, arith::MinUIOp>(tail))
        fitted = i - 1;
      else if (!isa<arith::TruncIOp, arith::ExtUIOp>(tail))
        break;
    }
    SmallVector<std::pair<Operation *, uint16_t>> clamps;
    for (Operation *tail : ops.drop_front(fitted)) {
      if (getElementTypeOrSelf(tail->getResult(0).getType())
              .getIntOrFloatBitWidth() < 16)
        return rewriter.notifyMatchFailure(op, "a clamp cut below 16 bits");
      if (!isa<arith::MaxUIOp, arith::MinUIOp>(tail))
        continue;
      APInt bound;
      Value constant = tail->getOperand(0);
      if (!matchPattern(constant, m_Constant()))
        constant = tail->getOperand(1);
      if (!matchPattern(constant, m_ConstantInt(&bound)) ||
          bound.getActiveBits() > 16)
        return rewriter.notifyMatchFailure(op, "a clamp above 16 bits");
      clamps.push_back({tail, bound.getZExtValue()});
    }
    SmallVector<uint16_t> table;
    for (uint32_t e = 0; e < 256; ++e) {
      std::optional<APInt> value = evaluate(ops.take_front(fitted), e);
      // Clamped lanes hold the fitted value whole.
      if (!value || (!clamps.empty() && value->getActiveBits() > 16))
        return rewriter.notifyMatchFailure(op, "poison for some byte, or "
                                               "a clamp of a value over 16 "
                                               "bits");
      table.push_back(value->getZExtValue());
    }
    std::optional<ByteAffine> form = fitByteAffine(table);
    if (!form)
      return rewriter.notifyMatchFailure(op, "not ((e & m) << s) + b");

    Location loc = op.getLoc();
    int64_t lanes = resultType.getNumElements();
    auto wordsType = VectorType::get({lanes}, rewriter.getI32Type());
    // The 32-bit word of byte j, and j's place in it.
    Value words = math->source.words;
    int64_t byte = math->source.byte;
    if (getElementTypeOrSelf(words.getType()).isInteger(64)) {
      if (byte >= 4) {
        Value by = splatInt(rewriter, loc, words.getType(), 32);
        words = arith::ShRUIOp::create(rewriter, loc, words, by);
      }
      words = arith::TruncIOp::create(rewriter, loc, wordsType, words);
    }
    int64_t inHalf = byte % 2, half = byte % 4 / 2;
    uint32_t mask = form->mask << (8 * inHalf);
    int64_t shift = form->shift - 8 * inHalf;
    // With a shift and an add after it, the and as PTX (a lop3), so that
    // LLVM keeps it first (it would shift, then mask) and ptxas makes the
    // shift and the add one LEA / LEA.HI: 3 -> 2 instructions a word.
    Value pairs;
    if (shift && form->bias) {
      pairs = maskAndBias(rewriter, loc, words, mask * 0x10001u, 0,
                          /*flip=*/false);
    } else {
      Value keep = splatInt(rewriter, loc, wordsType, mask * 0x10001u);
      pairs = arith::AndIOp::create(rewriter, loc, words, keep);
    }
    if (shift) {
      Value by = splatInt(rewriter, loc, wordsType, shift > 0 ? shift : -shift);
      if (shift > 0)
        pairs = arith::ShLIOp::create(rewriter, loc, pairs, by);
      else
        pairs = arith::ShRUIOp::create(rewriter, loc, pairs, by);
    }
    if (form->bias) {
      Value bias = splatInt(rewriter, loc, wordsType, form->bias * 0x10001u);
      pairs = arith::AddIOp::create(rewriter, loc, pairs, bias);
    }
    if (!clamps.empty()) {
      auto lanesType = VectorType::get({2 * lanes}, rewriter.getI16Type());
      pairs = vector::BitCastOp::create(rewriter, loc, lanesType, pairs);
      for (auto [clamp, bound] : clamps) {
        Value both = splatInt(rewriter, loc, lanesType, bound);
        if (isa<arith::MaxUIOp>(clamp))
          pairs = arith::MaxUIOp::create(rewriter, loc, pairs, both);
        else
          pairs = arith::MinUIOp::create(rewriter, loc, pairs, both);
      }
    }
    auto halvesType = VectorType::get({2 * lanes}, resultType.getElementType());
    Value halves = vector::BitCastOp::create(rewriter, loc, halvesType, pairs);
    SmallVector<int64_t> order;
    for (int64_t lane = 0; lane < lanes; ++lane)
      order.push_back(2 * lane + half);
    rewriter.replaceOpWithNewOp<vector::ShuffleOp>(op, halves, halves, order);
    return success();
  }
};

/// sitofp / uitofp of an integer of 16 bits or fewer to bf16 / f16 that
/// NibblesToHalfPairs did not take: through f32, where the value is exact
/// and tile-small-int-to-float converts it with an add.
template <typename ConvertOp>
struct IntegerToHalfThroughF32 : OpRewritePattern<ConvertOp> {
  using OpRewritePattern<ConvertOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    Type narrow = getElementTypeOrSelf(op.getType());
    if (!isHalfFloat(narrow) ||
        getElementTypeOrSelf(op.getIn().getType()).getIntOrFloatBitWidth() >
            16)
      return rewriter.notifyMatchFailure(op, "not a small integer to "
                                             "bf16 / f16");
    Type f32 = rewriter.getF32Type();
    Type wide = f32;
    if (auto vector = dyn_cast<VectorType>(op.getType()))
      wide = vector.clone(f32);
    Value exact = ConvertOp::create(rewriter, op.getLoc(), wide, op.getIn());
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(), exact);
    return success();
  }
};

struct PackedDequantPass
    : public tile::impl::PackedDequantPassBase<PackedDequantPass> {
  using PackedDequantPassBase::PackedDequantPassBase;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<NarrowIntegerProduct>(context);
    // The field rewrite first: the fallback takes any conversion.
    patterns.add<NibblesToHalfPairs<arith::SIToFPOp>,
                 NibblesToHalfPairs<arith::UIToFPOp>>(context, /*benefit=*/2);
    patterns.add<E2m1BitsToHalfPairs>(context);
    patterns.add<ByteFloatsInPairs>(context);
    patterns.add<IntegerToHalfThroughF32<arith::SIToFPOp>,
                 IntegerToHalfThroughF32<arith::UIToFPOp>>(context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
