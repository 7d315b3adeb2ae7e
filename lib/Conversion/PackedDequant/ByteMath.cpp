//===- ByteMath.cpp - Integer math on one byte, evaluated ----------------===//
//
// See ByteMath.h.
//
//===----------------------------------------------------------------------===//

#include "ByteMath.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace mlir {
namespace tile {
namespace packed_dequant {
std::optional<WordByte> matchWordByte(Value value) {
  auto trunc = value.getDefiningOp<arith::TruncIOp>();
  if (!trunc || !getElementTypeOrSelf(value.getType()).isInteger(8))
    return std::nullopt;
  Value in = trunc.getIn();
  int64_t shift = 0;
  if (auto down = in.getDefiningOp<arith::ShRUIOp>()) {
    APInt bits;
    if (!matchPattern(down.getRhs(), m_ConstantInt(&bits)))
      return std::nullopt;
    shift = bits.getZExtValue();
    in = down.getLhs();
  }
  unsigned width = getElementTypeOrSelf(in.getType()).getIntOrFloatBitWidth();
  if ((width != 32 && width != 64) || shift % 8 || shift + 8 > width)
    return std::nullopt;
  return WordByte{in, shift / 8};
}

std::optional<ByteMath> matchByteMath(Value value) {
  SmallVector<Operation *> ops;
  while (true) {
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumResults() != 1)
      return std::nullopt;
    if (auto ext = dyn_cast<arith::ExtUIOp>(op)) {
      if (std::optional<WordByte> byte = matchWordByte(ext.getIn())) {
        ops.push_back(op);
        std::reverse(ops.begin(), ops.end());
        return ByteMath{*byte, ops};
      }
    }
    if (!isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::AddIOp,
             arith::SubIOp, arith::MulIOp, arith::ShLIOp, arith::ShRUIOp,
             arith::MaxUIOp, arith::MinUIOp, arith::TruncIOp, arith::ExtUIOp>(
            op))
      return std::nullopt;
    // One operand on the chain; the others splat constants.
    Value next;
    for (Value operand : op->getOperands()) {
      if (matchPattern(operand, m_Constant()))
        continue;
      if (next)
        return std::nullopt;
      next = operand;
    }
    if (!next)
      return std::nullopt;
    ops.push_back(op);
    value = next;
  }
}

std::optional<APInt> evaluate(ArrayRef<Operation *> ops, uint8_t byte) {
  APInt value(8, byte);
  for (Operation *op : ops) {
    unsigned width = getElementTypeOrSelf(op->getResult(0).getType())
                         .getIntOrFloatBitWidth();
    if (isa<arith::ExtUIOp>(op)) {
      value = value.zext(width);
      continue;
    }
    if (isa<arith::TruncIOp>(op)) {
      value = value.trunc(width);
      continue;
    }
    // The constant operand and on which side of the chain it is.
    bool constantFirst = matchPattern(op->getOperand(0), m_Constant());
    APInt c;
    if (!matchPattern(op->getOperand(constantFirst ? 0 : 1), m_ConstantInt(&c)))
      return std::nullopt; // not a splat
    APInt lhs = constantFirst ? c : value, rhs = constantFirst ? value : c;
    if (isa<arith::ShLIOp, arith::ShRUIOp>(op) && rhs.uge(width))
      return std::nullopt;
    value = TypeSwitch<Operation *, APInt>(op)
                .Case([&](arith::AndIOp) { return lhs & rhs; })
                .Case([&](arith::OrIOp) { return lhs | rhs; })
                .Case([&](arith::XOrIOp) { return lhs ^ rhs; })
                .Case([&](arith::AddIOp) { return lhs + rhs; })
                .Case([&](arith::SubIOp) { return lhs - rhs; })
                .Case([&](arith::MulIOp) { return lhs * rhs; })
                .Case([&](arith::ShLIOp) { return lhs.shl(rhs); })
                .Case([&](arith::ShRUIOp) { return lhs.lshr(rhs); })
                .Case([&](arith::MaxUIOp) {
                  return llvm::APIntOps::umax(lhs, rhs);
                })
                .Case([&](arith::MinUIOp) {
                  return llvm::APIntOps::umin(lhs, rhs);
                });
  }
  return value;
}


static int64_t shifted(uint32_t value, int64_t by) {
  return by >= 0 ? int64_t(value) << by : int64_t(value) >> -by;
}

Value splatInt(OpBuilder &b, Location loc, Type type, uint64_t value) {
  Type element = getElementTypeOrSelf(type);
  auto attr = IntegerAttr::get(element, value);
  if (auto vector = dyn_cast<VectorType>(type))
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, attr));
  return arith::ConstantOp::create(b, loc, attr);
}

std::optional<ByteAffine> fitByteAffine(ArrayRef<uint16_t> table) {
  ByteAffine form;
  form.bias = table[0];
  // Each bit of the byte alone says whether the mask keeps it and where
  // it goes.
  std::optional<int64_t> shift;
  for (int64_t bit = 0; bit < 8; ++bit) {
    uint16_t moved = table[1 << bit] - form.bias;
    if (!moved)
      continue;
    if (!llvm::isPowerOf2_32(moved))
      return std::nullopt;
    int64_t by = int64_t(llvm::countr_zero(moved)) - bit;
    if (shift && *shift != by)
      return std::nullopt;
    shift = by;
    form.mask |= 1u << bit;
  }
  if (!shift)
    return std::nullopt; // a constant
  form.shift = *shift;
  // A right shift drops no kept bit, so the high half's bits stay in it.
  if (form.shift < 0 && (form.mask & ((1u << -form.shift) - 1)))
    return std::nullopt;
  for (uint32_t e = 0; e < 256; ++e) {
    int64_t value = shifted(e & form.mask, form.shift) + form.bias;
    if (value > 0xFFFF || table[e] != value)
      return std::nullopt;
  }
  return form;
}

} // namespace packed_dequant
} // namespace tile
} // namespace mlir
