//===- SourceNesting.h - Refusing absurdly nested input ---------*- C++ -*-===//
//
// MLIR's parser recurses per region, type and attribute, and overflows the
// stack at about 10,000 nested regions (issue 19). The tools refuse input
// nested deeper than a tile program ever is, before parsing, with a
// located error: tile-compile and the Python frontend (Compiler.cpp) and
// tile-opt.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_SOURCENESTING_H
#define TILE_DIALECT_TILE_IR_SOURCENESTING_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace tile {

/// Brackets and regions nested deeper than this are refused; a tile
/// program nests a few levels.
constexpr int kMostSourceNesting = 256;

/// The first `{`, `(` or `[` of `text` nested past kMostSourceNesting
/// (outside strings and `//` comments), or null.
const char *findExcessNesting(llvm::StringRef text);

/// The error message for it.
std::string excessNestingMessage();

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_SOURCENESTING_H
