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

def ConvertTileMatmulToWGMMAPass
    : Pass<"convert-tile-matmul-to-wgmma", "ModuleOp"> {
  let summary = "Hopper matmul kernels: TMA ring, warp-specialized wgmma";
  let description = [{
    Rewrites each tile-level matmul kernel (the K loop of `tile.load` A and
    B tiles into `tile.dot`, stored after the loop, as `tile-tile` makes it)
    with bf16 or f16 operands into the sm_90a structure of the fastest
    Hopper GEMMs:

    - a block tile of 128 x `block-n` x 64, one program per tile, programs
      ordered in groups of 8 block-rows so that neighbours share B in L2;
    - a ring of `stages` shared-memory buffers filled by TMA
      (`nvgpu.tma.async.load`, 128-byte swizzle) and tracked by "full" and
      "empty" mbarriers;
    - warp specialization: warpgroup 0 is the producer (one thread issues
      the copies; `setmaxnreg` gives its registers away), warpgroups 1 and 2
      are consumers, each multiplying 64 rows with `nvgpu.warpgroup.mma`
      (wgmma m64n`block-n`k16, accumulators in registers), releasing a stage
      as soon as the wgmma group reading it has completed;
    - an epilogue that stages the f32 accumulators in shared memory and
      writes the output with 16-byte vector stores, masked at the edges and
      converted to the output's element type.

    Edges are handled by TMA's zero fill (loads) and masks (stores), so any
    M, N, K works, provided TMA's alignment holds: row strides of A, B and C
    must be multiples of 16 bytes (K and N multiples of 8 for bf16). A
    kernel that breaks it stays on the SIMT path, with a remark that says
    why. One pass does promotion, pipelining and MMA mapping here for the
    Hopper path; splitting it into tile-promote / tile-pipeline / tile-mma
    is planned (docs/pipeline.md).
  }];
  let options = [
    Option<"stages", "stages", "int64_t", /*default=*/"4",
           "Shared-memory stages in the TMA ring">,
    Option<"blockN", "block-n", "int64_t", /*default=*/"256",
           "Block tile N (64, 128 or 256; M is 128, K is 64)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // TILE_CONVERSION_PASSES_TD
