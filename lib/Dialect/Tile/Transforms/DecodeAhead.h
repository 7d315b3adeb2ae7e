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
/// and feeding the next one's accumulator, each operand is computed while
/// the product before it runs, the first one's a step ahead under the
/// last product of the step before, CUTLASS's mixed-input schedule:
///   operand 1 of step 0; step 0 (as below, but nothing before it), its
///   sum waited for (pending 0: nothing in flight enters the loop)
///   for steps j = 1 .. N - 2, the sum carried in flight:
///     issue product 1 on the carried sum (its operand from step j - 1)
///     wait for step j - 1's last product (pending 1), then what followed
///       its wait (the ring slot's release), at step j - 1
///     for k = 2 .. N: compute operand k (under product k - 1), issue
///       product k on product k - 1 in flight, wait for k - 1 (pending 1)
///     compute operand 1 of step j + 1 (under product N)
///   step N - 1 the same, without a next operand; then its sum waited for
///   (pending 0) and what followed its wait
/// Every write of a product's operand registers follows the wait for the
/// product that read them, so ptxas keeps the products asynchronous (an
/// in-flight sum entering the loop from before it is copied, and ptxas
/// then serializes every wgmma: C7512). Operand 1's ring wait is done a
/// step early (the body's own wait on that slot then returns at once),
/// and a step's slot goes back only in the next step: the caller must know
/// the ring has a slot for each loop's step and one for its next (2 G
/// stages for G loops sharing it), or the waits never end. A loop is left as it is where a memory
/// write or a release comes before its last wait (products are issued
/// earlier and waited for later), where what follows the last wait reads
/// more than the induction variable, where the operand's shared read has
/// no ring wait before it, and without a constant trip count of at least
/// two. Returns the loop (the new one where it changed).
[[nodiscard]] scf::ForOp decodeOperandAhead(scf::ForOp loop);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_DECODEAHEAD_H
