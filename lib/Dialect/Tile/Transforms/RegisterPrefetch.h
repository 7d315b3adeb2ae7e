//===- RegisterPrefetch.h - A K loop's register loads an iteration early -*- C++ -*-===//
//
// Shared by tile-pipeline (a loop's own K loop) and tile-warp-specialize
// (each consumer partition's loop under k_warpgroups, whose start and step
// are only final there): the loop-slice utilities and the prefetch of
// loads into registers by one iteration, carried in iter_args.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_REGISTERPREFETCH_H
#define TILE_DIALECT_TILE_TRANSFORMS_REGISTERPREFETCH_H

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace tile {

/// The buffer a memref value views: through subviews, reshapes and casts
/// to the value they start from (a kernel argument, a shared buffer).
Value rootBuffer(Value memref);

/// Whether an op in `region` writes through a view of `buffer`.
bool writesTo(Region &region, Value buffer);

/// A loop's constant start, step and trip count (at least one).
struct ConstantBounds {
  int64_t lower, step, trips;
  /// The induction variable of the last iteration.
  int64_t last() const { return lower + (trips - 1) * step; }
};
/// The loop's bounds if they are constants with a positive step and at
/// least one iteration.
std::optional<ConstantBounds> constantBounds(scf::ForOp loop);

/// A loop's trip count where it is one constant, or one of two: constant
/// start and step with an upper bound that is a select of two constants
/// (a stream-K kernel's whole tiles and parts of stream_k_part steps),
/// each count at least one; `choice` is the select's condition (null for
/// one count).
struct TripCounts {
  SmallVector<int64_t, 2> counts;
  Value choice;
};
std::optional<TripCounts> tripCounts(scf::ForOp loop);

/// Whether `values` are pure arithmetic and views (no regions) of the
/// loop's induction variable and values from outside the loop.
bool clonableAtAnyIteration(scf::ForOp loop, ValueRange values);

/// The ops of the loop's body that `values` are computed from (those after
/// `after`, if given), in the body's order.
SmallVector<Operation *> sliceInBody(scf::ForOp loop, ValueRange values,
                                     Operation *after = nullptr);

/// Clones the loop's ops that `values` are computed from, in program order,
/// into `b` with the induction variable mapped to `iv`.
void cloneSliceAt(scf::ForOp loop, OpBuilder &b, ValueRange values, Value iv,
                  IRMapping &mapping);

/// A clone of `load` (in the loop's body) at induction variable value `iv`.
Value loadAt(scf::ForOp loop, OpBuilder &b, LoadOp load, Value iv);

/// The loop's loads into registers (a dequantized weight's scales) issued
/// an iteration early, so that their latency overlaps a step instead of
/// stalling it: iteration 0's before the loop, iteration i + 1's (the last
/// iteration's again in the last one, in bounds) where iteration i's was,
/// carried in iter_args. Only with a constant trip count of at least 1, and
/// for loads from global memory of buffers nothing in the loop writes (not
/// a ring slot's, which is filled only after the next step's wait).
/// `l2Fetch` (the config's l2_fetch, 0 for none) goes on the loads it
/// moves as their `l2_fetch`. Returns the loop (a new op where loads were
/// carried).
[[nodiscard]] scf::ForOp prefetchRegisterLoads(scf::ForOp loop,
                                               int64_t l2Fetch = 0);
/// The same for a loop whose start is known only at run time (a replicated
/// partition's share of a K loop, which may be empty): `last` is an
/// induction variable value every load is in bounds at (the whole loop's
/// last), and the loads run at min(iv, last).
[[nodiscard]] scf::ForOp prefetchRegisterLoads(scf::ForOp loop, int64_t last,
                                               int64_t l2Fetch);

/// Sets `load`'s l2_fetch to `bytes` (the config's l2_fetch; nothing for
/// 0).
void setL2Fetch(LoadOp load, int64_t bytes);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_REGISTERPREFETCH_H
