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
    else from the options. Sizes are powers of two (but a wgmma matmul's N,
    a multiple of 64: one instruction of that N per warp); a dimension
    smaller than its block size gets a smaller (power-of-two) tile.
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
                           "::mlir::math::MathDialect",
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

    Before both: an attention block, softmax(S) V with S = Q Kt (through
    score maps: a scale, masks of tile.iota positions), its row softmax
    written out (max, exp(x - max), sum, divide) and the probabilities
    cast to V's type, becomes one `tile.fused` op marked `tile.attention`
    (with the elementwise chain after it), which tile-tile compiles into
    one FlashAttention kernel. `explain-attention` reports, as a remark on
    the second matmul, why a softmax that feeds a matmul did not fuse.
  }];
  let options = [
    Option<"explainAttention", "explain-attention", "bool",
           /*default=*/"false",
           "Remark on each matmul of softmax probabilities that does not "
           "fuse as attention, saying why">
  ];
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

//===----------------------------------------------------------------------===//
// The tensor-core passes, in pipeline order (docs/pipeline.md)
//===----------------------------------------------------------------------===//

def TileConfigurePass : Pass<"tile-configure", "ModuleOp"> {
  let summary = "Choose each kernel's schedule (#tile.config): the one place heuristics live";
  let description = [{
    From the target (the module's `#tile.target`, which `chip=` sets) and
    each op's shapes and element types, writes `tile.config`:
    - on a tensor-level `tile.matmul` (or the matmul that roots a
      `tile.fused` group) without one: the block tile tile-tile builds
      (for wgmma the first of the matmul's ranked candidates, blocks of
      64 or 128 rows by 64 to 256 columns with split-K: docs/pipeline.md
      "Matmul schedules"; 128 x {128, 256} x 32 for mma.sync), the threads,
      and the rest below; with `tuning-db`, the config a tuner recorded for
      the matmul's shapes and types (docs/tuning.md) comes first;
    - on a tile-level `tile.kernel` with `tile.dot`s and without one: from
      the dots' tile shapes and the kernel's threads, the MMA kind,
      instruction shape and warps (wgmma on sm_90a where the tiles allow,
      else mma.sync on sm_80 and later, else SIMT), the pipeline's stages
      (as many as shared memory holds, at most 4 for wgmma and 3 for
      mma.sync in a kernel), warp specialization and a persistent grid (wgmma with
      TMA-readable operands), and the tile order's group of block-rows.
    A config written by hand is kept, and checked like a chosen one: a
    kernel whose config cannot work (shared memory, registers, TMA
    alignment, clusters, which are not built yet) is a located error.
    Later passes only read the config.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip (sm_80, sm_90a, ...); sets the module's tile.target "
           "(empty: the module must have one)">,
    Option<"sms", "sms", "int64_t", /*default=*/"0",
           "SMs of the target GPU, for persistent grids (0: the chip's "
           "flagship part)">,
    Option<"candidate", "candidate", "int64_t", /*default=*/"0",
           "Give each tensor-level wgmma matmul its N-th ranked candidate "
           "instead of the first (the heuristic's choice): the tuner's knob">,
    Option<"clusterAlongM", "cluster-along-m", "bool", /*default=*/"false",
           "Give each tensor-level wgmma matmul that can share its B tiles "
           "(K-major B, 128-byte K steps, persistent and warp-specialized, "
           "an even number of block-rows, no split) a cluster of two "
           "programs along M that copy them together (TMA multicast)">,
    Option<"streamK", "stream-k", "bool", /*default=*/"false",
           "Give each tensor-level wgmma matmul whose persistent kernel would "
           "end on a partial round of tiles (tiles not a multiple of the "
           "SMs, no split or cluster) the stream-K schedule: the last "
           "tiles' K steps dealt evenly over the programs (tile-tile); an "
           "overlapped K loop (block scales) in parts of a fixed count of "
           "steps (stream_k_part)">,
    Option<"tmaStore", "tma-store", "bool", /*default=*/"true",
           "Give each warp-specialized wgmma kernel without a split, "
           "stream-K, k_warpgroups or transposed product whose ring leaves "
           "room for two staging blocks (its rows x 128 bytes) tma_store: "
           "its epilogue stores through the TMA (tile-tma-store; 1-5% "
           "faster on the H100, bench/RESULTS.md session 49)">,
    Option<"listCandidates", "list-candidates", "bool", /*default=*/"false",
           "Emit a remark at each tensor-level matmul with its ranked "
           "candidate configs">,
    Option<"tuningDb", "tuning-db", "std::string", /*default=*/"\"\"",
           "A tuning database (docs/tuning.md): a matmul with an entry for "
           "its shapes, types and target gets the recorded config">,
    Option<"leastSplitK", "least-split-k", "int64_t", /*default=*/"0",
           "The shortest K range the heuristic splits a wgmma matmul into "
           "(0: its table's, 1024 where the kernel adds the partials or "
           "longer ranges leave half the SMs idle, else 2048); shorter "
           "ranges stay tuner-only candidates. For measuring a heuristic "
           "change beside the table's">,
    Option<"mostRowsSplitKInKernel", "most-rows-split-k-in-kernel",
           "int64_t", /*default=*/"0",
           "The most rows (M) whose split-K partials the kernel adds itself "
           "(0: the table's, 16), wgmma and dequantized matmuls alike; with "
           "more, a second kernel adds them">,
    ListOption<"attentionBlock", "attention-block", "int64_t",
               "Query rows and keys per block of every wgmma attention "
               "kernel (64, 128 or 256 rows: 64 per consumer warpgroup; 64 "
               "or 128 keys), instead of the ones chosen by head dimension "
               "and mask; for measuring other blocks">,
    Option<"attentionFmaExp2", "attention-fma-exp2", "int64_t",
           /*default=*/"-1",
           "Every Nth exponential of every wgmma attention kernel's scores "
           "on the FMA pipe (#tile.config's fma_exp2; 0: none), instead of "
           "the one chosen by head dimension and mask (-1); for measuring">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileAssignLayoutsPass : Pass<"tile-assign-layouts", "ModuleOp"> {
  let summary = "Give every register tile of a tensor-core kernel a layout";
  let description = [{
    In each `tile.kernel` whose `tile.config` maps dots to mma.sync or
    wgmma: each `tile.dot`'s accumulator and result get the `#tile.mma`
    layout of the config (instr N narrowed to a dot narrower than it);
    elementwise ops, loop-carried values and the tiles loaded or splat for
    them take their operands' layout, reductions of an MMA tile give a
    `#tile.slice` of it and broadcasts of a slice give its parent, so an
    epilogue or a row max over an accumulator stays in registers. Tiles
    that nothing ties to a dot get `#tile.blocked`. Where two layouts meet
    (an op whose operands have different ones), a `tile.convert_layout`
    is inserted. Dot operands are left to tile-promote.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TilePromotePass : Pass<"tile-promote", "ModuleOp"> {
  let summary = "Put tensor-core dot operands in shared memory";
  let description = [{
    Each operand of a `tile.dot` that the config maps to wgmma or
    mma.sync moves to shared memory in the layout the instructions read:
    `#tile.shared<swizzle = 128>` for wgmma (TMA writes it, wgmma's
    descriptors read it), `#tile.shared<padding = 8>` for mma.sync
    (ldmatrix hits every bank once). An operand loaded from global memory
    is loaded straight into shared memory (`tile.load` with a shared
    result); any other is stored there (`tile.convert_layout`).
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::gpu::GPUDialect"];
}

def TileMmaPass : Pass<"tile-mma", "ModuleOp"> {
  let summary = "Map each tensor-core tile.dot to its instructions, in place";
  let description = [{
    A `tile.dot` with a `#tile.mma<wgmma>` accumulator and operands in
    shared memory becomes `tile.wgmma` (fence, wgmma.mma_async per
    instruction and K step, commit) and `tile.wgmma_wait {pending = 0}`;
    with a `#tile.mma<mma_sync>` accumulator, its operands are converted
    to `#tile.dot_operand` layouts (ldmatrix from shared memory) and the
    dot then lowers to mma.sync. The kernel around the dot stays as it
    is.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileTmaStorePass : Pass<"tile-tma-store", "ModuleOp"> {
  let summary = "Epilogue stores of tensor-core tiles through the TMA";
  let description = [{
    In a `tile.kernel` whose config has `tma_store`, each `tile.store` of
    a register tile in a `#tile.mma` layout into a kernel argument (global
    memory, static, row-major, rows of 16-byte multiples; elements of 1,
    2 or 4 bytes; whole 128-byte column blocks, at most 256 rows) becomes
    a `tile.tma_store` through a `tile.shared` staging buffer of two
    blocks (one for a tile of one block) and a `tile.tma_descriptor` of
    the argument made on the host (box [rows, 128 bytes], swizzle 128).
    Other stores stay.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def TilePersistentPass : Pass<"tile-persistent", "ModuleOp"> {
  let summary = "Map programs to output tiles: grouped order, persistent loop";
  let description = [{
    For a `tile.kernel` over a 2-D grid whose config asks for it:
    `group_rows` > 1 walks the tiles in groups of that many block-rows,
    column by column inside a group, so that tiles in flight together
    share operand tiles in L2; `persistent` launches the fewest programs
    that take the tiles in as many rounds as one per SM (the target's
    count) would, or one per SM with `every_sm` or `mirror_rows`, and
    wraps the body in a loop over the tiles
    (program p takes tiles p, p + P, ...). Program ids in the body become
    the tile's coordinates; the grid becomes 1-D.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::scf::SCFDialect"];
}

def TilePipelinePass : Pass<"tile-pipeline", "ModuleOp"> {
  let summary = "Turn K loops into multi-stage rings of asynchronous copies";
  let description = [{
    Any `scf.for` whose body loads tiles into shared memory (tile-promote's
    loads) becomes a ring of the config's `stages` slots, one
    `tile.shared` buffer per load, filled `stages - 1` iterations ahead:
    - sm_90 with TMA-readable operands (static row-major kernel arguments
      with 16-byte rows) and swizzled tiles: `tile.tma_load` on "full"
      mbarriers (`tile.barrier_group`), each slot given back on an "empty"
      mbarrier by every consumer warp (`tile.arrive`); a loop whose one
      `tile.wgmma` waits for it keeps one group in flight (`pending = 1`)
      and gives back the previous slot. The host makes the TMA
      descriptors (`tile.tma_descriptor`) and passes them to the kernel.
      The ops that issue copies are marked `tile.producer` for
      tile-warp-specialize;
    - sm_80 and later otherwise, with 16-byte rows: `tile.async_load`
      (cp.async) with one commit group per iteration, `tile.wait_async`
      and one `tile.barrier` per iteration.
    The ring position carries over from one run of the loop to the next
    (an outer persistent loop's), so the ring stays in step. Loads it
    cannot pipeline stay as they are. TMA loads of the same rows of one
    source whose unswizzled tiles lie side by side (a packed weight's K
    step, one tile per product) share one box and ring, each reading its
    columns of the slot (`tile.view ... column`): TMA copies short rows
    slowly. With `prefetch` in the config, the loop's loads into registers
    are issued above the ring's wait; with ring-register-loads and a
    producer warpgroup's ring, those that TMA can copy (a dequantized
    weight's scale line: one row of a kernel argument, 16-byte multiples)
    become boxes of the ring instead, read from the slot after the wait.
  }];
  let options = [
    Option<"ringRegisterLoads", "ring-register-loads", "bool",
           /*default=*/"false",
           "With config.prefetch and a producer warpgroup's TMA ring, the "
           "loop's loads into registers that TMA can copy (a dequantized "
           "weight's scale lines) go through the ring, each a box of its "
           "own beside the step's tiles (on the H100 0.7-3.5% faster at M = "
           "1-64; on the H200 4.4% slower at M = 16, 3.3% faster at M = 64: "
           "bench/RESULTS.md, sessions 43 and 44)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileOverlapPass : Pass<"tile-overlap", "ModuleOp"> {
  let summary = "Issue a loop's first product one iteration ahead";
  let description = [{
    In a kernel whose config asks for `overlap`, a loop of two or more
    `tile.wgmma` is rotated at its first one: the product of iteration
    i + 1 (attention's scores) is issued before the rest of iteration i
    (the softmax and the second product) runs, and its wait keeps that
    one group in flight, so that the tensor cores and the warpgroup's
    other units work at once (FlashAttention 3's intra-warpgroup overlap).
    A loop of one product started afresh each step (a block-scaled K
    loop) is unrolled by `steps` instead: each step's product is waited
    for with the next one in flight and promoted while that one runs.
    A loop that does not fit (a first product that depends on a
    loop-carried value, a stage that needs more of the other than index
    arithmetic, a trip count not known to be at least one) stays as it is,
    with a remark.
  }];
  let options = [
    Option<"steps", "steps", "int64_t", /*default=*/"4",
           "A loop of one product started afresh each step (block "
           "scales): the steps in one body, each promoted while the next "
           "runs (at least 2)">
  ];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TilePingpongPass : Pass<"tile-pingpong", "ModuleOp"> {
  let summary = "Consumer warpgroups take turns issuing their products";
  let description = [{
    In a kernel whose config asks for `pingpong`, each group of
    `tile.wgmma` issues (up to the next `tile.wgmma_wait`) is bracketed by
    `tile.turn_begin` / `tile.turn_end`, and `tile.turn_start` gives
    warpgroup 0 the first turn: the warpgroups' products reach the tensor
    cores in turn, so that one warpgroup's softmax runs under the other's
    products (FlashAttention 3's ping-pong scheduling). A kernel without
    a `tile.wgmma` is left as it is, with a remark.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect"];
}

def TileHoistBroadcastMathPass : Pass<"tile-hoist-broadcast-math", "ModuleOp"> {
  let summary = "Compute a map's math on a broadcast operand before the broadcast";
  let description = [{
    In a tile.map one of whose inputs is a tile.broadcast, two or more ops
    of the body that depend on that input alone (and constants), ending in
    one value, move into a tile.map over the broadcast's input, whose
    result is broadcast instead: computed once per input element, not once
    per copy (a dequantized weight's e8m0 scale decoded once a scale). An
    f32 result that is exactly a bf16 (an integer's bits shifted left by
    23 or more) travels as bf16 and is widened where used. Tiles without
    layouts (before tile-assign-layouts).
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileWarpSpecializePass : Pass<"tile-warp-specialize", "ModuleOp"> {
  let summary = "Split a pipelined kernel into producer and consumer warpgroups";
  let description = [{
    A kernel whose config asks for warp specialization and whose pipeline
    marked the ops that issue copies (`tile.producer`) becomes one
    `tile.warp_specialize`: a producer warpgroup that runs only those ops
    (and the loops and index arithmetic around them), with 40 registers a
    thread, and the config's threads as consumers running everything
    else, with the registers left (`setmaxnreg`). The buffers and barriers
    at the top of the kernel stay outside, shared by both. The kernel
    gets the producer's 128 threads more.
  }];
  let dependentDialects = ["::mlir::tile::TileDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
