//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileTileTensorOpsPass : Pass<"tile-tile", "ModuleOp"> {
  let summary = "Tile tensor-level ops into tile-level kernels";
  let description = [{
    Rewrites every function of tensor-level tile ops into a function over
    memrefs (results become trailing output arguments, intermediates are
    allocated) in which each tensor-level op is one `tile.kernel`: a grid of
    programs, each computing one output tile with `tile.load`, `tile.map`,
    `tile.reduce`, `tile.dot` and `tile.store`. Elementwise ops are tiled
    over `[M, N]` blocks; row (or column) reductions loop over chunks of the
    reduced dimension; matmuls loop over K. Edges that do not fill a tile are
    masked by the loads and stores, never rejected.

    Block sizes come from a `tile.config` attribute on the op when present,
    else from the options. Sizes are powers of two; a dimension smaller than
    its block size gets a smaller (power-of-two) tile.
  }];
  let options = [
    ListOption<"elementwiseBlock", "elementwise-block", "int64_t",
               "Block [M, N] of elementwise ops (map, cast, broadcast)">,
    ListOption<"reduceBlock", "reduce-block", "int64_t",
               "Block [kept, reduced] of reductions">,
    ListOption<"matmulBlock", "matmul-block", "int64_t",
               "Block [M, N, K] of matmuls">,
    Option<"threads", "threads", "int64_t", /*default=*/"256",
           "Threads per program">,
    Option<"rowsPerProgram", "rows-per-program", "int64_t", /*default=*/"0",
           "Rows each program of a row group (softmax, layernorm) walks, "
           "fetching the next rows while it computes the current one (0: 4 "
           "where rows are whole 16-byte runs under 16 KB, else 1)">,
    Option<"padMatmulRows", "pad-matmul-rows", "bool", /*default=*/"true",
           "Copy bf16/f16 matmul operands whose rows are not whole 16-byte "
           "runs into zero-padded buffers, so the tensor-core paths take them">,
    Option<"rowStages", "row-stages", "int64_t", /*default=*/"2",
           "Shared-memory row slots of those programs (rows copied ahead: "
           "one less), where rows are whole 16-byte runs">,
    Option<"sharedMemoryPerSm", "shared-memory-per-sm", "int64_t",
           /*default=*/"0",
           "The target's shared memory per SM in bytes (tile-compile sets it "
           "from --chip): rows too wide for registers whose inputs fit in "
           "half of it, less 3 KB, are staged in shared memory, two programs "
           "per SM (0: never)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileFusePass : Pass<"tile-fuse", "ModuleOp"> {
  let summary = "Group producers and consumers into single-kernel tile.fused ops";
  let description = [{
    Starting from each matmul, and from each elementwise op that is not yet
    grouped, absorbs the chain of elementwise consumers (`tile.map`,
    `tile.cast`) that follow it, together with the broadcasts of function
    operands they read (a bias). The group becomes a `tile.fused` op, which
    tile-tile compiles into one kernel: the matmul's accumulator goes through
    the epilogue in registers and only the final result is stored.

    A value is absorbed only when its single use is the next op of the
    chain: a result used twice (by two consumers, or by a consumer and the
    function's result) must be materialized, so fusion stops there. The
    decision works on the op kinds, not on a pattern list: any `tile.map`
    body fuses, whatever it computes.

    Row groups come first: a connected set of row reductions (along the
    last dimension of rank-2 tensors), elementwise ops and broadcasts,
    from which exactly one value (the last op's) is used outside, becomes
    one kernel that keeps whole rows on chip (softmax, layernorm, rmsnorm).
    If an intermediate is used outside the set, it must be materialized and
    the set is left unfused.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileReferencePass : Pass<"tile-reference", "ModuleOp"> {
  let summary = "Lower tensor-level ops to naive reference kernels";
  let description = [{
    The naive pipeline that checks the real one. Like `tile-tile`, turns each
    function of tensor-level ops into a function over memrefs with one
    `tile.kernel` per op, but each kernel computes one output element per
    thread with scalar loads and loops, and matmuls accumulate in f64. It
    shares no tiling, layout or vectorization code with the real pipeline,
    so a bug there shows up as a mismatch rather than being repeated here.
  }];
  let options = [
    Option<"suffix", "suffix", "std::string", /*default=*/"\"\"",
           "Appended to the function and kernel names (\"_ref\", say)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
