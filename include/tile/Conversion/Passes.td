//===- Passes.td - Tile conversion passes ------------------*- tablegen -*-===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileKernelToGPUPass : Pass<"convert-tile-kernel-to-gpu", "ModuleOp"> {
  let summary = "Turn tile.kernel into gpu.launch";
  let description = [{
    Each `tile.kernel` becomes a `gpu.launch` with its grid and thread count
    and the kernel's name as the launch's `function`/`module`, so that
    upstream `gpu-kernel-outlining` produces a `gpu.func` of that name.
    `tile.program_id` becomes `gpu.block_id`. Tile values inside are left for
    `convert-tile-to-simt`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertTileToSIMTPass : Pass<"convert-tile-to-simt", "ModuleOp"> {
  let summary = "Lower tile values to per-thread vectors (SIMT, no tensor cores)";
  let description = [{
    Inside each `gpu.launch`, a `!tile.tile<...>` held by the launch's T
    threads becomes a `vector<P x elt>` per thread, P = max(1, elements / T),
    in the strided layout of docs/layouts.md: slot k of thread t holds
    element (k * T + t) mod elements, row-major. Elementwise ops vectorize
    their scalar region; loads and stores become masked gathers and scatters
    bounded by the memref's shape; reductions, broadcasts and dots exchange
    data through dynamic shared memory (one region, reused, sized on the
    launch).
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
