//===- AttentionPattern.h - softmax(Q K^T) V at the tensor level -*- C++ -*-===//
//
// Private to lib/Dialect/Tile/Transforms: the tensor-level shape of an
// attention block that tile-fuse groups and tile-tile turns into one
// FlashAttention kernel (TileAttention.cpp):
//
//   S = tile.matmul Q, Kt            Kt: a tensor, or tile.transpose K
//   X = tile.map S, ...              zero or more: scale, masks (their other
//                                    operands tile.iota positions or scalars)
//   M = tile.reduce X (max) dim 1;   E = tile.map X, broadcast M: exp(x - m)
//                                    (or exp of a tile.map x - m)
//   L = tile.reduce E (add) dim 1;   P = tile.map E, broadcast L: e / l
//   [P = tile.cast P]                to the element type of V
//   O = tile.matmul P, V
//
// With grouped-query attention, K and V come through a tile.repeat of their
// head dimension (the third from last) by one factor, or, with one K/V
// head, a tile.broadcast inserting it: the kernel reads head h's keys from
// head h / groups, so the repeated K and V are never made.
//
// every intermediate used only inside the block. The online form keeps M
// and L per query row across key blocks; the [Sq, Sk] scores never reach
// memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_ATTENTIONPATTERN_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_ATTENTIONPATTERN_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include <optional>
#include <string>

namespace mlir {
namespace tile {

struct AttentionPattern {
  MatmulOp scores;             // S = Q Kt
  TransposeOp keysTransposed;  // Kt = transpose(K), if written so
  SmallVector<MapOp> scoreMaps;  // S -> X, in order
  SmallVector<IotaOp> positions; // the iotas the score maps read
  ReduceOp max, sum;
  BroadcastOp maxBroadcast, sumBroadcast;
  MapOp exp, normalize;
  MapOp shift;              // x - m, where exp is a map of its own
  Value x;                  // the scores after the score maps
  CastOp probabilitiesCast; // P to V's element type, if separate
  MatmulOp output;          // O = P V
  Value queries, keys, values; // keys: K if transposed in the block, else Kt
  /// Grouped-query attention: the repeat (or broadcast) of K's and V's
  /// heads, and the factor (query heads per K/V head; 1 without).
  Operation *keyHeads = nullptr, *valueHeads = nullptr;
  int64_t groups = 1;

  /// Every op of the block, in block order.
  SmallVector<Operation *> ops() const;
};

/// The attention block that ends in `output`, or none, with the reason in
/// `why` (the first part of the pattern that does not hold).
std::optional<AttentionPattern> matchAttention(MatmulOp output,
                                               std::string *why = nullptr);

/// Whether `map` (a score map) sends every score whose key comes after
/// its query to -inf: its result is select(key <= query, x, -inf), with
/// key and query the map's operands from tile.iota along the key and the
/// query dimension. Then no key block past a program's last query can
/// contribute, and the key loop stops there (skipped, not masked).
bool isCausalMask(MapOp map, int64_t rank);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_ATTENTIONPATTERN_H
