//===- TilePromote.cpp - Tensor-core dot operands to shared memory -*- C++ -*-===//
//
// tile-promote: each operand of a tensor-core tile.dot moves to shared
// memory, in the layout its instructions read there: swizzled for wgmma
// (128 bytes where rows hold it, else 64 or 32: what TMA writes and the
// matrix descriptors describe), rows padded
// by 16 bytes for mma.sync (so that ldmatrix's eight row addresses fall in
// eight different groups of banks; measured against swizzling on the sm_80
// path in session 1). A tile.load of the operand from global memory then
// loads into shared memory itself; any other operand is stored there with
// a tile.convert_layout. tile-pipeline turns such loads in a loop into a
// ring; alone, each is a synchronous copy. The exception: a wgmma dot's
// A operand computed in registers (an attention kernel's probabilities,
// the first dot's accumulator cast to bf16) stays there, converted to
// #tile.dot_operand<0, the accumulator's layout>, which for a tile cast
// from a wgmma accumulator is the same map (no data moves; wgmma reads A
// from registers), where a trip through shared memory would cost a store,
// a barrier and a proxy fence per product. And a B operand that is the
// tile.transpose of a load (an attention kernel's K^T) is loaded as it is
// stored, the transpose a view with a `transposed` layout: wgmma reads it
// K-major, ldmatrix without .trans.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileLayouts.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "tile-promote"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPROMOTEPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// The shared layout `kind`'s instructions read an operand of `type` in.
SharedLayoutAttr sharedLayoutFor(MmaKind kind, TileType type) {
  MLIRContext *ctx = type.getContext();
  int64_t eb = type.getElementTypeBitWidth() / 8;
  if (kind == MmaKind::wgmma) {
    // The widest swizzle a row holds whole (128 bytes for 64 bf16).
    int64_t rowBytes = type.getDimSize(1) * eb;
    int64_t swizzle = rowBytes % 128 == 0 ? 128 : rowBytes % 64 == 0 ? 64 : 32;
    return SharedLayoutAttr::get(ctx, swizzle, /*padding=*/0);
  }
  return SharedLayoutAttr::get(ctx, /*swizzle=*/0, /*padding=*/16 / eb);
}

/// `type` in shared memory with `layout`.
TileType inShared(TileType type, SharedLayoutAttr layout) {
  return TileType::get(type.getContext(), type.getShape(),
                       type.getElementType(), layout,
                       gpu::AddressSpaceAttr::get(type.getContext(),
                                                  gpu::AddressSpace::Workgroup));
}

TileType sharedTypeFor(MmaKind kind, TileType type) {
  return inShared(type, sharedLayoutFor(kind, type));
}

/// The shared type of a tile read back into its register layout `type`
/// (a ring slot of a dequantized weight's bytes): with a #tile.blocked
/// layout thread t reads the t-th run in row-major order, as the copies
/// write it, so consecutive threads touch consecutive bytes and plain
/// row-major rows hit every bank once. The padding ldmatrix needs would
/// make rows of fewer than 128 bytes collide (64-byte rows padded to 80:
/// two wavefronts per 16-byte access where one does, measured with
/// Nsight Compute on the int4 GEMM's bytes).
TileType sharedSourceTypeFor(MmaKind kind, TileType type) {
  // Runs along rows (a weight's bytes for wgmma's register A under
  // lhs_k_runs, k_width > 2) are read back the same way.
  auto runs = dyn_cast_or_null<DotOperandLayoutAttr>(type.getLayout());
  if (!isa_and_nonnull<BlockedLayoutAttr>(type.getLayout()) &&
      !(runs && runs.getKWidth() > 2))
    return sharedTypeFor(kind, type);
  return inShared(type, SharedLayoutAttr::get(type.getContext(),
                                              /*swizzle=*/0, /*padding=*/0));
}

/// Whether every user of `load` is a tensor-core dot reading it as an
/// operand (then the load itself can go to shared memory).
bool onlyDotOperand(LoadOp load) {
  return llvm::all_of(load->getUses(), [](OpOperand &use) {
    auto dot = dyn_cast<DotOp>(use.getOwner());
    return dot && use.getOperandNumber() < 2;
  });
}

struct TilePromotePass
    : public tile::impl::TilePromotePassBase<TilePromotePass> {
  void runOnOperation() override {
    getOperation().walk([&](KernelOp kernel) {
      auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      if (!config || config.getMma() == MmaKind::simt)
        return;
      kernel.walk([&](DotOp dot) {
        for (OpOperand &operand : dot->getOpOperands().take_front(2))
          promote(config.getMma(), dot, operand);
        layOutRunReadOperand(dot);
      });
    });
  }

  /// Where B stays in registers as runs along K (k_width > 2), tile-mma
  /// gives A the same K order, read with 16-byte loads from its shared
  /// tile (LdMatrixLowering::readRuns): lanes l % 4 read runs k_width
  /// apart in one row, which a padded row can put on the same banks (at
  /// k_width 32, runs 128 bytes apart). A's tile takes the candidate
  /// layout (padding of 0 to 64 bytes, with and without row_xor) whose
  /// reads by one warp take the fewest wavefronts, the first on a tie.
  static void layOutRunReadOperand(DotOp dot) {
    auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(
        cast<TileType>(dot.getRhs().getType()).getLayout());
    auto load = dot.getLhs().getDefiningOp<LoadOp>();
    // Under k_runs, A keeps its own K order (ldmatrix).
    if (!operand || operand.getKWidth() <= 2 || !load || dot.getKRuns())
      return;
    auto type = cast<TileType>(load.getType());
    auto current = dyn_cast_or_null<SharedLayoutAttr>(type.getLayout());
    if (!current || current.getSwizzle() != 0 || current.getTransposed() ||
        type.getRank() != 2)
      return;
    MLIRContext *ctx = dot.getContext();
    auto runs = DotOperandLayoutAttr::get(ctx, 0, operand.getParent(),
                                          operand.getKWidth());
    FailureOr<LinearLayout> linear = getLinearLayout(runs, type.getShape());
    int64_t eb = type.getElementTypeBitWidth() / 8;
    if (failed(linear) || eb == 0 || 16 % eb != 0)
      return;
    load.getResult().setType(
        inShared(type, fewestWavefronts(type, *linear, current)));
  }

  /// Of `first` (if given) and the row-major layouts of padding 0 to 64
  /// bytes, with and without row_xor, the one in which a warp's 16-byte
  /// reads of its slots in `linear` from a tile of `type` take the fewest
  /// wavefronts; the first on a tie.
  static SharedLayoutAttr fewestWavefronts(TileType type,
                                           const LinearLayout &linear,
                                           SharedLayoutAttr first) {
    MLIRContext *ctx = type.getContext();
    int64_t eb = type.getElementTypeBitWidth() / 8;
    int64_t rowBytes = type.getDimSize(1) * eb;
    SmallVector<SharedLayoutAttr> candidates;
    if (first)
      candidates.push_back(first);
    for (int64_t pad = 0; pad <= 64; pad += 16)
      for (int64_t rowXor : {0, 128, 256})
        if (rowXor == 0 || rowBytes % (2 * rowXor) == 0)
          candidates.push_back(SharedLayoutAttr::get(
              ctx, 0, pad / eb, /*transposed=*/false, rowXor));
    SharedLayoutAttr best;
    int64_t fewest = std::numeric_limits<int64_t>::max();
    for (SharedLayoutAttr candidate : candidates) {
      int64_t wavefronts = sharedReadWavefronts(candidate, type.getShape(), eb,
                                                linear, /*runBytes=*/16);
      if (wavefronts < fewest) {
        fewest = wavefronts;
        best = candidate;
      }
    }
    return best;
  }

  /// The register layout a wgmma dot reads its computed A operand in, or
  /// null where it must go through shared memory.
  static TileType registerOperandFor(DotOp dot, OpOperand &operand) {
    auto type = cast<TileType>(operand.get().getType());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(
        cast<TileType>(dot.getAcc().getType()).getLayout());
    if (operand.getOperandNumber() != 0 || !mma ||
        mma.getKind() != MmaKind::wgmma || type.getElementTypeBitWidth() != 16)
      return TileType();
    // Only where the operand's registers already hold the fragments in
    // some order (a cast wgmma accumulator): else shared memory is the
    // cheaper exchange. An A in fragment-run order (lhs_k_runs) is read
    // from registers only: wgmma reads shared memory in K order.
    std::optional<int64_t> runs = dot.getLhsKRuns();
    auto layout = DotOperandLayoutAttr::get(dot.getContext(), 0, mma,
                                            runs.value_or(2));
    if (!runs &&
        !getSlotPermutation(type.getLayout(), layout, type.getShape()))
      return TileType();
    return TileType::get(type.getContext(), type.getShape(),
                         type.getElementType(), layout, Attribute());
  }

  /// A B operand that is the transpose of a load only it reads (K^T of
  /// an attention kernel): the load goes to shared memory as usual and the
  /// transpose becomes a view of it (`transposed`), which wgmma reads
  /// K-major and ldmatrix without .trans: no copy. True if done.
  static bool promoteTransposedLoad(MmaKind kind, OpOperand &operand) {
    auto transpose = operand.get().getDefiningOp<TransposeOp>();
    if (!transpose || operand.getOperandNumber() != 1)
      return false;
    if (!llvm::all_of(transpose->getUses(), [](OpOperand &use) {
          return isa<DotOp>(use.getOwner()) && use.getOperandNumber() == 1;
        }))
      return false;
    auto load = transpose.getInput().getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse())
      return promoteTransposedRegisters(kind, transpose,
                                        cast<DotOp>(operand.getOwner()));
    auto loaded = cast<TileType>(load.getType());
    // fp8 only for wgmma (K-major is the only way it reads fp8 B).
    if (loaded.getElementTypeBitWidth() != 16 &&
        !(kind == MmaKind::wgmma && isFloat8(loaded.getElementType())))
      return false;
    TileType stored = sharedTypeFor(kind, loaded);
    auto layout = cast<SharedLayoutAttr>(stored.getLayout());
    load.getResult().setType(stored);
    transpose.getResult().setType(TileType::get(
        loaded.getContext(), cast<TileType>(transpose.getType()).getShape(),
        loaded.getElementType(),
        SharedLayoutAttr::get(loaded.getContext(), layout.getSwizzle(),
                              layout.getPadding(), /*transposed=*/true),
        stored.getMemorySpace()));
    return true;
  }

  /// A B operand that is the transpose of a tile computed in registers (a
  /// weight dequantized in the K loop, [N, K]): the loads it is computed
  /// from go to shared memory (for the ring); the transpose stays in
  /// registers where its threads already hold B's fragments, else the
  /// tile is stored into shared memory as it is, rows of K, and read
  /// through a `transposed` view (ldmatrix without .trans), where
  /// transposing it in registers would exchange it through shared memory
  /// first. mma.sync only: wgmma would read the
  /// threads' stores through the async proxy. True if done.
  static bool promoteTransposedRegisters(MmaKind kind, TransposeOp transpose,
                                         DotOp dot) {
    auto computed = cast<TileType>(transpose.getInput().getType());
    if (kind != MmaKind::mma_sync || isSharedTile(computed) ||
        computed.getElementTypeBitWidth() != 16)
      return false;
    promoteSourceLoads(kind, transpose.getInput());
    if (keepTransposeInRegisters(transpose, dot))
      return true;
    TileType stored = sharedTypeFor(kind, computed);
    if (SharedLayoutAttr runs = layOutRunReadWeight(dot, computed))
      stored = inShared(computed, runs);
    auto layout = cast<SharedLayoutAttr>(stored.getLayout());
    OpBuilder b(transpose);
    Value shared = ConvertLayoutOp::create(b, transpose.getLoc(), stored,
                                           transpose.getInput());
    transpose.getInputMutable().assign(shared);
    transpose.getResult().setType(TileType::get(
        computed.getContext(), cast<TileType>(transpose.getType()).getShape(),
        computed.getElementType(),
        SharedLayoutAttr::get(computed.getContext(), layout.getSwizzle(),
                              layout.getPadding(), /*transposed=*/true,
                              layout.getRowXor()),
        stored.getMemorySpace()));
    return true;
  }

  /// Under k_runs = W, B is read from the stored [N, K] weight in runs of W
  /// along its rows (LdMatrixLowering::readRuns): lanes l % 4 read runs W
  /// apart in one row, 2 W bytes, which padding alone puts on the same
  /// banks for two of the four lanes. The stored tile takes the candidate
  /// layout (as layOutRunReadOperand's) whose reads by one warp take the
  /// fewest wavefronts; null where there is no k_runs or no map.
  static SharedLayoutAttr layOutRunReadWeight(DotOp dot, TileType computed) {
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(
        cast<TileType>(dot.getAcc().getType()).getLayout());
    int64_t eb = computed.getElementTypeBitWidth() / 8;
    if (!dot.getKRuns() || !mma || computed.getRank() != 2 || eb != 2)
      return SharedLayoutAttr();
    MLIRContext *ctx = dot.getContext();
    auto operand = DotOperandLayoutAttr::get(ctx, 1, mma, *dot.getKRuns());
    SmallVector<int64_t> shape = {computed.getDimSize(1),
                                  computed.getDimSize(0)};
    FailureOr<LinearLayout> linear = getLinearLayout(operand, shape);
    if (failed(linear))
      return SharedLayoutAttr();
    // B's map in the stored tile's coordinates ([N, K]).
    LinearLayout stored = *linear;
    stored.shape = {shape[1], shape[0]};
    for (SmallVector<Offset> *bases : {&stored.slot, &stored.lane, &stored.warp})
      for (Offset &basis : *bases)
        std::swap(basis[0], basis[1]);
    std::swap(stored.outerStride[0], stored.outerStride[1]);
    return fewestWavefronts(computed, stored, SharedLayoutAttr());
  }

  /// Where the computed [N, K] tile's threads each hold runs along K that
  /// are, transposed, mma.sync's B fragments of k_width K / 4 (or the
  /// dot's k_runs; four lanes
  /// along K; tile-assign-layouts gives a dequantized weight such runs,
  /// 32 values of a row from 16 packed bytes at K = 128): the transpose
  /// stays in registers as that #tile.dot_operand (it moves nothing) and
  /// tile-mma gives A the same K order. True if done.
  static bool keepTransposeInRegisters(TransposeOp transpose, DotOp dot) {
    auto computed = cast<TileType>(transpose.getInput().getType());
    auto operandType = cast<TileType>(transpose.getType());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(
        cast<TileType>(dot.getAcc().getType()).getLayout());
    // Under k_runs = W the runs are W long whatever the step's K.
    int64_t kWidth = dot.getKRuns() ? *dot.getKRuns()
                                    : operandType.getDimSize(0) / 4;
    if (!mma || !computed.getLayout() || kWidth < 4 || kWidth > 64 ||
        !llvm::isPowerOf2_64(kWidth))
      return false;
    auto layout = DotOperandLayoutAttr::get(dot.getContext(), 1, mma, kWidth);
    if (!getTransposeSlotPermutation(computed.getLayout(), layout,
                                     computed.getShape()))
      return false;
    transpose.getResult().setType(
        TileType::get(dot.getContext(), operandType.getShape(),
                      operandType.getElementType(), layout, Attribute()));
    return true;
  }

  /// The loads a computed operand is made from through elementwise ops
  /// and unpacks (a quantized weight's bytes, its [N, K] scales): each
  /// rank-2 tile of 16-byte rows, read only there, goes to shared memory
  /// and back into its register layout, so that tile-pipeline copies it
  /// into a ring ahead of the step that reads it.
  static void promoteSourceLoads(MmaKind kind, Value computed) {
    SmallVector<Operation *> worklist;
    if (Operation *def = computed.getDefiningOp())
      worklist.push_back(def);
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      if (!isa<MapOp, CastOp, UnpackOp>(op))
        continue;
      for (Value operand : op->getOperands()) {
        auto type = dyn_cast<TileType>(operand.getType());
        Operation *def = operand.getDefiningOp();
        if (!type || isSharedTile(type) || !def)
          continue;
        auto load = dyn_cast<LoadOp>(def);
        if (!load) {
          worklist.push_back(def);
          continue;
        }
        MemRefType source = load.getSource().getType();
        int64_t eb = type.getElementTypeBitWidth() / 8;
        if (!load->hasOneUse() || type.getRank() != 2 || eb == 0 ||
            source.getRank() != 2 || !source.getLayout().isIdentity() ||
            (type.getDimSize(1) * eb) % 16 != 0)
          continue;
        load.getResult().setType(sharedSourceTypeFor(kind, type));
        OpBuilder b(op);
        Value back = ConvertLayoutOp::create(b, load.getLoc(), type,
                                             load.getResult());
        load.getResult().replaceAllUsesExcept(back, back.getDefiningOp());
      }
    }
  }

  void promote(MmaKind kind, DotOp dot, OpOperand &operand) {
    Value value = operand.get();
    auto type = cast<TileType>(value.getType());
    if (isSharedTile(type) || promoteTransposedLoad(kind, operand))
      return;
    TileType shared = sharedTypeFor(kind, type);
    auto load = value.getDefiningOp<LoadOp>();
    // An A in fragment runs computed in registers: the loads it is
    // computed from ride the ring (shared memory, read back into the
    // thread's runs).
    if (dot.getLhsKRuns() && operand.getOperandNumber() == 0)
      promoteSourceLoads(kind, value);
    if (!load || !onlyDotOperand(load) || dot.getLhsKRuns())
      if (TileType registers = registerOperandFor(dot, operand)) {
        if (registers == type)
          return; // laid out as the fragments already (lhs_k_runs)
        OpBuilder b(operand.getOwner());
        operand.set(
            ConvertLayoutOp::create(b, value.getLoc(), registers, value));
        return;
      }
    if (load && onlyDotOperand(load)) {
      value.setType(shared);
      // tile.load into shared memory pads with zeros: a nonzero padding
      // would change the product.
      return;
    }
    OpBuilder b(operand.getOwner());
    operand.set(ConvertLayoutOp::create(b, value.getLoc(), shared, value));
  }
};

} // namespace
