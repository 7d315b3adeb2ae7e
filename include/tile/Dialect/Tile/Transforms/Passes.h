//===- Passes.h - Tile dialect transformation passes ------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tile {

/// Spins of one mbarrier try_wait before it reports and is retried: the
/// waits tile-pipeline (a ring's slots) and tile-warp-specialize
/// (k_warpgroups' hand-off) make.
constexpr int64_t kWaitTicks = 10000000;

#define GEN_PASS_DECL
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_H
