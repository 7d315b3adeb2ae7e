//===- BF16Bits.h - f32 values that are exactly a bf16 ----------*- C++ -*-===//
//
// One rule, shared by tile-hoist-broadcast-math (which carries such a value
// as bf16) and tile-packed-dequant's e2m1 pairs (which multiplies by it in
// bf16): a widened bf16 is one, and an f32 that is the bitcast of an i32 whose low 16 bits are known
// to be zero is exactly a bf16 (a bf16 is an f32's high half), so a round
// trip through bf16 keeps its value (a NaN stays a NaN). An e8m0 scale's
// 2^(e - 127) is its byte shifted left by 23, and the OCP spec's e = 0
// (2^-127, an f32 subnormal, bits 1 << 22) and e = 255 (NaN) as constants
// chosen by a max or a select are still such bits. (tl.quantized_matmul
// makes the scale in bf16 bits directly: a widened bf16, which
// tile-hoist-broadcast-math carries as it is.)
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_BF16BITS_H
#define TILE_DIALECT_TILE_IR_BF16BITS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace tile {

/// Whether the i32 `bits` (scalar or vector) has its low 16 bits known to
/// be zero: shifted left by 16 or more, a constant so, or one of two such
/// values chosen by arith.select / maxui / minui, or their or / and.
/// `depth` bounds the walk up the operands.
inline bool hasZeroLowHalf(Value bits, int depth = 8) {
  APInt constant;
  if (matchPattern(bits, m_ConstantInt(&constant)))
    return constant.getBitWidth() == 32 && (constant.getZExtValue() & 0xFFFF) == 0;
  Operation *def = bits.getDefiningOp();
  if (!def || depth == 0)
    return false;
  if (auto shift = dyn_cast<arith::ShLIOp>(def))
    return matchPattern(shift.getRhs(), m_ConstantInt(&constant)) &&
           constant.getZExtValue() >= 16 && constant.getZExtValue() < 32;
  if (auto select = dyn_cast<arith::SelectOp>(def))
    return hasZeroLowHalf(select.getTrueValue(), depth - 1) &&
           hasZeroLowHalf(select.getFalseValue(), depth - 1);
  if (isa<arith::MaxUIOp, arith::MinUIOp, arith::OrIOp>(def))
    return hasZeroLowHalf(def->getOperand(0), depth - 1) &&
           hasZeroLowHalf(def->getOperand(1), depth - 1);
  if (isa<arith::AndIOp>(def))
    return hasZeroLowHalf(def->getOperand(0), depth - 1) ||
           hasZeroLowHalf(def->getOperand(1), depth - 1);
  return false;
}

/// Whether the f32 `value` (scalar or vector) is the bitcast of i32 bits
/// whose low 16 bits are known to be zero: exactly a bf16.
inline bool isBF16Bits(Value value) {
  auto cast = value.getDefiningOp<arith::BitcastOp>();
  return cast && getElementTypeOrSelf(value.getType()).isF32() &&
         getElementTypeOrSelf(cast.getIn().getType()).isInteger(32) &&
         hasZeroLowHalf(cast.getIn());
}

/// Whether the f32 `value` is exactly a bf16: the widening of one, or bits
/// with a zero low half (an e8m0 scale).
inline bool isExactBF16(Value value) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    return getElementTypeOrSelf(ext.getIn().getType()).isBF16();
  return isBF16Bits(value);
}

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_BF16BITS_H
