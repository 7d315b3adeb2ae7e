//===- DecodeAhead.h - A K loop's register operand a step early -*- C++ -*-===//
//
// Used by tile-warp-specialize on each consumer partition's K loop (its
// start and step are final only there), before the scales' prefetch.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_DECODEAHEAD_H
#define TILE_DIALECT_TILE_TRANSFORMS_DECODEAHEAD_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir {
namespace tile {

/// In a K loop whose step is a chain of two or more products with
/// register A operands computed in the loop (a dequantized weight: ring
/// wait, shared-memory read, decode), each product waited for (pending 0)
/// and feeding the next one's accumulator, the first product's operand is
/// computed a step ahead, while the tensor cores run the products,
/// CUTLASS's mixed-input schedule:
///   operand 1 of step 0
///   for each step j but the last:
///     issue product 1 (its operand computed last step)
///     for k = 2 .. N: compute operand k of step j (under product k - 1),
///       issue product k on product k - 1's accumulator, in flight, then
///       wait for product k - 1 (pending 1)
///     compute operand 1 of step j + 1       (under product N)
///     wait for product N; the rest of the step (the ring slot's release)
///   the last step, the same without operand 1 of a next step
/// Each compute runs while one product group is in flight, and nothing is
/// in flight across the back edge (ptxas would serialize every wgmma).
/// Operand 1's ring wait is done a step early (the body's own wait on that
/// slot then returns at once), before the step's slot goes back: the
/// caller must know the next step's slot is another one (a ring of more
/// stages than the loops that share it), or the wait never ends. Products
/// are issued earlier and waited for later than before: a loop with a
/// memory write or a release (an arrival) before its last wait is left,
/// and so is one whose operand's shared read has no ring wait before it.
/// In the SASS ptxas still puts the last product's wait before the next
/// step's first decode (bench/RESULTS.md, session 37). Only with a constant trip count of at least
/// two; otherwise, or where the loop is not of this form, the loop is left
/// as it is. Returns the loop (the new one where it changed).
[[nodiscard]] scf::ForOp decodeOperandAhead(scf::ForOp loop);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_DECODEAHEAD_H
