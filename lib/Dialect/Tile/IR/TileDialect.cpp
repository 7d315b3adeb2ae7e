//===- TileDialect.cpp - Tile dialect, types and attributes ---*- C++ -*-===//
//
// Registers the tile dialect and implements its type and attribute hooks:
// the `!tile.tile<AxBxT[, layout][, memory_space]>` syntax and verifiers.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

/// `!tile.tile<128x64xbf16>`, optionally followed by `, layout = #attr` and
/// `, memory_space = #attr`.
Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute layout, memorySpace;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "layout") {
      if (parser.parseAttribute(layout))
        return {};
    } else if (key == "memory_space") {
      if (parser.parseAttribute(memorySpace))
        return {};
    } else {
      parser.emitError(parser.getCurrentLocation())
          << "expected 'layout' or 'memory_space' but got '" << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<TileType>(parser.getContext(), shape, elementType,
                                     layout, memorySpace);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType();
  if (getLayout())
    printer << ", layout = " << getLayout();
  if (getMemorySpace())
    printer << ", memory_space = " << getMemorySpace();
  printer << ">";
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               Attribute layout, Attribute memorySpace) {
  if (shape.empty() || shape.size() > 2)
    return emitError() << "tile must have rank 1 or 2 but got rank "
                       << shape.size();
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "tile dimensions must be positive but got " << dim;
  if (!isa<FloatType, IntegerType>(elementType))
    return emitError() << "tile element type must be an integer or float "
                          "type but got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

LogicalResult ConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 ArrayRef<int64_t> block, int64_t threads) {
  if (block.empty() || block.size() > 3)
    return emitError() << "block must have 1 to 3 sizes but got "
                       << block.size();
  for (int64_t size : block)
    if (size <= 0)
      return emitError() << "block sizes must be positive but got " << size;
  if (threads <= 0 || threads > 1024 || threads % 32 != 0)
    return emitError() << "threads must be a multiple of 32 in [32, 1024] "
                          "but got "
                       << threads;
  return success();
}
