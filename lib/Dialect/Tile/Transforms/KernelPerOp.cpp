//===- KernelPerOp.cpp - Tensor functions to one kernel per op --*- C++ -*-===//
//
// See KernelPerOp.h. Bufferization here is deliberately simple: every tensor
// value gets its own buffer, results are written in place into the output
// arguments, and nothing is reused. Fusion (tile-fuse) runs before this and
// is what removes intermediates.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/KernelPerOp.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::tile;

static bool isTensorLevelOp(Operation *op) {
  return (isTensorComputeOp(op) || isa<FusedOp>(op)) &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

bool tile::isTensorLevelFunction(func::FuncOp func) {
  return !func.isExternal() &&
         llvm::any_of(func.getBody().getOps(),
                      [](Operation &op) { return isTensorLevelOp(&op); });
}

/// Static-shaped, identity-layout memref of a tensor type, or failure.
static FailureOr<MemRefType> bufferTypeOf(Type type, Location loc) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType)
    return MemRefType();
  if (!tensorType.hasStaticShape())
    return emitError(loc) << "expected static shapes (kernels are specialized "
                             "to their shapes) but got "
                          << tensorType;
  return MemRefType::get(tensorType.getShape(), tensorType.getElementType());
}

LogicalResult tile::convertToKernelPerOp(func::FuncOp func, StringRef suffix,
                                         EmitKernelFn emit) {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError() << "expected a single block";
  Block &body = func.getBody().front();
  auto returnOp = cast<func::ReturnOp>(body.getTerminator());

  // Only tensor-level ops and scalar constants: anything else would need a
  // host-side lowering this project does not have.
  for (Operation &op : body.without_terminator()) {
    if (isTensorLevelOp(&op))
      continue;
    if (matchPattern(&op, m_Constant()) && op.getNumResults() == 1 &&
        !isa<ShapedType>(op.getResult(0).getType()))
      continue;
    return op.emitOpError()
           << "is not supported in a tensor-level function (expected tile "
              "tensor-level ops and scalar constants)";
  }

  // A tensor op whose result nothing reads gets no kernel (tensor ops are
  // pure): the frontend's w.mT, say, where a matrix-vector product reads w
  // as stored. Last to first, so that its dead operands go too.
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty() &&
        (isTensorLevelOp(op) || matchPattern(op, m_Constant())))
      op->erase();

  // New signature: memref arguments, then one memref per result.
  SmallVector<Type> argTypes;
  for (BlockArgument arg : body.getArguments()) {
    FailureOr<MemRefType> type = bufferTypeOf(arg.getType(), arg.getLoc());
    if (failed(type))
      return failure();
    if (!*type)
      return func.emitOpError() << "expected tensor arguments but argument #"
                                << arg.getArgNumber() << " is "
                                << arg.getType();
    argTypes.push_back(*type);
  }
  llvm::DenseMap<Value, unsigned> resultIndex;
  for (auto [index, value] : llvm::enumerate(returnOp.getOperands())) {
    Operation *def = value.getDefiningOp();
    if (!def || !isTensorLevelOp(def))
      return returnOp.emitOpError()
             << "expected result #" << index
             << " to be computed by a tile op (an argument or constant "
                "returned as is needs no kernel)";
    if (!resultIndex.try_emplace(value, index).second)
      return returnOp.emitOpError()
             << "returns the same value twice (results #"
             << resultIndex.lookup(value) << " and #" << index << ")";
    FailureOr<MemRefType> type = bufferTypeOf(value.getType(), value.getLoc());
    if (failed(type))
      return failure();
    argTypes.push_back(*type);
  }
  // Intermediates need static buffers too; checked before any IR is changed
  // so that a failure leaves the function intact.
  for (Operation &op : body.without_terminator())
    if (isTensorLevelOp(&op) &&
        failed(bufferTypeOf(op.getResult(0).getType(), op.getLoc())))
      return failure();

  // New arguments go after the old ones until the tensor ops are gone (the
  // callback still reads their tensor types); then the old ones are erased.
  OpBuilder builder(func.getContext());
  unsigned numInputs = body.getNumArguments();
  IRMapping buffers;
  SmallVector<Value> outputs;
  for (auto [i, type] : llvm::enumerate(argTypes)) {
    Location loc = i < numInputs ? body.getArgument(i).getLoc()
                                 : returnOp.getOperand(i - numInputs).getLoc();
    BlockArgument arg = body.addArgument(type, loc);
    if (i < numInputs)
      buffers.map(body.getArgument(i), arg);
    else
      outputs.push_back(arg);
  }
  unsigned kernelIndex = 0;
  SmallVector<Value> allocs;
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
    if (!isTensorLevelOp(&op))
      continue;
    builder.setInsertionPoint(&op);
    Value result = op.getResult(0);
    Value resultBuffer;
    auto it = resultIndex.find(result);
    if (it != resultIndex.end()) {
      resultBuffer = outputs[it->second];
    } else {
      // Checked up front: every tensor-level result has a static shape.
      MemRefType type = *bufferTypeOf(result.getType(), op.getLoc());
      resultBuffer = memref::AllocOp::create(builder, op.getLoc(), type);
      allocs.push_back(resultBuffer);
    }
    OpBuffers opBuffers;
    for (Value operand : op.getOperands())
      opBuffers.operands.push_back(isa<RankedTensorType>(operand.getType())
                                       ? buffers.lookup(operand)
                                       : Value());
    opBuffers.result = resultBuffer;
    opBuffers.kernelName =
        (func.getName() + suffix + "_" + Twine(kernelIndex++)).str();
    if (failed(emit(builder, &op, opBuffers)))
      return failure();
    buffers.map(result, resultBuffer);
  }

  // The tensor ops are gone from the host's point of view; drop them in
  // reverse order so that uses go before definitions.
  builder.setInsertionPoint(returnOp);
  for (Value alloc : allocs)
    memref::DeallocOp::create(builder, returnOp.getLoc(), alloc);
  func::ReturnOp::create(builder, returnOp.getLoc());
  returnOp.erase();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isTensorLevelOp(&op) || (op.use_empty() && isMemoryEffectFree(&op) &&
                                 !op.hasTrait<OpTrait::IsTerminator>()))
      op.erase();
  body.eraseArguments(0, numInputs);
  func.setFunctionType(builder.getFunctionType(argTypes, {}));
  return success();
}

FailureOr<Value> tile::materializeScalar(OpBuilder &builder, Value outside,
                                         IRMapping &mapping, Operation *user) {
  if (Value mapped = mapping.lookupOrNull(outside))
    return mapped;
  Operation *def = outside.getDefiningOp();
  if (!def || !matchPattern(def, m_Constant()))
    return user->emitOpError()
           << "expected scalar operands and captured values to be constants "
              "(a kernel cannot read host values)";
  Operation *clone = builder.clone(*def);
  mapping.map(outside, clone->getResult(0));
  return clone->getResult(0);
}

LogicalResult tile::materializeCapturedScalars(OpBuilder &builder,
                                               Region &region,
                                               IRMapping &mapping,
                                               Operation *user) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(region, captured);
  for (Value value : captured)
    if (failed(materializeScalar(builder, value, mapping, user)))
      return failure();
  return success();
}

Value tile::cloneScalarRegion(OpBuilder &builder, Region &region,
                              ValueRange args, IRMapping &mapping) {
  Block &block = region.front();
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    mapping.map(arg, value);
  for (Operation &op : block.without_terminator())
    builder.clone(op, mapping);
  return mapping.lookup(cast<YieldOp>(block.getTerminator()).getValue());
}

Value tile::expandUnitDims(OpBuilder &builder, Location loc, Value buffer,
                           ArrayRef<int64_t> shape) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getShape() == shape)
    return buffer;
  // Each stored dimension takes the result dimensions up to its extent,
  // the last one the trailing unit dimensions too (none for rank 0).
  SmallVector<ReassociationIndices> groups(type.getRank());
  int64_t dim = 0;
  for (auto [index, extent] : llvm::enumerate(shape)) {
    groups[std::min<int64_t>(dim, type.getRank() - 1)].push_back(index);
    if (dim < type.getRank() && extent == type.getDimSize(dim) && extent != 1)
      ++dim;
  }
  if (type.getRank() == 0)
    groups.clear();
  return memref::ExpandShapeOp::create(
      builder, loc, MemRefType::get(shape, type.getElementType()), buffer,
      groups);
}
