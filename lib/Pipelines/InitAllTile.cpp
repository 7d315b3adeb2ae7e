//===- InitAllTile.cpp - Register everything the tile tools use -*- C++ -*-===//
//
// See InitAllTile.h.
//
//===----------------------------------------------------------------------===//

#include "tile/InitAllTile.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void mlir::tile::registerAllTileDialects(DialectRegistry &registry) {
  registry.insert<TileDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
}

void mlir::tile::registerAllTilePasses() {
  mlir::registerAllPasses();
  registerTilePasses();
  registerTileConversionPasses();
  registerTilePipelines();
}
