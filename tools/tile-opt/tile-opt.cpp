//===- tile-opt.cpp - The tile compiler's MLIR driver -----------*- C++ -*-===//
//
// mlir-opt with the tile dialect, its passes and its pipelines registered:
// the entry point for compiler engineers and for the lit tests. The input
// is read here, before MlirOptMain, so that one nested past what MLIR's
// parser survives is refused with a located error (SourceNesting.h).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/SourceNesting.h"
#include "tile/InitAllTile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tile::registerAllTileDialects(registry);
  mlir::tile::registerAllTilePasses();
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "Tile compiler driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  // These read no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input =
      mlir::openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (const char *where = mlir::tile::findExcessNesting(input->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    llvm::SMLoc at = llvm::SMLoc::getFromPointer(where);
    sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
    sourceMgr.PrintMessage(at, llvm::SourceMgr::DK_Error,
                           mlir::tile::excessNestingMessage());
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
