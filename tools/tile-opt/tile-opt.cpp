//===- tile-opt.cpp - The tile compiler's MLIR driver -----------*- C++ -*-===//
//
// mlir-opt with the tile dialect, its passes and its pipelines registered:
// the entry point for compiler engineers and for the lit tests.
//
//===----------------------------------------------------------------------===//

#include "tile/InitAllTile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tile::registerAllTileDialects(registry);
  mlir::tile::registerAllTilePasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tile compiler driver\n", registry));
}
