//===- InlinePTX.h - One-instruction PTX math through inline asm -*- C++ -*-===//
//
// Some PTX special-function instructions (tanh.approx.f32, ex2.approx.ftz.f32,
// rcp.approx.ftz.f32) have no MLIR NVVM op, and LLVM 22's NVPTX no
// intrinsic for the first: the passes that use them emit inline PTX, one
// scalar instruction per lane.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_INLINEPTX_H
#define TILE_CONVERSION_INLINEPTX_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace tile {

/// Whether `type` is an f32 scalar or a fixed 1-D f32 vector: the types
/// the inline PTX below takes, lane by lane.
inline bool isF32ScalarOrLanes(Type type) {
  if (type.isF32())
    return true;
  auto vectorType = dyn_cast<VectorType>(type);
  return vectorType && vectorType.getRank() == 1 &&
         !vectorType.isScalable() && vectorType.getElementType().isF32();
}

/// The f32 constant `value` of `type` (f32, or a splat of a vector of f32).
inline Value f32Constant(OpBuilder &b, Location loc, Type type,
                         double value) {
  TypedAttr attr = b.getF32FloatAttr(value);
  if (auto vectorType = dyn_cast<VectorType>(type))
    attr = SplatElementsAttr::get(vectorType, attr);
  return arith::ConstantOp::create(b, loc, type, attr);
}

/// The result of PTX `text` (operands $0, $1, ... with LLVM's inline-asm
/// `constraints`) on `operands`, of `resultType`; `sideEffects` keeps it
/// where it is and alive without users.
inline Value inlinePtx(OpBuilder &b, Location loc, Type resultType,
                       ValueRange operands, StringRef text,
                       StringRef constraints, bool sideEffects = false) {
  return LLVM::InlineAsmOp::create(
             b, loc, resultType, operands, text, constraints, sideEffects,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             /*asm_dialect=*/LLVM::AsmDialectAttr(),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

/// `instruction $0, $1;` on an f32 scalar, or on each lane of a fixed 1-D
/// f32 vector (the instruction is scalar). Null for other types.
inline Value inlinePtxUnaryF32(OpBuilder &b, Location loc,
                               StringRef instruction, Value x) {
  std::string text = (instruction + " $0, $1;").str();
  auto scalar = [&](Value lane) -> Value {
    return inlinePtx(b, loc, b.getF32Type(), lane, text, "=f,f");
  };
  Type type = x.getType();
  if (!isF32ScalarOrLanes(type))
    return Value();
  if (type.isF32())
    return scalar(x);
  auto vectorType = cast<VectorType>(type);
  Value result = x;
  for (int64_t i = 0; i < vectorType.getNumElements(); ++i) {
    Value lane = vector::ExtractOp::create(b, loc, x, i);
    result = vector::InsertOp::create(b, loc, scalar(lane), result, i);
  }
  return result;
}

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_INLINEPTX_H
