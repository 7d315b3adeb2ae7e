//===- KernelBuilder.h - What tile-tile's two halves share -----*- C++ -*-===//
//
// Private to lib/Dialect/Tile/Transforms: the builder of one op's kernel
// and the helpers that tile-tile's per-op tiling (TileTensorOps.cpp) and
// its tiling of fused groups (TileFusedGroups.cpp) share.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_KERNELBUILDER_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_KERNELBUILDER_H

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/KernelPerOp.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

namespace mlir {
namespace tile {
namespace tiling {

/// CUDA's limits on grid dimensions x, y and z.
inline constexpr int64_t kMaxGrid[3] = {2147483647, 65535, 65535};

/// Builds the kernel of one tensor-level op.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &hostBuilder, Operation *op, const OpBuffers &bufs,
                int64_t threads)
      : host(hostBuilder), op(op), bufs(bufs), threads(threads),
        loc(op->getLoc()) {}

  /// Creates the kernel over `args` with `grid` and returns a builder
  /// inside it, before its terminator.
  /// `suffix` goes after the op's kernel name (a second kernel of one op).
  OpBuilder begin(ValueRange args, ArrayRef<int64_t> grid,
                  StringRef suffix = "") {
    kernel = KernelOp::create(host, loc, (bufs.kernelName + suffix).str(),
                              args, grid, threads);
    for (auto [outer, inner] :
         llvm::zip(args, kernel.getBody().front().getArguments()))
      inside.map(outer, inner);
    return OpBuilder::atBlockTerminator(&kernel.getBody().front());
  }

  Value arg(Value outer) { return inside.lookup(outer); }

  Value index(OpBuilder &b, int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  /// program_id(dim) * tileSize.
  Value tileOffset(OpBuilder &b, int64_t dim, int64_t tileSize) {
    Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), dim);
    return arith::MulIOp::create(b, loc, pid, index(b, tileSize));
  }

  /// Clones `region` (a map body or combiner) into `target`, with captured
  /// scalars cloned into the kernel just before `target`'s op.
  LogicalResult cloneRegion(OpBuilder &b, Region &region, Region &target) {
    IRMapping mapping(inside);
    OpBuilder before(target.getParentOp());
    if (failed(materializeCapturedScalars(before, region, mapping, op)))
      return failure();
    region.cloneInto(&target, mapping);
    return success();
  }

  FailureOr<Value> scalar(OpBuilder &b, Value outside) {
    return materializeScalar(b, outside, inside, op);
  }

  OpBuilder &host;
  Operation *op;
  const OpBuffers &bufs;
  int64_t threads;
  Location loc;
  KernelOp kernel;
  IRMapping inside;
};


/// Builds tile.map ops whose bodies are built by a callback.
struct MapBuilder {
  OpBuilder &b;
  Location loc;

  Value map(Type type, ValueRange inputs,
            function_ref<Value(OpBuilder &, ValueRange)> body) {
    auto op = MapOp::create(b, loc, type, inputs);
    SmallVector<Type> argTypes;
    for (Value input : inputs)
      argTypes.push_back(cast<TileType>(input.getType()).getElementType());
    SmallVector<Location> locs(inputs.size(), loc);
    Block *block = OpBuilder(b.getContext())
                       .createBlock(&op.getBody(), {}, argTypes, locs);
    OpBuilder inner = OpBuilder::atBlockBegin(block);
    YieldOp::create(inner, loc, body(inner, block->getArguments()));
    return op.getResult();
  }

  Value reduce(Type type, Value input, Value init, bool isMax) {
    auto op = ReduceOp::create(b, loc, type, input, init,
                               b.getI64IntegerAttr(1));
    Type element = init.getType();
    Block *block = OpBuilder(b.getContext())
                       .createBlock(&op.getCombiner(), {}, {element, element},
                                    {loc, loc});
    OpBuilder inner = OpBuilder::atBlockBegin(block);
    Value x = block->getArgument(0), y = block->getArgument(1);
    Value r = isMax ? arith::MaximumFOp::create(inner, loc, x, y).getResult()
                    : arith::AddFOp::create(inner, loc, x, y).getResult();
    YieldOp::create(inner, loc, r);
    return op.getResult();
  }
};

/// The tile size of a dimension of `extent` elements under block size
/// `block`: the block, or the smallest power of two that covers the extent.
inline int64_t tileSizeFor(int64_t extent, int64_t block) {
  return std::min<int64_t>(block, llvm::PowerOf2Ceil(extent));
}

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

inline LogicalResult checkGrid(Operation *op, ArrayRef<int64_t> grid) {
  for (auto [dim, size] : llvm::enumerate(grid))
    if (size > kMaxGrid[dim])
      return op->emitOpError()
             << "needs " << size << " programs along grid dimension " << dim
             << " but the GPU allows " << kMaxGrid[dim]
             << "; use a larger block";
  return success();
}

/// A kernel that copies `src` into `dst` over `dst`'s whole extent, tile by
/// tile (8 x 256, 256 threads): what lies outside `src` is written as
/// zeros.
void emitPaddingCopy(OpBuilder &host, Location loc, StringRef name,
                     Value src, Value dst);

/// The K step whose products a weight prologue builds (MatmulBuffers::
/// bPrologue): its start and extent, and what its first product loaded for
/// them all (a row's per-group values of the whole step, read at once).
struct WeightStep {
  Value start;
  int64_t k;
  llvm::DenseMap<Operation *, Value> lines{};
};

/// The buffers a matmul kernel works on. bf16/f16 matmuls whose rows are
/// not whole 16-byte runs (K or N not a multiple of 8) cannot be read by
/// TMA or cp.async, which would leave them on the SIMT path, 15x slower
/// than the tensor cores (bench/RESULTS.md). So their operands are copied
/// into scratch buffers with rows rounded up to 8 elements (B's rows also
/// to a multiple of 8, all padding zero), the kernel computes the padded
/// product, and a result whose rows are not whole runs either comes back
/// through a padded buffer and a last copy (`finish`). (tileFused pads the
/// epilogue's other operands.) With `bTransposed`, B is stored [N, K]: its
/// rows are K long, padded as A's are.
struct MatmulBuffers {
  Value a, b, c;
  int64_t n, k; // the padded N and K
  bool bTransposed = false;
  std::function<void()> finish = [] {};
  /// A block-scaled matmul's scales (tile.matmul's `scales`), else null:
  /// SA [ceil(M / gm), ceil(K / gk)] and SB [ceil(K / gk), ceil(N / gn)],
  /// each stored as it is or, `transposed`, as its transpose (torch's
  /// M-major scale_a is the transpose of a [K / gk, M] tensor).
  struct Scales {
    Value lhs, rhs;
    bool lhsTransposed = false, rhsTransposed = false;
    int64_t rows = 1, k = 1, cols = 1; // [gm, gk, gn]
    /// SA's and SB's shapes as stored (the buffers may lack their unit
    /// dimensions).
    SmallVector<int64_t, 2> lhsShape, rhsShape;
    /// How many blocks along K the scales hold: ceil(K / gk) of the
    /// unpadded K.
    int64_t kBlocks = 1;
  } scales;
  /// A B that each K step computes from other buffers (a weight
  /// dequantized in registers, WeightPrologue.h), else null; `b` is null
  /// then. Builds, inside `kb`'s kernel, the tn x tk tile of B's transpose
  /// W ([N, K], bTransposed) at (n0, kk) for the product `sub` into
  /// `step` (kk = step.start + sub).
  std::function<Value(KernelBuilder &kb, OpBuilder &b, Value n0, Value kk,
                      int64_t tn, int64_t tk, WeightStep &step, int64_t sub)>
      bPrologue = nullptr;
  /// The buffers bPrologue reads: arguments of every kernel of the matmul.
  SmallVector<Value> prologueArgs = {};
  /// tile.matmul's k_runs (B's rows in mma.sync's fragment-run order),
  /// which each K step's tile.dot takes.
  std::optional<int64_t> kRuns = std::nullopt;
  /// The prologue's group along K (WeightPrologue::group; 0: none): its
  /// per-group values are read once a product.
  int64_t weightGroup = 0;
  /// The config's `transposed`: the product computed as y^T = W x^T, the
  /// prologue's weight tile (stored order) each product's A under
  /// lhs_k_runs and x's tile, transposed, its B (docs/quantization.md).
  bool transposedProduct = false;
};
/// The K extent of one product in a step of `tk`, for a weight computed in
/// the K loop (buildMatmulLoop reads a step as sub-steps of it, each with
/// its own loads): stored in fragment runs (k_runs = W), one block of 4 W;
/// else, a step of several whole groups (MXFP4's 32), one group, so that
/// each product takes its own group's scales. Otherwise the whole step.
inline int64_t productStepK(const MatmulBuffers &bufs, int64_t tk) {
  if (!bufs.bPrologue || !bufs.bTransposed || bufs.scales.lhs)
    return tk;
  if (bufs.kRuns)
    return tk > 4 * *bufs.kRuns ? 4 * *bufs.kRuns : tk;
  if (bufs.weightGroup && tk > bufs.weightGroup && tk % bufs.weightGroup == 0)
    return bufs.weightGroup;
  return tk;
}

/// With a null `bMat` (a B computed by a prologue), `n` is B's N and B is
/// never padded.
MatmulBuffers matmulBuffers(KernelBuilder &kb, Value a, Value bMat, Value c,
                            bool pad, bool bTransposed = false,
                            int64_t n = 0);

/// A 1-D tile of `extent` elements of a 2-D buffer: along dimension
/// `alongDim` from `offset`, at `fixed` in the other (a row or a column,
/// read through a 1-D view).
Value loadLine(KernelBuilder &kb, OpBuilder &b, Value stored, int64_t alongDim,
               Value fixed, Value offset, int64_t extent);

/// A block-scaled matmul's scales in buffers `lhs` and `rhs`, each stored
/// as it is or transposed.
inline MatmulBuffers::Scales blockScales(MatmulOp matmul, Value lhs,
                                         bool lhsTransposed, Value rhs,
                                         bool rhsTransposed) {
  ArrayRef<int64_t> group = *matmul.getScaleBlock();
  auto [lhsShape, rhsShape] = matmul.getScaleShapes();
  int64_t kBlocks = lhsShape[1];
  if (lhsTransposed)
    std::swap(lhsShape[0], lhsShape[1]);
  if (rhsTransposed)
    std::swap(rhsShape[0], rhsShape[1]);
  return {lhs,      rhs,      lhsTransposed, rhsTransposed,
          group[0], group[1], group[2],      lhsShape,
          rhsShape, kBlocks};
}

/// The K loop of a matmul kernel: an f32 accumulator tile of tm x tn at
/// (m0, n0), loading tm x tk tiles of A and tk x tn tiles of B per step
/// (zero-padded past the edges, so a ragged K adds nothing), over K from
/// `kOffset` (null: 0) for `k` elements (or, where `kExtent` is given, for
/// that many: a stream-K part's, which changes from one run of the loop to
/// the next, so tile-pipeline carries its ring position; `withinSteps`:
/// the range lies within the padded K's steps, as a stream-K part's does,
/// where a split's last range may not). Otherwise the
/// loop's bounds are constants even when `kOffset` is not, so that
/// tile-pipeline can count its ring inside a persistent loop. With
/// `bufs.bTransposed`, B is stored [N, K] (torch's Linear weight; B is its
/// transpose): each step loads a tn x tk tile and takes its tile.transpose,
/// which tile-promote turns into a K-major view of the tile as stored (no
/// copy). With `bufs.scales`, each step's product starts from zero and is added
/// to the accumulator times its block's scales (a tk that divides gk, and tm,
/// tn that gm and gn are 1 or multiples of, as matmulTiling checks). A weight
/// from the prologue is taken in sub-steps of productStepK, each with its own A
/// tile, weight tile (its own group's scales) and product, all loaded in
/// the same step (the ring's stage), so that a step of 2 k_runs blocks
/// asks for both halves of each weight row's 128-byte line at once (the
/// int4 prototype's lever, bench/RESULTS.md session 29), and a step of
/// MXFP4's groups of 32 loads four groups a stage. Reads the buffers'
/// values inside `kb`'s kernel; returns the accumulator after the loop.
Value buildMatmulLoop(KernelBuilder &kb, OpBuilder &b,
                      const MatmulBuffers &bufs, Value m0, Value n0, int64_t tm,
                      int64_t tn, int64_t tk, int64_t k,
                      Value kOffset = nullptr, Value kExtent = nullptr,
                      bool withinSteps = false);

/// A matmul kernel's tile sizes and its grid of M / tm x N / tn programs,
/// rounded up, times `splits` K ranges of `kChunk` elements each (split-K:
/// a grid of three dimensions). A tensor-core config's block is taken as it
/// is (tile-configure sized it); otherwise a block is no larger than the
/// padded extents need. Fails, with the error at `op`, where the grid is
/// too large.
struct MatmulTiling {
  int64_t tm, tn, tk;
  SmallVector<int64_t> grid;
  int64_t splits = 1, kChunk = 0;
};
inline FailureOr<MatmulTiling> matmulTiling(Operation *op, int64_t m,
                                            const MatmulBuffers &bufs,
                                            ArrayRef<int64_t> block,
                                            ConfigAttr config) {
  MatmulTiling tiling;
  // The transposed product takes a weight computed in the K loop in
  // fragment runs (tileFused sets transposedProduct for it).
  if (config && config.getTransposed() && !bufs.transposedProduct)
    return op->emitOpError()
           << "has a transposed config, which takes a weight computed in the "
              "K loop and stored in fragment runs (k_runs) only";
  bool exact = config && config.getMma() != MmaKind::simt;
  tiling.tm = exact ? block[0] : tileSizeFor(m, block[0]);
  tiling.tn = exact ? block[1] : tileSizeFor(bufs.n, block[1]);
  tiling.tk = exact ? block[2] : tileSizeFor(bufs.k, block[2]);
  // Under k_runs = W each step's dot permutes K in blocks of 4 W: steps of
  // whole blocks (the SIMT kernel's K step is 16).
  if (bufs.kRuns && tiling.tk % (4 * *bufs.kRuns) != 0) {
    if (exact)
      return op->emitOpError()
             << "has k_runs = " << *bufs.kRuns << " but its config's K step "
             << tiling.tk << " is not a multiple of " << 4 * *bufs.kRuns;
    tiling.tk = 4 * *bufs.kRuns;
  }
  tiling.grid = {ceilDiv(m, tiling.tm), ceilDiv(bufs.n, tiling.tn)};
  tiling.kChunk = bufs.k;
  if (config && config.getSplitK() > 1) {
    int64_t steps = ceilDiv(bufs.k, tiling.tk);
    if (config.getSplitK() > steps)
      return op->emitOpError()
             << "tile.config asks for split_k = " << config.getSplitK()
             << " but K = " << bufs.k << " has only " << steps << " steps of "
             << tiling.tk;
    tiling.splits = config.getSplitK();
    tiling.kChunk = ceilDiv(steps, tiling.splits) * tiling.tk;
    tiling.grid.push_back(tiling.splits);
  }
  if (failed(checkGrid(op, tiling.grid)))
    return failure();
  // Block scales: one scale block per K step or several steps per block,
  // and tiles within one scale block or one scale per row (column).
  const MatmulBuffers::Scales &scales = bufs.scales;
  if (scales.lhs) {
    if (scales.k % tiling.tk != 0)
      return op->emitOpError()
             << "has block scales along K of " << scales.k
             << " elements, which its K step of " << tiling.tk
             << " does not divide";
    if (!MatmulOp::scaleBlockFitsTile(scales.rows, tiling.tm) ||
        !MatmulOp::scaleBlockFitsTile(scales.cols, tiling.tn))
      return op->emitOpError()
             << "has block scales of " << scales.rows << " rows x "
             << scales.cols << " columns that its " << tiling.tm << "x"
             << tiling.tn
             << " tiles do not fit (each must be 1 or a multiple of the "
                "tile's)";
  }
  return tiling;
}

/// A matmul kernel's arguments: A, B (where stored), `own` (the kernel's
/// own buffers: a workspace, counters), the block scales and the
/// prologue's buffers where there are any, then those of `extra` not among
/// them.
inline SmallVector<Value> matmulKernelArgs(const MatmulBuffers &bufs,
                                           ValueRange own, ValueRange extra) {
  SmallVector<Value> args = {bufs.a};
  if (bufs.b)
    args.push_back(bufs.b);
  llvm::append_range(args, own);
  if (bufs.scales.lhs)
    args.append({bufs.scales.lhs, bufs.scales.rhs});
  llvm::append_range(args, bufs.prologueArgs);
  for (Value arg : extra)
    if (!llvm::is_contained(args, arg))
      args.push_back(arg);
  return args;
}

/// Split-K's first half: a kernel (`<name>_split_k`, the one that gets the
/// op's config) over `tiling`'s 3-D grid whose program (i, j, s) runs the K
/// loop of output tile (i, j) over the s-th K range and stores the f32
/// partial sum at row s * rowsPerSplit + i * tm of `workspace` (allocated
/// here, [splits * rowsPerSplit, N / tn * tn]: every tile whole, so no
/// split's tile reaches into the next one's rows).
struct SplitKPartials {
  Value workspace;
  int64_t rowsPerSplit;
};
SplitKPartials buildSplitKPartials(KernelBuilder &kb, const MatmulBuffers &bufs,
                                   const MatmulTiling &tiling);

/// Split-K's second half, inside the kernel that finishes the op: the sum
/// of the partials of the `shape` tile at (m0, n0) of `workspace` (its
/// value inside the kernel), added in split order (deterministic).
Value sumSplitKPartials(KernelBuilder &kb, OpBuilder &b, Value workspace,
                        const SplitKPartials &partials, int64_t splits,
                        ArrayRef<int64_t> shape, Value m0, Value n0);

/// Builds what follows the sum of one chunk of an output tile's partials
/// (`sum`, a `shape` tile at (m0, n0)): the epilogue and the store into C.
using SplitKFinish = llvm::function_ref<LogicalResult(
    OpBuilder &b, Value sum, ArrayRef<int64_t> shape, Value m0, Value n0)>;

/// Split-K in one kernel (`<name>_split_k`, over `tiling`'s 3-D grid, with
/// `args` after A, B, the workspace and the counters): program (i, j, s)
/// stores its partial as buildSplitKPartials's do, then arrives on output
/// tile (i, j)'s counter (tile.last_arrival, a `tile.zeroed` buffer). The
/// last of the tile's programs to arrive adds the partials in split order
/// (the same sums as the two-kernel split), in chunks of up to 16 rows (of
/// the rows that hold M), and `finish` runs on each chunk. No program
/// waits, and no second launch follows.
LogicalResult buildSplitKInKernel(KernelBuilder &kb, const MatmulBuffers &bufs,
                                  const MatmulTiling &tiling, int64_t m,
                                  ValueRange args, SplitKFinish finish);

/// Stream-K (`stream_k`: StreamK.cpp): one program per SM of the target
/// (`tile-tile`'s kernel `<name>` over a 1-D grid, with `args` after A, B,
/// the workspace, the counters, the block scales and the prologue's
/// buffers, those it has), each running whole tiles (in the
/// grouped order) while every program has one, then its even share of the
/// rest of the tiles' K steps, cut at tile boundaries into parts (with
/// `stream_k_part`, one part of that many steps for each of the first
/// programs). A whole
/// tile (or a part that is one) runs `finish` on its sum; a part stores its
/// f32 partial into its own slot of the workspace and arrives on the
/// tile's counter with its steps (tile.last_arrival); the last of a tile's
/// parts adds all of them in K order, in chunks of up to 16 rows, and runs
/// `finish` on each chunk.
LogicalResult buildStreamK(KernelBuilder &kb, const MatmulBuffers &bufs,
                           const MatmulTiling &tiling, int64_t m,
                           ValueRange args, ConfigAttr config,
                           SplitKFinish finish);

/// Whether `config` adds split-K's partials in a cluster of the K ranges
/// (`cluster = [1, 1, split_k]`).
inline bool splitKInCluster(ConfigAttr config) {
  ArrayRef<int64_t> cluster = config.getCluster();
  return config.getSplitK() > 1 && cluster.size() == 3 &&
         cluster[2] == config.getSplitK();
}

/// Split-K in one clustered kernel (`<name>_split_k`, over `tiling`'s 3-D
/// grid, the S programs of an output tile one cluster, with `extraArgs`
/// after A and B): program (i, j, s) runs the K loop over the s-th range,
/// the cluster adds the S partials in distributed shared memory
/// (tile.cluster_sum, in split order), and the program of range 0 runs
/// `finish` on the whole tile. No workspace, no counters, no second launch.
LogicalResult buildSplitKInCluster(KernelBuilder &kb, const MatmulBuffers &bufs,
                                   const MatmulTiling &tiling,
                                   ValueRange extraArgs, SplitKFinish finish);

/// The tile of the kernel that adds split-K's partials (and runs the
/// epilogue): 16 x 256 with 256 threads, smaller where M or N are.
inline SmallVector<int64_t> splitKFinishTile(int64_t m, int64_t n) {
  return {tileSizeFor(m, 16), tileSizeFor(n, 256)};
}
inline constexpr int64_t kSplitKFinishThreads = 256;

/// How tileFused schedules row groups (tile-tile's options of these names).
struct RowGroupOptions {
  int64_t rowsPerProgram = 0;
  int64_t rowStages = 2;
  /// The target's shared memory per SM in bytes; 0: wide rows are never
  /// staged in shared memory.
  int64_t sharedMemoryPerSm = 0;
};

/// A tile.fused group: its kernel (TileFusedGroups.cpp). `padRows`: as
/// matmulBuffers' `pad`, for a matmul root and its epilogue's operands. A
/// split matmul root whose config says split_k_in_kernel is built by
/// buildSplitKInKernel.
/// The FlashAttention kernel of an attention group (TileAttention.cpp).
LogicalResult tileAttention(KernelBuilder &kb, FusedOp fused,
                            ConfigAttr config);

LogicalResult tileFused(KernelBuilder &kb, FusedOp fused,
                        ArrayRef<int64_t> block, ConfigAttr config,
                        const RowGroupOptions &rowOptions, bool padRows);

} // namespace tiling
} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_KERNELBUILDER_H
