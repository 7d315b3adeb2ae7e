//===- SIMTLowering.h - What convert-tile-to-simt's files share -*- C++ -*-===//
//
// Private to lib/Conversion/TileToSIMT: the state of one gpu.launch being
// lowered (threads, thread ids, shared memory) and the per-layout
// addressing every pattern uses, and the entry points of the pattern
// files:
//   TileToSIMT.cpp     the pass, the blocked (SIMT) layout's patterns
//   LinearLayouts.cpp  reductions, broadcasts and stores of MMA-family tiles
//   SharedMemory.cpp   tiles in shared memory, copies, barriers, layouts
//   TensorCores.cpp    wgmma, mma.sync and ldmatrix
//   Partitions.cpp     tile.warp_specialize
//
// A register tile becomes vector<S x T> in each thread: S slots, from its
// layout (docs/layouts.md). A tile in shared memory becomes a flat
// memref<N x T, workgroup> of its bytes (its #tile.shared layout says where
// each element is).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_CONVERSION_TILETOSIMT_SIMTLOWERING_H
#define TILE_LIB_CONVERSION_TILETOSIMT_SIMTLOWERING_H

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileLayouts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace tile {
namespace simt {

/// An index constant.
inline Value idx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Whether (row, col) lies inside a rows x cols buffer (unsigned compares,
/// so negative coordinates are outside). One op per statement: the order
/// of a call's arguments is unspecified, and the ops would come out in the
/// host compiler's order.
inline Value insideRowsCols(OpBuilder &b, Location loc, Value row, Value col,
                            int64_t rows, int64_t cols) {
  Value rowBound = idx(b, loc, rows);
  Value rowInside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rowBound);
  Value colBound = idx(b, loc, cols);
  Value colInside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col, colBound);
  return arith::AndIOp::create(b, loc, rowInside, colInside);
}

/// A reduction's combiner region applied to two scalars (its ops cloned
/// at `b`).
Value combineScalars(OpBuilder &b, Region &combiner, Value x, Value y);

/// The warp index of `scope` (the launch's body or a tile.warp_specialize
/// partition), `threadId / 32` broadcast from lane 0 (ThreadScope::warpId),
/// built at `b`'s insertion point, where every lane of the warp runs;
/// null where no uniform_warp tile.wgmma of the scope (outside its
/// partitions) needs it.
Value uniformWarpIndex(OpBuilder &b, Location loc, Region &scope,
                       Value threadId);

/// `threadId / 32` broadcast from lane 0 (so that ptxas knows it is the
/// same in every lane), built at `b`'s insertion point.
Value broadcastWarpIndex(OpBuilder &b, Location loc, Value threadId);

/// Bytes one element of `type` takes in memory (an i1 takes a byte).
inline int64_t storageBytes(Type type) {
  return (type.getIntOrFloatBitWidth() + 7) / 8;
}

/// The threads an op runs on: the launch's, or a tile.warp_specialize
/// partition's (counted from 0 in the partition).
struct ThreadScope {
  Value threadId;
  int64_t threads = 0;
  /// The named barrier of the scope: 0 is the whole launch (bar.sync 0),
  /// the partitions take 1, 2, ... in order, a replicated partition one
  /// for each copy (copy r: barrierId + r).
  int64_t barrierId = 0;
  /// The partition's region (null for the launch).
  Region *region = nullptr;
  /// A partition without register tiles runs on its first thread alone
  /// (see Partitions.cpp).
  bool singleThread = false;
  /// The warp index in the scope (threadId / 32), broadcast from lane 0 at
  /// the scope's start so that ptxas knows it is the same in every lane
  /// (CUTLASS's canonical_warp_idx_sync): what is computed from it, as
  /// wgmma's descriptors, can stay in uniform registers. Made where the
  /// scope has a uniform_warp tile.wgmma (never in a single-thread
  /// partition, where a shuffle of the whole warp cannot run), else null.
  Value warpId;
  /// Which copy of a replicated partition the thread runs (uniform in a
  /// copy); null where the scope has one copy.
  Value replica;
};

/// The layout of tiles in one launch, and the shared memory its ops need.
struct SIMTLayout {
  int64_t threads = 0;
  Value threadId;  // in the current scope (see enter)
  Value warpId;    // the scope's uniform warp index (ThreadScope::warpId)
  int64_t barrierId = 0;
  Value replica;               // ThreadScope::replica
  Region *partition = nullptr; // of the current scope, null for the launch
  ThreadScope launch;
  /// Partition regions of tile.warp_specialize ops -> their scope.
  llvm::DenseMap<Region *, ThreadScope> partitions;
  int64_t sharedBytes = 0; // the largest scratch any op needs
  // tile.shared buffers and tiles that live in shared memory come first in
  // the dynamic shared memory, at these offsets; the ops' own scratch
  // starts after them.
  int64_t reservedBytes = 0;
  llvm::DenseMap<Operation *, int64_t> sharedOffsets;
  /// With buffers that need 1024-byte alignment (swizzled tiles), offsets
  /// count from a base aligned at run time (`alignedBase`, bytes past the
  /// dynamic shared memory's start), and the launch asks for 1 KB more.
  bool alignBase = false;
  Value alignedBase;
  // cp.async exists (sm_80+); else copies go through registers.
  bool asyncCopies = true;
  /// wgmma (the async proxy) reads shared memory that threads write: those
  /// writes need a proxy fence (sm_90 only).
  bool asyncProxyReads = false;
  int64_t vectorWidth = 1; // run length: 16 bytes of the narrowest type
  /// Partitions whose ops use the scratch region (at most one may).
  llvm::SmallPtrSet<Region *, 2> scratchUsers;
  /// The then-regions of `scf.if tile.replica == 0` in replicated
  /// partitions: what copy 0 alone runs (Partitions.cpp), which may use the
  /// scratch region; where the first op of another copy that did is, and
  /// its name (an error; the op itself is gone by then).
  llvm::SmallPtrSet<Region *, 2> firstCopyRegions;
  std::optional<std::pair<Location, std::string>> replicatedScratchUser;
  Operation *current = nullptr; // the op of the last enter()
  bool inFirstCopy = false;     // it is in a firstCopyRegions region

  /// Makes `op`'s thread scope current: the partition around it, if any.
  void enter(Operation *op);

  int64_t slots(TileType type) const {
    return getSlotsPerThread(type, threads);
  }
  VectorType vectorType(TileType type) const {
    return VectorType::get({slots(type)}, type.getElementType());
  }
  VectorType indexVector(TileType type) const {
    return VectorType::get({slots(type)}, IndexType::get(type.getContext()));
  }

  Value splat(OpBuilder &b, Location loc, VectorType type, Value scalar) const {
    return vector::BroadcastOp::create(b, loc, type, scalar);
  }
  Value indexSplat(OpBuilder &b, Location loc, VectorType type,
                   int64_t value) const {
    return arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, b.getIndexAttr(value)));
  }

  /// Consecutive elements a thread holds in a row (docs/layouts.md): a
  /// #tile.blocked layout's run; without a layout, the launch's run length
  /// where the tile splits evenly into runs, else 1; 1 for linear layouts.
  int64_t runOf(TileType type) const;

  /// Blocked layout: the position of slot k's element before wrapping: with
  /// runs of V, ((k / V) * T + t) * V + k % V; V = 1 gives k * T + t.
  Value rawPositions(OpBuilder &b, Location loc, TileType type) const;
  /// Blocked layout: row-major linear index of the element each slot holds.
  Value positions(OpBuilder &b, Location loc, TileType type) const;
  /// Blocked layout: per-dimension coordinates of linear positions.
  SmallVector<Value> coordinates(OpBuilder &b, Location loc, TileType type,
                                 Value linear) const;

  /// Any register layout: per dimension, an index vector of the coordinate
  /// of the element each slot holds.
  SmallVector<Value> slotCoordinates(OpBuilder &b, Location loc,
                                     TileType type) const;
  /// A linear layout: per dimension, the scalar coordinate this thread's
  /// lane and warp add (slot s then adds its compile-time slotOffset(s)).
  /// Addressing as (thread part + tile offset) + slot constant leaves the
  /// slot's part an immediate offset of one address per thread; a per-slot
  /// address is loop-invariant, and LLVM hoists such addresses out of a
  /// persistent loop, one register each (164 bytes of spills in GEMM + bias).
  SmallVector<Value> threadCoordinates(OpBuilder &b, Location loc,
                                       TileType type) const;
  /// Any register layout: true for the one copy of each element that
  /// stores write (other threads or slots hold copies).
  Value owners(OpBuilder &b, Location loc, TileType type) const;
  /// Whether any thread or slot of `type` holds a copy.
  bool hasCopies(TileType type) const;

  Value allTrue(OpBuilder &b, Location loc, TileType type) const;

  /// A view of `numElements` elements of `elementType` at `byteOffset` in
  /// the launch's scratch region; records the bytes needed.
  Value sharedView(OpBuilder &b, Location loc, Type elementType,
                   int64_t numElements, int64_t byteOffset);
  /// A view of `numElements` of `elementType` at `byteOffset` (a Value,
  /// bytes past the aligned base) of the dynamic shared memory.
  Value sharedViewAt(OpBuilder &b, Location loc, Type elementType,
                     int64_t numElements, Value byteOffset) const;
  /// The byte offset (past the dynamic shared memory's start) of the
  /// aligned base, 0 without alignment.
  Value baseOffset(OpBuilder &b, Location loc) const;

  /// Writes a tile held in `value` to the shared view `buffer`, row-major.
  void writeShared(OpBuilder &b, Location loc, TileType type, Value value,
                   Value buffer) const;
  /// Reads, for each slot, element `indices[slot]` of the shared view.
  Value readShared(OpBuilder &b, Location loc, TileType slotsOf,
                   Type elementType, Value buffer, Value indices) const;

  /// All threads of the current scope wait for each other.
  void barrier(OpBuilder &b, Location loc) const;
};

template <typename OpTy>
class SIMTPattern : public OpConversionPattern<OpTy> {
public:
  SIMTPattern(const TypeConverter &converter, MLIRContext *ctx,
              SIMTLayout &layout, PatternBenefit benefit = 1)
      : OpConversionPattern<OpTy>(converter, ctx, benefit), layout(layout) {}

protected:
  SIMTLayout &layout;
};

/// Global coordinates and in-bounds mask of each slot of a tile at
/// `offsets` in a memref: a linear index into the flattened memref.
std::pair<Value, Value> globalAccess(OpBuilder &b, Location loc,
                                     const SIMTLayout &layout, TileType type,
                                     MemRefType memrefType, ValueRange offsets);

/// A 1-D view of a static, identity-layout memref.
Value flatten(OpBuilder &b, Location loc, Value memref);

/// A run of `type` read at `indices` of `memref` (vector.load, aligned to
/// `alignBytes`). With `l2Fetch` (a tile.load's l2_fetch) and a run of 2,
/// 4 or 8 bytes from global memory, PTX `ld.global.L2::<l2Fetch>B`
/// instead: the L2 fetches that many bytes around it.
Value loadRun(OpBuilder &b, Location loc, VectorType type, Value memref,
              ValueRange indices, int64_t alignBytes,
              std::optional<int64_t> l2Fetch);
/// fence.proxy.async where a wgmma of the kernel reads shared memory: the
/// generic-proxy writes before it (stores, cp.async copies) become visible
/// to the async proxy.
void fenceAsyncProxy(OpBuilder &b, Location loc, const SIMTLayout &layout);

/// A TMA descriptor that arrives as a pointer to its 128 bytes (see
/// tile.tma_descriptor) typed as nvgpu wants it: a box of `box`, swizzled
/// by `swizzle` bytes (0, 32, 64 or 128).
Value typedTmaDescriptor(OpBuilder &b, Location loc, Value pointer,
                         MemRefType box, int64_t swizzle);

/// Index arithmetic of the byte offset of each slot's element in a tile in
/// shared memory: `row` and `col` are index values (or vectors of them);
/// `startByte` as sharedByteOffset's (a swizzled tile that starts inside
/// its column block's rows).
Value sharedByteOffsetValue(OpBuilder &b, Location loc, TileType sharedType,
                            Value row, Value col, int64_t startByte = 0);

/// The element offset a compile-time (row, col) of a shared tile has in
/// its flat memref.
inline int64_t sharedElementOffset(TileType type, int64_t row, int64_t col) {
  int64_t bytes = storageBytes(type.getElementType());
  return sharedByteOffset(cast<SharedLayoutAttr>(type.getLayout()),
                          type.getShape(), bytes, row, col) /
         bytes;
}

/// Bytes `type`, a tile in shared memory, takes.
inline int64_t sharedBytesOf(TileType type) {
  return sharedTileBytes(cast<SharedLayoutAttr>(type.getLayout()),
                         type.getShape(), storageBytes(type.getElementType()));
}

void populateLinearLayoutPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  SIMTLayout &layout);
void populateSharedMemoryPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  SIMTLayout &layout);
void populateTensorCorePatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns,
                                SIMTLayout &layout);

/// Before the conversion: each partition's thread scope (a local thread
/// id made at the top of its region).
LogicalResult preparePartitions(gpu::LaunchOp launch, SIMTLayout &layout);
/// After it: tile.warp_specialize -> if/else on the thread id, setmaxnreg.
LogicalResult lowerPartitions(gpu::LaunchOp launch, SIMTLayout &layout);

} // namespace simt
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_CONVERSION_TILETOSIMT_SIMTLOWERING_H
