//===- ExponentBits.h - f32 values made of exponent bits alone -*- C++ -*-===//
//
// One rule, shared by tile-hoist-broadcast-math (which carries such a value
// as bf16) and tile-packed-dequant's e2m1 pairs (which multiplies by it in
// bf16): an f32 that is the bitcast of an integer shifted left by 23 to 31
// has no mantissa bits (+-0, +-2^k or +-inf: an e8m0 scale's 2^(e - 127)
// is its byte shifted so), so it is exactly a bf16 and a round trip
// through bf16 keeps it bit for bit (never a NaN whose payload a
// conversion could change).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_EXPONENTBITS_H
#define TILE_DIALECT_TILE_IR_EXPONENTBITS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir {
namespace tile {

/// Whether the f32 `value` (scalar or vector) is `bitcast(shli(x, s))`
/// with a constant s of 23 to 31.
inline bool isExponentBits(Value value) {
  auto cast = value.getDefiningOp<arith::BitcastOp>();
  auto shift = cast ? cast.getIn().getDefiningOp<arith::ShLIOp>()
                    : arith::ShLIOp();
  APInt bits;
  return getElementTypeOrSelf(value.getType()).isF32() && shift &&
         matchPattern(shift.getRhs(), m_ConstantInt(&bits)) &&
         bits.getZExtValue() >= 23 && bits.getZExtValue() < 32;
}

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_EXPONENTBITS_H
