//===- InitAllTile.h - Register everything the tile tools use ---*- C++ -*-===//
//
// One place that registers the tile dialect, the upstream dialects and
// extensions the pipeline lowers through, every tile pass and the named
// pipelines, so that tile-opt, tile-compile and the Python module agree.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INITALLTILE_H
#define TILE_INITALLTILE_H

namespace mlir {
class DialectRegistry;
namespace tile {

/// Adds the tile dialect and every upstream dialect and extension the
/// pipeline needs (func, arith, math, scf, memref, vector, gpu, nvgpu, nvvm,
/// llvm, and the translations gpu-module-to-binary uses).
void registerAllTileDialects(DialectRegistry &registry);

/// Registers every tile pass, the upstream passes, and the named pipelines
/// (tile-to-nvvm) with the global pass registry.
void registerAllTilePasses();

} // namespace tile
} // namespace mlir

#endif // TILE_INITALLTILE_H
