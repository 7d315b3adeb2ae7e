//===- WeightPrologue.h - A matmul's B dequantized in its K loop -*- C++ -*-===//
//
// Private to lib/Dialect/Tile/Transforms: the tensor-level shape of a
// weight that a matmul's K loop computes tile by tile in registers instead
// of reading it (a quantized weight dequantized in the main loop,
// docs/quantization.md):
//
//   B = tile.transpose W             W is [N, K], torch's Linear weight
//   W = tile.map / tile.cast ...     one or more elementwise ops, each used
//                                    once, over leaves:
//     - a tensor [N, K] (int8 values, read tile by tile),
//     - tile.unpack P, P [N, K / 2] (4-bit values, two per byte),
//     - tile.repeat S dim = 1 times = g, S [N, K / g] or the tile.transpose
//       of S' [K / g, N] (one scale or zero point per g values of a row),
//     - tile.broadcast V [1], V [N] (one per row).
//
// tile-configure keeps each product's K within g (a product reads one
// column of S; a step of several whole groups is read in products of one,
// productStepK), tile-fuse puts the ops into the matmul's group, and tile-tile builds
// each step's B tile from the leaves' tiles (TileFusedGroups.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_WEIGHTPROLOGUE_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_WEIGHTPROLOGUE_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include <optional>

namespace mlir {
namespace tile {

struct WeightPrologue {
  TransposeOp transpose; // B = transpose(W)
  Value weight;          // W, [N, K]
  /// Every op that computes W (the elementwise chain and the leaves'
  /// unpacks, repeats, broadcasts and transposes), in block order.
  SmallVector<Operation *> ops;
  /// The greatest common divisor of the repeat factors along K (0 without
  /// repeats): each product's K (productStepK) must divide it.
  int64_t group = 0;
};

/// The weight prologue of `matmul`'s B, or none. Every op of it is used
/// once, inside it, and sits in the matmul's block.
std::optional<WeightPrologue> matchWeightPrologue(MatmulOp matmul);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_WEIGHTPROLOGUE_H
