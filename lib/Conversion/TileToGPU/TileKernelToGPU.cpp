//===- TileKernelToGPU.cpp - tile.kernel to gpu.launch ----------*- C++ -*-===//
//
// Each tile.kernel becomes a gpu.launch over the same operands, named so
// that upstream gpu-kernel-outlining gives the outlined gpu.func the
// kernel's name (in a gpu.module of the same name). Reusing gpu.launch and
// the upstream outliner keeps host/device plumbing out of this project.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#define DEBUG_TYPE "convert-tile-kernel-to-gpu"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_CONVERTTILEKERNELTOGPUPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

static void convertKernel(KernelOp kernel) {
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  ArrayRef<int64_t> grid = kernel.getGrid();
  Value gridSize[3] = {index(grid[0]), index(grid.size() > 1 ? grid[1] : 1),
                       index(grid.size() > 2 ? grid[2] : 1)};
  Value one = index(1);
  auto name = FlatSymbolRefAttr::get(kernel.getSymNameAttr());
  Value sharedBytes;
  if (std::optional<uint64_t> bytes = kernel.getDynamicSharedMemory())
    sharedBytes = arith::ConstantIntOp::create(b, loc, b.getI32Type(), *bytes);
  // A config's cluster (tile.cluster_sum's programs): the grid stays the
  // number of programs, the cluster groups them.
  Value clusterSize[3] = {nullptr, nullptr, nullptr};
  if (auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      config && llvm::any_of(config.getCluster(),
                             [](int64_t size) { return size != 1; }))
    for (auto [i, size] : llvm::enumerate(config.getCluster()))
      clusterSize[i] = index(size);
  for (Value &size : clusterSize)
    if (clusterSize[0] && !size)
      size = one;
  auto launch = gpu::LaunchOp::create(
      b, loc, gridSize[0], gridSize[1], gridSize[2],
      index(kernel.getThreads()), one, one, sharedBytes, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, /*workgroupAttributions=*/{},
      /*privateAttributions=*/{}, clusterSize[0], clusterSize[1],
      clusterSize[2], /*module=*/name, /*function=*/name);
  // The builder gives the body the 12 ids and sizes of a launch without
  // clusters; with them the body also takes the cluster ids and sizes.
  Block &launchEntry = launch.getBody().front();
  if (launch.hasClusterSize())
    while (launchEntry.getNumArguments() <
           launch.getNumConfigRegionAttributes())
      launchEntry.addArgument(b.getIndexType(), loc);
  // Outlining drops it from the launch; tile-outline-kernels puts it on the
  // outlined function.
  if (std::optional<uint64_t> programs = kernel.getMinProgramsPerSm())
    launch->setAttr("nvvm.minctasm", b.getI32IntegerAttr(*programs));
  // setmaxnreg takes effect only under a register cap at entry
  // (__launch_bounds__(threads, 1), HOPPER.md). The cap's thread count,
  // nvvm.maxntid, upstream's gpu-to-nvvm gives every kernel from its known
  // block size (a second one here printed the key twice, which
  // `tile-compile --emit=nvvm` output could not be parsed back with); the
  // one program per SM is tile-configure's min_programs_per_sm.

  Block &kernelBody = kernel.getBody().front();
  for (auto [arg, operand] :
       llvm::zip(kernelBody.getArguments(), kernel.getArgs()))
    arg.replaceAllUsesWith(operand);
  Block &launchBody = launch.getBody().front();
  kernelBody.getTerminator()->erase();
  launchBody.getOperations().splice(launchBody.end(),
                                    kernelBody.getOperations());
  OpBuilder end = OpBuilder::atBlockEnd(&launchBody);
  gpu::TerminatorOp::create(end, loc);

  gpu::KernelDim3 blockIds = launch.getBlockIds();
  Value ids[3] = {blockIds.x, blockIds.y, blockIds.z};
  launch.walk([&](ProgramIdOp pid) {
    pid.replaceAllUsesWith(ids[pid.getDim()]);
    pid.erase();
  });
  kernel.erase();
}

namespace {
struct ConvertTileKernelToGPUPass
    : public tile::impl::ConvertTileKernelToGPUPassBase<
          ConvertTileKernelToGPUPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation().walk([&](KernelOp k) { kernels.push_back(k); });
    for (KernelOp kernel : kernels)
      convertKernel(kernel);
  }
};
} // namespace
