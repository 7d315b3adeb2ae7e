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

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_NIBBLEFIELDS_H
