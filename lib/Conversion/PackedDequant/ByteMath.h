//===- ByteMath.h - Integer math on one byte, evaluated ------*- C++ -*-===//
//
// tile-packed-dequant's view of a scale decode: a chain of integer ops on
// one byte a lane (an e8m0 scale byte), which the pass evaluates on all
// 256 byte values to find a cheaper form of the same function
// (ByteFloatsInPairs: two bytes a word). Internal to the pass.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PACKEDDEQUANT_BYTEMATH_H
#define TILE_CONVERSION_PACKEDDEQUANT_BYTEMATH_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/APInt.h"

#include <optional>

namespace mlir {
namespace tile {
namespace packed_dequant {

/// A byte of words: bits [8 * byte, 8 * byte + 8) of each lane of `words`
/// (a vector of i32 or i64).
struct WordByte {
  Value words;
  int64_t byte;
};

/// The byte that the i8 vector `value` is: trunci(shrui(words, 8 * byte))
/// or trunci(words).
std::optional<WordByte> matchWordByte(Value value);

/// The integer math from one byte of words to a value: a chain of ops,
/// each with one operand that is the chain's value so far and splat
/// constants for the rest, starting at an extui of the byte.
struct ByteMath {
  WordByte source;
  SmallVector<Operation *> ops; // from the extui on
};

std::optional<ByteMath> matchByteMath(Value value);

/// The math `ops` (ByteMath's, from its extui) evaluated at `byte`, or
/// nothing where an op's result is poison (a shift by the width or more).
std::optional<APInt> evaluate(ArrayRef<Operation *> ops, uint8_t byte);

/// A function of a byte, e -> ((e & mask) << shift) + bias (a negative
/// shift to the right), whose value stays below 2^16 for every e: each
/// 16-bit half of a word computes it for its own byte at once.
struct ByteAffine {
  uint32_t mask = 0, bias = 0;
  int64_t shift = 0;
};

/// The ByteAffine form of the 16-bit `table` (one entry a byte value).
std::optional<ByteAffine> fitByteAffine(ArrayRef<uint16_t> table);

/// The integer constant `value` of `type` (splat where it is a vector).
Value splatInt(OpBuilder &b, Location loc, Type type, uint64_t value);

} // namespace packed_dequant
} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_PACKEDDEQUANT_BYTEMATH_H
