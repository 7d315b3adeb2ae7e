//===- Pipelines.cpp - The tile compiler's named pipelines -----*- C++ -*-===//
//
// See Pipelines.h. Upstream passes do the GPU-module lowering; only the
// nesting differs from gpu-lower-to-nvvm-pipeline: everything after
// outlining runs inside gpu.module, so the host functions keep the plain
// launch structure (constants, buffers, gpu.launch_func) that the compile
// driver reads into the bundle.
//
//===----------------------------------------------------------------------===//

#include "tile/Pipelines/Pipelines.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

/// The SM of `chip` without its arch- (a) or family-specific (f) suffix.
static StringRef smOf(StringRef chip) {
  chip.consume_back("a");
  chip.consume_back("f");
  return chip;
}

/// `features` with its PTX version (+ptxNN) raised to the least `chip`
/// needs: below it LLVM's NVPTX backend stops the process with a fatal
/// error (no location; a Python caller dies with it). The table is LLVM
/// 22's (NVPTX.td); chips not in it keep what was asked.
static std::string featuresFor(StringRef chip, StringRef features) {
  unsigned least = llvm::StringSwitch<unsigned>(smOf(chip))
                       .Case("sm_72", 61)
                       .Case("sm_75", 63)
                       .Case("sm_80", 70)
                       .Case("sm_86", 71)
                       .Case("sm_87", 74)
                       .Cases({"sm_89", "sm_90"}, 78)
                       .Cases({"sm_100", "sm_101"}, 86)
                       .Case("sm_120", 87)
                       .Cases({"sm_103", "sm_121"}, 88)
                       .Cases({"sm_88", "sm_110"}, 90)
                       .Default(0);
  if (chip == "sm_90a") // the arch-specific Hopper target came with PTX 8.0
    least = 80;
  if (chip.ends_with("f")) // family-specific targets came with PTX 8.8
    least = std::max(least, 88u);
  size_t at = features.find("+ptx");
  if (least == 0 || at == StringRef::npos)
    return features.str();
  StringRef version = features.drop_front(at + 4).take_while(llvm::isDigit);
  unsigned asked = 0;
  if (version.getAsInteger(10, asked) || asked >= least)
    return features.str();
  return (features.take_front(at + 4) + Twine(least) +
          features.drop_front(at + 4 + version.size()))
      .str();
}

/// The tensor-core passes, in order: choose each kernel's schedule, lay out
/// its tiles, put dot operands in shared memory, map each dot to its
/// instructions, store output tiles through the TMA, walk output tiles
/// persistently, pipeline the K loops, overlap a loop's products, take turns
/// at them, split producers from consumers.
static void addTensorCorePasses(OpPassManager &pm,
                                const tile::TileToNVVMOptions &options) {
  using namespace mlir::tile;
  TileConfigurePassOptions configure;
  configure.chip = options.chip;
  configure.sms = options.sms;
  pm.addPass(createTileConfigurePass(configure));
  pm.addPass(createTileHoistBroadcastMathPass());
  pm.addPass(createTileAssignLayoutsPass());
  pm.addPass(createTilePromotePass());
  pm.addPass(createTileMmaPass());
  pm.addPass(createTileTmaStorePass());
  pm.addPass(createTilePersistentPass());
  TilePipelinePassOptions pipeline;
  pipeline.ringRegisterLoads = options.ringRegisterLoads;
  pm.addPass(createTilePipelinePass(pipeline));
  TileOverlapPassOptions overlap;
  overlap.steps = options.overlapSteps;
  pm.addPass(createTileOverlapPass(overlap));
  pm.addPass(createTilePingpongPass());
  pm.addPass(createTileWarpSpecializePass());
}

void tile::buildTileToNVVMPipeline(OpPassManager &pm,
                                   const TileToNVVMOptions &options) {
  if (options.mma != "simt")
    addTensorCorePasses(pm, options);
  // Tile level to GPU launches over per-thread vectors.
  pm.addPass(createConvertTileKernelToGPUPass());
  // cp.async came with sm_80 (sm_90a, sm_100a, ...: the digits count).
  unsigned major = 0;
  StringRef(options.chip).drop_front(3).take_while(llvm::isDigit).getAsInteger(
      10, major);
  ConvertTileToSIMTPassOptions simt;
  simt.asyncCopies = major >= 80;
  simt.sharedMemoryPerSm = sharedMemoryPerSm(options.chip);
  pm.addPass(createConvertTileToSIMTPass(simt));

  // Upstream from here: outline launches into gpu.func (through
  // tile-outline-kernels, which keeps their launch bounds), attach the target.
  pm.addPass(createOutlineKernelsPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = featuresFor(options.chip, options.features);
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));
  // A kernel pair (a split-K product and its reduction) overlaps instead of
  // paying the second launch's start after the first drains.
  if (options.dependentLaunches && major >= 90)
    pm.addPass(createDependentLaunchesPass());

  // The device side to NVVM. Kernel arguments use the bare-pointer calling
  // convention: shapes are static, so a buffer is one pointer.
  // No canonicalization before outlining: it would hoist the kernel's
  // constants to the host function and make them kernel arguments.
  OpPassManager &gpu = pm.nest<gpu::GPUModuleOp>();
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  // Running maxima of bf16/f16 values in packed pairs (sm_80's
  // max.bf16x2), before anything widens them.
  if (major >= 80)
    gpu.addPass(createNarrowMinMaxPass());
  // 1 +- tanh(z) as a logistic function: fewer instructions than tanhf
  // and no cancellation; fast math's tanh.approx is cheaper still.
  if (options.fastMath)
    gpu.addPass(createApproximateMathPass());
  else if (options.logisticTanh)
    gpu.addPass(createLogisticTanhPass());
  // After tile-approximate-math: divisions it marked approximate stay so.
  gpu.addPass(createDivideByReciprocalPass());
  // Dequantized weights in bf16 / f16 pairs, before widening and the
  // magic-number conversions take their f32 math apart.
  gpu.addPass(createPackedDequantPass());
  gpu.addPass(createWidenBF16Pass());
  gpu.addPass(createSmallIntToFloatPass());
  gpu.addPass(createLowerFP8CastsPass());
  gpu.addPass(memref::createExpandStridedMetadataPass());
  gpu.addPass(createLowerAffinePass());
  gpu.addPass(createConvertNVGPUToNVVMPass());
  gpu.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  gpu.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  // Its dynamic shared memory window, declared as CUDA declares it.
  gpu.addPass(createExternDynamicSharedPass());
  // NVVM ops without an LLVM intrinsic (mbarrier waits, ...) become PTX.
  gpu.addPass(createConvertNVVMToLLVMPass());
  gpu.addPass(LLVM::createNVVMOptimizeForTargetPass());
  gpu.addPass(createCanonicalizerPass());
  gpu.addPass(createCSEPass());
  gpu.addPass(createReconcileUnrealizedCastsPass());
  // Line tables: a debug-info subprogram on every function, so that the
  // NVPTX backend emits .loc / .file for the ops' file:line:col locations.
  // Directives only (clang's -gline-directives-only): line tables would add
  // DWARF sections and mark the target `debug`, which ptxas refuses to
  // optimize ("Optimized debugging not supported").
  if (options.lineInfo) {
    LLVM::DIScopeForLLVMFuncOpPassOptions lines;
    lines.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(lines));
  }
}

int64_t tile::sharedMemoryPerSm(StringRef chip) {
  return llvm::StringSwitch<int64_t>(smOf(chip))
      .Cases({"sm_80", "sm_87"}, 164 * 1024)
      .Cases({"sm_86", "sm_89", "sm_120"}, 100 * 1024)
      .Cases({"sm_90", "sm_100", "sm_103"}, 228 * 1024)
      .Default(0);
}

void tile::registerTilePipelines() {
  PassPipelineRegistration<TileToNVVMOptions>(
      "tile-to-nvvm",
      "Lower tile-level kernels to GPU modules in NVVM with a target "
      "attached (then gpu-module-to-binary makes PTX or a cubin)",
      buildTileToNVVMPipeline);
}
