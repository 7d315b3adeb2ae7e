//===- NibbleFields.h - 4-bit fields of words, as tile.unpack writes ------===//
//
// tile.unpack's lowering (TileToSIMT.cpp) takes int4 values out of 32-bit
// words as shuffle(words) << up >> 28 (arithmetic for signed values), then
// truncates to i8. tile-packed-dequant and tile-small-int-to-float convert
// such fields to floats with magic numbers instead; this finds them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_NIBBLEFIELDS_H
#define TILE_CONVERSION_NIBBLEFIELDS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <array>
#include <functional>
#include <optional>

namespace mlir {
namespace tile {

/// The 4-bit fields of a vector of 32-bit words: lane e is bits
/// [low[e], low[e] + 4) of words[word[e]], sign-extended or not.
struct NibbleFields {
  Value words;
  bool isSigned = false;
  SmallVector<int64_t> word, low;
};

/// The fields that the integer vector `value` holds, where it is
/// [trunci to 8 bits or more of] shrsi / shrui(shli(shuffle(words, words),
/// up), 28) with constant `up` in {0, 4, ..., 28}.
inline std::optional<NibbleFields> matchNibbleFields(Value value) {
  if (auto trunc = value.getDefiningOp<arith::TruncIOp>()) {
    if (getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth() < 8)
      return std::nullopt;
    value = trunc.getIn();
  }
  Operation *down = value.getDefiningOp();
  APInt downBits;
  if (!isa_and_nonnull<arith::ShRSIOp, arith::ShRUIOp>(down) ||
      !matchPattern(down->getOperand(1), m_ConstantInt(&downBits)) ||
      downBits != 28)
    return std::nullopt;
  auto up = down->getOperand(0).getDefiningOp<arith::ShLIOp>();
  DenseIntElementsAttr upBits;
  if (!up || !matchPattern(up.getRhs(), m_Constant(&upBits)))
    return std::nullopt;
  auto spread = up.getLhs().getDefiningOp<vector::ShuffleOp>();
  if (!spread || spread.getV1() != spread.getV2())
    return std::nullopt;
  auto wordsType = dyn_cast<VectorType>(spread.getV1().getType());
  if (!wordsType || wordsType.getRank() != 1 ||
      !wordsType.getElementType().isInteger(32))
    return std::nullopt;
  NibbleFields fields;
  fields.words = spread.getV1();
  fields.isSigned = isa<arith::ShRSIOp>(down);
  ArrayRef<int64_t> mask = spread.getMask();
  int64_t lane = 0;
  for (APInt bits : upBits.getValues<APInt>()) {
    uint64_t shift = bits.getZExtValue();
    if (shift > 28 || shift % 4 != 0 ||
        mask[lane] >= wordsType.getNumElements())
      return std::nullopt;
    fields.word.push_back(mask[lane++]);
    fields.low.push_back(28 - int64_t(shift));
  }
  return fields;
}

/// The fields that `convert` (arith.sitofp / uitofp) converts, where
/// that conversion gives their values: not a uitofp of signed fields
/// (256 + q, or 2^32 + q, for a negative one).
inline std::optional<NibbleFields> matchConvertedNibbleFields(
    Operation *convert) {
  if (!isa<arith::SIToFPOp, arith::UIToFPOp>(convert))
    return std::nullopt;
  std::optional<NibbleFields> fields =
      matchNibbleFields(convert->getOperand(0));
  if (fields && fields->isSigned && isa<arith::UIToFPOp>(convert))
    return std::nullopt;
  return fields;
}

/// 4-bit values of a vector of 32-bit words bit by bit: bit b of lane e is
/// bit bit[e][b] of words[word[e]] (tile.unpack with `bits`; nibble fields
/// are the case bit[e][b] = low[e] + b).
struct BitFields {
  Value words;
  SmallVector<int64_t> word;
  SmallVector<std::array<int64_t, 4>> bit;
};

/// The fields that the integer vector `value` holds, where it is [trunci
/// to 8 bits or more of] tile.unpack's lowering with `bits`: an or of the
/// four terms andi(shrui(shuffle(words, words), down_b), 1) << b (no shift
/// for b = 0), down_b a constant vector. Sign-extended values (shrsi of
/// shli by 28) are not taken.
inline std::optional<BitFields> matchBitFields(Value value) {
  if (auto trunc = value.getDefiningOp<arith::TruncIOp>()) {
    if (getElementTypeOrSelf(trunc.getType()).getIntOrFloatBitWidth() < 8)
      return std::nullopt;
    value = trunc.getIn();
  }
  SmallVector<Value> terms;
  std::function<void(Value)> collect = [&](Value v) {
    if (auto ori = v.getDefiningOp<arith::OrIOp>()) {
      collect(ori.getLhs());
      collect(ori.getRhs());
      return;
    }
    terms.push_back(v);
  };
  collect(value);
  if (terms.size() != 4)
    return std::nullopt;
  auto splatOf = [](Value v) -> std::optional<int64_t> {
    APInt bits;
    if (!matchPattern(v, m_ConstantInt(&bits)))
      return std::nullopt;
    return bits.getSExtValue();
  };
  BitFields fields;
  SmallVector<bool> seen(4, false);
  for (Value term : terms) {
    int64_t b = 0;
    if (auto up = term.getDefiningOp<arith::ShLIOp>()) {
      std::optional<int64_t> by = splatOf(up.getRhs());
      if (!by || *by < 1 || *by > 3)
        return std::nullopt;
      b = *by;
      term = up.getLhs();
    }
    auto one = term.getDefiningOp<arith::AndIOp>();
    if (!one || splatOf(one.getRhs()) != 1 || seen[b])
      return std::nullopt;
    seen[b] = true;
    auto down = one.getLhs().getDefiningOp<arith::ShRUIOp>();
    DenseIntElementsAttr at;
    if (!down || !matchPattern(down.getRhs(), m_Constant(&at)))
      return std::nullopt;
    auto spread = down.getLhs().getDefiningOp<vector::ShuffleOp>();
    if (!spread || spread.getV1() != spread.getV2() ||
        (fields.words && fields.words != spread.getV1()))
      return std::nullopt;
    auto wordsType = dyn_cast<VectorType>(spread.getV1().getType());
    if (!wordsType || wordsType.getRank() != 1 ||
        !wordsType.getElementType().isInteger(32))
      return std::nullopt;
    ArrayRef<int64_t> mask = spread.getMask();
    if (!fields.words) {
      fields.words = spread.getV1();
      fields.word.assign(mask.begin(), mask.end());
      fields.bit.assign(mask.size(), {-1, -1, -1, -1});
    } else if (ArrayRef<int64_t>(fields.word) != mask) {
      return std::nullopt;
    }
    int64_t lane = 0;
    for (APInt position : at.getValues<APInt>()) {
      if (lane >= (int64_t)mask.size() || position.getZExtValue() > 31 ||
          mask[lane] >= wordsType.getNumElements())
        return std::nullopt;
      fields.bit[lane++][b] = position.getZExtValue();
    }
  }
  return fields;
}

/// Nibble fields bit by bit.
inline BitFields toBitFields(const NibbleFields &nibbles) {
  BitFields fields;
  fields.words = nibbles.words;
  fields.word = nibbles.word;
  for (int64_t low : nibbles.low)
    fields.bit.push_back({low, low + 1, low + 2, low + 3});
  return fields;
}

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_NIBBLEFIELDS_H
