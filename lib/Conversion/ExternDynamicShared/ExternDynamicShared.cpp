//===- ExternDynamicShared.cpp - Dynamic shared memory as extern ---------===//
//
// The tile-extern-dynamic-shared pass (see Passes.td). Upstream's lowering
// of gpu.dynamic_shared_memory declares the window as an internal global
// [0 x i8] in address space 3. The NVPTX backend then emits a one-byte
// static `.shared` variable ("demoted variable"), and every access to
// dynamic shared memory runs past its end. That works on the bare driver,
// because the dynamic window follows the static variables, but it is not
// what PTX defines: under compute-sanitizer's synccheck, a kernel whose
// TMA copies land there fails to launch (CUDA_ERROR_LAUNCH_FAILED,
// bench/RESULTS.md, session 18). An external declaration is CUDA's
// `extern __shared__ char smem[]`: `.extern .shared .b8 name[]`.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#define DEBUG_TYPE "tile-extern-dynamic-shared"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_EXTERNDYNAMICSHAREDPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;

namespace {
/// Whether `global` is how upstream declares the dynamic shared memory
/// window: an internal, uninitialized [0 x T] in shared memory.
bool isInternalDynamicShared(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return array && array.getNumElements() == 0 &&
         global.getAddrSpace() == NVVM::NVVMMemorySpace::Shared &&
         global.getLinkage() == LLVM::Linkage::Internal &&
         !global.getValue() && global.getInitializerRegion().empty();
}

struct ExternDynamicSharedPass
    : public tile::impl::ExternDynamicSharedPassBase<ExternDynamicSharedPass> {
  void runOnOperation() override {
    getOperation()->walk([](LLVM::GlobalOp global) {
      if (isInternalDynamicShared(global))
        global.setLinkage(LLVM::Linkage::External);
    });
  }
};
} // namespace
