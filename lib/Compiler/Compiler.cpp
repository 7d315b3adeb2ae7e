//===- Compiler.cpp - Tensor-level function to kernel bundle ---*- C++ -*-===//
//
// See Compiler.h. The real pipeline runs on one module and the naive one on
// another; after tiling both are merged, lowered to NVVM together, turned
// into PTX (format=isa, on a copy) and cubins (format=bin), and read into a
// bundle by fillBundle.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/Compiler.h"
#include "tile/Compiler/BundleWriter.h"
#include "TileLevel.h"
#include "tile/Dialect/Tile/IR/SourceNesting.h"
#include "tile/Dialect/Tile/Transforms/KernelPerOp.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Runtime/Bundle.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

#define DEBUG_TYPE "tile-compiler"

using namespace mlir;
using namespace mlir::tile;

std::string mlir::tile::toolkitPath(StringRef cudaPath) {
  if (!cudaPath.empty())
    return cudaPath.str();
  if (const char *home = std::getenv("CUDA_HOME"); home && *home)
    return home;
  if (llvm::sys::fs::is_directory("/usr/local/cuda"))
    return "/usr/local/cuda";
  return "";
}

/// Runs upstream gpu-module-to-binary with `format` (isa, bin) on `module`,
/// with the toolkit named explicitly: left empty, upstream finds libdevice
/// only through the environment (CUDA_ROOT, CUDA_HOME, CUDA_PATH). Upstream
/// reports a toolkit without libdevice as an error but serializes on
/// without it, so any error reported during the run is a failure here.
static LogicalResult runModuleToBinary(ModuleOp module, StringRef format,
                                       const CompileOptions &options) {
  PassManager pm(module->getName());
  GpuModuleToBinaryPassOptions passOptions;
  passOptions.toolkitPath = toolkitPath(options.cudaPath);
  passOptions.compilationTarget = format.str();
  // ptxas keeps the PTX's .loc lines in the cubin only when asked.
  if (options.lineInfo)
    passOptions.cmdOptions = "-lineinfo";
  pm.addPass(createGpuModuleToBinaryPass(passOptions));
  bool sawError = false;
  ScopedDiagnosticHandler watch(module->getContext(), [&](Diagnostic &diag) {
    sawError |= diag.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // Not handled: the caller's handler reports it.
  });
  return failure(failed(pm.run(module)) || sawError);
}

/// Runs `pipeline` (textual, the passes of a builtin.module) on `module`. A
/// pipeline that does not parse (bad --tile-options) is reported as an
/// unlocated error: it is the options' fault, not the source's. With
/// `reproducer` (a file path), a pass that fails or crashes leaves there
/// the IR it started from and the pipeline (MLIR's crash reproducer), which
/// `tile-opt --run-reproducer` replays; the failure then says so in a
/// remark.
static LogicalResult runPipeline(ModuleOp module, StringRef pipeline,
                                 StringRef reproducer = "") {
  PassManager pm(module->getName());
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
    StringRef message = StringRef(error).trim();
    return emitError(UnknownLoc::get(module->getContext()))
           << "bad pass pipeline '" << pipeline << "': " << message;
  }
  if (!reproducer.empty())
    pm.enableCrashReproducerGeneration(reproducer);
  if (succeeded(pm.run(module)))
    return success();
  if (!reproducer.empty() && llvm::sys::fs::exists(reproducer))
    emitRemark(UnknownLoc::get(module->getContext()))
        << "reproducer: " << reproducer << " (replay: tile-opt "
        << "--run-reproducer " << reproducer << ")";
  return failure();
}

static std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

/// Every module's PTX in `isa` (after gpu-module-to-binary format=isa),
/// each after a "// module NAME" line.
static std::string collectPTX(ModuleOp isa) {
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  for (auto binary : isa.getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      os << "// module " << binary.getName() << "\n"
         << cast<gpu::ObjectAttr>(object).getObject().getValue();
  return ptx;
}

/// Function and kernel names become PTX entry names and the bundle's
/// names: a letter, `_` or `$`, then letters, digits, `_` or `$` (PTX's
/// identifiers; a lone `_` or `$` is not one). Checked up front: LLVM's
/// NVPTX printer aborts the process on other characters, and ptxas
/// rejects a leading digit or a dot without saying where.
static LogicalResult checkSymbolNames(ModuleOp source) {
  auto valid = [](StringRef name) {
    if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_' ||
                          name[0] == '$'))
      return false;
    if (!llvm::isAlpha(name[0]) && name.size() < 2)
      return false;
    return llvm::all_of(name.drop_front(), [](char c) {
      return llvm::isAlnum(c) || c == '_' || c == '$';
    });
  };
  WalkResult walk = source.walk([&](Operation *op) {
    StringRef name;
    if (auto func = dyn_cast<func::FuncOp>(op))
      name = func.getName();
    else if (auto kernel = dyn_cast<KernelOp>(op))
      name = kernel.getSymName();
    else
      return WalkResult::advance();
    if (valid(name))
      return WalkResult::advance();
    emitError(op->getLoc())
        << "'" << name
        << "' cannot name a GPU function: names take a letter, '_' or '$' "
           "first, then letters, digits, '_' or '$'";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

/// The function to compile: `functionName`, or the only tensor-level one.
static FailureOr<func::FuncOp> selectFunction(ModuleOp source,
                                              StringRef functionName,
                                              StringRef sourceName) {
  func::FuncOp func;
  for (auto candidate : source.getOps<func::FuncOp>()) {
    if (!functionName.empty() ? candidate.getName() != functionName
                              : !isTensorLevelFunction(candidate))
      continue;
    if (func)
      return emitError(candidate.getLoc())
             << "more than one tensor-level function; choose one with "
                "--function";
    func = candidate;
  }
  // No place in the file to point at: reported without a location rather
  // than at the module's (file:0:0, with the whole module dumped in a note).
  if (!func) {
    InFlightDiagnostic diag = emitError(UnknownLoc::get(source->getContext()));
    if (functionName.empty())
      diag << "no tensor-level function to compile";
    else
      diag << "no function named '" << functionName << "'";
    diag << " in " << sourceName;
    if (!source.getOps<KernelOp>().empty() ||
        llvm::any_of(source.getOps<func::FuncOp>(), [](func::FuncOp f) {
          return !f.getOps<KernelOp>().empty();
        }))
      diag << " (it holds tile.kernel ops: tile-level input needs "
              "--level=tile)";
    return diag;
  }
  // Neither tile-tile nor tile-reference touches a function without
  // tensor-level ops, so nothing would be compiled (and both copies of it
  // would clash when the pipelines' modules are merged).
  if (!isTensorLevelFunction(func))
    return emitError(func.getLoc())
           << "function '" << func.getName()
           << "' has no tensor-level tile ops to compile";
  return func;
}

/// Everything after the tile level, shared by both input levels:
/// tile-to-nvvm (with `mma=` when `mmaOption` is not empty) of `module` and
/// of the naive `reference` module (if any) merged into it, the PTX
/// (always kept: it is what --emit=ptx prints) and the cubins, then the
/// bundle, whose buffers and launches `fill` reads from the lowered module.
/// Stops early where `options.stopAfter` says.
static LogicalResult lowerToBundle(
    ModuleOp module, ModuleOp reference, StringRef mmaOption,
    std::string bundleOptions, StringRef sourceText,
    const CompileOptions &options, CompileResult &result,
    function_ref<LogicalResult(ModuleOp, ModuleOp, ::tile::bundle::Bundle &)>
        fill) {
  std::string lower = "tile-to-nvvm{chip=" + options.chip +
                      " features=" + options.features +
                      (mmaOption.empty() ? "" : " mma=" + mmaOption.str());
  std::string kernelOptions =
      (options.pipelineOptions.empty() ? "" : " " + options.pipelineOptions) +
      (options.fastMath ? " fast-math=1" : "") +
      (options.lineInfo ? " line-info=1" : "");
  if (failed(runPipeline(module, lower + kernelOptions + "}",
                         options.reproducer)))
    return failure();
  // The reference is lowered on its own, never with fast-math nor
  // tile-logistic-tanh (libdevice's tanhf), and its launches run one after
  // the other: it is what the approximations, rewrites and overlapped
  // launches are checked against. Then both go in one module.
  if (reference) {
    if (failed(runPipeline(reference,
                           lower + " logistic-tanh=0 dependent-launches=0}",
                           options.reproducer)))
      return failure();
    for (Operation &op : llvm::make_early_inc_range(*reference.getBody()))
      op.moveBefore(module.getBody(), module.getBody()->end());
  }
  if (options.keepStages)
    result.stages["nvvm"] = print(module);
  if (options.stopAfter == CompileStage::NVVM)
    return success();
  OwningOpRef<ModuleOp> isa = module.clone();
  if (failed(runModuleToBinary(*isa, "isa", options)))
    return failure();
  result.stages["ptx"] = collectPTX(*isa);
  if (options.stopAfter == CompileStage::PTX)
    return success();
  if (failed(runModuleToBinary(module, "bin", options)))
    return failure();

  ::tile::bundle::Bundle bundle;
  bundle.target = options.chip;
  bundle.options = std::move(bundleOptions);
  llvm::SHA256 hash;
  hash.update(sourceText);
  hash.update(bundle.options);
  bundle.sourceHash = llvm::toHex(hash.final(), /*LowerCase=*/true);
  if (failed(fill(module, *isa, bundle)))
    return failure();
  result.bundle = ::tile::bundle::serialize(bundle);
  return success();
}

/// InputLevel::Tile: the host function of tile.kernel ops is lowered as it
/// is (tile-to-nvvm, then PTX and cubins) into a bundle of main launches.
static FailureOr<CompileResult>
compileTileFunction(ModuleOp source, StringRef sourceText, StringRef sourceName,
                    StringRef functionName, const CompileOptions &options) {
  FailureOr<func::FuncOp> selected =
      selectTileFunction(source, functionName, sourceName);
  if (failed(selected) || failed(verifyTileHostFunction(*selected)))
    return failure();
  func::FuncOp func = *selected;
  CompileResult result;
  auto keep = [&](StringRef stage, Operation *op) {
    if (options.keepStages)
      result.stages[stage.str()] = print(op);
  };
  SmallVector<bool> written = writtenArguments(func);
  SourceSummary summary = summarizeKernels(func);
  std::string mma = options.mma;

  // The reference: a tensor-level function of the same file.
  func::FuncOp refSource;
  OwningOpRef<ModuleOp> reference;
  double tolerance = 0;
  if (!options.referenceFunction.empty()) {
    refSource = source.lookupSymbol<func::FuncOp>(options.referenceFunction);
    if (!refSource || !isTensorLevelFunction(refSource))
      return emitError(func.getLoc())
             << "no tensor-level function named '" << options.referenceFunction
             << "' in " << sourceName << " for the reference";
    if (failed(checkReferenceSignature(func, written, refSource)))
      return failure();
    tolerance = summarizeSource(refSource).tolerance;
    reference = ModuleOp::create(source->getLoc());
    reference->push_back(refSource.clone());
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(source->getLoc());
  module->push_back(func.clone());
  keep("tile", *module);
  if (reference) {
    if (failed(runPipeline(*reference, "tile-reference{suffix=_ref}",
                           options.reproducer)))
      return failure();
    keep("reference", *reference);
  }
  if (options.stopAfter == CompileStage::Tile)
    return result;
  std::string bundleOptions = "chip=" + options.chip +
                              " features=" + options.features +
                              " level=tile mma=" + mma +
                              (options.pipelineOptions.empty()
                                   ? ""
                                   : " " + options.pipelineOptions) +
                              (reference ? " reference=" +
                                               options.referenceFunction
                                         : "");
  std::string refName = options.referenceFunction + "_ref";
  if (failed(lowerToBundle(
          *module, reference ? *reference : ModuleOp(), mma, bundleOptions,
          sourceText, options, result,
          [&](ModuleOp bin, ModuleOp isa, ::tile::bundle::Bundle &bundle) {
            return fillKernelBundle(bin, isa, summary, written, bundle,
                                    reference ? StringRef(refName)
                                              : StringRef(),
                                    tolerance);
          })))
    return failure();
  return result;
}

/// Input nested past kMostSourceNesting, as a located error
/// (SourceNesting.h).
static LogicalResult checkNesting(MLIRContext &context,
                                  llvm::SourceMgr &sourceMgr) {
  if (sourceMgr.getNumBuffers() == 0)
    return success();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  const char *where = findExcessNesting(buffer->getBuffer());
  if (!where)
    return success();
  auto [line, column] =
      sourceMgr.getLineAndColumn(llvm::SMLoc::getFromPointer(where));
  return emitError(FileLineColLoc::get(&context, buffer->getBufferIdentifier(),
                                       line, column))
         << excessNestingMessage();
}

FailureOr<CompileResult>
mlir::tile::compileFunction(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                            StringRef sourceText, StringRef functionName,
                            const CompileOptions &options) {
  if (failed(checkNesting(context, sourceMgr)))
    return failure();
  OwningOpRef<ModuleOp> source = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!source)
    return failure();
  StringRef sourceName = "<unknown>";
  if (sourceMgr.getNumBuffers() > 0)
    sourceName = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                     ->getBufferIdentifier();
  if (options.mma != "auto" && options.mma != "simt")
    return emitError(UnknownLoc::get(&context))
           << "unknown matmul strategy '" << options.mma
           << "' (expected auto or simt)";
  // Options go into pass pipeline text inside a pass's braces: a brace (or
  // a quote, which would let one through) would end them and splice in
  // other passes.
  for (auto [what, text] :
       {std::pair<StringRef, StringRef>{"tile options", options.tileOptions},
        {"pipeline options", options.pipelineOptions},
        {"configure options", options.configureOptions},
        {"chip", options.chip},
        {"features", options.features}})
    if (text.find_first_of("{}\"'") != StringRef::npos)
      return emitError(UnknownLoc::get(&context))
             << "the " << what << " ('" << text
             << "') may not hold a brace or a quote: they are pass options "
                "(name=value, separated by spaces)";

  if (failed(checkSymbolNames(*source)))
    return failure();
  if (options.level == InputLevel::Tile)
    return compileTileFunction(*source, sourceText, sourceName, functionName,
                               options);
  FailureOr<func::FuncOp> selected =
      selectFunction(*source, functionName, sourceName);
  if (failed(selected))
    return failure();
  func::FuncOp func = *selected;

  CompileResult result;
  auto keep = [&](StringRef stage, Operation *op) {
    if (options.keepStages)
      result.stages[stage.str()] = print(op);
  };
  keep("tensor", func);
  SourceSummary summary = summarizeSource(func);
  std::string refName = summary.name + "_ref";

  // Real pipeline on one module, naive one on another, then merged.
  OwningOpRef<ModuleOp> module = ModuleOp::create(source->getLoc());
  OwningOpRef<ModuleOp> reference = ModuleOp::create(source->getLoc());
  module->push_back(func.clone());
  reference->push_back(func.clone());
  // The chip's shared memory, unless the tile options say otherwise.
  std::string tileOptions = options.tileOptions;
  if (!StringRef(tileOptions).contains("shared-memory-per-sm"))
    tileOptions += (tileOptions.empty() ? "" : " ") +
                   std::string("shared-memory-per-sm=") +
                   std::to_string(tile::sharedMemoryPerSm(options.chip));
  // tile-configure chooses the matmuls' blocks (and their tensor-core
  // schedules) before tile-tile builds them.
  std::string configure =
      options.mma != "simt"
          ? "tile-configure{chip=" + options.chip +
                (options.configureOptions.empty()
                     ? ""
                     : " " + options.configureOptions) +
                "},"
          : "";
  std::string tilePass = (options.fuse ? "tile-fuse," : "") + configure +
                         std::string("tile-tile{") + tileOptions + "}";
  if (failed(runPipeline(*module, tilePass, options.reproducer)) ||
      (options.withReference &&
       failed(runPipeline(*reference, "tile-reference{suffix=_ref}",
                          options.reproducer))))
    return failure();
  keep("tile", *module);
  keep("reference", *reference);
  if (options.stopAfter == CompileStage::Tile)
    return result;

  std::string bundleOptions =
      "chip=" + options.chip + " features=" + options.features +
      (options.tileOptions.empty() ? "" : " " + options.tileOptions) +
      (options.configureOptions.empty() ? ""
                                        : " " + options.configureOptions) +
      (options.pipelineOptions.empty() ? "" : " " + options.pipelineOptions) +
      (options.fastMath ? " fast-math" : "") +
      (options.lineInfo ? " line-info" : "");
  if (failed(lowerToBundle(
          *module, options.withReference ? *reference : ModuleOp(),
          options.mma == "auto" ? "" : options.mma, bundleOptions,
          sourceText, options, result,
          [&](ModuleOp bin, ModuleOp isa, ::tile::bundle::Bundle &bundle) {
            return fillBundle(bin, isa, summary,
                              options.withReference ? refName : "", bundle);
          })))
    return failure();
  return result;
}
