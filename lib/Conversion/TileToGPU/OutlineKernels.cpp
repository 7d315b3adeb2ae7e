//===- OutlineKernels.cpp - Outlining that keeps launch bounds --*- C++ -*-===//
//
// Upstream gpu-kernel-outlining builds each gpu.func from a gpu.launch but
// does not carry the launch's own attributes over. This pass runs it, then
// puts each launch's nvvm.* attributes (launch bounds such as
// nvvm.minctasm) on the function outlined from it, found by the module and
// function names the launch gives outlining.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_OUTLINEKERNELSPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
struct OutlineKernelsPass
    : public tile::impl::OutlineKernelsPassBase<OutlineKernelsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Keyed by "module::function", the names the launch gives outlining.
    llvm::StringMap<SmallVector<NamedAttribute>> bounds;
    auto key = [](StringRef module, StringRef function) {
      return (module + "::" + function).str();
    };
    WalkResult walk = module.walk([&](gpu::LaunchOp launch) {
      SmallVector<NamedAttribute> nvvm;
      for (NamedAttribute attr : launch->getDiscardableAttrs())
        if (attr.getName().strref().starts_with("nvvm."))
          nvvm.push_back(attr);
      if (nvvm.empty())
        return WalkResult::advance();
      std::optional<StringRef> function = launch.getFunction();
      std::optional<StringRef> kernelModule = launch.getModule();
      if (!function || !kernelModule) {
        launch.emitError() << "has nvvm.* launch attributes but no module "
                              "and function names to find its outlined "
                              "function by";
        return WalkResult::interrupt();
      }
      bounds[key(*kernelModule, *function)] = std::move(nvvm);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    OpPassManager outline(ModuleOp::getOperationName());
    outline.addPass(createGpuKernelOutliningPass());
    if (failed(runPipeline(outline, module)))
      return signalPassFailure();

    module.walk([&](gpu::GPUFuncOp func) {
      auto kernelModule = func->getParentOfType<gpu::GPUModuleOp>();
      if (!kernelModule)
        return;
      auto it = bounds.find(key(kernelModule.getName(), func.getName()));
      if (it == bounds.end())
        return;
      for (NamedAttribute attr : it->second)
        func->setAttr(attr.getName(), attr.getValue());
    });
  }
};
} // namespace
