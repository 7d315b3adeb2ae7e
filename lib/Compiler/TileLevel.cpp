//===- TileLevel.cpp - Compiling tile-level input ---------------*- C++ -*-===//
//
// See TileLevel.h.
//
//===----------------------------------------------------------------------===//

#include "TileLevel.h"
#include "tile/Runtime/Bundle.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tile;

static bool holdsKernels(func::FuncOp func) {
  return !func.getBody().empty() && !func.getOps<KernelOp>().empty();
}

FailureOr<func::FuncOp> mlir::tile::selectTileFunction(ModuleOp source,
                                                       StringRef functionName,
                                                       StringRef sourceName) {
  func::FuncOp func;
  for (auto candidate : source.getOps<func::FuncOp>()) {
    if (!functionName.empty() ? candidate.getName() != functionName
                              : !holdsKernels(candidate))
      continue;
    if (func)
      return emitError(candidate.getLoc())
             << "more than one function holds tile.kernel ops; choose one "
                "with --function";
    func = candidate;
  }
  if (!func) {
    InFlightDiagnostic diag = emitError(UnknownLoc::get(source->getContext()));
    if (functionName.empty())
      diag << "no tile-level function (one holding tile.kernel ops) to compile";
    else
      diag << "no function named '" << functionName << "'";
    return diag << " in " << sourceName;
  }
  if (!holdsKernels(func))
    return emitError(func.getLoc())
           << "function '" << func.getName()
           << "' holds no tile.kernel op to compile at the tile level";
  return func;
}

/// A buffer of the bundle (docs/bundle-format.md): static, row-major, of
/// rank 1 or more, every dimension at least 1, and at most the format's
/// kMostBufferBytes.
static LogicalResult checkBuffer(Location loc, Type type, const Twine &what) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape() ||
      !memref.getLayout().isIdentity() || memref.getRank() == 0)
    return emitError(loc) << "expected a static, row-major memref of rank >= "
                             "1 as "
                          << what << " of a tile-level function but got "
                          << type;
  double bytes = memref.getElementTypeBitWidth() / 8.0;
  for (int64_t dim : memref.getShape()) {
    if (dim < 1)
      return emitError(loc) << "expected every dimension of " << what
                            << " of a tile-level function to be at least 1 "
                               "but got "
                            << type;
    bytes *= static_cast<double>(dim);
  }
  if (bytes > ::tile::bundle::kMostBufferBytes)
    return emitError(loc) << what << " of a tile-level function, " << type
                          << ", is larger than a bundle buffer's 1e15 bytes";
  return success();
}

LogicalResult mlir::tile::verifyTileHostFunction(func::FuncOp func) {
  if (func.getNumResults() != 0)
    return emitError(func.getLoc())
           << "a tile-level function returns nothing (its kernels write "
              "their outputs into memref arguments) but '"
           << func.getName() << "' has " << func.getNumResults() << " results";
  for (BlockArgument arg : func.getArguments())
    if (failed(checkBuffer(arg.getLoc(), arg.getType(),
                           "argument #" + Twine(arg.getArgNumber()))))
      return failure();
  for (Operation &op : func.getBody().front()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      if (failed(checkBuffer(alloc.getLoc(), alloc.getType(), "allocation")))
        return failure();
      continue;
    }
    if (isa<KernelOp, memref::DeallocOp, arith::ConstantOp, func::ReturnOp>(
            op))
      continue;
    return op.emitOpError()
           << "cannot be in a tile-level host function, which holds only "
              "tile.kernel, memref.alloc / dealloc and constants";
  }
  return success();
}

SmallVector<bool> mlir::tile::writtenArguments(func::FuncOp func) {
  SmallVector<bool> written(func.getNumArguments(), false);
  func.walk([&](KernelOp kernel) {
    Block &body = kernel.getBody().front();
    kernel.walk([&](StoreOp store) {
      auto arg = dyn_cast<BlockArgument>(store.getDest());
      if (!arg || arg.getOwner() != &body)
        return;
      auto outer = dyn_cast<BlockArgument>(kernel.getArgs()[arg.getArgNumber()]);
      if (outer && outer.getOwner() == &func.getBody().front())
        written[outer.getArgNumber()] = true;
    });
  });
  return written;
}

LogicalResult mlir::tile::checkReferenceSignature(func::FuncOp func,
                                                  ArrayRef<bool> written,
                                                  func::FuncOp reference) {
  SmallVector<Type> inputs, outputs;
  for (auto [arg, w] : llvm::zip(func.getArgumentTypes(), written))
    (w ? outputs : inputs).push_back(arg);
  auto same = [](Type buffer, Type tensor) {
    auto memref = cast<MemRefType>(buffer);
    auto ranked = dyn_cast<RankedTensorType>(tensor);
    return ranked && ranked.getShape() == memref.getShape() &&
           ranked.getElementType() == memref.getElementType();
  };
  auto describe = [](ArrayRef<Type> types) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(types, os);
    return text;
  };
  FunctionType type = reference.getFunctionType();
  bool ok = type.getNumInputs() == inputs.size() &&
            type.getNumResults() == outputs.size();
  for (unsigned i = 0; ok && i < inputs.size(); ++i)
    ok = same(inputs[i], type.getInput(i));
  for (unsigned i = 0; ok && i < outputs.size(); ++i)
    ok = same(outputs[i], type.getResult(i));
  if (!ok)
    return emitError(reference.getLoc())
           << "reference '" << reference.getName()
           << "' must take the buffers the kernels read ("
           << describe(inputs) << ") as tensors and return the ones they "
           << "write (" << describe(outputs) << ") but has type " << type;
  return success();
}
