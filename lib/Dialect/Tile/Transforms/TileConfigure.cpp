//===- TileConfigure.cpp - The kernels' schedules, chosen once --*- C++ -*-===//
//
// tile-configure: the one place where schedule heuristics live (IREE's
// KernelConfig). It writes #tile.config on tensor-level matmuls (the block
// tile tile-tile builds, with the tensor-core choices for that tile) and on
// tile-level kernels with dots that have none, and checks every config it
// finds, chosen or written by hand, against the target: the passes that
// build the kernel (tile-tile, tile-assign-layouts, tile-promote, tile-mma,
// tile-persistent, tile-pipeline, tile-warp-specialize) only read it.
//
// The constants below were measured on the H200 (bench/RESULTS.md): the
// 128 x 256 x 64, 4-stage, warp-specialized persistent wgmma schedule
// (sessions 1-2), and CUTLASS's 128 x {128, 256} x 32, 3-stage mma.sync
// schedule, the wide tile where it still makes 256 programs or more.
//
//===----------------------------------------------------------------------===//

#include "AttentionPattern.h"
#include "TuningDatabase.h"
#include "WeightPrologue.h"

#include "tile/Dialect/Tile/IR/TileLayouts.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tile-configure"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILECONFIGUREPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// wgmma: two consumer warpgroups of 64 x 256, K steps of 64 bf16 (one
/// 128-byte swizzle row), a ring of 4. A matmul's ring is as deep as shared
/// memory allows, up to 8 (4 for this block; the smaller blocks of skinny
/// problems were measured with the deeper rings).
constexpr int64_t kWgmmaBlock[3] = {128, 256, 64};
constexpr int64_t kWgmmaStages = 4;
constexpr int64_t kWgmmaMatmulStages = 8;
/// Block-scaled matmuls: a ring of 4 (a power of two: the slot index is a
/// mask) where 6 fit. On the H200, in turn with the 6-stage kernel
/// (bench/RESULTS.md, session 25): 8192^3 892-904 -> 999 TFLOP/s, 4096^3
/// 979-981 -> 1008; the two consumer warpgroups taking turns as well
/// (pingpong) gave 958-968 and 1020. They also take `overlap` (tile-overlap
/// runs two K steps at once, one promoted while the other's product runs):
/// in turn with the 4-stage kernel without it, 8192^3 997 -> 1168 TFLOP/s,
/// 4096^3 998 -> 1079 (session 26).
constexpr int64_t kWgmmaScaledMatmulStages = 4;
/// Split-K's partials added in a cluster of the tile's programs: up to 4,
/// rank 0 receiving the other 3 tiles in shared memory.
constexpr int64_t kMostSplitKInCluster = 4;
/// The heuristic adds the partials in a cluster above the in-kernel sums'
/// rows and up to 64 rows: in turn with cuBLAS on the H200 (session 26),
/// 64x4096x4096 0.901 -> 1.006, 64x8192x8192 0.892 -> 0.976, 64x1024x8192
/// 0.898 -> 0.986, 64x1024x4096 1.016 -> 1.126; at 128 and 512 rows the
/// second kernel stayed ahead (128x4096x4096 0.905 against 0.857,
/// 512x1024x4096 0.822 against 0.791). Only where the grid is one wave
/// (a cluster's programs are not persistent; fewer clusters than SMs / S
/// may fit at once, which this count does not see), and only where rank
/// 0's partials leave a ring of 6 or more: 64x4096x14336
/// in clusters of 4 with 64 x 128 blocks (a ring of 4 beside 96 KB of
/// partials) ran at 0.72 of cuBLAS; the winners above kept 7 or 8.
constexpr int64_t kMostRowsSplitKInCluster = 64;
constexpr int64_t kLeastStagesInCluster = 6;
/// Stream-K parts of an overlapped K loop (stream_k_part): at least 8
/// steps, two bodies of tile-overlap's four. Each part's partial is added
/// by the tile's last part: at 8192^3 with block scales (4 tiles of 64
/// steps past 31 rounds) parts of 8 are 32 programs' 8 steps (about 3 us)
/// and a sum of 8 partials of 64 KiB, where parts of 4 would sum 16.
constexpr int64_t kLeastStreamKPart = 8;
/// Where a split's partial sums are added.
enum class SplitSum { SecondKernel, LastProgram, Cluster };
/// mma.sync: 128 x {128, 256} x 32 with warps of 64 x 64, a ring of 3.
constexpr int64_t kMmaSyncBlockM = 128, kMmaSyncBlockK = 32;
constexpr int64_t kMmaSyncStages = 3;
/// A matmul's mma.sync ring: 4, a power of two, so that the slot of an
/// iteration is a mask, not a division by 3 (on the H200 the 3-slot ring's
/// K loop had 9.6% more instructions than the old path's, bench/RESULTS.md
/// session 8).
constexpr int64_t kMmaSyncMatmulStages = 4;
/// Below one wave of the SMs (decode and other skinny shapes), the wgmma
/// block is chosen per problem: rows of 64 (one consumer warpgroup) or 128,
/// columns of 64 to 256, and K cut into up to 16 ranges of at least
/// kLeastSplitK or kLeastSplitKToFill elements (split-K, below). Measured
/// on the H200 over 177
/// candidates of 11 Llama projection shapes (bench/RESULTS.md, session 8),
/// the first of rankWgmmaBlocks' order came within 0.95 of the best
/// candidate on each.
constexpr int64_t kWgmmaBlockNs[] = {256, 128, 64};
constexpr int64_t kMostSplitK = 16;
/// Ranges of at least kLeastSplitK elements; down to kLeastSplitKToFill
/// where the kernel adds the partials (M of kMostRowsSplitKInKernel rows or
/// fewer) or where longer ranges leave the grid under half the SMs. Over
/// the 18 Llama projection shapes whose kernel the shorter ranges change
/// (H200, same run, bench/RESULTS.md 2026-12-03): 1024 everywhere gained
/// 8-16% on five of them (M = 1 and 16 at K = 4096, M = 64 and 128 at
/// N = 1024, K = 4096) and lost 3-9% on six whose longer ranges already
/// filled the SMs with a second kernel adding the partials (M = 64 to
/// 512); this rule keeps the gains and none of those losses.
constexpr int64_t kLeastSplitK = 2048;
constexpr int64_t kLeastSplitKToFill = 1024;
constexpr int64_t kShortestSplitK = 512;
/// Split-K's partials are added inside the kernel (split_k_in_kernel: the
/// last program of a tile adds them) when M has at most this many rows;
/// with more, one program per tile adding them all is slower than a
/// second kernel spread over the SMs. On the H200 over the 24 split
/// Llama shapes (bench/RESULTS.md, session 13): M = 1 and 16 gained 1-12%
/// (no loss), M = 64 went -10% to +6%, M = 128 and 512 lost 1-21%.
constexpr int64_t kMostRowsSplitKInKernel = 16;
/// Block-rows per group of the tile order (tiles in flight share B in L2).
constexpr int64_t kGroupRows = 8;
/// Accumulator registers per thread the schedules leave room for: wgmma
/// consumers get 232 registers (setmaxnreg), mma.sync threads 255.
constexpr int64_t kMostAccumulatorsWgmma = 192;
constexpr int64_t kMostAccumulatorsMmaSync = 160;
/// A weight dequantized in the K loop (WeightPrologue.h): mma.sync (its B
/// comes from registers through shared memory; wgmma would need the
/// dequantized tile in its swizzled layout, not built), blocks of up to
/// 64 rows and 64 columns, K steps of up to 128 (within one scale group),
/// and split-K until the programs fill the SMs twice: decode shapes read
/// the weight once, so what counts is bytes in flight.
constexpr int64_t kDequantBlock[3] = {64, 64, 128};
constexpr int64_t kDequantStages = 4;
/// The L2 line size (l2_fetch) the transposed product's scale loads ask
/// for: each K step reads 8 bytes of a row of MXFP4's e8m0 scales (the
/// next steps the rest of its line), so a line a request instead of a
/// 32-byte sector. At 16x8192x8192 on the H100 (bench/l2_prefetch.py's
/// PTX edit, bench/ab.sh flushed, two runs; bench/RESULTS.md, session
/// 58) MXFP4 0.981 / 0.981 of the time with 128 bytes, 0.986 / 0.981
/// with 256, int4 (bf16 scales) 0.996 / 0.992; nothing from a warm L2.
constexpr int64_t kScaleLineFetch = 128;

/// The tile size tile-tile gives a dimension of `extent` under `block`.
int64_t tileSizeFor(int64_t extent, int64_t block) {
  return std::min<int64_t>(block, llvm::PowerOf2Ceil(extent));
}

bool tensorCoreType(Type type) { return type.isBF16() || type.isF16(); }

/// wgmma's element types: bf16, f16 and fp8 (K-major only).
bool wgmmaType(Type type) { return tensorCoreType(type) || isFloat8(type); }

/// What a schedule is for: a dot of [m, k] x [k, n] tiles of `element`, in
/// a program of `threads` threads.
struct DotShape {
  int64_t m, n, k;
  Type element;
  bool bTransposed = false; // B a tile.transpose (K-major), as fp8 needs
};

/// The tensor-core part of a config for dots of `shape` (the largest) on
/// `target`, or simt. Each dot must fit it too (checked by the caller).
struct MmaChoice {
  MmaKind kind = MmaKind::simt;
  SmallVector<int64_t> instr, warps;
};

/// Whether a dot of `shape` can be wgmma's with `threads`; with
/// `oddN`, also an N that is not a power of two (a multiple of 64, one
/// instruction per warp: 128 x 192), which only a given config asks for.
bool fitsWgmma(const DotShape &dot, int64_t threads, bool oddN = false) {
  int64_t eb = dot.element.getIntOrFloatBitWidth() / 8;
  int64_t wm = threads / 32;
  return wgmmaType(dot.element) &&
         (!isFloat8(dot.element) || dot.bTransposed) && threads % 128 == 0 &&
         dot.m % (16 * wm) == 0 && llvm::isPowerOf2_64(dot.m) &&
         (llvm::isPowerOf2_64(dot.n) ||
          (oddN && dot.n % 64 == 0 && dot.n <= 256 && dot.m == 16 * wm)) &&
         dot.n >= 16 && dot.k % 16 == 0 && (dot.k * eb) % 32 == 0 &&
         (dot.n * eb) % 32 == 0;
}

MmaChoice chooseMmaSync(const DotShape &dot, int64_t threads);

MmaChoice chooseMma(TargetAttr target, const DotShape &dot, int64_t threads) {
  MmaChoice choice;
  if (target.hasWgmma() && fitsWgmma(dot, threads)) {
    choice.kind = MmaKind::wgmma;
    choice.warps = {threads / 32, 1};
    // K per instruction: 32 bytes (16 bf16, 32 fp8).
    int64_t kStep = 256 / dot.element.getIntOrFloatBitWidth();
    choice.instr = {64, std::min<int64_t>(dot.n, 256), kStep};
    return choice;
  }
  if (!target.hasMmaSync())
    return choice;
  return chooseMmaSync(dot, threads);
}

MmaChoice chooseMmaSync(const DotShape &dot, int64_t threads) {
  MmaChoice choice;
  if (!tensorCoreType(dot.element) || dot.k % 16 != 0 ||
      !llvm::isPowerOf2_64(dot.m) || !llvm::isPowerOf2_64(dot.n))
    return choice;
  // Warps as square as the tile allows, two along M first (CUTLASS's 64 x 64
  // warp tiles on 128-row blocks).
  int64_t warps = threads / 32;
  for (int64_t wm : {int64_t(2), int64_t(1), int64_t(4), int64_t(8)}) {
    if (warps % wm != 0)
      continue;
    int64_t wn = warps / wm;
    if (dot.m % (16 * wm) == 0 && dot.n % (8 * wn) == 0) {
      choice.kind = MmaKind::mma_sync;
      choice.warps = {wm, wn};
      choice.instr = {16, 8, 16};
      return choice;
    }
  }
  return choice;
}

/// The wgmma blocks for an M x N x K matmul (N and K padded to 8) on `sms`
/// SMs, best first: block rows, columns and K ranges (split-K). The first
/// is the heuristic's choice; a tuner times the others (`candidate=N`).
/// The order:
/// 1. candidates whose grid covers half the SMs ("full"; split-K only up
///    to one wave, in ranges of whole K steps of at least `leastSplitK`:
///    TileConfigurePass::leastSplitKRange's, 1024 or 2048 elements, or
///    tile-configure's option least-split-k)
///    with no split and 128 columns or more (the partial sums cost a
///    second kernel and their traffic): large problems get 128 x 256;
/// 2. the other full ones;
/// 3. the rest, most programs first;
/// 4. for the tuner only, splits into ranges shorter than `leastSplitK`
///    (down to kShortestSplitK), most programs first.
/// Within 1 and 2: the widest block (long rows read from B), the largest,
/// the fewest splits.
struct WgmmaBlock {
  int64_t m, n, splits;
};
SmallVector<WgmmaBlock> rankWgmmaBlocks(int64_t m, int64_t n, int64_t k,
                                        int64_t tk, int64_t sms,
                                        int64_t leastSplitK) {
  struct Candidate {
    WgmmaBlock block;
    int64_t programs;
  };
  SmallVector<Candidate> candidates;
  int64_t steps = llvm::divideCeil(k, tk);
  for (int64_t bm : {int64_t(64), int64_t(128)}) {
    if (bm == 128 && m <= 64)
      continue;
    for (int64_t bn : kWgmmaBlockNs) {
      if (bn > std::max<int64_t>(64, llvm::PowerOf2Ceil(n)))
        continue;
      int64_t tiles = llvm::divideCeil(m, bm) * llvm::divideCeil(n, bn);
      for (int64_t splits = 1; splits <= kMostSplitK; splits *= 2) {
        // Ranges of whole steps, the last one not empty.
        int64_t perRange = llvm::divideCeil(steps, splits);
        if (splits > 1 && (perRange * (splits - 1) >= steps ||
                           k / splits < kShortestSplitK ||
                           tiles * splits > sms))
          continue;
        candidates.push_back({{bm, bn, splits}, tiles * splits});
      }
    }
  }
  auto order = [&](const Candidate &c) {
    bool full = 2 * c.programs >= sms;
    bool shortRanges = c.block.splits > 1 && k / c.block.splits < leastSplitK;
    int64_t group = shortRanges ? 3
                    : full && c.block.splits == 1 && c.block.n >= 128 ? 0
                    : full                                          ? 1
                                                                    : 2;
    if (group >= 2)
      return std::make_tuple(group, -c.programs, -c.block.n, -c.block.m);
    return std::make_tuple(group, -c.block.n, -c.block.m * c.block.n,
                           c.block.splits);
  };
  llvm::stable_sort(candidates, [&](const Candidate &a, const Candidate &b) {
    return order(a) < order(b);
  });
  SmallVector<WgmmaBlock> ranked;
  for (const Candidate &c : candidates)
    ranked.push_back(c.block);
  if (ranked.empty())
    ranked.push_back({kWgmmaBlock[0], kWgmmaBlock[1], 1});
  return ranked;
}

/// The dots of a kernel, with their operand loads.
SmallVector<DotOp> dotsOf(KernelOp kernel) {
  SmallVector<DotOp> dots;
  kernel.walk([&](DotOp dot) { dots.push_back(dot); });
  return dots;
}

/// Whether `value` is a tile loaded from a kernel argument in global
/// memory whose rows the TMA and 16-byte copies can move.
bool loadedWithAlignedRows(KernelOp kernel, Value value) {
  auto load = value.getDefiningOp<LoadOp>();
  if (!load)
    return false;
  auto arg = dyn_cast<BlockArgument>(load.getSource());
  MemRefType type = load.getSource().getType();
  if (!arg || arg.getOwner() != &kernel.getBody().front() ||
      !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getRank() != 2)
    return false;
  int64_t eb = type.getElementTypeBitWidth() / 8;
  return (type.getDimSize(1) * eb) % 16 == 0;
}

/// The tile.load a dot operand reads, through a tile.transpose (a view of
/// the loaded tile once in shared memory); null for a computed operand.
Value loadedOperand(Value operand) {
  if (auto transpose = operand.getDefiningOp<TransposeOp>())
    operand = transpose.getInput();
  return operand.getDefiningOp<LoadOp>() ? operand : Value();
}

/// Whether the dot's operand loads sit in a loop (so that a ring pays).
bool loadedInLoop(DotOp dot) {
  for (Value operand : {dot.getLhs(), dot.getRhs()}) {
    auto load = operand.getDefiningOp<LoadOp>();
    if (!load || !isa<scf::ForOp>(load->getParentOp()))
      return false;
  }
  return true;
}

/// Shared memory the dot operands take under `mma` with `stages`: a ring
/// of `stages` slots for each load in a loop (tile-pipeline's), one slot
/// for any other load or computed operand, none for a computed 16-bit A
/// of wgmma (tile-promote keeps it in registers where it is a cast
/// accumulator; the SIMT lowering checks the final sum).
int64_t ringBytes(ArrayRef<DotOp> dots, MmaKind mma, int64_t stages) {
  int64_t bytes = 0;
  llvm::SmallPtrSet<Operation *, 4> seen;
  for (DotOp dot : dots) {
    std::array<Value, 2> operands = {dot.getLhs(), dot.getRhs()};
    for (auto [index, operand] : llvm::enumerate(operands)) {
      Operation *def = operand.getDefiningOp();
      if (!def || !seen.insert(def).second)
        continue;
      auto type = cast<TileType>(operand.getType());
      int64_t slots = 1;
      if (isa<LoadOp>(def) && isa<scf::ForOp>(def->getParentOp()))
        slots = stages;
      else if (!isa<LoadOp>(def) && index == 0 && mma == MmaKind::wgmma &&
               type.getElementTypeBitWidth() == 16)
        slots = 0;
      bytes += slots * type.getNumElements() *
               (type.getElementTypeBitWidth() / 8);
    }
  }
  return bytes;
}

struct TileConfigurePass
    : public tile::impl::TileConfigurePassBase<TileConfigurePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (leastSplitK < 0 || mostRowsSplitKInKernel < 0) {
      emitError(module.getLoc())
          << "tile-configure: least-split-k and most-rows-split-k-in-kernel "
             "must not be negative";
      return signalPassFailure();
    }
    if (!chip.empty()) {
      auto emit = [&]() -> InFlightDiagnostic {
        return emitError(module.getLoc());
      };
      auto target = TargetAttr::getChecked(
          function_ref<InFlightDiagnostic()>(emit), &getContext(),
          StringRef(chip), int64_t(sms));
      if (!target)
        return signalPassFailure();
      module->setAttr(TargetAttr::getAttrName(), target);
    }
    TargetAttr target = TargetAttr::lookup(module);
    if (!target) {
      emitError(module.getLoc())
          << "no target: run tile-configure{chip=...} or put a tile.target "
             "attribute on the module";
      return signalPassFailure();
    }
    if (!tuningDb.empty() &&
        failed(loadTuningDatabase(tuningDb, module.getLoc(), tuning)))
      return signalPassFailure();
    if (!attentionBlock.empty() &&
        (attentionBlock.size() != 2 ||
         !llvm::is_contained({64, 128, 256}, attentionBlock[0]) ||
         !llvm::is_contained({64, 128}, attentionBlock[1]))) {
      emitError(module.getLoc())
          << "attention-block takes query rows (64, 128 or 256) and keys "
             "(64 or 128), two values";
      return signalPassFailure();
    }
    WalkResult walk = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (auto fused = dyn_cast<FusedOp>(op);
          fused && fused->hasAttr("tile.attention")) {
        if (failed(configureAttention(target, fused, attentionBlock,
                                      attentionFmaExp2)))
          return WalkResult::interrupt();
        return WalkResult::skip();
      }
      if (auto matmul = dyn_cast<MatmulOp>(op))
        if (failed(configureMatmul(target, matmul)))
          return WalkResult::interrupt();
      if (auto kernel = dyn_cast<KernelOp>(op))
        if (failed(configureKernel(target, kernel)))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }

  TuningDatabase tuning;

  /// The split-K lines of the table, or the options that move them: the
  /// shortest K range the heuristic picks for an M x N x K matmul in K
  /// steps of `tk` (the option, else kLeastSplitK or kLeastSplitKToFill),
  /// and the most rows whose partials the kernel adds.
  int64_t leastSplitKRange(int64_t m, int64_t n, int64_t k, int64_t tk,
                           int64_t sms) const {
    if (leastSplitK)
      return leastSplitK;
    if (m <= splitKInKernelRows())
      return kLeastSplitKToFill;
    WgmmaBlock first = rankWgmmaBlocks(m, n, k, tk, sms, kLeastSplitK).front();
    int64_t programs = llvm::divideCeil(m, first.m) *
                       llvm::divideCeil(n, first.n) * first.splits;
    return 2 * programs >= sms ? kLeastSplitK : kLeastSplitKToFill;
  }
  int64_t splitKInKernelRows() const {
    return mostRowsSplitKInKernel ? mostRowsSplitKInKernel
                                  : kMostRowsSplitKInKernel;
  }

  /// An attention group (tile-fuse's): on wgmma targets, 128 query rows
  /// on two consumer warpgroups (64 below 128 rows), 128 keys per step and
  /// a two-slot ring for the K and V tiles. At head dimensions of 128 and
  /// more, a TMA producer warpgroup (warp specialization) where K and V
  /// rows are 16-byte multiples: one program per SM whose consumers get
  /// 232 registers, which 128 x 128 score tiles beside a 128-wide output
  /// need; without it, 64 keys per step (two programs per SM at 128
  /// registers). At D up to 128, where every block is whole, nothing
  /// masks the scores (no causal or other position mask, S and Sk
  /// multiples of 128) and the query blocks of all heads are more than
  /// the SMs, the producer with a persistent grid: one program per
  /// SM, each head's query blocks adjacent so that its K and V stay in L2,
  /// and Q, loaded once per tile in the tile loop, in a two-slot ring of
  /// its own that the producer fills ahead (cuDNN's shape of kernel);
  /// otherwise, below D = 128, two programs per SM without a producer. The
  /// best of the schedules measured on the H200 (bench/RESULTS.md,
  /// sessions 9 and 10: at D = 128 the producer's 128 x 128 blocks ran
  /// 1.15x the 64-key ones; at D = 64 the producer alone ran 0.90x;
  /// session 19: 1.014x with the persistent grid, slower with rings of 3
  /// or 4 slots). A causal mask alone (Sq = Sk, an even number of whole
  /// query blocks, more pairs of them than SMs) gets the same persistent
  /// kernel with its query blocks in mirrored pairs (mirror_rows: every
  /// pair runs the same number of key blocks; tile-pipeline carries the
  /// ring's position across the key loops' changing lengths): 373.7 ->
  /// 361.1 us at 16x16x2048x64 causal against two programs per SM
  /// (session 22). At D = 128 both persistent kernels ran 3-5% faster than
  /// one program per query block (session 23, timed launch by launch in
  /// turn: 1781 -> 1722 us non-causal, 1017 -> 965 us causal, at
  /// 4x32x4096x128); larger head dimensions are not measured, so they keep
  /// a program per query block. With the producer at
  /// D = 128, the two consumer warpgroups take turns at the tensor cores
  /// (pingpong): 0.5-2.4% faster on the four D = 128 shapes of
  /// bench/attention.sh, but 4.8% slower at D = 64, where the softmax
  /// outweighs the products (session 21, same-run A/B; session 23: 5%
  /// slower in the persistent kernel too), except in the causal kernel of
  /// mirrored pairs, where it ran 1.4% faster (session 23: 362.1 -> 357.1
  /// us at 16x16x2048x64); other head dimensions are not measured, so
  /// they go without.
  /// In that causal kernel at D = 64, every 8th exponential of the scores
  /// goes to the FMA pipe (fma_exp2): the special-function unit's 16 a
  /// clock per SM take as long as the block's products there. Measured
  /// (session 24, launch by launch in turn with cuDNN, 16x16x2048x64):
  /// causal 356.8 -> 351.3 us; every 4th 366.4 (the added FMA-pipe work
  /// outweighs); non-causal (no pingpong) 599.8 -> 614.9, so it goes
  /// without.
  /// `fmaExp2` (the attention-fma-exp2 option), when 0 or more, replaces
  /// that choice.
  /// Elsewhere none: the kernel's own configuration (its dots) decides.
  /// `block` (the attention-block option), when given, replaces the
  /// query rows and keys chosen here (the rest follows from it).
  static LogicalResult configureAttention(TargetAttr target, FusedOp fused,
                                          ArrayRef<int64_t> block,
                                          int64_t fmaExp2) {
    if (!target.hasWgmma() ||
        fused->hasAttr(ConfigAttr::getAttrName()))
      return success();
    MatmulOp scores;
    for (auto matmul : fused.getBody().front().getOps<MatmulOp>())
      if (!scores)
        scores = matmul;
    // A group marked tile.attention by hand that is not one gets no
    // config here: tile-tile says what it lacks (matchAttention).
    if (!scores)
      return success();
    auto q = cast<ShapedType>(scores.getLhs().getType());
    if (q.getRank() < 2)
      return success();
    int64_t rows = q.getDimSize(q.getRank() - 2),
            d = q.getDimSize(q.getRank() - 1);
    int64_t keys = cast<ShapedType>(scores.getType()).getShape().back();
    // Fewer than 64 query rows (decode) or 16 keys: tile-tile's blocks
    // shrink to them, below wgmma's 64 rows and 16-deep products; no
    // config, so that the kernel's own dots choose (mma.sync), as on sm_80.
    if (rows < 64 || keys < 16)
      return success();
    int64_t rowBytes = d * q.getElementTypeBitWidth() / 8;
    bool tmaRows = target.hasTma() && rowBytes % 16 == 0;
    bool masked = fused.getBody()
                      .walk([](IotaOp) { return WalkResult::interrupt(); })
                      .wasInterrupted();
    // Causal: the only position mask is causal (its key loop's length then
    // grows with the query block).
    bool causal = false;
    MatmulOp output;
    for (auto matmul : fused.getBody().front().getOps<MatmulOp>())
      output = matmul;
    if (std::optional<AttentionPattern> pattern = matchAttention(output)) {
      int64_t rank = q.getRank();
      auto positional = [](MapOp map) {
        return llvm::any_of(map.getInputs(), [](Value input) {
          return input.getDefiningOp<IotaOp>() != nullptr;
        });
      };
      causal = llvm::any_of(pattern->scoreMaps, positional) &&
               llvm::all_of(pattern->scoreMaps, [&](MapOp map) {
                 return !positional(map) || isCausalMask(map, rank);
               });
    }
    // The heads are the grid's second dimension, which tile-persistent
    // needs; one wave of tiles or less gains nothing from a persistent
    // grid (the producer alone ran 0.90x the default at D = 64).
    int64_t heads = 1;
    for (int64_t dim : q.getShape().drop_back(2))
      heads *= dim;
    // Causal query blocks in mirrored pairs (an even number of them):
    // each pair runs the same number of key blocks.
    // The persistent grid then has a program per pair, so it pays where
    // the pairs are more than the SMs.
    int64_t bm = block.empty() ? (rows >= 128 ? 128 : 64) : block[0];
    bool mirrored = causal && rows == keys && rows % (2 * bm) == 0;
    int64_t units = mirrored ? rows / (2 * bm) * heads : rows / bm * heads;
    // Whole query blocks, of 128 rows at least (64-row blocks are for
    // fewer rows than 128).
    bool persistent = tmaRows && d <= 128 && (!masked || mirrored) &&
                      rows % std::max<int64_t>(bm, 128) == 0 &&
                      keys % 128 == 0 && heads > 1 &&
                      units > target.getSmCount();
    // More than two consumer warpgroups need the producer's register
    // split (setmaxnreg): without it 512 threads get 64 registers each.
    if (bm > 128 && !tmaRows)
      return fused.emitError()
             << "attention-block of " << bm
             << " query rows needs TMA-readable K and V rows (16-byte "
                "multiples) for its producer warpgroup";
    bool producer = tmaRows && (d >= 128 || persistent || bm > 128);
    int64_t bn =
        block.empty() ? ((d >= 128 && !producer) || d > 128 ? 64 : 128)
                      : block[1];
    // Each dot's wgmma N is the smaller of this and its accumulator's
    // columns (TileAssignLayouts): at D = 256 the scores keep 64 (the
    // keys) and P V takes one m64n256k16 a step of 16 keys, not four
    // m64n64k16 (the 16x2x512x256 K loop: 508 -> 462 SASS instructions,
    // the same shared-memory traffic).
    int64_t instrN = d > 128 ? 256 : bn;
    bool pingpong = producer && bm == 128 &&
                    (d == 128 || (d == 64 && persistent && mirrored));
    if (fmaExp2 < 0)
      fmaExp2 = pingpong && d == 64 ? 8 : 0;
    // At head dimension 64 the kernel is bound by what all the SMs read
    // together: on every SM, not the fewest programs for its rounds
    // (16x16x2048x64 on 128 programs: 5% slower, bench/RESULTS.md
    // session 46; D = 128 0.8% faster).
    bool everySm = persistent && !mirrored && d == 64;
    MLIRContext *ctx = fused.getContext();
    fused->setAttr(
        ConfigAttr::getAttrName(),
        ConfigAttr::get(ctx, {bm, bn, d}, bm / 64 * 128, MmaKind::wgmma,
                        {64, instrN, 16}, {bm / 16, 1},
                        /*stages=*/2, persistent,
                        /*groupRows=*/persistent && !mirrored ? rows / bm : 1,
                        /*warpSpecialize=*/producer,
                        /*splitK=*/1, {}, /*overlap=*/producer,
                        /*splitKInKernel=*/false,
                        /*prefetch=*/false, pingpong,
                        /*mirrorRows=*/persistent && mirrored, fmaExp2,
                        /*transposed=*/false,
                        /*kWarpgroups=*/1, /*streamK=*/false, everySm,
                        /*streamKPart=*/0,
                        // Its two products' descriptors take the uniform
                        // registers (uniform_warp: 3-7% slower, session 48).
                        /*uniformWarp=*/false, /*tmaStore=*/false,
                        /*l2Fetch=*/0));
    return success();
  }

  /// How a dequantized weight is stored: a name ("i4s" / "i4u" for packed
  /// signed / unsigned 4-bit values, "i8" for bytes, "w" for anything
  /// else) and its bits per value.
  static std::pair<StringRef, int64_t>
  weightStorage(const WeightPrologue &prologue) {
    for (Operation *step : prologue.ops)
      if (auto unpack = dyn_cast<UnpackOp>(step))
        return {unpack.getSignExtend() ? "i4s" : "i4u", 4};
    for (Operation *step : prologue.ops)
      for (Value operand : step->getOperands())
        if (auto type = dyn_cast<RankedTensorType>(operand.getType()))
          if (type.getElementType().isInteger(8) && !operand.getDefiningOp())
            return {"i8", 8};
    return {"w", 16};
  }

  /// The bytes a step of `products` products over `rows` rows of W adds
  /// to each stage of a producer's ring as scale lines (where tile-pipeline
  /// rings a load into registers TMA can copy, its ring-register-loads;
  /// counted either way, so that the option changes no config): each
  /// product reads the line of `rows` values of its group (two products of
  /// one group, two lines), for each scale stored [K / g, N] (the
  /// tile.transpose of a repeated leaf), whose groups' rows are the lines.
  /// (An [N, K / g] scale is read a few values a row: not a line, not in
  /// the ring.)
  static int64_t scaleLineBytes(const WeightPrologue &prologue,
                                int64_t products, int64_t rows) {
    int64_t bytes = 0;
    for (Operation *step : prologue.ops) {
      auto repeat = dyn_cast<RepeatOp>(step);
      if (!repeat || repeat.getDim() != 1)
        continue;
      auto transpose = repeat.getInput().getDefiningOp<TransposeOp>();
      if (!transpose)
        continue;
      auto type = cast<RankedTensorType>(transpose.getType());
      bytes += products * rows *
               llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    }
    return bytes;
  }

  static std::string matmulTuningKey(TargetAttr target, MatmulOp matmul) {
    auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
    auto rhs = cast<RankedTensorType>(matmul.getRhs().getType());
    auto result = cast<RankedTensorType>(matmul.getType());
    auto name = [](Type type) {
      std::string text;
      llvm::raw_string_ostream os(text);
      type.print(os);
      return text;
    };
    // A block-scaled matmul's schedule differs (tiles within the scale
    // blocks, a product beside the accumulator): its own key.
    std::string op = MatmulOp::getOperationName().str();
    if (std::optional<ArrayRef<int64_t>> groups = matmul.getScaleBlock())
      op += llvm::formatv(".scaled.{0}x{1}x{2}", (*groups)[0], (*groups)[1],
                          (*groups)[2])
                .str();
    // So is a weight dequantized in the K loop, per storage (its steps
    // divide the group; B's element type is what the prologue computes):
    // the packed 4-bit values (signed or not) or the stored element type.
    if (std::optional<WeightPrologue> prologue = matchWeightPrologue(matmul))
      op += llvm::formatv(".dequant.{0}.g{1}",
                          weightStorage(*prologue).first, prologue->group)
                .str();
    // A weight stored in fragment runs has steps of 4 runs.
    if (std::optional<int64_t> runs = matmul.getKRuns())
      op += llvm::formatv(".kr{0}", *runs).str();
    // B as the transpose of an [N, K] tensor (torch's Linear weight, read
    // K-major as stored) moves through other boxes and layouts than B
    // stored [K, N]: a key of its own, so that a plain GEMM's tuned config
    // is not taken for x W^T. (Block-scaled and dequantized B are always
    // so: their keys are theirs already.)
    if (!matmul.getScaleBlock() && !matchWeightPrologue(matmul) &&
        matmul.getRhs().getDefiningOp<TransposeOp>())
      op += ".bt";
    return tuningKey(op, target.getChip(),
                     target.getSmCount(), result.getDimSize(0),
                     result.getDimSize(1), lhs.getDimSize(1),
                     name(lhs.getElementType()), name(rhs.getElementType()),
                     name(result.getElementType()));
  }

  /// Gives `matmul` the tuning database's config where it has one: true
  /// if it did.
  FailureOr<bool> applyTunedConfig(TargetAttr target, MatmulOp matmul) {
    if (tuning.empty())
      return false;
    FailureOr<ConfigAttr> tuned = tunedConfig(target, matmul);
    if (failed(tuned))
      return failure();
    if (*tuned)
      matmul->setAttr(ConfigAttr::getAttrName(), *tuned);
    return bool(*tuned);
  }

  /// The tuning database's config for `matmul` (null if it has none).
  FailureOr<ConfigAttr> tunedConfig(TargetAttr target, MatmulOp matmul) {
    std::string key = matmulTuningKey(target, matmul);
    auto found = tuning.entries.find(key);
    if (found == tuning.entries.end())
      return ConfigAttr();
    const TuningEntry &entry = found->second;
    if (entry.schedule != kScheduleVersion) {
      matmul.emitWarning() << tuning.path << ":" << entry.line
                           << ": the entry for " << key
                           << " was tuned for schedule version "
                           << entry.schedule << ", this compiler's is "
                           << kScheduleVersion << ": ignored (tune again)";
      return ConfigAttr();
    }
    auto config = dyn_cast_or_null<ConfigAttr>(
        parseAttribute(entry.config, matmul.getContext()));
    if (!config)
      return matmul.emitOpError()
             << "has a tuning database entry (" << tuning.path << ":"
             << entry.line << ") whose config is not a #tile.config: "
             << entry.config;
    return config;
  }

  /// A matmul whose B is a weight dequantized in its K loop: see
  /// kDequantBlock. None where mma.sync cannot take it (tile-tile's SIMT
  /// kernel then). The first is the heuristic's; the others, for a tuner
  /// (`candidate=N`), double the split or the block's columns.
  SmallVector<ConfigAttr> dequantConfigs(TargetAttr target, MatmulOp matmul,
                                         const WeightPrologue &prologue) {
    auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
    auto result = cast<RankedTensorType>(matmul.getType());
    Type element = lhs.getElementType();
    if (!target.hasMmaSync() || !tensorCoreType(element))
      return {};
    int64_t m = result.getDimSize(0), n = result.getDimSize(1),
            k = lhs.getDimSize(1);
    int64_t k8 = llvm::alignTo(k, 8);
    int64_t tk = tileSizeFor(k8, kDequantBlock[2]);
    while (prologue.group && prologue.group % tk != 0 && tk > 16)
      tk /= 2;
    // A weight stored in fragment runs of W (k_runs): blocks of 4 W along
    // K, each thread's run one 16-byte read (tile-assign-layouts). A step
    // takes two blocks (buildMatmulLoop reads them as sub-steps, each with
    // its own group's scales), so each thread asks for its run in both
    // 64-byte halves of a weight row's 128 bytes at once, with half the
    // ring's stages: as many bytes in flight and the same programs per SM.
    // On the H200 (int4 M = 16, N = K = 8192, in turn with cuBLAS's 43.6
    // us): 29.8 -> 25.0 us; 3 and 4 stages 26.4-26.8 and 35.8
    // (bench/RESULTS.md, session 30, from the prototype of session 29).
    // Only for blocks of one warp along M (16 rows), whose weight goes
    // straight to registers: at M = 64 (two warps along M, the weight
    // through shared memory) it was slower, 59.8 -> 64.4 us.
    std::optional<int64_t> runs = matmul.getKRuns();
    int64_t stages = kDequantStages;
    if (runs) {
      tk = 4 * *runs;
      if (k8 >= 2 * tk && m <= 16) {
        tk *= 2;
        stages = kDequantStages / 2;
      }
    }
    int64_t productK = runs ? 4 * *runs : tk;
    if (prologue.group && prologue.group % productK != 0)
      return {};
    // The transposed product: one program per 64 rows of W (N), x's rows
    // (M, at least 16, a power of two) wgmma's N, steps of two blocks, a
    // producer's ring whose stages are counted by the bytes it holds,
    // consumer warpgroups taking turns at the steps (k_warpgroups) and
    // `prefetch` (each partition's scales loaded a step of its own ahead,
    // or above the ring's wait; through the ring with tile-pipeline's
    // ring-register-loads), not persistent (docs/quantization.md). The
    // first candidate for weights in fragment runs (k_runs = 32: int4; 8:
    // MXFP4, a block of 32 and its scale a product, in steps of 256) of at
    // most 64 rows. On the H200 (8192x8192, tile-run with L2 flushed;
    // bench/RESULTS.md, session 36), int4 with bf16 scales at M = 1 / 16
    // / 64: 24.1 / 27.3 / 42.3 us for the kernels it replaces (mma.sync;
    // session 33's transposed config at 64), 22.1 / 21.1 with four
    // warpgroups, 30.0 at 64 with two (four: 31.2); MXFP4 in runs of 8
    // with four: 32.6 / 32.8 / 41.7 against 37.9 / 38.7 / 86.0 for the
    // mma.sync kernel of its default layout.
    bool canTranspose = runs && (*runs == 32 || *runs == 8) && m <= 64 &&
                        target.hasWgmma() && target.hasTma() &&
                        k8 >= 4 * *runs;
    // Steps of two blocks (MXFP4's runs of 8: 256 where K has two).
    int64_t stepK = 0;
    if (canTranspose) {
      stepK = k8 >= 8 * *runs ? 8 * *runs : 4 * *runs;
      if (*runs < 32 && k8 >= 2 * 256)
        stepK = 256;
    }
    // The transposed config with `kWarpgroups` consumers taking turns (one
    // where K has one step).
    auto transposedConfig = [&](int64_t kWarpgroups) -> ConfigAttr {
      int64_t rows = std::max<int64_t>(16, llvm::PowerOf2Ceil(m));
      DotShape dot{64, rows, stepK, element};
      MmaChoice mma{MmaKind::wgmma, {64, rows, 16}, {4, 1}};
      int64_t eb = element.getIntOrFloatBitWidth() / 8;
      int64_t stageBytes = 64 * stepK * weightStorage(prologue).second / 8 +
                           rows * stepK * eb +
                           scaleLineBytes(prologue, stepK / productK, 64);
      if (!fitsWgmma(dot, 128))
        return {};
      ConfigAttr config = buildConfig(
          target, {rows, 64, stepK}, 128, mma,
          /*pipelined=*/true, /*alignedRows=*/true, {dot}, /*splits=*/1,
          /*mostStages=*/8, /*splitKInKernel=*/false, /*prefetch=*/true,
          /*overlap=*/false, /*splitKInCluster=*/false,
          /*transposed=*/true, stageBytes,
          /*kWarpgroups=*/llvm::divideCeil(k8, stepK) >= 2 ? kWarpgroups : 1,
          /*l2Fetch=*/kScaleLineFetch);
      // Warpgroups taking turns need a ring they divide.
      if (config.getKWarpgroups() > 1 &&
          config.getStages() % config.getKWarpgroups() != 0)
        return {};
      return config;
    };
    // Four warpgroups up to 32 rows (their 112 registers a thread hold
    // the step's dequantized A beside a 64 x 32 accumulator); two at 64;
    // never more than K has steps (a warpgroup without one only waits).
    ConfigAttr transposed;
    if (canTranspose) {
      int64_t groups = m <= 32 ? 4 : 2;
      while (groups > static_cast<int64_t>(llvm::divideCeil(k8, stepK)))
        groups /= 2;
      transposed = transposedConfig(groups);
    }
    // Each config with the share of one wave of resident programs it
    // fills.
    SmallVector<std::pair<ConfigAttr, double>> configs;
    // Splits of K in ranges of whole steps, the last one not empty, at
    // least 4 steps each.
    auto splitFits = [&](int64_t splits, int64_t stepK) {
      int64_t steps = llvm::divideCeil(k8, stepK);
      int64_t perRange = llvm::divideCeil(steps, splits);
      return splits <= kMostSplitK && perRange * (splits - 1) < steps &&
             perRange >= 4;
    };
    auto add = [&](int64_t tn, bool widerSplit, int64_t stepK,
                   int64_t ringStages, int64_t productK) {
      DotShape dot{std::max<int64_t>(16, tileSizeFor(m, kDequantBlock[0])),
                   tn, stepK, element};
      // Eight warps where each thread still gets 32 values of W per step
      // (16 packed bytes, one 16-byte copy): the dequantizing work spread
      // twice as thin as over four (on the H200, int4 M = 16 at 8192^2:
      // 56.1 -> 51.2 us); with fewer values per thread (K steps of 32 for
      // MXFP4) the bytes no longer split into 16-byte runs and unpack
      // through shared memory (MXFP4 81.6 -> 193.9 us; bench/RESULTS.md,
      // session 15): four.
      // (Per product where a step of whole groups is read in products of
      // one group, each product's tile laid out on its own; a k_runs
      // weight's threads as its step's.)
      int64_t threadK = runs ? stepK : productK;
      int64_t threads = dot.n * threadK >= 256 * 32 ? 256 : 128;
      MmaChoice mma = chooseMmaSync(dot, threads);
      if (mma.kind != MmaKind::mma_sync)
        return;
      // Split K for as many programs as the SMs hold at once (one wave: a
      // second, partial one costs more than the split gains), at least 2
      // and at most 4 per SM (the partial sums grow with the split).
      // Resident per SM: by shared memory (the ring's stages of x and the
      // packed weight, rows counted 16 bytes longer (x's are padded; the
      // weight's no longer are: an over-estimate kept), and the accumulator's
      // exchange), by registers (these kernels take at most 64 a thread)
      // and by threads. On the H200 (N = K = 8192, M = 1 and 16) int4's
      // programs fit 4 per SM and split 4 beat 2 (42.2 -> 37.4 us), int8's
      // fit 3 and split 4 made a tail wave (48.8 -> 56.7; bench/RESULTS.md,
      // session 16).
      int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
      int64_t perStage =
          dot.m * (dot.k * elementBytes + 16) +
          dot.n * (dot.k * weightStorage(prologue).second / 8 + 16);
      int64_t shared = ringStages * perStage + dot.m * dot.n * 4 + 2048;
      int64_t perSM = std::min({(target.getMaxSharedMemoryPerProgram() + 1024) /
                                    (shared + 1024),
                                int64_t(65536) / (64 * threads),
                                int64_t(2048) / threads});
      int64_t programs =
          std::clamp<int64_t>(perSM, 2, 4) * target.getSmCount();
      int64_t tiles = llvm::divideCeil(m, dot.m) * llvm::divideCeil(n, dot.n);
      int64_t splits = 1;
      while (tiles * splits < programs && tiles * splits * 2 <= programs &&
             splitFits(splits * 2, stepK))
        splits *= 2;
      if (widerSplit) {
        if (!splitFits(splits * 2, stepK))
          return;
        splits *= 2;
      }
      bool inKernel = splits > 1 && m <= splitKInKernelRows();
      // The scales' load one step ahead (prefetch), where a step has K of
      // 64 or more. On the H200 (N = K = 8192) it took int8 M = 16 from
      // 41.2 to 37.4 us and int4 M = 64 from 79.8 to 64.8; MXFP4's steps
      // of 32 got slower (M = 64 99.5 -> 118.5: the next step's index
      // arithmetic weighs on a step that small; bench/RESULTS.md, session
      // 17).
      configs.push_back(
          {buildConfig(target, {dot.m, dot.n, dot.k}, threads, mma,
                       /*pipelined=*/true, /*alignedRows=*/true, {dot},
                       splits, ringStages, inKernel,
                       /*prefetch=*/dot.k >= 64),
           double(tiles * splits) / double(programs)});
    };
    int64_t tn = std::max<int64_t>(32, tileSizeFor(n, kDequantBlock[1]));
    add(tn, /*widerSplit=*/false, tk, stages, productK);
    if (configs.empty())
      return {};
    add(tn, /*widerSplit=*/true, tk, stages, productK);
    size_t narrow = configs.size();
    if (tileSizeFor(n, 2 * tn) == 2 * tn) {
      add(2 * tn, /*widerSplit=*/false, tk, stages, productK);
      add(2 * tn, /*widerSplit=*/true, tk, stages, productK);
    }
    // Blocks twice as wide first where their programs fill more of a wave
    // (at most one), or as much with 64-row blocks (x's fragments, read by
    // every warp, then serve twice the columns): on the H200 int8 at
    // M = 16, 128 columns in 0.97 of a wave against 64 in 0.65: 48.8 ->
    // 41.3 us; int4 at M = 64, both 0.97: 93.2 -> 85.9; MXFP4 at M = 16,
    // both 0.97: 76.2 against 77.0 (bench/RESULTS.md, session 16).
    auto fill = [](double f) { return f <= 1.0 ? f : 0.0; };
    if (configs.size() > narrow) {
      double narrowFill = fill(configs.front().second);
      double wideFill = fill(configs[narrow].second);
      int64_t rows = configs.front().first.getBlock()[0];
      if (wideFill > narrowFill || (wideFill == narrowFill && rows >= 64))
        std::rotate(configs.begin(), configs.begin() + narrow, configs.end());
    }
    // For the tuner: a k_runs weight in steps of one block, a ring of 4.
    if (runs)
      add(tn, /*widerSplit=*/false, productK, kDequantStages, productK);
    // For the tuner: runs shorter than 32 (MXFP4 packed in runs of 8, one
    // group of 32 a block) in steps of 128 and 256, one product a block:
    // the step's own work (index arithmetic, the ring's wait, the scales)
    // spread over more values. At 16x8192x8192 the steps of 64 that the
    // heuristic gives run 283 SASS instructions a K step for 32 values a
    // thread (session 34, with the e2m1 pairs).
    if (runs && *runs < 32)
      for (int64_t step : {int64_t(128), int64_t(256)})
        if (step > tk && k8 >= 2 * step)
          add(tn, /*widerSplit=*/false, step, kDequantStages / 2, productK);
    // For the tuner: groups shorter than 128 (MXFP4's 32, whose steps are
    // one group above) in steps of 128, one product a group
    // (productStepK), so that a ring stage holds four groups' bytes; rings
    // of 4 and of 2.
    int64_t longStep = kDequantBlock[2];
    if (!runs && prologue.group && prologue.group < longStep &&
        longStep % prologue.group == 0 && k8 >= 2 * longStep) {
      add(tn, /*widerSplit=*/false, longStep, kDequantStages, prologue.group);
      add(tn, /*widerSplit=*/false, longStep, kDequantStages / 2,
          prologue.group);
    }
    SmallVector<ConfigAttr> ranked = llvm::to_vector(llvm::map_range(
        configs, [](const auto &entry) { return entry.first; }));
    if (transposed)
      ranked.insert(ranked.begin(), transposed);
    // For the tuner: the transposed product with one, two and four
    // consumer warpgroups (those not first already).
    if (canTranspose)
      for (int64_t g : {1, 2, 4})
        if (ConfigAttr config = transposedConfig(g))
          if (!llvm::is_contained(ranked, config))
            ranked.push_back(config);
    return ranked;
  }

  /// A tensor-level matmul: the block tile-tile builds for it, and the
  /// tensor-core choices for that block (a tuning database's entry, else
  /// the `candidate`-th of its ranked candidates).
  LogicalResult configureMatmul(TargetAttr target, MatmulOp matmul) {
    if (matmul->hasAttr(ConfigAttr::getAttrName()))
      return success();
    if (std::optional<WeightPrologue> prologue = matchWeightPrologue(matmul)) {
      FailureOr<bool> tuned = applyTunedConfig(target, matmul);
      if (failed(tuned) || *tuned)
        return success(succeeded(tuned));
      SmallVector<ConfigAttr> configs =
          dequantConfigs(target, matmul, *prologue);
      if (configs.empty())
        return success();
      return chooseCandidate(target, matmul, configs);
    }
    // B stored in fragment runs is read as runs only when it is a weight
    // computed in registers (above); any other B: the SIMT kernel.
    if (matmul.getKRuns()) {
      matmul.emitRemark() << "k_runs on a B that is not a weight "
                             "dequantized in the K loop: the SIMT kernel";
      return success();
    }
    auto lhs = cast<RankedTensorType>(matmul.getLhs().getType());
    auto result = cast<RankedTensorType>(matmul.getType());
    Type element = lhs.getElementType();
    bool fp8 = isFloat8(element);
    if (!wgmmaType(element) || !lhs.hasStaticShape() ||
        !result.hasStaticShape() || result.getRank() != 2)
      return success(); // tile-tile's defaults (SIMT), or its error
    if (fp8 && (!target.hasWgmma() ||
                !matmul.getRhs().getDefiningOp<TransposeOp>())) {
      // wgmma reads fp8 B K-major only, and mma.sync's fp8 (sm_89) is not
      // built: the SIMT kernel, and a remark that says so.
      matmul.emitRemark()
          << "fp8 matmul on SIMT: the tensor cores need sm_90a and B as the "
             "tile.transpose of an [N, K] tensor (K-major, as torch's "
             "_scaled_mm takes it)";
      return success();
    }
    int64_t m = result.getDimSize(0), n = result.getDimSize(1),
            k = lhs.getDimSize(1);
    FailureOr<bool> tuned = applyTunedConfig(target, matmul);
    if (failed(tuned) || *tuned)
      return success(succeeded(tuned));
    // Rows padded to 16 bytes (tile-tile's matmulBuffers).
    int64_t runElements = 128 / element.getIntOrFloatBitWidth();
    int64_t n8 = llvm::alignTo(n, runElements),
            k8 = llvm::alignTo(k, runElements);
    // Block scales: each K step within one scale block, and blocks whose
    // rows and columns lie within one (or scales per row or column); the
    // step's product lives beside the accumulator (twice the registers).
    std::optional<ArrayRef<int64_t>> groups = matmul.getScaleBlock();
    auto fitsScales = [&](int64_t bm, int64_t bn, int64_t threads,
                          int64_t mostAccumulators) {
      if (!groups)
        return true;
      return MatmulOp::scaleBlockFitsTile((*groups)[0], bm) &&
             MatmulOp::scaleBlockFitsTile((*groups)[2], bn) &&
             2 * bm * bn / threads <= mostAccumulators;
    };
    auto stepFor = [&](int64_t tk) {
      while (groups && (*groups)[1] % tk != 0 && tk > 16)
        tk /= 2;
      return tk;
    };
    SmallVector<ConfigAttr> configs;
    if (target.hasWgmma()) {
      // 128 bytes of K per step: 64 bf16, 128 fp8.
      int64_t tk = stepFor(tileSizeFor(
          k8, kWgmmaBlock[2] * 16 / element.getIntOrFloatBitWidth()));
      // Candidates with steps of 2 tk for the small blocks (below).
      SmallVector<ConfigAttr> longerSteps;
      for (WgmmaBlock block :
           rankWgmmaBlocks(m, n8, k8, tk, target.getSmCount(),
                           leastSplitKRange(m, n8, k8, tk,
                                            target.getSmCount()))) {
        // The block is used as it is (rows past M are not loaded), so that
        // a skinny M still fills a warpgroup's 64 rows.
        int64_t threads = block.m * 2;
        if (!fitsScales(block.m, block.n, threads, kMostAccumulatorsWgmma))
          continue;
        DotShape dot{block.m, block.n, tk, element,
                     bool(matmul.getRhs().getDefiningOp<TransposeOp>())};
        MmaChoice mma = chooseMma(target, dot, threads);
        if (mma.kind == MmaKind::simt)
          continue;
        // A split block in each form, the preferred one first (for the
        // tuner to try the others): partials added by a second kernel, by
        // the last program of a tile, or in a cluster of the tile's
        // programs (up to 4: rank 0 holds the other partials in shared
        // memory).
        bool inKernel = block.splits > 1 && m <= splitKInKernelRows();
        // (Block-scaled matmuls not yet: not run on the GPU in a cluster.)
        bool clusterFits = block.splits > 1 &&
                           block.splits <= kMostSplitKInCluster && !groups;
        // One wave: a cluster's programs are not persistent.
        int64_t programs = llvm::divideCeil(m, block.m) *
                           llvm::divideCeil(n8, block.n) * block.splits;
        bool inCluster = clusterFits && !inKernel &&
                         m <= kMostRowsSplitKInCluster &&
                         programs <= target.getSmCount();
        auto configFor = [&](SplitSum form, int64_t stepK) {
          DotShape stepDot = dot;
          stepDot.k = stepK;
          ConfigAttr config = buildConfig(
              target, {dot.m, dot.n, stepK}, threads, mma,
              /*pipelined=*/true, /*alignedRows=*/true, {stepDot}, block.splits,
              groups ? kWgmmaScaledMatmulStages : kWgmmaMatmulStages,
              form == SplitSum::LastProgram,
              /*prefetch=*/false, /*overlap=*/groups.has_value(),
              form == SplitSum::Cluster);
          // Pairs of block-rows share their B tiles: B K-major in steps of
          // one 128-byte swizzle block (a B slot's rows one after the
          // other, which tile-pipeline splits between the pair).
          bool shareB = clusterAlongM && dot.bTransposed &&
                        stepK * element.getIntOrFloatBitWidth() == 128 * 8 &&
                        llvm::divideCeil(m, block.m) % 2 == 0;
          if (shareB)
            config = withClusterAlongM(config, 2);
          if (streamK)
            config = withStreamK(config, target,
                                 llvm::divideCeil(m, block.m) *
                                     llvm::divideCeil(n8, block.n),
                                 llvm::divideCeil(k8, stepK));
          return config;
        };
        // Rank 0's partials take ring slots: a candidate below a ring of
        // 4 is not offered, and the heuristic wants a ring of 6 or more.
        ConfigAttr clustered = clusterFits ? configFor(SplitSum::Cluster, tk)
                                           : ConfigAttr();
        if (clustered && clustered.getStages() < 4)
          clustered = ConfigAttr();
        bool clusterFirst = clustered && inCluster &&
                            clustered.getStages() >= kLeastStagesInCluster;
        if (clusterFirst)
          configs.push_back(clustered);
        SplitSum preferred =
            inKernel ? SplitSum::LastProgram : SplitSum::SecondKernel;
        configs.push_back(configFor(preferred, tk));
        if (block.splits > 1)
          configs.push_back(configFor(inKernel ? SplitSum::SecondKernel
                                               : SplitSum::LastProgram,
                                      tk));
        if (clustered && !clusterFirst)
          configs.push_back(clustered);
        // A small block's step is short next to the ring's waits and
        // arrivals: steps of 2 tk halve them, where each range of K still
        // holds 4 steps and the ring 4 slots. On the H200 at 512x1024x4096
        // (64 x 64, no split), in turn with cuBLAS: 15.4-16.1 us with steps
        // of 64, 13.95-14.02 with 128 (0.93-0.97 of cuBLAS; bench/RESULTS.md,
        // session 30). For the tuner only: appended after the others, so
        // the heuristic's pick and the earlier candidates' indices stay.
        int64_t longer = 2 * tk;
        if (block.m == 64 && block.n <= 128 && !groups &&
            llvm::divideCeil(k8, block.splits) >= uint64_t(4 * longer)) {
          ConfigAttr config = configFor(preferred, longer);
          if (config.getStages() >= 4)
            longerSteps.push_back(config);
        }
      }
      llvm::append_range(configs, longerSteps);
    } else if (target.hasMmaSync()) {
      // The wide tile where it still makes 256 programs: on the H200 it
      // gained 2% at 4096^3 (512 programs) and lost 3% at 2048^3 (128).
      int64_t blockN =
          llvm::divideCeil(m, kMmaSyncBlockM) * llvm::divideCeil(n, 256) >= 256
              ? 256
              : 128;
      // Block scales keep each step's product beside the accumulator:
      // twice the warps (64 x 32 each) leave them the same registers.
      int64_t threads = 2 * (blockN / 64) * 32 * (groups ? 2 : 1);
      // The tile tile-tile makes of it (a smaller dimension gets a smaller,
      // power-of-two tile; tile-tile pads bf16/f16 rows to multiples of 8
      // elements first).
      DotShape dot{tileSizeFor(m, kMmaSyncBlockM), tileSizeFor(n8, blockN),
                   stepFor(tileSizeFor(k8, kMmaSyncBlockK)), element};
      MmaChoice mma = chooseMma(target, dot, threads);
      if (mma.kind != MmaKind::simt &&
          fitsScales(dot.m, dot.n, threads, kMostAccumulatorsMmaSync))
        configs.push_back(buildConfig(target, {dot.m, dot.n, dot.k}, threads,
                                      mma, /*pipelined=*/true,
                                      /*alignedRows=*/true, {dot},
                                      /*splits=*/1, kMmaSyncMatmulStages));
    }
    if (configs.empty())
      return success(); // tile-tile's defaults (SIMT)
    return chooseCandidate(target, matmul, configs);
  }

  /// `config` with a cluster of `size` programs along M, where it is a
  /// persistent, warp-specialized wgmma kernel without a split whose tile
  /// order pairs block-rows (group_rows a multiple of `size`); else as it
  /// is.
  static ConfigAttr withClusterAlongM(ConfigAttr config, int64_t size) {
    if (config.getMma() != MmaKind::wgmma || !config.getPersistent() ||
        !config.getWarpSpecialize() || config.getSplitK() != 1 ||
        config.getKWarpgroups() != 1 || config.getTransposed() ||
        config.getGroupRows() % size != 0 || !config.getCluster().empty())
      return config;
    SmallVector<int64_t> cluster = {size, 1};
    return ConfigAttr::get(
        config.getContext(), config.getBlock(), config.getThreads(),
        config.getMma(), config.getInstr(), config.getWarps(),
        config.getStages(), config.getPersistent(), config.getGroupRows(),
        config.getWarpSpecialize(), config.getSplitK(), cluster,
        config.getOverlap(), config.getSplitKInKernel(), config.getPrefetch(),
        config.getPingpong(), config.getMirrorRows(), config.getFmaExp2(),
        config.getTransposed(), config.getKWarpgroups(), config.getStreamK(),
        config.getEverySm(), config.getStreamKPart(), config.getUniformWarp(),
        config.getTmaStore(), config.getL2Fetch());
  }

  /// `config` with stream_k where it is a persistent wgmma kernel without a
  /// split or cluster whose `tiles` of `steps` K steps would end on a
  /// partial round (and the tiles past the whole rounds have a step for
  /// every program); else as it is. An overlapped K loop (block scales:
  /// tile-overlap takes constant trip counts, or a choice of two) gets
  /// parts of a fixed number of steps (stream_k_part) instead: the first
  /// of kLeastStreamKPart, twice that, ... that divides a tile's steps and
  /// leaves no more parts than programs; with none shorter than a tile,
  /// no stream_k.
  static ConfigAttr withStreamK(ConfigAttr config, TargetAttr target,
                                int64_t tiles, int64_t steps) {
    int64_t sms = target.getSmCount();
    if (config.getMma() != MmaKind::wgmma || !config.getPersistent() ||
        config.getSplitK() != 1 || !config.getCluster().empty() ||
        config.getMirrorRows() || config.getTransposed() ||
        config.getKWarpgroups() != 1 || sms <= 0 || tiles % sms == 0 ||
        (!config.getOverlap() && (tiles % sms) * steps < sms))
      return config;
    int64_t part = 0;
    if (config.getOverlap()) {
      int64_t tailSteps = (tiles % sms) * steps;
      for (part = kLeastStreamKPart; part < steps; part *= 2)
        if (steps % part == 0 && tailSteps / part <= sms)
          break;
      if (part >= steps)
        return config;
    }
    return ConfigAttr::get(
        config.getContext(), config.getBlock(), config.getThreads(),
        config.getMma(), config.getInstr(), config.getWarps(),
        config.getStages(), config.getPersistent(), config.getGroupRows(),
        config.getWarpSpecialize(), config.getSplitK(), config.getCluster(),
        config.getOverlap(), config.getSplitKInKernel(), config.getPrefetch(),
        config.getPingpong(), config.getMirrorRows(), config.getFmaExp2(),
        config.getTransposed(), config.getKWarpgroups(), /*streamK=*/true,
        config.getEverySm(), part, config.getUniformWarp(),
        // (Its fix-ups store f32 partials: not through the TMA.)
        /*tmaStore=*/false, config.getL2Fetch());
  }

  /// Gives `matmul` its `candidate`-th config (a remark lists them all
  /// with list-candidates).
  LogicalResult chooseCandidate(TargetAttr target, MatmulOp matmul,
                                ArrayRef<ConfigAttr> configs) {
    if (listCandidates) {
      InFlightDiagnostic remark = matmul.emitRemark()
                                  << configs.size()
                                  << " candidate configs for tuning key '"
                                  << matmulTuningKey(target, matmul) << "':";
      for (auto [index, config] : llvm::enumerate(configs))
        remark << "\n  candidate " << index << ": " << config;
    }
    if (candidate < 0 || candidate >= static_cast<int64_t>(configs.size()))
      return matmul.emitOpError()
             << "has " << configs.size() << " candidate configs; candidate="
             << static_cast<int64_t>(candidate) << " is not one of them";
    matmul->setAttr(ConfigAttr::getAttrName(), configs[candidate]);
    return success();
  }

  ConfigAttr buildConfig(TargetAttr target, ArrayRef<int64_t> block,
                         int64_t threads, const MmaChoice &mma, bool pipelined,
                         bool alignedRows, ArrayRef<DotShape> dots,
                         int64_t splits = 1, int64_t mostStages = 0,
                         bool splitKInKernel = false,
                         bool prefetch = false, bool overlap = false,
                         bool splitKInCluster = false,
                         bool transposed = false, int64_t stageBytes = 0,
                         int64_t kWarpgroups = 1, int64_t l2Fetch = 0) {
    int64_t stages = 1;
    bool specialize = false, persistent = false;
    int64_t perStage = 0;
    for (const DotShape &dot : dots)
      perStage += (dot.m * dot.k + dot.k * dot.n) *
                  (dot.element.getIntOrFloatBitWidth() / 8);
    if (stageBytes)
      perStage = stageBytes;
    if (pipelined && alignedRows) {
      int64_t most = mostStages                   ? mostStages
                     : mma.kind == MmaKind::wgmma ? kWgmmaStages
                                                  : kMmaSyncStages;
      // Room for the epilogue and the alignment of swizzled buffers, and
      // for the partials a cluster's rank 0 receives.
      int64_t budget = target.getMaxSharedMemoryPerProgram() - 16 * 1024;
      if (splitKInCluster)
        budget -= (splits - 1) * block[0] * block[1] * 4;
      // And for the f32 sums warpgroups taking turns at K hand over.
      if (kWarpgroups > 1)
        budget -= (kWarpgroups - 1) * block[0] * block[1] * 4;
      stages = std::clamp<int64_t>(budget / std::max<int64_t>(perStage, 1),
                                   1, most);
      specialize = mma.kind == MmaKind::wgmma && target.hasTma() &&
                   stages > 1;
      // Warpgroups taking turns at K each wait on their own steps' slots:
      // a ring they divide, rounded down (a ring under G stays as it is,
      // and the caller refuses the config).
      if (kWarpgroups > 1 && stages >= kWarpgroups)
        stages = stages / kWarpgroups * kWarpgroups;
      // A cluster's programs run one tile together, and warpgroups that
      // take turns at K hand their sums over once: not persistent.
      persistent = specialize && !splitKInCluster && kWarpgroups == 1;
    }
    SmallVector<int64_t, 3> cluster;
    if (splitKInCluster)
      cluster = {1, 1, splits};
    // The epilogue through the TMA (tma-store): two staging blocks of the
    // tile's rows x 128 bytes beside the ring, within the epilogue's room
    // (not a transposed product's, stored through its transpose).
    bool throughTma = tmaStore && specialize && splits == 1 &&
                      !splitKInKernel && !splitKInCluster && kWarpgroups == 1 &&
                      !transposed && block[0] <= 256 &&
                      stages * perStage + 2 * block[0] * 128 + 2 * 1024 <=
                          target.getMaxSharedMemoryPerProgram();
    return ConfigAttr::get(
        &getContext(), block, threads, mma.kind, mma.instr, mma.warps, stages,
        persistent,
        mma.kind == MmaKind::simt || splitKInCluster ? 1 : kGroupRows,
        specialize, splits, cluster,
        /*overlap=*/overlap && specialize, splitKInKernel,
        /*prefetch=*/prefetch && stages > 1,
        /*pingpong=*/false, /*mirrorRows=*/false,
        /*fmaExp2=*/0, transposed, specialize && stages > 1 ? kWarpgroups : 1,
        /*streamK=*/false, /*everySm=*/false, /*streamKPart=*/0,
        // A kernel of one product takes its warp index broadcast from lane
        // 0 (block-scaled FP8 1.5-1.8%, MXFP4 1.3% faster, bf16 and FP8 per
        // tensor within 0.5%, H100, session 48); attention, with two, runs
        // out of uniform registers with it (3-7% slower).
        /*uniformWarp=*/mma.kind == MmaKind::wgmma && dots.size() == 1,
        throughTma, prefetch && stages > 1 ? l2Fetch : 0);
  }

  /// A tile-level kernel with dots: its config, chosen from its dots if
  /// it has none, then checked.
  LogicalResult configureKernel(TargetAttr target, KernelOp kernel) {
    SmallVector<DotOp> dots = dotsOf(kernel);
    auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
    if (dots.empty())
      return success();
    if (!config) {
      int64_t threads = kernel.getThreads();
      SmallVector<DotShape> shapes;
      DotShape largest{0, 0, 0, Type()};
      for (DotOp dot : dots) {
        auto lhs = cast<TileType>(dot.getLhs().getType());
        auto acc = cast<TileType>(dot.getAcc().getType());
        DotShape shape{acc.getDimSize(0), acc.getDimSize(1),
                       lhs.getDimSize(1), lhs.getElementType(),
                       bool(dot.getRhs().getDefiningOp<TransposeOp>())};
        shapes.push_back(shape);
        if (shape.m * shape.n > largest.m * largest.n)
          largest = shape;
      }
      MmaChoice mma = chooseMma(target, largest, threads);
      // Every dot must take the same instructions.
      for (const DotShape &shape : shapes)
        if (chooseMma(target, shape, threads).kind != mma.kind ||
            shape.element != largest.element)
          mma = MmaChoice();
      // A B stored in fragment runs (k_runs), or an A (lhs_k_runs),
      // reaches the tensor cores only as a weight computed in registers,
      // under the matmul's own config (dequantConfigs) or one given by
      // hand; without one, the SIMT dot.
      if (llvm::any_of(dots, [](DotOp dot) {
            return dot.getKRuns() || dot.getLhsKRuns();
          }))
        mma = MmaChoice();
      if (mma.kind == MmaKind::simt)
        return success(); // the SIMT path needs no config
      // A ring pays where some dot's operands are loaded in a loop.
      bool pipelined = llvm::any_of(dots, loadedInLoop);
      bool aligned = llvm::all_of(dots, [&](DotOp dot) {
        return loadedWithAlignedRows(kernel, dot.getLhs()) &&
               loadedWithAlignedRows(kernel, dot.getRhs());
      });
      config = buildConfig(target, {largest.m, largest.n, largest.k}, threads,
                           mma, pipelined, aligned, shapes);
      // Persistence and the grouped order are for a 2-D grid of output
      // tiles.
      if (kernel.getGrid().size() != 2)
        config = ConfigAttr::get(
            &getContext(), config.getBlock(), config.getThreads(),
            config.getMma(), config.getInstr(), config.getWarps(),
            config.getStages(), /*persistent=*/false, /*groupRows=*/1,
            config.getWarpSpecialize(), 1, ArrayRef<int64_t>(),
            config.getOverlap(), /*splitKInKernel=*/false, config.getPrefetch(),
            config.getPingpong(),
            /*mirrorRows=*/false, config.getFmaExp2(), config.getTransposed(),
            config.getKWarpgroups(),
            /*streamK=*/false, /*everySm=*/false, /*streamKPart=*/0,
            config.getUniformWarp(), config.getTmaStore(), config.getL2Fetch());
      kernel->setAttr(ConfigAttr::getAttrName(), config);
    }
    return verifyKernelConfig(target, kernel, config, dots);
  }

  /// What the mechanism passes cannot honour, as located errors.
  LogicalResult verifyKernelConfig(TargetAttr target, KernelOp kernel,
                                   ConfigAttr config, ArrayRef<DotOp> dots) {
    // tile-tile builds split-K from a tensor-level matmul: the K ranges
    // are the grid's third dimension.
    if (config.getSplitK() != 1 &&
        (kernel.getGrid().size() != 3 ||
         kernel.getGrid()[2] != config.getSplitK()))
      return kernel.emitError()
             << "tile.config asks for split_k = " << config.getSplitK()
             << ", which needs a grid whose third dimension has that many "
                "programs (one per K range; tile-tile builds it from a "
                "tensor-level matmul)";
    // tile-tile builds stream-K from a tensor-level matmul: one program
    // per SM, the schedule in the kernel.
    if (config.getStreamK() && kernel.getGrid().size() != 1)
      return kernel.emitError()
             << "tile.config asks for stream_k, which tile-tile builds from "
                "a tensor-level matmul (a 1-D grid of one program per SM)";
    // A cluster along M: its programs take block-rows in groups of its
    // size, of one block-column (tile-persistent's grouped order, or the
    // grid's first dimension as it is).
    if (!config.getCluster().empty() && config.getCluster()[0] != 1) {
      int64_t size = config.getCluster()[0];
      bool ordered = config.getPersistent() || config.getGroupRows() > 1;
      if (kernel.getGrid().size() != 2 || kernel.getGrid()[0] % size != 0 ||
          (ordered && config.getGroupRows() % size != 0)) {
        std::string grid;
        llvm::raw_string_ostream os(grid);
        llvm::interleaveComma(kernel.getGrid(), os);
        return kernel.emitError()
               << "tile.config asks for a cluster of " << size
               << " programs along M, which needs a 2-D grid whose block-rows "
                  "are a multiple of it (got ["
               << grid << "])"
               << (ordered ? ", and group_rows a multiple of it (got " +
                                 std::to_string(config.getGroupRows()) + ")"
                           : std::string());
      }
    }
    if (config.getThreads() != static_cast<int64_t>(kernel.getThreads()))
      return kernel.emitError()
             << "tile.config has threads = " << config.getThreads()
             << " but the kernel runs " << kernel.getThreads();
    if (config.getMma() == MmaKind::simt)
      return success();
    if (config.getMma() == MmaKind::wgmma && !target.hasWgmma())
      return kernel.emitError() << "tile.config asks for wgmma, which "
                                << target.getChip() << " does not have";
    if (config.getMma() == MmaKind::mma_sync && !target.hasMmaSync())
      return kernel.emitError() << "tile.config asks for mma.sync, which "
                                << target.getChip() << " does not have";
    int64_t mostAccumulators = config.getMma() == MmaKind::wgmma
                                   ? kMostAccumulatorsWgmma
                                   : kMostAccumulatorsMmaSync;
    // Dots of one block are taken to be live together; a loop's dots and
    // the ones before or after it (a peeled first step) are not. A dot
    // whose accumulator is the previous dot's result (a step's products
    // in sub-steps, buildMatmulLoop) adds into the same registers.
    llvm::DenseMap<Block *, int64_t> accumulatorsIn;
    for (DotOp dot : dots) {
      auto acc = cast<TileType>(dot.getAcc().getType());
      auto lhs = cast<TileType>(dot.getLhs().getType());
      DotShape shape{acc.getDimSize(0), acc.getDimSize(1), lhs.getDimSize(1),
                     lhs.getElementType(),
                     bool(dot.getRhs().getDefiningOp<TransposeOp>())};
      bool fits = config.getMma() == MmaKind::wgmma
                      ? fitsWgmma(shape, config.getThreads(), /*oddN=*/true)
                      : chooseMma(target, shape, config.getThreads()).kind !=
                            MmaKind::simt;
      if (dot.getLhsKRuns() && config.getMma() != MmaKind::wgmma)
        return dot.emitOpError()
               << "takes lhs_k_runs (A's columns in fragment runs) on wgmma "
                  "only, but tile.config asks for "
               << stringifyMmaKind(config.getMma());
      if (!fits)
        return dot.emitOpError()
               << "does not fit tile.config's "
               << stringifyMmaKind(config.getMma()) << " schedule ("
               << config.getThreads() << " threads): a " << shape.m << "x"
               << shape.n << "x" << shape.k << " dot of "
               << shape.element << " tiles";
      if (auto previous = dot.getAcc().getDefiningOp<DotOp>();
          previous && previous->getBlock() == dot->getBlock())
        continue;
      accumulatorsIn[dot->getBlock()] +=
          acc.getNumElements() / config.getThreads();
    }
    // A loop's carried tiles that feed no dot's accumulator (directly or
    // through tile.maps, as attention's rescaled output does) are live
    // beside the dots too: a running sum that each step's product from
    // zero is added to, as block scales have.
    auto feedsAccumulator = [](Value carried) {
      SmallVector<Value> work = {carried};
      while (!work.empty()) {
        Value value = work.pop_back_val();
        for (OpOperand &use : value.getUses()) {
          if (auto dot = dyn_cast<DotOp>(use.getOwner());
              dot && use.get() == dot.getAcc())
            return true;
          if (isa<MapOp>(use.getOwner()))
            work.push_back(use.getOwner()->getResult(0));
        }
      }
      return false;
    };
    for (auto &entry : accumulatorsIn) {
      auto loop = dyn_cast<scf::ForOp>(entry.first->getParentOp());
      if (!loop)
        continue;
      for (Value carried : loop.getRegionIterArgs()) {
        auto type = dyn_cast<TileType>(carried.getType());
        if (type && !isSharedTile(type) && !feedsAccumulator(carried))
          entry.second += type.getNumElements() / config.getThreads();
      }
    }
    int64_t accumulators = 0;
    for (auto &entry : accumulatorsIn)
      accumulators = std::max(accumulators, entry.second);
    if (accumulators > mostAccumulators)
      return kernel.emitError()
             << "tile.config's accumulators take " << accumulators
             << " registers per thread; at most " << mostAccumulators
             << " leave room for the rest";
    int64_t shared = ringBytes(dots, config.getMma(), config.getStages());
    int64_t most = target.getMaxSharedMemoryPerProgram();
    if (most > 0 && shared > most)
      return kernel.emitError()
             << "tile.config's " << config.getStages()
             << " stages take " << shared
             << " bytes of shared memory; " << target.getChip() << " has "
             << most << " per program";
    if (config.getWarpSpecialize()) {
      if (!target.hasTma())
        return kernel.emitError()
               << "tile.config asks for warp specialization, whose producer "
                  "copies with the TMA, which "
               << target.getChip() << " does not have";
      // The producer copies what a loop loads; an operand loaded once or
      // computed (attention's Q, its P in registers) is the consumers'.
      // (With `persistent`, tile-persistent then puts a once-loaded operand
      // in the tile loop, where tile-pipeline rings it as well: attention's
      // Q, a ring that ringBytes does not count.)
      for (DotOp dot : dots)
        for (Value operand : {dot.getLhs(), dot.getRhs()})
          if (Value loaded = loadedOperand(operand);
              loaded && isa<scf::ForOp>(loaded.getDefiningOp()->getParentOp()) &&
              !loadedWithAlignedRows(kernel, loaded))
            return dot.emitOpError()
                   << "has an operand the TMA cannot load (loaded from a "
                      "static row-major kernel argument with rows of a "
                      "multiple of 16 bytes), as tile.config's warp "
                      "specialization needs";
    }
    return success();
  }
};

} // namespace
