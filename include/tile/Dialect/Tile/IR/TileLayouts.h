//===- TileLayouts.h - Which thread holds which element ---------*- C++ -*-===//
//
// The layouts of the MMA family (#tile.mma, #tile.dot_operand, #tile.slice
// of those) as linear maps, the representation Triton's LinearLayout made
// standard: every bit of a (slot, lane, warp) triple moves the element by a
// fixed offset (its basis), and the element a thread's slot holds is the
// XOR of the bases of the bits set. A zero basis is a copy: the threads
// that differ in that bit hold the same element. Lowerings read the map to
// address elements, to find which lanes and slots a reduction folds, and
// which copies a store skips; verifiers read it to check shapes.
//
// In the layouts built here every basis is one power of two along one
// dimension and no two bases share a bit, so the XOR is a sum.
//
// Also: the byte offsets of #tile.shared layouts.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILELAYOUTS_H
#define TILE_DIALECT_TILE_IR_TILELAYOUTS_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>
#include <string>

namespace mlir {
namespace tile {

/// An element offset in a tile of rank 1 or 2 (the second entry is unused
/// for rank 1).
using Offset = std::array<int64_t, 2>;

struct LinearLayout {
  SmallVector<int64_t, 2> shape;
  SmallVector<Offset> slot, lane, warp;
  /// A repetition that is not a power of two, as the highest slot digit:
  /// slot s adds (s >> slot.size()) * outerStride to its bits' offset
  /// (a 128 x 192 accumulator: 128 x 64 repeated 3 times along N).
  int64_t outerCount = 1;
  Offset outerStride = {0, 0};

  int64_t getRank() const { return shape.size(); }
  int64_t getNumSlots() const {
    return (int64_t(1) << slot.size()) * outerCount;
  }
  int64_t getNumWarps() const { return int64_t(1) << warp.size(); }
  int64_t getNumThreads() const { return 32 * getNumWarps(); }

  /// The offset slot `s` adds (XOR of its bits' bases).
  Offset slotOffset(int64_t s) const;
  /// The element lane `l` of warp `w` holds in slot `s`.
  Offset apply(int64_t s, int64_t l, int64_t w) const;
  /// The bits of `slot` whose basis is zero: slots that repeat others.
  bool isCopySlot(int64_t s) const;
};

/// True for the layouts LinearLayout describes.
bool isLinearLayout(Attribute layout);

/// The map of `layout` on a tile of `shape`, or a message saying why the
/// shape does not fit it (in `why`). Also of a #tile.blocked layout where
/// its sizes are powers of two (though isLinearLayout is false for it: its
/// lowering computes its own addresses, it does not read the map).
FailureOr<LinearLayout> getLinearLayout(Attribute layout,
                                        ArrayRef<int64_t> shape,
                                        std::string *why = nullptr);

/// Slots per thread of `type`'s layout over `threads` threads: the linear
/// map's, else the blocked rule max(1, elements / threads).
int64_t getSlotsPerThread(TileType type, int64_t threads);

/// The layout a row (dim = 1) or column (dim = 0) reduction of a tile in
/// `layout` leaves its result in: #tile.slice<dim, layout> for the MMA
/// family, the same blocked layout otherwise, nothing without one.
Attribute getReducedLayout(Attribute layout, int64_t dim);

/// For a #tile.slice: which slot of the slice holds the value that slot
/// `s` of the parent broadcasts from (the parent's slot with the bits
/// whose bases the slice drops removed).
int64_t sliceSlotOf(const LinearLayout &parent, unsigned dim, int64_t s);

/// Where two register layouts of one shape differ only in the order of
/// each thread's slots (same lanes, same warps): for each slot of `to`,
/// the slot of `from` that holds its element (the identity where the maps
/// are the same). None where elements would have to move between threads.
std::optional<SmallVector<int64_t>>
getSlotPermutation(Attribute from, Attribute to, ArrayRef<int64_t> shape);
/// Where a register tile of `fromShape` in `from` and its transpose in
/// `to` keep every element in its thread (a dequantized weight [N, K] held
/// in runs along K, and mma.sync's B [K, N] of the matching k_width): for
/// each slot of `to`, the slot of `from` that holds its element. Either
/// layout may be #tile.blocked (as a linear map, where it is one).
std::optional<SmallVector<int64_t>>
getTransposeSlotPermutation(Attribute from, Attribute to,
                            ArrayRef<int64_t> fromShape);
/// Whether `type` is a tile in shared memory.
bool isSharedTile(Type type);
/// Whether `type` is a memref in global memory (no memory space, or the
/// GPU's global one).
bool isGlobalMemRef(Type type);
/// Whether the TMA copies `type` (a rank-2 tile in shared memory) as one
/// unswizzled box: no swizzle, padding, row xor or transposition, rows of
/// 16-byte multiples, at most 256 x 256 elements.
bool isWholeBoxTmaTile(TileType type);
/// Whether `type`'s bytes are a multiple of 128, the alignment TMA writes
/// shared memory at: a ring of such slots keeps every slot aligned
/// (convert-tile-to-simt aligns the ring's start).
bool isTmaAlignedSlot(TileType type);
/// The columns of one TMA box of `type`: a swizzle's width in elements, or
/// the whole row where it is unswizzled (isWholeBoxTmaTile).
int64_t tmaBoxCols(TileType type);

/// The byte offset of element (row, col) of a tile of `shape` with
/// `elementBytes`-byte elements under `layout` (#tile.shared), counted
/// from the tile's first byte; for compile-time rows and columns. A
/// swizzled tile's first byte must be 1024-byte aligned, or lie
/// `startByte` bytes into the rows of such a column block (a tile.view
/// `column` inside one: the swizzle permutes the block's 16-byte units,
/// so the tile's offsets depend on where in the rows it starts).
int64_t sharedByteOffset(SharedLayoutAttr layout, ArrayRef<int64_t> shape,
                         int64_t elementBytes, int64_t row, int64_t col,
                         int64_t startByte = 0);

/// Shared-memory wavefronts of one warp (warp 0 of `linear`, a register
/// layout of the tile) reading each run of `runBytes` (4, 8 or 16: a
/// load of that width) that starts at a slot of `linear` from a tile of
/// `shape` under `layout` (sharedByteOffset's `startByte`): loads of B
/// bytes go 128 / B lanes at a time, each such phase one wavefront per
/// distinct 4-byte word on its busiest bank. The model tile-promote and
/// tile-pipeline choose conflict-free layouts by.
int64_t sharedReadWavefronts(SharedLayoutAttr layout, ArrayRef<int64_t> shape,
                             int64_t elementBytes, const LinearLayout &linear,
                             int64_t runBytes, int64_t startByte = 0);

/// Bytes a tile of `shape` takes in shared memory under `layout`.
int64_t sharedTileBytes(SharedLayoutAttr layout, ArrayRef<int64_t> shape,
                        int64_t elementBytes);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_IR_TILELAYOUTS_H
