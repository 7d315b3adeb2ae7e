//===- TileMma.cpp - Each tensor-core tile.dot to its instructions -*- C++
//-*-===//
//
// tile-mma: rewrites each tile.dot in place, the way Triton's
// AccelerateMatmul rewrites one tt.dot, leaving the kernel around it as
// it is:
// - #tile.mma<wgmma> accumulator, operands in shared memory (tile-promote;
//   A may be in registers, #tile.dot_operand):
//   tile.wgmma (issue, asynchronous; uniform_warp where the kernel's config
//   has it) and tile.wgmma_wait {pending = 0} (the finished product);
//   tile-pipeline relaxes the wait in a K loop;
// - #tile.mma<mma_sync> accumulator: each operand converted to its
//   #tile.dot_operand layout (ldmatrix from shared memory), and the dot,
//   now on registers in the instruction's own fragments, lowers to
//   mma.sync.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileLayouts.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#define DEBUG_TYPE "tile-mma"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEMMAPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

struct TileMmaPass : public tile::impl::TileMmaPassBase<TileMmaPass> {
  void runOnOperation() override {
    SmallVector<DotOp> dots;
    getOperation().walk([&](DotOp dot) { dots.push_back(dot); });
    for (DotOp dot : dots)
      if (failed(rewrite(dot)))
        return signalPassFailure();
  }

  LogicalResult rewrite(DotOp dot) {
    auto acc = cast<TileType>(dot.getAcc().getType());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(acc.getLayout());
    if (!mma)
      return success(); // a SIMT dot
    OpBuilder b(dot);
    Location loc = dot.getLoc();
    if (mma.getKind() == MmaKind::wgmma) {
      if (dot.getKRuns())
        return dot.emitOpError()
               << "takes k_runs on mma.sync only (wgmma reads B in its own "
                  "K order)";
      auto lhs = cast<TileType>(dot.getLhs().getType());
      bool lhsReady = isSharedTile(lhs) ||
                      isa_and_nonnull<DotOperandLayoutAttr>(lhs.getLayout());
      if (!lhsReady || !isSharedTile(dot.getRhs().getType()))
        return dot.emitOpError()
               << "needs its operands in shared memory (A also in registers) "
                  "for wgmma (run tile-promote first)";
      // The kernel's config says whether its warp index is the one
      // broadcast from lane 0 (uniform_warp).
      auto kernel = dot->getParentOfType<KernelOp>();
      auto config =
          kernel ? kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName())
                 : ConfigAttr();
      bool uniformWarp = config && config.getUniformWarp();
      auto issued = WgmmaOp::create(b, loc, acc, dot.getLhs(), dot.getRhs(),
                                    dot.getAcc(), dot.getLhsKRunsAttr(),
                                    uniformWarp ? b.getUnitAttr() : UnitAttr());
      auto done = WgmmaWaitOp::create(b, loc, acc, issued, /*pending=*/0);
      dot.replaceAllUsesWith(done.getResult());
      dot.erase();
      return success();
    }
    if (dot.getLhsKRuns())
      return dot.emitOpError()
             << "takes lhs_k_runs on wgmma only (its A in registers; "
                "mma.sync takes a weight as B, under k_runs)";
    // An operand tile-promote left in registers (a weight computed there,
    // k_width > 2) sets the K order the other must take.
    // Under k_runs = W, B's stored order is the fragments' runs of W and
    // A keeps its own (ldmatrix).
    unsigned kWidth = 2;
    for (Value operand : {dot.getLhs(), dot.getRhs()})
      if (auto given = dyn_cast_or_null<DotOperandLayoutAttr>(
              cast<TileType>(operand.getType()).getLayout()))
        kWidth = given.getKWidth();
    std::array<unsigned, 2> kWidths = {kWidth, kWidth};
    if (std::optional<int64_t> runs = dot.getKRuns())
      kWidths = {2, unsigned(*runs)};
    for (unsigned index = 0; index < 2; ++index) {
      OpOperand &operand = dot->getOpOperand(index);
      auto type = cast<TileType>(operand.get().getType());
      auto layout = DotOperandLayoutAttr::get(b.getContext(), index, mma,
                                              kWidths[index]);
      if (type.getLayout() == layout)
        continue;
      auto emit = [&]() -> InFlightDiagnostic {
        return dot.emitOpError()
               << "cannot take its operand #" << index << " as mma.sync's: ";
      };
      auto to = TileType::getChecked(
          function_ref<InFlightDiagnostic()>(emit), b.getContext(),
          type.getShape(), type.getElementType(), Attribute(layout),
          Attribute());
      if (!to)
        return failure();
      operand.set(ConvertLayoutOp::create(b, loc, to, operand.get()));
    }
    return success();
  }
};

} // namespace
