//===- DependentLaunches.cpp - Overlap a launch with the one before it ----===//
//
// Marks every launch of a host function after the first as a programmatic
// dependent launch and puts griddepcontrol.wait at its kernel's entry.
// Upstream has the NVVM op but no pass that places it: whether two launches
// may overlap is a property of the bundle's launch sequence, which only
// this compiler builds.
//
// The kernel before a dependent launch does not execute
// griddepcontrol.launch_dependents: the dependent launch then starts as
// that kernel's blocks exit, about 0.1 us before it completes, as cuBLAS's
// split-K reduction does. Triggered at the entry of the split-K product
// instead, the reduction's blocks were resident 5 us early and it ended
// 1.5-2 us later than with no overlap at all (bench/RESULTS.md, session
// 32).
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_DEPENDENTLAUNCHESPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

/// The first chip with griddepcontrol.
static constexpr unsigned kFirstGridDependencyChip = 90;

/// Fails, at `launch`, where its kernel's module targets a chip before
/// sm_90; a module without an NVVM target is not checked.
static LogicalResult checkTarget(gpu::LaunchFuncOp launch,
                                 gpu::GPUModuleOp kernelModule) {
  ArrayAttr targets = kernelModule.getTargetsAttr();
  if (!targets)
    return success();
  for (Attribute attr : targets) {
    auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
    if (!target)
      continue;
    StringRef chip = target.getChip();
    unsigned number = 0;
    if (!chip.consume_front("sm_") ||
        chip.take_while(llvm::isDigit).getAsInteger(10, number) ||
        number < kFirstGridDependencyChip)
      return launch.emitOpError()
             << "cannot overlap the launch before it: its kernel's module "
                "targets "
             << target.getChip()
             << ", and programmatic dependent launch (griddepcontrol) needs "
                "sm_90 or later";
  }
  return success();
}

namespace {
struct DependentLaunchesPass
    : public tile::impl::DependentLaunchesPassBase<DependentLaunchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    // Kernels to begin with a wait, in module order of first use, so that
    // the output does not depend on pointer values.
    llvm::SetVector<gpu::GPUFuncOp> waits;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // The bundle's launches are the entry block's, in order
      // (BundleWriter); a launch anywhere else is not one of a straight
      // sequence, and the function is left alone.
      SmallVector<gpu::LaunchFuncOp> launches;
      bool straight = true;
      func.walk([&](gpu::LaunchFuncOp launch) {
        straight &= launch->getBlock() == &func.getBody().front();
        launches.push_back(launch);
      });
      // Kernels already lowered past gpu.func (or of another kind) are
      // left alone too: there is no entry to put the wait at.
      SmallVector<gpu::GPUFuncOp> kernels;
      for (gpu::LaunchFuncOp launch : launches)
        if (auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
                launch, launch.getKernel()))
          kernels.push_back(kernel);
      if (!straight || launches.size() < 2 ||
          kernels.size() != launches.size())
        continue;
      for (size_t i = 1; i < launches.size(); ++i) {
        if (failed(checkTarget(
                launches[i], kernels[i]->getParentOfType<gpu::GPUModuleOp>())))
          return signalPassFailure();
        launches[i]->setAttr(tile::kDependentLaunchAttrName,
                             UnitAttr::get(&getContext()));
        waits.insert(kernels[i]);
      }
    }
    // The wait is inline PTX with a memory clobber, not nvvm.griddepcontrol:
    // LLVM 22 declares its intrinsic as touching no memory, which lets
    // loads of the previous launch's results move above it (CUTLASS's
    // wait is an asm volatile with a memory clobber for the same reason).
    for (gpu::GPUFuncOp kernel : waits) {
      OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
      LLVM::InlineAsmOp::create(
          b, kernel.getLoc(), /*res=*/Type(), ValueRange(),
          "griddepcontrol.wait;", "~{memory}", /*has_side_effects=*/true,
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          /*asm_dialect=*/LLVM::AsmDialectAttr(),
          /*operand_attrs=*/ArrayAttr());
    }
  }
};
} // namespace
