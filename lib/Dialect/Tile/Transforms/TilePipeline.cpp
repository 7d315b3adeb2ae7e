//===- TilePipeline.cpp - K loops into rings of async copies ----*- C++ -*-===//
//
// tile-pipeline: a loop whose body loads tiles into shared memory (the dot
// operands tile-promote put there) becomes a ring of S = config.stages
// slots per load, filled S - 1 iterations ahead, in three steps:
//   1. find the stage loads and check that their indices can be computed
//      for a later iteration (pure index arithmetic of the induction
//      variable and values from outside the loop);
//   2. allocate the rings (and, with the TMA, the barriers and the host's
//      descriptors) at the top of the kernel;
//   3. issue iterations 0 .. S - 2 before the loop and iteration i + S - 1
//      in iteration i, and read iteration i's tiles from its slot.
// Two mechanisms:
// - TMA (sm_90, swizzled tiles, TMA-readable sources): slot s is filled
//   by tile.tma_load on "full" barrier s, after the producer waited on
//   "empty" barrier s, which every consumer warp arrives on when it is done
//   with the slot. A loop whose one tile.wgmma was waited for at once keeps
//   it in flight instead (pending = 1) and gives back the previous
//   iteration's slot. The copies are in scf.if ops marked `tile.producer`,
//   which tile-warp-specialize moves to a producer warpgroup. With
//   config.overlap each load has its own full and empty barriers, waited
//   for where its tile is read and given back after the last tile.wgmma
//   that reads it (tile-overlap then moves a load's uses to another
//   iteration than the others'). With config.prefetch and the pass's
//   ring-register-loads, the loop's loads into registers that TMA can copy
//   (a weight's scale line) become boxes of a producer's ring too, read
//   from the slot after the wait.
// - cp.async (sm_80 on): tile.async_load with one commit group per
//   iteration; iteration i waits for its group (S - 2 younger ones may be
//   in flight) and a barrier, which also tells that every warp is done with
//   slot i - 1, refilled then (CUTLASS's multistage mainloop).
// With a cluster of programs along M (config.cluster = [C, 1]), the C
// programs of a cluster hold tiles of one block-column (tile-persistent
// checks its order pairs them so), so they read the same B tiles: each
// copies 1/C of a B slot's rows into all of them (tile.tma_load's
// `multicast`), and the empty barriers count the consumer warps of all C
// programs, which give a slot back to each (tile.arrive's `ranks`). A
// cluster barrier after the barriers' initialization and one at the end of
// the kernel keep the programs from arriving on a peer's barriers before
// it initialized them or after it left.
// The ring position of iteration i is base + i, where base counts the
// iterations of earlier runs of the loop in an enclosing persistent loop
// (trip count times the outer loop's iteration index), so the ring stays
// in step from one output tile to the next. Its slot and round parity are
// a mask and a shift of it in a ring of a power-of-two S, else carried by
// the loop (RingPlace), or, where warpgroups take turns at K (each runs
// every G-th iteration), a remainder and a quotient by S. Where the trip
// count changes from one run to the next, the enclosing loop carries the
// base (or, where every run is whole rings, the count of rings: a stream-K
// kernel's tiles and parts).
//
//===----------------------------------------------------------------------===//

#include "RegisterPrefetch.h"

#include "tile/Dialect/Tile/IR/TileLayouts.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "tile-pipeline"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPIPELINEPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Marks, during the pass, the loops already pipelined or refused.
constexpr llvm::StringLiteral kVisited = "tile.pipeline_visited";

enum class Mechanism { TMA, CpAsync };

/// A ring position: the slot it falls in (position mod S) and the parity
/// of its round (position / S mod 2, the phase its barriers are waited on).
/// In a ring of a power-of-two S both are a mask and a shift of the
/// position, computed where they are used. Otherwise each would be a
/// division by a constant (a multiply-high chain of about a dozen
/// dependent instructions), on the consumers' path to every step's wait:
/// there the K loop carries the slot and parity instead, advancing them by
/// a compare and a select (CUTLASS's PipelineState). On the H200, a 7-slot
/// ring's split-K GEMM at 512x1024x4096 ran 1.87M instructions against
/// 1.27M for 8 slots, 14.24 us against 12.77 (bench/RESULTS.md, session
/// 30).
struct RingPlace {
  Value position;
  Value slot, parity; // carried by the loop; else null

  bool carried() const { return bool(slot); }
};

/// One load of the loop body that becomes a ring.
struct StageLoad {
  LoadOp load; // erased once its uses read the ring
  Value source;
  SmallVector<Value> indices;
  TileType type;
  Value ring;       // tile.shared [S, rows, cols]
  Value descriptor; // TMA: the kernel's argument for it
  Value full, empty; // TMA with config.overlap: this load's own barriers
  Value view;        // the slot's view that replaced the load
  /// A box of several loads' tiles side by side along the row (pieces of
  /// one K step of a packed weight, mergeRowPieces): each load and its
  /// first column in the box. Empty: the box is `load`'s tile.
  SmallVector<std::pair<LoadOp, int64_t>> pieces;
  /// `load` reads into registers (ringRegisterLoads): it then reads the
  /// slot, `source` is the kernel argument it read and `indices` the
  /// box's first row and column there.
  bool intoRegisters = false;
  /// The programs of the cluster read the same tiles (wgmma's B, with a
  /// cluster along M): each copies its part of the slot's rows into all.
  bool multicast = false;
};

class LoopPipeliner {
public:
  /// A loop left as it is, and why.
  struct Refusal {
    Location at;
    std::string why;
  };

  LoopPipeliner(KernelOp kernel, ConfigAttr config, TargetAttr target,
                scf::ForOp loop, bool ringRegisters,
                SmallVectorImpl<Refusal> &refusals)
      : kernel(kernel), config(config), target(target), loop(loop),
        stages(config.getStages()), perLoad(config.getOverlap()),
        ringRegisters(ringRegisters), sharers(clusterAlongM(config)),
        refusals(refusals) {}

  /// The programs of a cluster along M that share their B tiles
  /// (config.cluster = [C, 1]; 1 without one).
  static int64_t clusterAlongM(ConfigAttr config) {
    ArrayRef<int64_t> cluster = config.getCluster();
    return cluster.size() >= 2 && cluster[1] == 1 &&
                   (cluster.size() == 2 || cluster[2] == 1)
               ? cluster[0]
               : 1;
  }

  /// Pipelines the loop, or leaves it as it is (adding to `refusals` why)
  /// where it cannot.
  LogicalResult run();

private:
  LogicalResult notPipelined(Location at, const Twine &why) {
    refusals.push_back({at, why.str()});
    return success();
  }

  Value idx(OpBuilder &b, int64_t v) {
    return arith::ConstantIndexOp::create(b, loop.getLoc(), v);
  }
  bool tmaReadable(LoadOp load);
  /// The load's indices at iteration `j` (an index value): its index
  /// arithmetic cloned with the induction variable at lb + j * step.
  SmallVector<Value> indicesAt(OpBuilder &b, const StageLoad &stage, Value j);
  Value ringBase(OpBuilder &b);
  /// Whether every run of the loop takes whole rings: constant bounds and
  /// step, or an upper bound that is a select of two constants, each trip
  /// count a multiple of the stages.
  bool wholeRingTrips();
  void allocate(Mechanism mechanism);
  /// Iteration j's copies into ring place `at` (position base + j).
  void issue(OpBuilder &b, Mechanism mechanism, Value j, const RingPlace &at);
  /// The slot and round parity (i1) of a ring place, at `b`.
  Value slotOf(OpBuilder &b, const RingPlace &at);
  Value parityOf(OpBuilder &b, const RingPlace &at);
  /// Whether the loop carries its ring place (S not a power of two, and
  /// one set of barriers: tile-overlap rearranges the per-load form).
  /// Warpgroups taking turns at K each run every G-th step of one loop, so
  /// a carried place would step by G; they take a remainder by S instead
  /// (a constant divisor: a multiply and shifts, uniform registers).
  bool carriesPlace() const {
    return !llvm::isPowerOf2_64(stages) && !perLoad &&
           config.getKWarpgroups() == 1;
  }
  /// Adds the carried slot (and, for the TMA, the round parity) to the
  /// loop, starting at ring position `base`; returns iteration i's place.
  RingPlace carryPlace(Mechanism mechanism, Value base, Value position);
  /// The place S - 1 positions after `at`: the iteration issued ahead,
  /// and the slot given back one step late.
  RingPlace placeAhead(OpBuilder &b, const RingPlace &at, Value position);
  /// With per-load barriers: each slot given back after the last
  /// tile.wgmma reading it is done (else at the end of the iteration).
  void releaseEach(Value slot);
  /// TMA rings: loads into registers issued above the ring's wait.
  void hoistRegisterLoads(Operation *wait);
  /// TMA rings: unswizzled loads of the same rows of one source whose
  /// tiles lie side by side become one box.
  void mergeRowPieces();
  /// TMA rings filled by a producer warpgroup: loads into registers that
  /// TMA can copy become boxes of the ring too (registerBox).
  void ringRegisterLoads();
  /// The stage of a load into registers that reads one TMA box of a
  /// kernel argument, else nothing.
  std::optional<StageLoad> registerBox(LoadOp load);
  /// That box's first row and column in the argument (index arithmetic
  /// built before the load).
  SmallVector<Value> registerBoxIndices(LoadOp load);
  /// A ring's load into registers: it reads its slot instead.
  void readSlotIntoRegisters(StageLoad &stage, Value slot);
  /// With a cluster along M: marks the load of wgmma's B as copied in
  /// parts by the programs of the cluster, or fails where it cannot be.
  LogicalResult shareAcrossCluster();
  /// This program's rank in its cluster (program id 0 mod C: the launch's
  /// clusters are C programs along x), at the top of the kernel.
  Value clusterRank();
  /// With a shared tile: the consumers give its slots back to every
  /// program of the cluster.
  void giveBackToCluster();

  KernelOp kernel;
  ConfigAttr config;
  TargetAttr target;
  scf::ForOp loop;
  int64_t stages;
  /// Per-load barriers (config.overlap): tile-overlap moves a load's uses
  /// to another iteration than the rest's.
  bool perLoad;
  /// The pass's ring-register-loads.
  bool ringRegisters;
  /// The programs of a cluster along M that share their B tiles.
  int64_t sharers;
  Value rank;
  SmallVectorImpl<Refusal> &refusals;
  SmallVector<StageLoad> loads;
  Value full, empty;
  Value tripCount;
  /// Whether the loop's trip count changes from one run of an enclosing
  /// loop to the next (its ring base is then carried by that loop).
  bool varyingTrips = false;
};

/// The constant d with b = a + d at every iteration, where the index
/// arithmetic shows one: the same value, constants, adds of a constant to
/// the same value, and their quotients by the same constant where a is a
/// provable multiple of it (a packed weight's column: half a K offset).
/// (Upstream's ValueBoundsConstraintSet::computeConstantDelta bounds an
/// scf.for induction variable by the loop's bounds, not by its step, so
/// it cannot tell that (k + 128) / 2 - k / 2 is 64 for even k.)
static std::optional<int64_t> constantDifference(Value a, Value b,
                                                 int depth = 0) {
  if (a == b)
    return 0;
  if (depth > 8)
    return std::nullopt;
  std::optional<int64_t> ca = getConstantIntValue(a),
                         cb = getConstantIntValue(b);
  if (ca && cb)
    return *cb - *ca;
  // x + c (either operand order) as (x, c); anything else as (value, 0).
  auto split = [](Value v) -> std::pair<Value, int64_t> {
    if (auto add = v.getDefiningOp<arith::AddIOp>()) {
      if (std::optional<int64_t> c = getConstantIntValue(add.getRhs()))
        return {add.getLhs(), *c};
      if (std::optional<int64_t> c = getConstantIntValue(add.getLhs()))
        return {add.getRhs(), *c};
    }
    return {v, 0};
  };
  auto [xa, oa] = split(a);
  auto [xb, ob] = split(b);
  if ((xa != a || xb != b)) {
    if (std::optional<int64_t> d = constantDifference(xa, xb, depth + 1))
      return *d + ob - oa;
    return std::nullopt;
  }
  auto da = a.getDefiningOp<arith::DivUIOp>();
  auto db = b.getDefiningOp<arith::DivUIOp>();
  if (!da || !db)
    return std::nullopt;
  std::optional<int64_t> n = getConstantIntValue(da.getRhs());
  if (!n || *n <= 0 || n != getConstantIntValue(db.getRhs()) ||
      !isProvablyMultipleOf(da.getLhs(), *n))
    return std::nullopt;
  std::optional<int64_t> d =
      constantDifference(da.getLhs(), db.getLhs(), depth + 1);
  if (!d || *d % *n != 0)
    return std::nullopt;
  return *d / *n;
}

/// Swizzle of the boxes that narrow swizzled pieces merge into: their
/// rows then run the swizzle's 128 bytes.
constexpr int64_t kMergedSwizzle = 128;

/// Whether an unswizzled box of rows of kMergedSwizzle bytes, whose
/// pieces (`byColumn`: column, index into `loads`) are read only into
/// registers as runs of an A operand, is read in fewer shared-memory
/// wavefronts swizzled by kMergedSwizzle (sharedReadWavefronts' model).
/// MXFP4's packed weight: each product reads a 16-byte column of rows 128
/// bytes apart, four bytes a thread, eight rows a warp on the same banks
/// unswizzled (an 8-way conflict), on 8 different 16-byte units swizzled.
static bool swizzleCutsConflicts(ArrayRef<StageLoad> loads,
                                 ArrayRef<std::pair<int64_t, size_t>> byColumn,
                                 TileType box) {
  int64_t eb = box.getElementTypeBitWidth() / 8;
  if (eb == 0 || box.getDimSize(1) * eb != kMergedSwizzle ||
      box.getDimSize(0) % 8 != 0)
    return false;
  MLIRContext *ctx = box.getContext();
  int64_t plain = 0, swizzled = 0;
  for (auto [column, j] : byColumn) {
    LoadOp load = loads[j].load;
    auto piece = cast<TileType>(load.getType());
    int64_t width = piece.getDimSize(1);
    int64_t startByte =
        ((column - byColumn.front().first) * eb) % kMergedSwizzle;
    auto unswizzledPart =
        SharedLayoutAttr::get(ctx, 0, box.getDimSize(1) - width);
    auto swizzledPart =
        SharedLayoutAttr::get(ctx, kMergedSwizzle, kMergedSwizzle / eb - width);
    for (Operation *user : load->getUsers()) {
      auto to = cast<TileType>(user->getResult(0).getType());
      auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(to.getLayout());
      if (!operand || operand.getIndex() != 0 || operand.getKWidth() <= 2)
        return false;
      FailureOr<LinearLayout> linear = getLinearLayout(operand, to.getShape());
      if (failed(linear))
        return false;
      int64_t runBytes = std::min<int64_t>(16, operand.getKWidth() * eb);
      if (runBytes < 4 || !llvm::isPowerOf2_64(runBytes))
        return false;
      plain += sharedReadWavefronts(unswizzledPart, piece.getShape(), eb,
                                    *linear, runBytes);
      swizzled += sharedReadWavefronts(swizzledPart, piece.getShape(), eb,
                                       *linear, runBytes, startByte);
    }
  }
  return swizzled < plain;
}

/// A K step of a packed weight is read as several tiles of the same rows
/// side by side (one per product: int4's two 64-byte halves of each
/// row's 128 bytes, MXFP4's eight 16-byte groups), each its own TMA box;
/// TMA copies a box row by row, and short rows stream slowly: on the
/// H100, 128 programs streaming a 32 MiB weight through an 8-stage ring
/// take 29.9 us in 16-byte rows, 20.8 in 64-byte and 19.4 in 128-byte
/// (bench/prototypes/tma_box_stream.cu), and merged the int4 and MXFP4
/// kernels at 16x8192x8192 went 25.7 -> 25.0 and 36.2 -> 29.1 us
/// (bench/RESULTS.md, session 40). Such loads, unswizzled and read only
/// through tile.convert_layout, become one box of the full width; each
/// reads its columns of the slot (a tile.view `column`, padded to the
/// slot's pitch; in a box swizzled by 128 where swizzleCutsConflicts
/// says so, a part of its column block: MXFP4's 16-byte columns, 8-way
/// bank conflicts unswizzled, 26.5 against 27.1 us on the H100 and 22.3
/// against 23.7 on the H200, session 51). So do swizzled tiles narrower than
/// 128 bytes a row read only as K-major wgmma operands (MXFP4's x: a [16, 32]
/// bf16 tile a product, eight boxes of 64-byte rows a step, which cost that
/// kernel 6.5% on the H100, session 41): they become a tile swizzled by 128
/// bytes (boxes of 128-byte rows), each a view of its columns within one
/// column block (#tile.shared<swizzle = 128, padding = the rest of the
/// block>).
void LoopPipeliner::mergeRowPieces() {
  SmallVector<StageLoad> merged;
  SmallVector<bool> taken(loads.size(), false);
  auto narrowSwizzled = [](const StageLoad &s) {
    auto layout = dyn_cast_or_null<SharedLayoutAttr>(s.type.getLayout());
    int64_t rowBytes =
        s.type.getRank() == 2
            ? s.type.getDimSize(1) * s.type.getElementTypeBitWidth() / 8
            : 0;
    return layout && layout.getSwizzle() && !layout.getTransposed() &&
           !layout.getPadding() && !layout.getRowXor() && rowBytes > 0 &&
           s.type.getElementTypeBitWidth() % 8 == 0 &&
           rowBytes < kMergedSwizzle && kMergedSwizzle % rowBytes == 0 &&
           // Transposed B only: a K-major A would do as well (tile.view's
           // verifier allows it), but no kernel reads its A in such pieces
           // and none has run on a GPU so.
           readOnlyAsKMajorWgmmaOperand(s.load->getResult(0), /*orA=*/false);
  };
  auto mergeable = [&](const StageLoad &s) {
    if (s.indices.size() != 2)
      return false;
    return (isWholeBoxTmaTile(s.type) &&
            llvm::all_of(s.load->getUsers(),
                         [](Operation *user) {
                           return isa<ConvertLayoutOp>(user);
                         })) ||
           narrowSwizzled(s);
  };
  for (size_t i = 0; i < loads.size(); ++i) {
    if (taken[i])
      continue;
    taken[i] = true;
    StageLoad &first = loads[i];
    if (!mergeable(first)) {
      merged.push_back(first);
      continue;
    }
    // The loads of the same rows of the same source, by their first
    // column's distance from this one's.
    SmallVector<std::pair<int64_t, size_t>> byColumn = {{0, i}};
    for (size_t j = i + 1; j < loads.size(); ++j) {
      StageLoad &other = loads[j];
      if (taken[j] || !mergeable(other) || other.source != first.source ||
          other.type != first.type)
        continue;
      std::optional<int64_t> rows =
          constantDifference(first.indices[0], other.indices[0]);
      std::optional<int64_t> cols =
          constantDifference(first.indices[1], other.indices[1]);
      if (rows && *rows == 0 && cols)
        byColumn.push_back({*cols, j});
    }
    llvm::sort(byColumn);
    // Side by side from the leftmost, without gaps or overlaps, in a box
    // TMA can copy.
    int64_t width = first.type.getDimSize(1);
    int64_t lowest = byColumn.front().first;
    bool sideBySide = byColumn.size() > 1;
    for (auto [k, entry] : llvm::enumerate(byColumn))
      sideBySide &= entry.first - lowest == static_cast<int64_t>(k) * width;
    int64_t boxWidth = width * static_cast<int64_t>(byColumn.size());
    bool swizzled = narrowSwizzled(first);
    auto boxType = TileType::get(
        first.type.getContext(), {first.type.getDimSize(0), boxWidth},
        first.type.getElementType(),
        swizzled ? SharedLayoutAttr::get(first.type.getContext(),
                                         kMergedSwizzle, /*padding=*/0)
                 : first.type.getLayout(),
        first.type.getMemorySpace());
    bool boxFits =
        swizzled ? boxType.getDimSize(0) <= 256 &&
                       (boxWidth * boxType.getElementTypeBitWidth() / 8) %
                               kMergedSwizzle ==
                           0
                 : isWholeBoxTmaTile(boxType);
    if (!sideBySide || !boxFits) {
      merged.push_back(first);
      continue;
    }
    if (!swizzled && swizzleCutsConflicts(loads, byColumn, boxType))
      boxType = TileType::get(
          boxType.getContext(), boxType.getShape(), boxType.getElementType(),
          SharedLayoutAttr::get(boxType.getContext(), kMergedSwizzle,
                                /*padding=*/0),
          boxType.getMemorySpace());
    StageLoad box = loads[byColumn.front().second];
    box.type = boxType;
    for (auto [column, j] : byColumn) {
      taken[j] = true;
      box.pieces.push_back({loads[j].load, column - lowest});
    }
    merged.push_back(box);
  }
  loads = std::move(merged);
}

/// With config.prefetch and a TMA ring, the loop's loads into registers
/// (a dequantized weight's scales, read right after the ring's wait where
/// tile-tile put them) go above the wait with the index arithmetic they
/// need: their latency then passes while the consumers wait for the
/// slot, where behind it each step paid it in full (the transposed
/// product's scale loads, read in the SASS of session 34). Unlike the
/// cp.async prefetch nothing is carried, so consumer warpgroups that take
/// turns at the steps (k_warpgroups) keep each its own loads. Only loads
/// of buffers nothing in the loop writes.
void LoopPipeliner::hoistRegisterLoads(Operation *wait) {
  SmallVector<LoadOp> hoisted;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto load = dyn_cast<LoadOp>(op);
        load && wait->isBeforeInBlock(load) && !isSharedTile(load.getType()) &&
        isGlobalMemRef(load.getSource().getType()) &&
        clonableAtAnyIteration(loop, load->getOperands()) &&
        !writesTo(loop.getRegion(), rootBuffer(load.getSource())))
      hoisted.push_back(load);
  for (LoadOp load : hoisted) {
    setL2Fetch(load, config.getL2Fetch());
    // The load's slice after the wait: pure ops of the body
    // (clonableAtAnyIteration), moved in their order.
    for (Operation *op : sliceInBody(loop, load->getOperands(), wait))
      op->moveBefore(wait);
    load->moveBefore(wait);
  }
}

/// A weight's scales for a K step (one row of bf16 or f32 values per K
/// group, for the program's 64 rows of the weight) were read by each
/// consumer thread from global memory: in the int4 kernel's SASS about 35
/// of its 366 instructions a step (64-bit addresses from a clamped K
/// offset, row predicates, the packing), and session 40's ablation
/// without scale loads and multiplies was 3.4% faster (bench/RESULTS.md).
/// Through the ring the producer copies them and a consumer reads its
/// values from the slot at constant offsets. A load qualifies where its
/// tile is one box TMA copies: a 1-D tile of one row of a kernel argument
/// (a rank-reducing memref.subview of unit strides to the row's end), of
/// 16-byte multiples in slots of 128, zeros outside (TMA's fill). (No
/// kernel reads a 2-D tile into registers in its K loop.)
std::optional<StageLoad> LoopPipeliner::registerBox(LoadOp load) {
  auto type = cast<TileType>(load.getType());
  if (isSharedTile(type) || !isGlobalMemRef(load.getSource().getType()) ||
      type.getElementTypeBitWidth() % 8 != 0)
    return std::nullopt;
  if (Attribute padding = load.getPaddingAttr()) {
    auto f = dyn_cast<FloatAttr>(padding);
    auto i = dyn_cast<IntegerAttr>(padding);
    if (!(f && f.getValue().isPosZero()) && !(i && i.getValue().isZero()))
      return std::nullopt;
  }
  // A row of the argument to its end (the load pads past the subview's
  // end, TMA past the argument's).
  auto row = load.getSource().getDefiningOp<memref::SubViewOp>();
  if (type.getRank() != 1 || !row || row.getSourceType().getRank() != 2 ||
      row.getType().getRank() != 1 || row.getStaticSizes()[0] != 1 ||
      ShapedType::isDynamic(row.getStaticOffsets()[1]) ||
      ShapedType::isDynamic(row.getStaticSizes()[1]) ||
      row.getStaticOffsets()[1] + row.getStaticSizes()[1] !=
          row.getSourceType().getDimSize(1) ||
      llvm::any_of(row.getStaticStrides(),
                   [](int64_t stride) { return stride != 1; }))
    return std::nullopt;
  Value source = row.getSource();
  int64_t rows = 1, cols = type.getDimSize(0);
  auto arg = dyn_cast<BlockArgument>(source);
  auto argType = dyn_cast<MemRefType>(source.getType());
  if (!arg || arg.getOwner() != &kernel.getBody().front() || !argType ||
      argType.getRank() != 2 || !argType.hasStaticShape() ||
      !argType.getLayout().isIdentity() ||
      !isa<MemRefType>(kernel.getArgs()[arg.getArgNumber()].getType()) ||
      (argType.getDimSize(1) * type.getElementTypeBitWidth() / 8) % 16 != 0)
    return std::nullopt;
  auto workgroup = gpu::AddressSpaceAttr::get(kernel.getContext(),
                                              gpu::AddressSpace::Workgroup);
  auto slotType = TileType::get(
      kernel.getContext(), {rows, cols}, type.getElementType(),
      SharedLayoutAttr::get(kernel.getContext(), /*swizzle=*/0,
                            /*padding=*/0),
      workgroup);
  SmallVector<Value> used(load.getIndices());
  llvm::append_range(used, row.getOffsets());
  // A load the loop does not move stays where it is (a copy a step would
  // repeat it).
  auto outside = [&](Value v) { return loop.isDefinedOutsideOfLoop(v); };
  if (!isWholeBoxTmaTile(slotType) || !isTmaAlignedSlot(slotType) ||
      llvm::all_of(used, outside) || !clonableAtAnyIteration(loop, used) ||
      writesTo(kernel.getBody(), arg))
    return std::nullopt;
  StageLoad stage{load,        arg,         registerBoxIndices(load),
                  slotType,    /*ring=*/{}, /*descriptor=*/{},
                  /*full=*/{}, /*empty=*/{}, /*view=*/{},
                  /*pieces=*/{}};
  stage.intoRegisters = true;
  return stage;
}

SmallVector<Value> LoopPipeliner::registerBoxIndices(LoadOp load) {
  auto row = load.getSource().getDefiningOp<memref::SubViewOp>();
  OpBuilder b(load);
  Location loc = load.getLoc();
  SmallVector<OpFoldResult> offsets = row.getMixedOffsets();
  return {getValueOrCreateConstantIndexOp(b, loc, offsets[0]),
          arith::AddIOp::create(
              b, loc, getValueOrCreateConstantIndexOp(b, loc, offsets[1]),
              load.getIndices()[0])};
}

void LoopPipeliner::ringRegisterLoads() {
  SmallVector<LoadOp> candidates;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto load = dyn_cast<LoadOp>(op))
      candidates.push_back(load);
  for (LoadOp load : candidates)
    if (std::optional<StageLoad> stage = registerBox(load))
      loads.push_back(*stage);
}

void LoopPipeliner::readSlotIntoRegisters(StageLoad &stage, Value slot) {
  OpBuilder at(stage.load);
  Location loc = stage.load.getLoc();
  auto ring = cast<MemRefType>(stage.ring.getType());
  auto type = cast<TileType>(stage.load.getType());
  // The slot's one row, as the 1-D memref the load read.
  SmallVector<OpFoldResult> offsets = {slot, at.getIndexAttr(0),
                                       at.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {at.getIndexAttr(1),
                                     at.getIndexAttr(ring.getDimSize(1)),
                                     at.getIndexAttr(ring.getDimSize(2))};
  SmallVector<OpFoldResult> strides(3, at.getIndexAttr(1));
  auto slotRows = memref::SubViewOp::inferRankReducedResultType(
      type.getShape(), ring, offsets, sizes, strides);
  Value rows = memref::SubViewOp::create(at, loc, slotRows, stage.ring,
                                         offsets, sizes, strides);
  SmallVector<Value> zeros(type.getRank(), arith::ConstantIndexOp::create(
                                               at, loc, 0));
  auto read = LoadOp::create(at, loc, type, rows, zeros,
                             /*padding=*/TypedAttr(), /*in_bounds=*/true);
  Value oldSource = stage.load.getSource();
  stage.load.replaceAllUsesWith(read.getResult());
  stage.load.erase();
  if (auto view = oldSource.getDefiningOp<memref::SubViewOp>();
      view && view->use_empty())
    view.erase();
  stage.view = rows;
}

bool LoopPipeliner::tmaReadable(LoadOp load) {
  auto layout = cast<SharedLayoutAttr>(load.getType().getLayout());
  auto arg = dyn_cast<BlockArgument>(load.getSource());
  MemRefType type = load.getSource().getType();
  // Unswizzled: one box of the whole tile, rows unpadded (a weight's
  // packed bytes read back as each thread's runs), within TMA's 256
  // elements a box dimension; only for a producer warpgroup's ring: where
  // the consumers issue the copies themselves, cp.async was faster for
  // such small tiles (bench/RESULTS.md, session 33: 35.6 against 26.0 us).
  // Slots TMA can write aligned (isTmaAlignedSlot).
  bool wholeBox = config.getWarpSpecialize() &&
                  isWholeBoxTmaTile(load.getType()) &&
                  isTmaAlignedSlot(load.getType());
  if ((layout.getSwizzle() == 0 && !wholeBox) || !arg ||
      arg.getOwner() != &kernel.getBody().front() || type.getRank() != 2 ||
      !type.hasStaticShape() || !type.getLayout().isIdentity())
    return false;
  int64_t eb = type.getElementTypeBitWidth() / 8;
  // The host's view of the same buffer, for its descriptor.
  Value outer = kernel.getArgs()[arg.getArgNumber()];
  return (type.getDimSize(1) * eb) % 16 == 0 &&
         isa<MemRefType>(outer.getType());
}

SmallVector<Value> LoopPipeliner::indicesAt(OpBuilder &b,
                                            const StageLoad &stage, Value j) {
  Location loc = loop.getLoc();
  Value iv = arith::AddIOp::create(
      b, loc, loop.getLowerBound(),
      arith::MulIOp::create(b, loc, j, loop.getStep()));
  IRMapping mapping;
  cloneSliceAt(loop, b, stage.indices, iv, mapping);
  SmallVector<Value> indices;
  for (Value index : stage.indices)
    indices.push_back(mapping.lookupOrDefault(index));
  return indices;
}

bool LoopPipeliner::wholeRingTrips() {
  std::optional<TripCounts> trips = tripCounts(loop);
  return trips && llvm::all_of(trips->counts, [&](int64_t count) {
           return count % stages == 0;
         });
}

/// Iterations of earlier runs of the loop: with the loop directly in an
/// scf.for (a persistent tile loop) whose iterations all run it with the
/// same trip count, the outer iteration index times the trip count.
Value LoopPipeliner::ringBase(OpBuilder &b) {
  Location loc = loop.getLoc();
  auto outer = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!outer)
    return idx(b, 0);
  if (varyingTrips) {
    // The trip count changes from one run to the next (a causal key loop
    // in a persistent tile loop): the outer loop carries the count of the
    // iterations run so far, from 0, adding this run's at its end. Where
    // every run's count is a multiple of S (a stream-K kernel's whole
    // tiles and parts of stream_k_part steps: the upper bound a select
    // of such constants), it carries the count of whole rings instead,
    // so that the base is visibly a multiple of S and each iteration's
    // slot folds to a constant where the iteration's index is one modulo
    // S (tile-overlap's bodies of four steps).
    int64_t perRing = wholeRingTrips() ? stages : 1;
    IRRewriter rewriter(b);
    rewriter.setInsertionPoint(outer);
    Value zero = idx(rewriter, 0);
    auto grown = outer.replaceWithAdditionalYields(
        rewriter, ValueRange{zero},
        /*replaceInitOperandUsesInLoop=*/false,
        [&](OpBuilder &yb, Location at, ArrayRef<BlockArgument> carried) {
          Value added = tripCount;
          if (perRing > 1)
            added = arith::DivUIOp::create(yb, at, tripCount, idx(yb, perRing));
          return SmallVector<Value>{
              arith::AddIOp::create(yb, at, carried[0], added)};
        });
    auto replaced = cast<scf::ForOp>(grown->getOperation());
    // The body's ops moved to the new loop's block: go on before `loop`.
    b.setInsertionPoint(loop);
    Value carried = replaced.getRegionIterArgs().back();
    if (perRing == 1)
      return carried;
    return arith::MulIOp::create(b, loc, carried, idx(b, perRing));
  }
  Value index = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, outer.getInductionVar(),
                            outer.getLowerBound()),
      outer.getStep());
  return arith::MulIOp::create(b, loc, index, tripCount);
}

void LoopPipeliner::allocate(Mechanism mechanism) {
  Location loc = loop.getLoc();
  Block &body = kernel.getBody().front();
  OpBuilder top = OpBuilder::atBlockBegin(&body);
  auto workgroup = gpu::AddressSpaceAttr::get(kernel.getContext(),
                                              gpu::AddressSpace::Workgroup);
  OpBuilder host(kernel);
  // One descriptor per source and box (rows, columns and swizzle).
  llvm::DenseMap<std::tuple<unsigned, int64_t, int64_t, int64_t>, Value>
      descriptors;
  for (StageLoad &stage : loads) {
    SmallVector<int64_t> shape = {stages};
    llvm::append_range(shape, stage.type.getShape());
    stage.ring = SharedOp::create(
        top, loc,
        MemRefType::get(shape, stage.type.getElementType(),
                        MemRefLayoutAttrInterface(), workgroup));
    if (mechanism != Mechanism::TMA)
      continue;
    unsigned number = cast<BlockArgument>(stage.source).getArgNumber();
    auto layout = cast<SharedLayoutAttr>(stage.type.getLayout());
    // A shared tile's box: the part of its rows each program copies.
    SmallVector<int64_t> box = {stage.type.getDimSize(0) /
                                    (stage.multicast ? sharers : 1),
                                tmaBoxCols(stage.type)};
    // The box's width too: an unswizzled box is its tile's whole row.
    Value &desc = descriptors[{number, box[0], box[1], layout.getSwizzle()}];
    if (!desc) {
      Value outer = kernel.getArgs()[number];
      Value made = TmaDescriptorOp::create(
          host, loc, LLVM::LLVMPointerType::get(kernel.getContext()), outer,
          host.getDenseI64ArrayAttr(box), layout.getSwizzle());
      kernel.getArgsMutable().append(made);
      desc = body.addArgument(made.getType(), loc);
    }
    stage.descriptor = desc;
  }
  if (mechanism != Mechanism::TMA)
    return;
  auto group = nvgpu::MBarrierGroupType::get(kernel.getContext(), workgroup,
                                             stages);
  // "full": one expect_tx arrival per load; "empty": one per consumer warp
  // (of every program of the cluster, where the slot is shared).
  int64_t warps = config.getThreads() / 32;
  if (perLoad) {
    for (StageLoad &stage : loads) {
      stage.full = BarrierGroupOp::create(top, loc, group, 1);
      stage.empty = BarrierGroupOp::create(
          top, loc, group, warps * (stage.multicast ? sharers : 1));
    }
    return;
  }
  bool shared = llvm::any_of(loads, [](StageLoad &s) { return s.multicast; });
  full = BarrierGroupOp::create(top, loc, group, loads.size());
  empty =
      BarrierGroupOp::create(top, loc, group, warps * (shared ? sharers : 1));
}

Value LoopPipeliner::clusterRank() {
  if (rank)
    return rank;
  OpBuilder top = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Location loc = kernel.getLoc();
  Value pid = ProgramIdOp::create(top, loc, top.getIndexType(), 0);
  rank = arith::RemUIOp::create(top, loc, pid, idx(top, sharers));
  return rank;
}

/// Whether `tile` is read only as tile.wgmma's B, as it is or transposed.
static bool readOnlyAsWgmmaB(Value tile) {
  return !tile.use_empty() &&
         llvm::all_of(tile.getUsers(), [&](Operation *user) {
           if (auto transpose = dyn_cast<TransposeOp>(user))
             return readOnlyAsWgmmaB(transpose.getResult());
           auto wgmma = dyn_cast<WgmmaOp>(user);
           return wgmma && wgmma.getRhs() == tile && wgmma.getLhs() != tile &&
                  wgmma.getAcc() != tile;
         });
}

LogicalResult LoopPipeliner::shareAcrossCluster() {
  StageLoad *shared = nullptr;
  for (StageLoad &stage : loads) {
    if (stage.intoRegisters || !stage.pieces.empty() ||
        !readOnlyAsWgmmaB(stage.load.getResult()))
      continue;
    if (shared)
      return stage.load.emitError()
             << "the config's cluster along M shares one tile of wgmma's B "
                "across the cluster, but the loop loads two";
    shared = &stage;
  }
  if (!shared)
    return loop.emitError() << "the config's cluster along M shares wgmma's B "
                               "tiles across the cluster, but this loop loads "
                               "none that tile.wgmma reads as B alone";
  // Each program copies rows [r P / C, (r + 1) P / C) of the slot: the
  // slot's bytes from there on where its rows lie one after the other.
  TileType type = shared->type;
  auto layout = cast<SharedLayoutAttr>(type.getLayout());
  int64_t rows = type.getDimSize(0);
  int64_t rowBytes = type.getDimSize(1) * type.getElementTypeBitWidth() / 8;
  int64_t atom = layout.getSwizzle() ? 8 : 1;
  if ((layout.getSwizzle() && rowBytes != layout.getSwizzle()) ||
      layout.getPadding() || rows % (sharers * atom) != 0)
    return shared->load.emitError()
           << "cannot share this tile of wgmma's B across a cluster of "
           << sharers
           << " programs: each copies a part of its rows, whole 8-row atoms "
              "of one swizzled column block (rows of the swizzle's bytes), "
              "but got "
           << type;
  shared->multicast = true;
  return success();
}

void LoopPipeliner::giveBackToCluster() {
  if (sharers == 1)
    return;
  SmallVector<Value> groups;
  for (StageLoad &stage : loads)
    if (stage.multicast || !perLoad)
      groups.push_back(perLoad ? stage.empty : empty);
  uint64_t all = (uint64_t(1) << sharers) - 1;
  kernel.walk([&](ArriveOp arrive) {
    if (llvm::is_contained(groups, arrive.getBarriers()))
      arrive.setRanks(all);
  });
}

Value LoopPipeliner::slotOf(OpBuilder &b, const RingPlace &at) {
  if (at.carried())
    return at.slot;
  return arith::RemUIOp::create(b, loop.getLoc(), at.position,
                                idx(b, stages));
}

Value LoopPipeliner::parityOf(OpBuilder &b, const RingPlace &at) {
  if (at.carried())
    return at.parity;
  Location loc = loop.getLoc();
  Value round = arith::DivUIOp::create(b, loc, at.position, idx(b, stages));
  Value round64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), round);
  return arith::TruncIOp::create(b, loc, b.getI1Type(), round64);
}

RingPlace LoopPipeliner::carryPlace(Mechanism mechanism, Value base,
                                    Value position) {
  Location loc = loop.getLoc();
  OpBuilder before(loop);
  RingPlace start{base, {}, {}};
  SmallVector<Value> inits = {slotOf(before, start)};
  if (mechanism == Mechanism::TMA)
    inits.push_back(parityOf(before, start));
  IRRewriter rewriter(loop->getContext());
  auto widened = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location, ArrayRef<BlockArgument> carried) {
        Value next = arith::AddIOp::create(b, loc, carried[0], idx(b, 1));
        Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            next, idx(b, stages));
        SmallVector<Value> yields = {
            arith::SelectOp::create(b, loc, wraps, idx(b, 0), next)};
        if (carried.size() > 1)
          yields.push_back(arith::XOrIOp::create(b, loc, carried[1], wraps));
        return yields;
      });
  loop = cast<scf::ForOp>(widened->getOperation());
  auto args = loop.getRegionIterArgs().take_back(inits.size());
  return {position, args[0], args.size() > 1 ? args[1] : Value()};
}

RingPlace LoopPipeliner::placeAhead(OpBuilder &b, const RingPlace &at,
                                    Value position) {
  if (!at.carried())
    return {position, {}, {}};
  // (slot + S - 1) mod S, in the same round only from slot 0.
  Location loc = loop.getLoc();
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      at.slot, idx(b, 0));
  Value slot = arith::SelectOp::create(
      b, loc, first, idx(b, stages - 1),
      arith::SubIOp::create(b, loc, at.slot, idx(b, 1)));
  Value parity;
  if (at.parity) {
    Value one = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
    parity = arith::SelectOp::create(
        b, loc, first, at.parity,
        arith::XOrIOp::create(b, loc, at.parity, one));
  }
  return {position, slot, parity};
}

void LoopPipeliner::issue(OpBuilder &b, Mechanism mechanism, Value j,
                          const RingPlace &at) {
  Location loc = loop.getLoc();
  Value slot = slotOf(b, at);
  if (mechanism == Mechanism::CpAsync) {
    for (StageLoad &stage : loads) {
      Value view = ViewOp::create(b, loc, stage.type, stage.ring,
                                  ValueRange{slot});
      AsyncLoadOp::create(b, loc, stage.source, indicesAt(b, stage, j), view);
    }
    AsyncCommitOp::create(b, loc);
    return;
  }
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, j,
                                        tripCount);
  auto producer = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
  producer->setAttr("tile.producer", b.getUnitAttr());
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(producer.thenBlock()->getTerminator());
  // Wait until the consumers gave the slot back: round r of a slot needs
  // the (r - 1)-th completion of its empty barrier; a fresh barrier counts
  // as having completed the phase before 0, so round 0 passes at once.
  Value roundBit = parityOf(b, at);
  Value one = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  Value parity = arith::XOrIOp::create(b, loc, roundBit, one);
  if (!perLoad)
    nvgpu::MBarrierTryWaitParityOp::create(b, loc, empty, parity,
                                           idx(b, kWaitTicks), slot);
  for (StageLoad &stage : loads) {
    if (perLoad)
      nvgpu::MBarrierTryWaitParityOp::create(b, loc, stage.empty, parity,
                                             idx(b, kWaitTicks), slot);
    Value barriers = perLoad ? stage.full : full;
    if (stage.multicast) {
      // This program's part of the slot's rows, into every program of the
      // cluster.
      int64_t part = stage.type.getDimSize(0) / sharers;
      auto partType = TileType::get(
          stage.type.getContext(), {part, stage.type.getDimSize(1)},
          stage.type.getElementType(), stage.type.getLayout(),
          stage.type.getMemorySpace());
      SmallVector<Value> indices = indicesAt(b, stage, j);
      Value first = arith::MulIOp::create(b, loc, clusterRank(), idx(b, part));
      Value view = ViewOp::create(b, loc, partType, stage.ring,
                                  ValueRange{slot}, first, IntegerAttr());
      indices[0] = arith::AddIOp::create(b, loc, indices[0], first);
      auto copy = TmaLoadOp::create(b, loc, stage.descriptor, indices, view,
                                    barriers, slot);
      copy.setMulticast((uint64_t(1) << sharers) - 1);
      continue;
    }
    Value view = ViewOp::create(b, loc, stage.type, stage.ring,
                                ValueRange{slot});
    TmaLoadOp::create(b, loc, stage.descriptor, indicesAt(b, stage, j), view,
                      barriers, slot);
  }
}

void LoopPipeliner::releaseEach(Value slot) {
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  for (StageLoad &stage : loads) {
    // The slot's readers: its view, through transposes, into tile.wgmma;
    // the last wait on one of them (in the body's order).
    SmallVector<Value> views = {stage.view};
    Operation *lastWait = nullptr;
    for (unsigned k = 0; k < views.size(); ++k)
      for (Operation *user : views[k].getUsers()) {
        if (auto transpose = dyn_cast<TransposeOp>(user))
          views.push_back(transpose.getResult());
        if (auto wgmma = dyn_cast<WgmmaOp>(user))
          for (Operation *waiter : wgmma->getUsers())
            if (isa<WgmmaWaitOp>(waiter) && waiter->getBlock() == body &&
                (!lastWait || lastWait->isBeforeInBlock(waiter)))
              lastWait = waiter;
      }
    OpBuilder release(loop->getContext());
    if (lastWait)
      release.setInsertionPointAfter(lastWait);
    else
      release.setInsertionPoint(body->getTerminator());
    ArriveOp::create(release, loc, stage.empty, slot);
  }
}

LogicalResult LoopPipeliner::run() {
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto load = dyn_cast<LoadOp>(op); load && isSharedTile(load.getType()))
      loads.push_back({load, load.getSource(),
                       llvm::to_vector(load.getIndices()),
                       cast<TileType>(load.getType()), /*ring=*/{},
                       /*descriptor=*/{}, /*full=*/{}, /*empty=*/{},
                       /*view=*/{}, /*pieces=*/{}});
  if (loads.empty())
    return success();
  for (StageLoad &stage : loads)
    if (!clonableAtAnyIteration(loop, stage.indices))
      return notPipelined(stage.load.getLoc(),
                          "its indices depend on more than the loop's "
                          "induction variable and values from outside the "
                          "loop");
  // A buffer the kernel also writes (a hand-written recurrence, or a loop
  // reading what an earlier one stored): a ring would read it ahead of
  // the writes, and a producer warpgroup out of their order, with no
  // fence between the threads' stores and the TMA's reads.
  for (StageLoad &stage : loads)
    if (writesTo(kernel.getBody(), rootBuffer(stage.source)))
      return notPipelined(stage.load.getLoc(),
                          "the kernel also writes the buffer it loads (a "
                          "ring would read it ahead of the writes)");
  // ringBase counts the iterations of earlier runs through one loop
  // around this one: a loop further out would run the ring from the same
  // position again (a hand-written kernel's; tile-tile builds none).
  auto outerLoop = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!isa<KernelOp>(outerLoop ? outerLoop->getParentOp()
                               : loop->getParentOp()))
    return notPipelined(loop.getLoc(),
                        "the loop is not directly in the kernel or in a loop "
                        "directly in the kernel (the ring position cannot be "
                        "counted)");
  if (auto outer = dyn_cast<scf::ForOp>(loop->getParentOp()))
    for (Value bound : {loop.getLowerBound(), loop.getUpperBound(),
                        loop.getStep()})
      if (!getConstantIntValue(bound) &&
          outer->isAncestor(bound.getParentRegion()->getParentOp()))
        varyingTrips = true;
  bool tma = target.hasTma() &&
             llvm::all_of(loads, [&](StageLoad &s) { return tmaReadable(s.load); });
  bool async = target.hasMmaSync() &&
               llvm::all_of(loads, [&](StageLoad &s) {
                 MemRefType type = s.load.getSource().getType();
                 int64_t eb = type.getElementTypeBitWidth() / 8;
                 int64_t run = 16 / std::max<int64_t>(eb, 1);
                 return type.getRank() == 2 && type.hasStaticShape() &&
                        type.getLayout().isIdentity() &&
                        (type.getDimSize(1) * eb) % 16 == 0 &&
                        (s.type.getDimSize(1) * eb) % 16 == 0 &&
                        isProvablyMultipleOf(s.load.getIndices()[1], run);
               });
  if (!tma && !async)
    return notPipelined(loop.getLoc(),
                        "its loads are neither TMA-readable nor 16-byte "
                        "cp.async runs on " + target.getChip().str());
  Mechanism mechanism = tma ? Mechanism::TMA : Mechanism::CpAsync;
  if (sharers > 1 && mechanism != Mechanism::TMA)
    return loop.emitError() << "the config's cluster along M shares tiles "
                               "through TMA multicast, but this loop's loads "
                               "are not TMA-readable";
  Location loc = loop.getLoc();
  // (Not with per-load barriers: releaseEach would give a box back after
  // its first piece's readers.)
  if (mechanism == Mechanism::TMA && !perLoad)
    mergeRowPieces();
  // ring-register-loads, the config's prefetch and a producer warpgroup:
  // register loads TMA can copy come through the ring (the rest go above
  // its wait, hoistRegisterLoads). int4 bf16 scales, N = K = 8192, M = 1 /
  // 16 / 64, tile-run, 5 rounds, against the lines loaded from global
  // memory: on the H100 0.991 / 0.993 / 0.965 of the time (session 43), on
  // the H200 1.013 / 1.044 / 0.967 (session 44; bench/quant.sh at M = 16:
  // 0.427 of cuBLAS's time against 0.401), so not by default. (Not with
  // per-load barriers: each would need its own, waited for where the
  // registers are read.)
  if (mechanism == Mechanism::TMA && !perLoad && ringRegisters &&
      config.getPrefetch() && config.getWarpSpecialize())
    ringRegisterLoads();
  if (sharers > 1 && failed(shareAcrossCluster()))
    return failure();
  allocate(mechanism);

  // Before the loop: the trip count, the ring base, iterations 0..S-2.
  OpBuilder before(loop);
  // A trip count that changes is carried into every later run's ring
  // position: a run of no iterations (upper bound below the lower) must
  // count 0, not wrap around.
  Value upper = loop.getUpperBound();
  if (varyingTrips)
    upper = arith::MaxUIOp::create(before, loc, upper, loop.getLowerBound());
  Value span = arith::SubIOp::create(before, loc, upper, loop.getLowerBound());
  tripCount = arith::DivUIOp::create(
      before, loc,
      arith::AddIOp::create(
          before, loc, span,
          arith::SubIOp::create(before, loc, loop.getStep(), idx(before, 1))),
      loop.getStep());
  Value base = ringBase(before);
  if (mechanism == Mechanism::CpAsync && isa<scf::ForOp>(loop->getParentOp()))
    BarrierOp::create(before, loc); // the last run's readers are done
  for (int64_t s = 0; s + 1 < stages; ++s) {
    Value slot = idx(before, s);
    Value step = idx(before, s);
    issue(before, mechanism, slot,
          {arith::AddIOp::create(before, loc, base, step), {}, {}});
  }

  // In the loop: iteration i waits for its slot, reads its tiles there,
  // and issues iteration i + S - 1.
  OpBuilder in = OpBuilder::atBlockBegin(loop.getBody());
  Value i = arith::DivUIOp::create(
      in, loc,
      arith::SubIOp::create(in, loc, loop.getInductionVar(),
                            loop.getLowerBound()),
      loop.getStep());
  Value position = arith::AddIOp::create(in, loc, base, i);
  RingPlace here{position, {}, {}};
  if (carriesPlace()) {
    here = carryPlace(mechanism, base, position);
    // `loop` was replaced: its ops are in the new loop's body, and an
    // index that was the old induction variable is the new one.
    in.setInsertionPointAfter(position.getDefiningOp());
    for (StageLoad &stage : loads)
      stage.indices = stage.intoRegisters
                          ? registerBoxIndices(stage.load)
                          : llvm::to_vector(stage.load.getIndices());
  }
  Block *body = loop.getBody();
  Value slot = slotOf(in, here);
  Value ahead = arith::AddIOp::create(in, loc, i, idx(in, stages - 1));
  RingPlace aheadPlace = placeAhead(
      in, here, arith::AddIOp::create(in, loc, position, idx(in, stages - 1)));
  if (mechanism == Mechanism::CpAsync) {
    WaitAsyncOp::create(in, loc, stages - 2);
    BarrierOp::create(in, loc);
    issue(in, mechanism, ahead, aheadPlace);
  }
  Value fullParity;
  Operation *ringWait = nullptr;
  if (mechanism == Mechanism::TMA) {
    fullParity = parityOf(in, here);
    if (!perLoad)
      ringWait = nvgpu::MBarrierTryWaitParityOp::create(
          in, loc, full, fullParity, idx(in, kWaitTicks), slot);
  }
  for (StageLoad &stage : loads) {
    if (stage.intoRegisters) {
      readSlotIntoRegisters(stage, slot);
      continue;
    }
    OpBuilder at(stage.load);
    // Per-load barriers: each tile waited for where it is read.
    if (perLoad && mechanism == Mechanism::TMA)
      nvgpu::MBarrierTryWaitParityOp::create(at, loc, stage.full, fullParity,
                                             idx(at, kWaitTicks), slot);
    if (!stage.pieces.empty()) {
      // Each piece its columns of the box: with the box's row pitch, or
      // within a column block of its swizzle (the transposes of such a
      // piece, wgmma's B, take the swizzle too).
      int64_t boxWidth = stage.type.getDimSize(1);
      int64_t boxSwizzle =
          cast<SharedLayoutAttr>(stage.type.getLayout()).getSwizzle();
      for (auto [piece, column] : stage.pieces) {
        auto type = cast<TileType>(piece.getType());
        int64_t blockCols =
            boxSwizzle ? boxSwizzle * 8 / type.getElementTypeBitWidth()
                       : boxWidth;
        int64_t padding = blockCols - type.getDimSize(1);
        auto part = TileType::get(
            type.getContext(), type.getShape(), type.getElementType(),
            SharedLayoutAttr::get(type.getContext(), boxSwizzle, padding),
            type.getMemorySpace());
        OpBuilder atPiece(piece);
        auto view =
            ViewOp::create(atPiece, loc, part, stage.ring, ValueRange{slot});
        view.setColumn(column);
        piece.replaceAllUsesWith(view.getResult());
        for (Operation *user : view->getUsers())
          if (auto transpose = dyn_cast<TransposeOp>(user)) {
            auto from = cast<TileType>(transpose.getType());
            transpose.getResult().setType(TileType::get(
                from.getContext(), from.getShape(), from.getElementType(),
                SharedLayoutAttr::get(from.getContext(), boxSwizzle, padding,
                                      /*transposed=*/true),
                from.getMemorySpace()));
          }
        if (!stage.view)
          stage.view = view;
      }
      for (auto [piece, column] : stage.pieces)
        piece.erase();
      continue;
    }
    Value view =
        ViewOp::create(at, loc, stage.type, stage.ring, ValueRange{slot});
    stage.load.replaceAllUsesWith(view);
    stage.load.erase();
    stage.view = view;
  }
  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(loop);
  if (mechanism == Mechanism::CpAsync) {
    // The copies issued past the last iteration (zeros) land before the
    // ring's memory is used for anything else.
    WaitAsyncOp::create(after, loc, 0);
    if (config.getPrefetch())
      loop = prefetchRegisterLoads(loop, config.getL2Fetch());
    return success();
  }

  if (perLoad) {
    releaseEach(slot);
    OpBuilder end(body->getTerminator());
    issue(end, mechanism, ahead, aheadPlace);
    giveBackToCluster();
    return success();
  }

  if (config.getPrefetch())
    hoistRegisterLoads(ringWait);

  // Giving slots back. One tile.wgmma waited for at once: keep it in
  // flight, and give back the previous slot once its group is done. (Not
  // where warpgroups take turns at the steps, k_warpgroups: a warpgroup's
  // previous step is not the ring's previous slot.)
  SmallVector<WgmmaOp> wgmmas;
  for (Operation &op : body->without_terminator())
    if (auto wgmma = dyn_cast<WgmmaOp>(op))
      wgmmas.push_back(wgmma);
  WgmmaWaitOp wait;
  if (wgmmas.size() == 1 && wgmmas[0]->hasOneUse() &&
      config.getKWarpgroups() == 1)
    wait = dyn_cast<WgmmaWaitOp>(*wgmmas[0]->getUsers().begin());
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  std::optional<unsigned> carried;
  if (wait && wait.getPending() == 0 && wait->hasOneUse() &&
      *wait->getUsers().begin() == yield.getOperation())
    carried = wait->getUses().begin()->getOperandNumber();
  if (carried && wgmmas[0].getAcc() == loop.getRegionIterArgs()[*carried]) {
    wait.setPending(1);
    OpBuilder release(loop->getContext());
    release.setInsertionPointAfter(wait);
    Value started = arith::CmpIOp::create(release, loc,
                                          arith::CmpIPredicate::ugt, i,
                                          idx(release, 0));
    auto ifStarted = scf::IfOp::create(release, loc, started, false);
    {
      OpBuilder::InsertionGuard guard(release);
      release.setInsertionPoint(ifStarted.thenBlock()->getTerminator());
      Value previous = slotOf(release, aheadPlace);
      ArriveOp::create(release, loc, empty, previous);
    }
    // After the loop: the last group, then its slot.
    Value result = loop.getResult(*carried);
    auto done = WgmmaWaitOp::create(after, loc, result.getType(), result, 0);
    result.replaceAllUsesExcept(done, done);
    Value started2 = arith::CmpIOp::create(after, loc,
                                           arith::CmpIPredicate::ugt,
                                           tripCount, idx(after, 0));
    auto ifRan = scf::IfOp::create(after, loc, started2, false);
    OpBuilder::InsertionGuard guard(after);
    after.setInsertionPoint(ifRan.thenBlock()->getTerminator());
    Value end = arith::AddIOp::create(after, loc, base, tripCount);
    Value oneStep = idx(after, 1);
    Value lastPosition = arith::SubIOp::create(after, loc, end, oneStep);
    Value ring = idx(after, stages);
    Value last = arith::RemUIOp::create(after, loc, lastPosition, ring);
    ArriveOp::create(after, loc, empty, last);
  } else {
    // Synchronous consumers: the slot is free at the end of the iteration.
    OpBuilder release(yield);
    ArriveOp::create(release, loc, empty, slot);
  }
  OpBuilder end(yield);
  issue(end, mechanism, ahead, aheadPlace);
  giveBackToCluster();
  return success();
}

struct TilePipelinePass
    : public tile::impl::TilePipelinePassBase<TilePipelinePass> {
  using TilePipelinePassBase::TilePipelinePassBase;
  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](KernelOp kernel) {
      auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      if (!config || config.getStages() < 2)
        return WalkResult::advance();
      TargetAttr target = TargetAttr::lookup(kernel);
      if (!target) {
        kernel.emitError() << "tile-pipeline needs the module's tile.target "
                              "(run tile-configure)";
        return WalkResult::interrupt();
      }
      // Innermost loops first. A loop's pipeliner may replace loops (the
      // one around it, to carry a ring base; itself, to carry prefetched
      // registers), so the next one is looked up again after each, and the
      // ones done are marked on the ops themselves (a pointer to a replaced
      // loop could come back as a new loop's).
      SmallVector<LoopPipeliner::Refusal> refusals;
      while (true) {
        scf::ForOp next;
        kernel.walk([&](scf::ForOp loop) {
          if (!next && !loop->hasAttr(kVisited))
            next = loop;
        });
        if (!next)
          break;
        next->setAttr(kVisited, UnitAttr::get(next.getContext()));
        if (failed(LoopPipeliner(kernel, config, target, next,
                                 ringRegisterLoads, refusals)
                       .run()))
          return WalkResult::interrupt();
      }
      kernel.walk([](scf::ForOp loop) { loop->removeAttr(kVisited); });
      // Programs that fill each other's rings: none arrives on a peer's
      // barriers before it initialized them, or after it left.
      bool multicast = kernel
                           .walk([](TmaLoadOp copy) {
                             return copy.getMulticast()
                                        ? WalkResult::interrupt()
                                        : WalkResult::advance();
                           })
                           .wasInterrupted();
      if (multicast) {
        Block &body = kernel.getBody().front();
        Operation *lastGroup = nullptr;
        for (Operation &op : body)
          if (isa<BarrierGroupOp>(op))
            lastGroup = &op;
        OpBuilder afterInit(lastGroup);
        afterInit.setInsertionPointAfter(lastGroup);
        ClusterBarrierOp::create(afterInit, kernel.getLoc());
        OpBuilder atEnd(body.getTerminator());
        ClusterBarrierOp::create(atEnd, kernel.getLoc());
      }
      // A loop left as it is next to a ring that a producer warpgroup
      // (warp_specialize) fills: the consumers would copy that loop's
      // tiles to shared memory themselves, beside the producer and outside
      // the ring's barriers (on the H200 such a kernel hung:
      // bench/RESULTS.md, session 19). Without a ring, nothing is split
      // and the loops run as they are.
      bool producer =
          config.getWarpSpecialize() &&
          kernel
              .walk([](Operation *op) {
                return op->hasAttr("tile.producer") ? WalkResult::interrupt()
                                                    : WalkResult::advance();
              })
              .wasInterrupted();
      for (const LoopPipeliner::Refusal &refusal : refusals) {
        if (producer) {
          emitError(refusal.at)
              << "cannot pipeline this loop beside the producer "
                 "warpgroup's ring (warp_specialize): "
              << refusal.why;
          return WalkResult::interrupt();
        }
        emitRemark(refusal.at) << "not pipelined: " << refusal.why;
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
