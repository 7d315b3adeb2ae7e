//===- tile-compile.cpp - Compile a tile function to a bundle --*- C++ -*-===//
//
// The compile driver's command line. The work is done by the compiler
// library (include/tile/Compiler/Compiler.h): it parses a tensor-level
// function, compiles it through the real pipeline (tile-fuse, tile-tile,
// tile-to-nvvm) and a copy through the naive one (tile-reference,
// tile-to-nvvm), turns both into PTX and cubins with upstream
// gpu-module-to-binary, and packs one kernel bundle that tile-run launches
// and checks (docs/bundle-format.md). The Python module calls the same
// library.
//
//   tile-compile softmax.mlir --chip=sm_90a -o softmax.tilebundle
//   tile-compile softmax.mlir --emit=tile       (print the tile-level IR)
//
// libdevice and ptxas come from the CUDA toolkit named by --cuda-path
// (default: $CUDA_HOME, else /usr/local/cuda where it exists).
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/Compiler.h"
#include "tile/InitAllTile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdlib>
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory tileCompileCategory("tile-compile options");

static cl::opt<std::string> inputFile(cl::cat(tileCompileCategory), cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"));
static cl::opt<std::string> outputFile(cl::cat(tileCompileCategory), "o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"));
static cl::opt<std::string> chip(cl::cat(tileCompileCategory), "chip", cl::desc("Target GPU"),
                                 cl::init("sm_90a"));
static cl::opt<std::string> features(cl::cat(tileCompileCategory), "features", cl::desc("PTX features"),
                                     cl::init("+ptx80"));
static cl::opt<std::string>
    functionName(cl::cat(tileCompileCategory), "function",
                 cl::desc("Function to compile (default: the only "
                          "tensor-level function)"));
static cl::opt<std::string>
    cudaPath(cl::cat(tileCompileCategory), "cuda-path",
             cl::desc("CUDA toolkit (for libdevice and ptxas; default: "
                      "$CUDA_HOME if set, else /usr/local/cuda)"),
             cl::value_desc("dir"), cl::init(""));
static cl::list<std::string>
    tileOptions(cl::cat(tileCompileCategory), "tile-options",
                cl::desc("Options of the tile-tile pass, as on tile-opt "
                         "(\"matmul-block=64,64,16 threads=256\"); given "
                         "more than once, all of them"));
static cl::list<std::string> pipelineOptions(
    cl::cat(tileCompileCategory), "pipeline-options",
    cl::desc("More tile-to-nvvm options for the kernels, as on tile-opt "
             "(\"sms=114\"); given more than once, all of them (so that a "
             "test's flags need no quotes)"));
static cl::list<std::string> configureOptions(
    cl::cat(tileCompileCategory), "configure-options",
    cl::desc("More options of the tensor-level tile-configure, as on "
             "tile-opt (\"candidate=3\": a matmul's 4th ranked config, "
             "for a tuner; list-candidates); given more than once, all of "
             "them"));
static cl::opt<std::string> tuningDb(
    cl::cat(tileCompileCategory), "tuning-db",
    cl::desc("A tuning database (docs/tuning.md) whose configs matmuls "
             "take; default: $TILE_TUNING_DB if set"),
    cl::value_desc("file"), cl::init(""));
static cl::opt<bool> fastMath(cl::cat(tileCompileCategory), 
    "fast-math",
    cl::desc("Hardware approximations for f32 tanh, exp and division "
             "(tanh.approx, div.approx): for results rounded to bf16/f16"),
    cl::init(false));
static cl::opt<bool> fuse(cl::cat(tileCompileCategory), "fuse",
                          cl::desc("Fuse epilogues and elementwise chains "
                                   "into one kernel (tile-fuse)"),
                          cl::init(true));
static cl::opt<mlir::tile::InputLevel> level(
    cl::cat(tileCompileCategory), "level", cl::desc("What the input holds"),
    cl::init(mlir::tile::InputLevel::Tensor),
    cl::values(clEnumValN(mlir::tile::InputLevel::Tensor, "tensor",
                          "a function of tensor-level ops (default)"),
               clEnumValN(mlir::tile::InputLevel::Tile, "tile",
                          "a host function of tile.kernel ops, lowered as "
                          "it is (no reference kernels)")));
static cl::opt<std::string>
    mma(cl::cat(tileCompileCategory), "mma",
        cl::desc("Matmul strategy: auto (tensor cores where the target has "
                 "them) or simt"),
        cl::init("auto"));
static cl::opt<std::string> referenceFunction(
    cl::cat(tileCompileCategory), "reference",
    cl::desc("With --level=tile: a tensor-level function of the file that "
             "computes what the host function does (its arguments are the "
             "unwritten buffers, its results the written ones); its naive "
             "kernels check the bundle's"),
    cl::init(""));
static cl::opt<bool> noReference(
    cl::cat(tileCompileCategory), "no-reference",
    cl::desc("At the tensor level: no reference kernels and no checks (an "
             "unchecked bundle, for benchmarks whose naive reference would "
             "not fit; tile-run reports UNCHECKED)"),
    cl::init(false));
static cl::opt<std::string> reproducer(
    cl::cat(tileCompileCategory), "reproducer",
    cl::desc("A file for the reproducer of a failing pass pipeline (its IR "
             "and passes; replay with tile-opt --run-reproducer FILE)"),
    cl::value_desc("file"), cl::init(""));
static cl::opt<bool> lineInfo(
    cl::cat(tileCompileCategory), "lineinfo",
    cl::desc("Line tables in the PTX and cubin (.loc of the source's lines: "
             "Nsight Compute's source view, cuobjdump/nvdisasm)"),
    cl::init(false));
enum class Emit { Bundle, Tile, Reference, NVVM, PTX };
static cl::opt<Emit> emit(cl::cat(tileCompileCategory), 
    "emit", cl::desc("What to write"), cl::init(Emit::Bundle),
    cl::values(clEnumValN(Emit::Bundle, "bundle", "a kernel bundle (default)"),
               clEnumValN(Emit::Tile, "tile", "the tile-level IR"),
               clEnumValN(Emit::Reference, "reference",
                          "the reference kernels' tile-level IR"),
               clEnumValN(Emit::NVVM, "nvvm", "the IR lowered to NVVM"),
               clEnumValN(Emit::PTX, "ptx", "the PTX of every module")));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  mlir::tile::registerAllTileDialects(registry);
  mlir::tile::registerAllTilePasses();
  // Only this tool's options in --help, not every option LLVM registers.
  cl::HideUnrelatedOptions(tileCompileCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "tile-compile: tile functions to kernel bundles\n");

  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // Errors point at the source; a dump of the op in generic form (a whole
  // kernel, for a pass's error) only buries them.
  context.printOpOnDiagnostic(false);

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

  mlir::tile::CompileOptions options;
  options.chip = chip;
  options.features = features;
  options.cudaPath = cudaPath;
  options.tileOptions = llvm::join(tileOptions, " ");
  options.pipelineOptions = llvm::join(pipelineOptions, " ");
  options.configureOptions = llvm::join(configureOptions, " ");
  std::string db = tuningDb;
  if (db.empty())
    if (const char *fromEnv = std::getenv("TILE_TUNING_DB"))
      db = fromEnv;
  if (!db.empty())
    options.configureOptions +=
        std::string(options.configureOptions.empty() ? "" : " ") + "tuning-db=" + db;
  options.fastMath = fastMath;
  options.fuse = fuse;
  options.level = level;
  options.mma = mma;
  options.referenceFunction = referenceFunction;
  options.withReference = !noReference;
  options.reproducer = reproducer;
  options.lineInfo = lineInfo;
  const char *stage = nullptr; // the stage --emit prints, or the bundle
  switch (emit) {
  case Emit::Tile:
    options.stopAfter = mlir::tile::CompileStage::Tile;
    stage = "tile";
    break;
  case Emit::Reference:
    options.stopAfter = mlir::tile::CompileStage::Tile;
    stage = "reference";
    break;
  case Emit::NVVM:
    options.stopAfter = mlir::tile::CompileStage::NVVM;
    stage = "nvvm";
    break;
  case Emit::PTX:
    options.stopAfter = mlir::tile::CompileStage::PTX;
    stage = "ptx";
    break;
  case Emit::Bundle:
    break;
  }
  // Print only what is asked for (the PTX stage is always kept).
  options.keepStages = stage && emit != Emit::PTX;

  // Errors with no place in the source (no such function, a pipeline that
  // does not parse) are the tool's own: printed as such, not as "error:".
  ScopedDiagnosticHandler unlocated(&context, [](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error ||
        !isa<UnknownLoc>(diag.getLocation()))
      return failure(); // the source manager's handler prints it
    llvm::errs() << "tile-compile: error: " << diag.str() << "\n";
    return success();
  });
  FailureOr<mlir::tile::CompileResult> result = mlir::tile::compileFunction(
      context, sourceMgr, sourceText, functionName, options);
  if (failed(result))
    return 1;
  if (stage)
    output->os() << result->stages[stage];
  else
    output->os() << result->bundle;
  output->keep();
  return 0;
}
