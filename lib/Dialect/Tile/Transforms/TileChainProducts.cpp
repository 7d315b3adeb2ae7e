//===- TileChainProducts.cpp - Products into one sum waited for once -*- C++ -*-===//
//
// tile-chain-products: tile-mma gives every tile.wgmma its own
// tile.wgmma_wait {pending = 0}. Where that wait's result only feeds the
// accumulator of the next tile.wgmma of the same block, the wait is
// dropped and the next product takes the first one's result while it is
// in flight: wgmma orders the products of one accumulator itself, and the
// wait after the last one covers them all. A K step of several products
// (a dequantized weight's groups: eight a step for MXFP4 at 16x8192x8192)
// then waits once a step, not once a product, and the decode of one
// product runs while the tensor cores do the last.
//
// The wait is kept where an op between it and the next product, or
// between that product and the wait that retires both, could see an
// unfinished product: one that writes memory (a tile.arrive giving the
// ring's slot back, a store), one that makes a shared tile (a tile.load
// into shared memory: its buffer could be an operand's), or one with
// regions of its own. Reads into registers (the next product's weight
// words from the ring), register math, views and waits on the ring's full
// barriers may run before the products end.
// Runs after tile-warp-specialize, so that the passes before it see one
// wait a product.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileLayouts.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define DEBUG_TYPE "tile-chain-products"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILECHAINPRODUCTSPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Whether `op` may run while a product it does not read is in flight:
/// it writes no memory, has no regions, and makes no shared tile but a
/// view (a tile loaded into shared memory takes a buffer that could be
/// an unfinished product's operand's; a ring wait only waits).
bool mayRunUnderProduct(Operation &op) {
  if (isa<nvgpu::MBarrierTryWaitParityOp>(op))
    return true;
  if (op.getNumRegions() != 0)
    return false;
  if (!isa<ViewOp, TransposeOp>(op) &&
      llvm::any_of(op.getResultTypes(),
                   [](Type type) { return isSharedTile(type); }))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  return !effects.hasEffect<MemoryEffects::Write>() &&
         !effects.hasEffect<MemoryEffects::Allocate>() &&
         !effects.hasEffect<MemoryEffects::Free>();
}

/// The tile.wgmma whose accumulator is `wait`'s result, if that is its
/// only use, it is in the wait's block, and everything between them may
/// run under the unfinished product.
WgmmaOp chainedProduct(WgmmaWaitOp wait) {
  if (wait.getPending() != 0 || !wait->hasOneUse())
    return {};
  OpOperand &use = *wait->getUses().begin();
  auto next = dyn_cast<WgmmaOp>(use.getOwner());
  if (!next || &use != &next.getAccMutable() ||
      next->getBlock() != wait->getBlock())
    return {};
  for (Operation *op = wait->getNextNode(); op != next.getOperation();
       op = op->getNextNode())
    if (!mayRunUnderProduct(*op))
      return {};
  // The first product now stays in flight past `next` too, up to the first
  // wait that retires it: the ops there must let it run as well (further
  // products of the chain are checked by their own waits).
  int64_t issuedAfter = 1;
  for (Operation *op = next->getNextNode(); op; op = op->getNextNode()) {
    if (auto later = dyn_cast<WgmmaWaitOp>(op))
      return static_cast<int64_t>(later.getPending()) <= issuedAfter ? next
                                                                : WgmmaOp();
    if (isa<WgmmaOp>(op))
      ++issuedAfter;
    else if (!mayRunUnderProduct(*op))
      return {};
  }
  return {};
}

struct TileChainProductsPass
    : public tile::impl::TileChainProductsPassBase<TileChainProductsPass> {
  void runOnOperation() override {
    SmallVector<WgmmaWaitOp> waits;
    getOperation().walk([&](WgmmaWaitOp wait) {
      if (chainedProduct(wait))
        waits.push_back(wait);
    });
    for (WgmmaWaitOp wait : waits) {
      wait.getResult().replaceAllUsesWith(wait.getInput());
      wait.erase();
    }
  }
};

} // namespace
