//===- SourceNesting.cpp - Refusing absurdly nested input -------*- C++ -*-===//
//
// See SourceNesting.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/SourceNesting.h"

#include <string>

using namespace mlir::tile;

const char *mlir::tile::findExcessNesting(llvm::StringRef text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') { // a string: to its closing quote
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
    } else if (c == '{' || c == '(' || c == '[') {
      if (++depth > kMostSourceNesting)
        return text.data() + i;
    } else if (c == '}' || c == ')' || c == ']') {
      --depth;
    }
  }
  return nullptr;
}

std::string mlir::tile::excessNestingMessage() {
  return "nesting deeper than " + std::to_string(kMostSourceNesting) +
         " brackets and regions; a tile program does not need it (and "
         "MLIR's parser would overflow its stack)";
}
