//===- tile-fuzz.cpp - libFuzzer target: parser, verifiers, pipeline -*- C++ -*-===//
//
// A libFuzzer target (issue 19): each input is parsed as an MLIR module
// with the tile dialects, verified, and compiled with compileFunction
// through the real and the reference pipelines down to NVVM (sm_90a and
// sm_80 in turn; a module holding tile.kernel ops at the tile level). An
// error of the user's input (a parse or verifier error, a located pass
// failure) is a normal outcome; a crash, an assertion or a hang is a
// finding. PTX and cubin generation are left out (LLVM's NVPTX backend and
// ptxas are not this project's, and they take most of the time).
// scripts/libfuzz.sh builds and runs it over the lit corpus.
//
//===----------------------------------------------------------------------===//

#include "tile/Compiler/Compiler.h"
#include "tile/InitAllTile.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <cstdlib>

using namespace mlir;

namespace {

/// One context for the whole run (a context per input would spend the
/// run registering dialects); diagnostics are dropped.
MLIRContext &fuzzContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    tile::registerAllTileDialects(registry);
    tile::registerAllTilePasses();
    auto *made = new MLIRContext(registry);
    made->loadAllAvailableDialects();
    made->printOpOnDiagnostic(false);
    made->printStackTraceOnDiagnostic(false);
    return made;
  }();
  return *context;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Inputs past 64 KB only make the run slower; the corpus files are
  // under 8 KB.
  if (size > (1 << 16))
    return -1;
  MLIRContext &context = fuzzContext();
  StringRef text(reinterpret_cast<const char *>(data), size);
  bool tileLevel = text.contains("tile.kernel");
  for (const char *chip : {"sm_90a", "sm_80"}) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
    ScopedDiagnosticHandler quiet(&context, [](Diagnostic &) {
      return success();
    });
    tile::CompileOptions options;
    options.chip = chip;
    options.features = "+ptx80";
    options.stopAfter = tile::CompileStage::NVVM;
    options.level = tileLevel ? tile::InputLevel::Tile : tile::InputLevel::Tensor;
    options.keepStages = false;
    if (failed(tile::compileFunction(context, sourceMgr, text, "", options)))
      return 0; // the input's error, reported as a diagnostic
  }
  return 0;
}
