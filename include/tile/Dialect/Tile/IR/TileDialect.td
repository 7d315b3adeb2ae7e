//===- TileDialect.td - The tile dialect -------------------*- tablegen -*-===//
//
// The tile dialect describes GPU work as operations on tiles, at two levels:
// the tensor level (whole problems on ranked tensors, value semantics, no
// schedule) and the tile level (one program per output tile, explicit loads,
// stores and dots on register tiles inside a kernel grid).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TD
#define TILE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Operations on tiles for NVIDIA GPU kernels";
  let description = [{
    Tensor-level ops (`tile.matmul`, and `tile.map`, `tile.reduce`,
    `tile.broadcast`, `tile.cast` on ranked tensors) state what to compute.
    Tile-level ops (`tile.kernel`, `tile.program_id`, `tile.load`,
    `tile.store`, `tile.dot`, `tile.splat`, `tile.mask`, and the same
    `map`/`reduce`/`broadcast`/`cast` on `!tile.tile` values) state how one
    program of a kernel grid computes one output tile. Passes lower the first
    into the second and the second into `gpu`/`nvvm`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // TILE_DIALECT_TD
