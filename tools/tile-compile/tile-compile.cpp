//===- tile-compile.cpp - Compile a tile function to a bundle --*- C++ -*-===//
//
// The compile driver: parses a tensor-level function, compiles it through
// the real pipeline (tile-tile, tile-to-nvvm) and a copy through the naive
// one (tile-reference, tile-to-nvvm), turns both into PTX and cubins with
// upstream gpu-module-to-binary, and writes one kernel bundle that tile-run
// launches and checks (docs/bundle-format.md).
//
//   tile-compile softmax.mlir --chip=sm_90a -o softmax.tilebundle
//   tile-compile softmax.mlir --emit=tile       (print the tile-level IR)
//
// libdevice and ptxas come from the CUDA toolkit named by --cuda-path
// (default: $CUDA_HOME, else /usr/local/cuda where it exists).
//
//===----------------------------------------------------------------------===//

#include "BundleWriter.h"
#include "tile/Dialect/Tile/Transforms/KernelPerOp.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/InitAllTile.h"
#include "tile/Pipelines/Pipelines.h"
#include "tile/Runtime/Bundle.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;
namespace cl = llvm::cl;

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"));
static cl::opt<std::string> chip("chip", cl::desc("Target GPU"),
                                 cl::init("sm_90a"));
static cl::opt<std::string> features("features", cl::desc("PTX features"),
                                     cl::init("+ptx80"));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("Function to compile (default: the only "
                          "tensor-level function)"));
static cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("CUDA toolkit (for libdevice and ptxas; default: "
                      "$CUDA_HOME if set, else /usr/local/cuda)"),
             cl::value_desc("dir"), cl::init(""));
static cl::opt<std::string>
    tileOptions("tile-options",
                cl::desc("Options of the tile-tile pass, as on tile-opt "
                         "(\"matmul-block=64,64,16 threads=256\")"),
                cl::init(""));
static cl::opt<bool> fuse("fuse",
                          cl::desc("Fuse epilogues and elementwise chains "
                                   "into one kernel (tile-fuse)"),
                          cl::init(true));
enum class Emit { Bundle, Tile, Reference, NVVM, PTX };
static cl::opt<Emit> emit(
    "emit", cl::desc("What to write"), cl::init(Emit::Bundle),
    cl::values(clEnumValN(Emit::Bundle, "bundle", "a kernel bundle (default)"),
               clEnumValN(Emit::Tile, "tile", "the tile-level IR"),
               clEnumValN(Emit::Reference, "reference",
                          "the reference kernels' tile-level IR"),
               clEnumValN(Emit::NVVM, "nvvm", "the IR lowered to NVVM"),
               clEnumValN(Emit::PTX, "ptx", "the PTX of every module")));

/// The CUDA toolkit gpu-module-to-binary links libdevice from and finds
/// ptxas in: --cuda-path, else $CUDA_HOME, else /usr/local/cuda. The last is
/// only a guess, taken when it exists: without a toolkit, --emit=ptx still
/// works for kernels that need no libdevice.
static std::string toolkitPath() {
  if (!cudaPath.empty())
    return cudaPath;
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
static LogicalResult runModuleToBinary(ModuleOp module, StringRef format) {
  PassManager pm(module->getName());
  GpuModuleToBinaryPassOptions options;
  options.toolkitPath = toolkitPath();
  options.compilationTarget = format.str();
  pm.addPass(createGpuModuleToBinaryPass(options));
  bool sawError = false;
  ScopedDiagnosticHandler watch(module->getContext(), [&](Diagnostic &diag) {
    sawError |= diag.getSeverity() == DiagnosticSeverity::Error;
    return failure(); // Not handled: the source manager's handler prints it.
  });
  return failure(failed(pm.run(module)) || sawError);
}

/// Runs `pipeline` (textual, the passes of a builtin.module) on `module`.
static LogicalResult runPipeline(ModuleOp module, StringRef pipeline) {
  PassManager pm(module->getName());
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return failure();
  return pm.run(module);
}

static LogicalResult compile(MLIRContext &context, llvm::SourceMgr &sourceMgr,
                             StringRef sourceText, llvm::raw_ostream &os) {
  OwningOpRef<ModuleOp> source =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!source)
    return failure();

  // The function under test.
  func::FuncOp func;
  for (auto candidate : source->getOps<func::FuncOp>()) {
    if (!functionName.empty() ? candidate.getName() != functionName
                              : !mlir::tile::isTensorLevelFunction(candidate))
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
    llvm::errs() << "tile-compile: error: "
                 << (functionName.empty()
                         ? std::string("no tensor-level function to compile")
                         : "no function named '" + functionName + "'")
                 << " in " << inputFile << "\n";
    return failure();
  }
  // Neither tile-tile nor tile-reference touches a function without
  // tensor-level ops, so nothing would be compiled (and both copies of it
  // would clash when the pipelines' modules are merged).
  if (!mlir::tile::isTensorLevelFunction(func))
    return emitError(func.getLoc())
           << "function '" << func.getName()
           << "' has no tensor-level tile ops to compile";
  mlir::tile::SourceSummary summary = mlir::tile::summarizeSource(func);
  std::string refName = summary.name + "_ref";

  // Real pipeline on one module, naive one on another, then merged.
  OwningOpRef<ModuleOp> module = ModuleOp::create(source->getLoc());
  OwningOpRef<ModuleOp> reference = ModuleOp::create(source->getLoc());
  module->push_back(func.clone());
  reference->push_back(func.clone());
  std::string tilePass = (fuse ? "tile-fuse," : "") + std::string("tile-tile{") + tileOptions + "}";
  if (failed(runPipeline(*module, tilePass)) ||
      failed(runPipeline(*reference, "tile-reference{suffix=_ref}")))
    return failure();
  if (emit == Emit::Tile) {
    module->print(os);
    return success();
  }
  if (emit == Emit::Reference) {
    reference->print(os);
    return success();
  }
  for (Operation &op : llvm::make_early_inc_range(*reference->getBody()))
    op.moveBefore(module->getBody(), module->getBody()->end());

  std::string lower =
      "tile-to-nvvm{chip=" + chip + " features=" + features + "}";
  if (failed(runPipeline(*module, lower)))
    return failure();
  if (emit == Emit::NVVM) {
    module->print(os);
    return success();
  }

  OwningOpRef<ModuleOp> isa = module->clone();
  if (failed(runModuleToBinary(*isa, "isa")))
    return failure();
  if (emit == Emit::PTX) {
    for (auto binary : isa->getOps<gpu::BinaryOp>())
      for (Attribute object : binary.getObjects())
        os << "// module " << binary.getName() << "\n"
           << cast<gpu::ObjectAttr>(object).getObject().getValue();
    return success();
  }
  if (failed(runModuleToBinary(*module, "bin")))
    return failure();

  ::tile::bundle::Bundle bundle;
  bundle.target = chip;
  bundle.options = "chip=" + chip + " features=" + features +
                   (tileOptions.empty() ? "" : " " + tileOptions);
  llvm::SHA256 hash;
  hash.update(sourceText);
  hash.update(bundle.options);
  bundle.sourceHash = llvm::toHex(hash.final(), /*LowerCase=*/true);
  if (failed(mlir::tile::fillBundle(*module, *isa, summary, refName, bundle)))
    return failure();
  os << ::tile::bundle::serialize(bundle);
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  mlir::tile::registerAllTileDialects(registry);
  mlir::tile::registerAllTilePasses();
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-compile: tile functions to kernel bundles\n");

  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "tile-compile: error: " << error << "\n";
    return 1;
  }
  std::string sourceText = input->getBuffer().str();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);

  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "tile-compile: error: " << error << "\n";
    return 1;
  }
  if (failed(compile(context, sourceMgr, sourceText, output->os())))
    return 1;
  output->keep();
  return 0;
}
