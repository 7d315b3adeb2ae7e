//===- TileTmaStore.cpp - Epilogue stores through the TMA -------*- C++ -*-===//
//
// tile-tma-store: in a kernel whose config has `tma_store`, each tile.store
// of a register tile in a #tile.mma layout (warps along M) into a kernel
// argument (global memory, static, row-major, rows of 16-byte multiples,
// that nothing else in the kernel reads or writes) becomes a
// tile.tma_store: through a staging buffer of two column blocks of the
// tile's rows x 128 bytes (one where the tile is one block) and a TMA
// descriptor of the argument whose box is one such block, swizzled by 128
// bytes (so that the fragments' 4-byte writes of 8 rows fall in 8
// different banks). The SIMT lowering writes a block, hands it to the TMA
// from one thread and goes on to the next, where tile.store's lowering
// writes each block, reads it back in rows of 16-byte runs and stores
// those from every thread (CUTLASS's and cuBLAS's Hopper epilogues store
// through the TMA).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileLayouts.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#define DEBUG_TYPE "tile-tma-store"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILETMASTOREPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Bytes of one staging block's row: the TMA's 128-byte swizzle span.
constexpr int64_t kBlockBytes = 128;

/// The kernel argument `store` writes, where the TMA can store its tile:
/// a static, row-major rank-2 memref in global memory with rows of
/// 16-byte multiples, of elements of 1, 2 or 4 bytes, that nothing else in
/// the kernel reads or writes (the copies are asynchronous); the tile in a
/// #tile.mma layout whose warps are along M (a warp's columns then lie in
/// one 128-byte block), of whole blocks and at most 256 rows.
BlockArgument tmaDestination(KernelOp kernel, StoreOp store) {
  auto arg = dyn_cast<BlockArgument>(store.getDest());
  if (!arg || arg.getOwner() != &kernel.getBody().front() || !arg.hasOneUse())
    return {};
  auto type = cast<TileType>(store.getValue().getType());
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(type.getLayout());
  MemRefType dest = store.getDest().getType();
  int64_t bits = type.getElementTypeBitWidth();
  if (!mma || mma.getWarps()[1] != 1 || type.getRank() != 2 ||
      !llvm::is_contained({8, 16, 32}, bits) || dest.getMemorySpace() ||
      !dest.hasStaticShape() || !dest.getLayout().isIdentity() ||
      dest.getRank() != 2 || dest.getElementType() != type.getElementType() ||
      (dest.getDimSize(1) * bits / 8) % 16 != 0 || type.getDimSize(0) > 256 ||
      (type.getDimSize(1) * bits / 8) % kBlockBytes != 0)
    return {};
  return arg;
}

struct TileTmaStorePass
    : public tile::impl::TileTmaStorePassBase<TileTmaStorePass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      auto config =
          kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      if (config && config.getTmaStore())
        rewrite(kernel);
    });
  }

  void rewrite(KernelOp kernel) {
    SmallVector<std::pair<StoreOp, BlockArgument>> stores;
    kernel.walk([&](StoreOp store) {
      if (BlockArgument dest = tmaDestination(kernel, store))
        stores.push_back({store, dest});
    });
    Block &body = kernel.getBody().front();
    OpBuilder top = OpBuilder::atBlockBegin(&body);
    OpBuilder host(kernel);
    MLIRContext *ctx = kernel.getContext();
    auto workgroup =
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    // One descriptor per argument and box.
    llvm::DenseMap<std::pair<unsigned, int64_t>, Value> descriptors;
    for (auto [store, dest] : stores) {
      auto type = cast<TileType>(store.getValue().getType());
      int64_t rows = type.getDimSize(0);
      int64_t blockCols = kBlockBytes / (type.getElementTypeBitWidth() / 8);
      Value &desc = descriptors[{dest.getArgNumber(), rows}];
      if (!desc) {
        Value made = TmaDescriptorOp::create(
            host, kernel.getLoc(), LLVM::LLVMPointerType::get(ctx),
            kernel.getArgs()[dest.getArgNumber()],
            host.getDenseI64ArrayAttr({rows, blockCols}), kBlockBytes);
        kernel.getArgsMutable().append(made);
        desc = body.addArgument(made.getType(), kernel.getLoc());
      }
      // Two slots, so that one block is written while the TMA reads the
      // other; a tile of one block takes one.
      int64_t slots = type.getDimSize(1) > blockCols ? 2 : 1;
      Value staging = SharedOp::create(
          top, store.getLoc(),
          MemRefType::get({slots, rows, blockCols}, type.getElementType(),
                          MemRefLayoutAttrInterface(), workgroup));
      OpBuilder b(store);
      TmaStoreOp::create(b, store.getLoc(), store.getValue(), dest, desc,
                         store.getIndices(), staging);
      store.erase();
    }
  }
};

} // namespace
