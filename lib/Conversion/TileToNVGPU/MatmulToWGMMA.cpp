//===- MatmulToWGMMA.cpp - Hopper matmul kernels -----------------*- C++ -*-===//
//
// Rewrites tile-level matmul kernels into the sm_90a pipeline: TMA copies
// into a ring of 128-byte-swizzled shared-memory stages, full/empty
// mbarriers, one producer warpgroup and two consumer warpgroups issuing
// wgmma through nvgpu.warpgroup.mma, and a masked, vectorized epilogue. The
// pass description in Passes.td gives the structure; the comments below say
// why each piece is the way it is.
//
//===----------------------------------------------------------------------===//

#include "MatmulKernel.h"
#include "tile/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#define DEBUG_TYPE "convert-tile-matmul-to-wgmma"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_CONVERTTILEMATMULTOWGMMAPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Fixed shape of the Hopper path. 128 rows = two consumer warpgroups of 64
/// (wgmma's M); K = 64 bf16 = one 128-byte swizzle row.
constexpr int64_t kBlockM = 128;
constexpr int64_t kBlockK = 64;
constexpr int64_t kConsumerRows = 64;
constexpr int64_t kWarpgroup = 128;
constexpr int64_t kThreads = 3 * kWarpgroup;
constexpr int64_t kSwizzleBytes = 128;
/// The epilogue moves a consumer's 64 x blockN accumulator through shared
/// memory 32 columns at a time, in f32 rows padded to 40 (so that the 8
/// rows a warp's fragment store touches start in different banks).
constexpr int64_t kSlabColumns = 32;
constexpr int64_t kSlabStride = 40;
constexpr int64_t kSlabBytes = kConsumerRows * kSlabStride * 4;
/// Each thread reads 4 consecutive slab columns at a time; a step covers
/// 16 of the slab's 64 rows.
constexpr int64_t kEpilogueVector = 4;
constexpr int64_t kThreadsPerSlabRow = kSlabColumns / kEpilogueVector;
constexpr int64_t kRowsPerStep = kWarpgroup / kThreadsPerSlabRow;
constexpr int64_t kStepsPerSlab = kConsumerRows / kRowsPerStep;
/// Registers per thread after setmaxnreg: the producer needs few; the
/// consumers hold a 64 x 256 f32 accumulator (128 registers) and more.
/// The most dynamic shared memory a block may ask for on sm_90 (227 KB).
constexpr int64_t kMaxSharedBytes = 232448;
constexpr int kProducerRegisters = 40;
constexpr int kConsumerRegisters = 232;

} // namespace

namespace {
/// Builds the new kernel body; one instance per kernel.
class WGMMAKernelBuilder {
public:
  WGMMAKernelBuilder(OpBuilder &b, Location loc, int64_t stages, int64_t blockN,
                     int64_t programs, int64_t groupRows, Type element,
                     int64_t m, int64_t n, int64_t k, const MatmulKernel &match,
                     IRMapping &oldToNew)
      : b(b), loc(loc), stages(stages), blockN(blockN), programs(programs),
        groupRows(groupRows),
        element(element), k(k), ctx(b.getContext()), match(match),
        oldToNew(oldToNew) {
    smem = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    elementBytes = element.getIntOrFloatBitWidth() / 8;
    aStageBytes = kBlockM * kBlockK * elementBytes;
    bStageBytes = kBlockK * blockN * elementBytes;
    stageBytes = aStageBytes + bStageBytes;
    numM = llvm::divideCeil(m, kBlockM);
    numN = llvm::divideCeil(n, blockN);
  }

  /// Shared memory the kernel asks for: the stages, each consumer's
  /// epilogue slab, and 1 KB to align the base to 1024 bytes, which
  /// 128-byte swizzled TMA and wgmma operands need.
  int64_t sharedBytes() const {
    return stages * stageBytes + 2 * kSlabBytes + 1024;
  }

  void build(ValueRange args);

private:
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divu(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remu(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  /// Parity bit of the `round`-th completion of a ring slot's barrier.
  Value parityOf(Value round) {
    return arith::TruncIOp::create(
        b, loc, b.getI1Type(),
        arith::IndexCastOp::create(b, loc, b.getI64Type(), round));
  }
  /// A view of `shape` x `type` at `byteOffset` past the aligned base.
  Value view(ArrayRef<int64_t> shape, Type type, Value byteOffset) {
    auto viewType = MemRefType::get(shape, type, MemRefLayoutAttrInterface(),
                                    smem);
    return memref::ViewOp::create(b, loc, viewType, dynamicShared,
                                  add(alignedBase, byteOffset), ValueRange{});
  }
  nvgpu::TensorMapDescriptorType tensorMapType(int64_t rows) {
    auto box = MemRefType::get({rows, kSwizzleBytes / elementBytes}, element,
                               MemRefLayoutAttrInterface(), smem);
    return nvgpu::TensorMapDescriptorType::get(
        ctx, box, nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }

  /// The loop over this program's tiles: tile, its first K iteration in the
  /// ring's count, and the tile's first row and column.
  struct TileLoop {
    scf::ForOp loop;
    Value firstIteration, m0, n0;
  };
  TileLoop buildTileLoop();
  void buildProducer(Value descA, Value descB);
  void buildConsumer(Value descA, Value descB, Value consumer);
  Value buildConsumerLoop(Value descA, Value descB, Value consumer,
                          Value firstIteration);
  /// Where this thread's step `step` of slab `slab` of the epilogue lands
  /// in the output: its row and first column.
  std::pair<Value, Value> epiloguePlace(Value consumer, Value m0, Value n0,
                                        int64_t slab, int64_t step);
  /// Epilogue operand values loaded ahead of use, one mapping (old load
  /// result -> value) per slab and step.
  using EarlyLoads = SmallVector<IRMapping>;
  EarlyLoads loadVectorOperands(Value consumer, Value m0, Value n0);
  void buildEpilogue(Value acc, Value consumer, Value m0, Value n0,
                     EarlyLoads &early);

  OpBuilder &b;
  Location loc;
  int64_t stages, blockN, programs, groupRows;
  Type element;
  int64_t k;
  MLIRContext *ctx;
  const MatmulKernel &match;
  IRMapping &oldToNew; // old kernel's body arguments -> new kernel's
  gpu::AddressSpaceAttr smem;
  int64_t elementBytes, aStageBytes, bStageBytes, stageBytes, numM, numN;

  Value tid, dynamicShared, alignedBase, full, empty, kTiles;
};
} // namespace

void WGMMAKernelBuilder::build(ValueRange args) {
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value warpgroup = divu(tid, idx(kWarpgroup));
  kTiles = idx(llvm::divideCeil(k, kBlockK));

  // The descriptors arrive as pointers to their 128 bytes (see
  // tile.tma_descriptor); nvgpu wants them typed.
  Value descA = UnrealizedConversionCastOp::create(
                    b, loc, tensorMapType(kBlockM), args[3])
                    .getResult(0);
  Value descB = UnrealizedConversionCastOp::create(
                    b, loc, tensorMapType(kBlockK), args[4])
                    .getResult(0);

  // Shared memory, aligned at run time: the dynamic base is only 16-byte
  // aligned (DESIGN.md, pitfall 3).
  auto baseType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                  MemRefLayoutAttrInterface(), smem);
  dynamicShared = gpu::DynamicSharedMemoryOp::create(b, loc, baseType);
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, dynamicShared);
  alignedBase = remu(arith::SubIOp::create(b, loc, idx(1024),
                                           remu(address, idx(1024))),
                     idx(1024));

  auto groupType = nvgpu::MBarrierGroupType::get(ctx, smem, stages);
  full = nvgpu::MBarrierCreateOp::create(b, loc, groupType);
  empty = nvgpu::MBarrierCreateOp::create(b, loc, groupType);
  Value isThread0 = cmp(arith::CmpIPredicate::eq, tid, idx(0));
  auto init = scf::IfOp::create(b, loc, isThread0, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(init.thenBlock()->getTerminator());
    for (int64_t s = 0; s < stages; ++s) {
      // "full": the producer's expect_tx arrival plus the bytes landing.
      nvgpu::MBarrierInitOp::create(b, loc, full, idx(1), idx(s), Value());
      // "empty": one arrival per consumer warpgroup.
      nvgpu::MBarrierInitOp::create(b, loc, empty, idx(2), idx(s), Value());
    }
    nvgpu::TmaPrefetchOp::create(b, loc, descA, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, descB, Value());
  }
  gpu::BarrierOp::create(b, loc);

  Value isProducer = cmp(arith::CmpIPredicate::eq, warpgroup, idx(0));
  auto roles = scf::IfOp::create(b, loc, TypeRange{}, isProducer,
                                 /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(roles.thenBlock()->getTerminator());
    NVVM::SetMaxRegisterOp::create(b, loc, kProducerRegisters,
                                   NVVM::SetMaxRegisterAction::decrease);
    buildProducer(descA, descB);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(roles.elseBlock()->getTerminator());
    NVVM::SetMaxRegisterOp::create(b, loc, kConsumerRegisters,
                                   NVVM::SetMaxRegisterAction::increase);
    buildConsumer(descA, descB, arith::SubIOp::create(b, loc, warpgroup,
                                                       idx(1)));
  }
}

WGMMAKernelBuilder::TileLoop WGMMAKernelBuilder::buildTileLoop() {
  // Program p takes tiles p, p + P, ... of the numM x numN tiles. Tile ->
  // (block-row, block-column) in groups of groupRows block-rows, so that
  // the tiles in flight together share B tiles in L2.
  Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), 0);
  auto loop = scf::ForOp::create(b, loc, pid, idx(numM * numN), idx(programs));
  b.setInsertionPointToStart(loop.getBody());
  Value tile = loop.getInductionVar();
  // The ring's count carries over from tile to tile: this is the program's
  // (tile - pid) / P-th tile, kTiles iterations each.
  Value firstIteration = mul(
      divu(arith::SubIOp::create(b, loc, tile, pid), idx(programs)), kTiles);
  auto [blockRow, blockCol] =
      groupedTileOrder(b, loc, tile, numM, numN, groupRows);
  return {loop, firstIteration, mul(blockRow, idx(kBlockM)),
          mul(blockCol, idx(blockN))};
}

void WGMMAKernelBuilder::buildProducer(Value descA, Value descB) {
  Value leader =
      cmp(arith::CmpIPredicate::eq, remu(tid, idx(kWarpgroup)), idx(0));
  auto ifLeader = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifLeader.thenBlock()->getTerminator());
  TileLoop tiles = buildTileLoop();
  auto loop = scf::ForOp::create(b, loc, idx(0), kTiles, idx(1));
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value i = loop.getInductionVar();
  Value it = add(tiles.firstIteration, i);
  Value stage = remu(it, idx(stages));
  // Wait for the consumers to free the stage. A fresh mbarrier counts as
  // having completed the phase before phase 0, so round 0 waits on parity 1
  // and passes at once.
  Value parity = arith::XOrIOp::create(
      b, loc, parityOf(divu(it, idx(stages))),
      arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  Value ticks = idx(10000000);
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, empty, parity, ticks, stage);
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, full, idx(stageBytes), stage,
                                          Value());
  Value k0 = mul(i, idx(kBlockK));
  Value stageBase = mul(stage, idx(stageBytes));
  // TMA coordinates are innermost first.
  Value aDst = view({kBlockM, kBlockK}, element, stageBase);
  nvgpu::TmaAsyncLoadOp::create(b, loc, aDst, full, descA,
                                ValueRange{k0, tiles.m0}, stage, Value(),
                                Value());
  int64_t boxCols = kSwizzleBytes / elementBytes;
  for (int64_t j = 0; j < blockN / boxCols; ++j) {
    Value offset =
        add(stageBase, idx(aStageBytes + j * kBlockK * kSwizzleBytes));
    Value bDst = view({kBlockK, boxCols}, element, offset);
    nvgpu::TmaAsyncLoadOp::create(
        b, loc, bDst, full, descB,
        ValueRange{add(tiles.n0, idx(j * boxCols)), k0}, stage, Value(),
        Value());
  }
}

void WGMMAKernelBuilder::buildConsumer(Value descA, Value descB,
                                       Value consumer) {
  OpBuilder::InsertionGuard guard(b);
  TileLoop tiles = buildTileLoop();
  Value acc = buildConsumerLoop(descA, descB, consumer, tiles.firstIteration);
  EarlyLoads early = loadVectorOperands(consumer, tiles.m0, tiles.n0);
  // The last wgmma group is done once this returns; then its stage goes
  // back to the producer, which may already be filling the ring with the
  // next tile while this warpgroup runs the epilogue.
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
  Value leader =
      cmp(arith::CmpIPredicate::eq, remu(tid, idx(kWarpgroup)), idx(0));
  auto release = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(release.thenBlock()->getTerminator());
    Value last = add(tiles.firstIteration,
                     arith::SubIOp::create(b, loc, kTiles, idx(1)));
    nvgpu::MBarrierArriveOp::create(b, loc, empty, remu(last, idx(stages)));
  }
  buildEpilogue(acc, consumer, tiles.m0, tiles.n0, early);
}

Value WGMMAKernelBuilder::buildConsumerLoop(Value descA, Value descB,
                                            Value consumer,
                                            Value firstIteration) {
  auto accType = nvgpu::WarpgroupAccumulatorType::get(
      ctx, VectorType::get({kConsumerRows, blockN}, b.getF32Type()));
  Value acc0 = nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accType);
  Value leader =
      cmp(arith::CmpIPredicate::eq, remu(tid, idx(kWarpgroup)), idx(0));
  auto loop = scf::ForOp::create(b, loc, idx(0), kTiles, idx(1),
                                 ValueRange{acc0});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value i = loop.getInductionVar();
  Value it = add(firstIteration, i);
  Value stage = remu(it, idx(stages));
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, full, parityOf(divu(it, idx(stages))), idx(10000000), stage);
  Value stageBase = mul(stage, idx(stageBytes));
  Value aOffset = add(stageBase, mul(consumer, idx(kConsumerRows * kBlockK *
                                                   elementBytes)));
  auto aTile = MemRefType::get({kConsumerRows, kBlockK}, element,
                               MemRefLayoutAttrInterface(), smem);
  auto bTile = MemRefType::get({kBlockK, blockN}, element,
                               MemRefLayoutAttrInterface(), smem);
  Value aView = view(aTile.getShape(), element, aOffset);
  Value bView = view(bTile.getShape(), element, add(stageBase, idx(aStageBytes)));
  Value dA = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, aTile), aView,
      descA);
  Value dB = nvgpu::WarpgroupGenerateDescriptorOp::create(
      b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, bTile), bView,
      descB);
  // waitGroup = 1: returns once the previous iteration's wgmma group has
  // completed, so its stage can be released while this one runs.
  Value next = nvgpu::WarpgroupMmaOp::create(
      b, loc, accType, dA, dB, /*waitGroup=*/uint64_t(1),
      /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(),
      loop.getRegionIterArgs()[0]);
  Value released = cmp(arith::CmpIPredicate::ugt, i, idx(0));
  auto release = scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, released, leader),
      /*withElse=*/false);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPoint(release.thenBlock()->getTerminator());
    Value previous =
        remu(add(it, idx(stages - 1)), idx(stages)); // (it - 1) mod stages
    nvgpu::MBarrierArriveOp::create(b, loc, empty, previous);
  }
  scf::YieldOp::create(b, loc, next);
  return loop.getResult(0);
}

std::pair<Value, Value>
WGMMAKernelBuilder::epiloguePlace(Value consumer, Value m0, Value n0,
                                  int64_t slab, int64_t step) {
  Value inGroup = remu(tid, idx(kWarpgroup));
  Value readRow = divu(inGroup, idx(kThreadsPerSlabRow));
  Value readCol = mul(remu(inGroup, idx(kThreadsPerSlabRow)),
                      idx(kEpilogueVector));
  Value row = add(add(m0, mul(consumer, idx(kConsumerRows))),
                  add(readRow, idx(step * kRowsPerStep)));
  return {row, add(n0, add(readCol, idx(slab * kSlabColumns)))};
}

/// Loaded inside the epilogue's steps, a bias was loaded again in every
/// step, behind the slab's barriers, and each step waited for it. 1-D
/// operands are few per thread (8 4-wide loads for a 256-column tile), so
/// they are all issued here, while the last wgmma group still runs;
/// clamped, because the mask comes later.
WGMMAKernelBuilder::EarlyLoads
WGMMAKernelBuilder::loadVectorOperands(Value consumer, Value m0, Value n0) {
  int64_t slabs = blockN / kSlabColumns;
  EarlyLoads early(slabs * kStepsPerSlab);
  for (Operation *op : match.epilogue) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load || load.getIndices().size() != 1)
      continue;
    bool perColumn = load.getIndices()[0] == match.n0;
    for (int64_t i = 0; i < slabs * kStepsPerSlab; ++i) {
      int64_t slab = i / kStepsPerSlab, step = i % kStepsPerSlab;
      // A column vector's value repeats over a slab's steps, a row
      // vector's over the slabs: each is loaded once.
      int64_t first = perColumn ? slab * kStepsPerSlab : step;
      Value value = early[first].lookupOrNull(load.getResult());
      if (!value) {
        auto [row, col] = epiloguePlace(consumer, m0, n0, slab, step);
        value = buildEpilogueLoad(b, loc, match, load, oldToNew,
                                  kEpilogueVector, row, col, /*clamp=*/true);
      }
      early[i].map(load.getResult(), value);
    }
  }
  return early;
}

void WGMMAKernelBuilder::buildEpilogue(Value acc, Value consumer, Value m0,
                                       Value n0, EarlyLoads &early) {
  // wgmma's m64nNk16 f32 fragment (PTX ISA, "wgmma D matrix fragments"):
  // warp w of the warpgroup owns rows 16w .. 16w + 15; lane l holds, for
  // each 8-column group j, the pair of columns 8j + 2(l % 4) + {0, 1} at
  // row 16w + l / 4 (registers 4j, 4j + 1) and at that row + 8 (registers
  // 4j + 2, 4j + 3). Stored from there, a warp writes 4-byte pieces of 8
  // rows (measured 5% slower at 4096^3, bench/RESULTS.md), so the
  // accumulator goes through a slab of shared memory, 32 columns at a time,
  // and leaves as rows of 4 consecutive elements per thread. The slabs are
  // the consumers' own, apart from the ring, which the producer is already
  // filling with the next tile.
  //
  // nvgpu has no op that reads single fragment registers, and
  // nvgpu.warpgroup.mma.store (MLIR 22) writes the whole accumulator and
  // computes rows from the block-wide warp index. So the accumulator is
  // viewed as the LLVM struct convert-nvgpu-to-nvvm lowers it to, one
  // inner struct of blockN / 2 f32 per thread; reconcile-unrealized-casts
  // removes the cast once both sides are LLVM types.
  Type f32 = b.getF32Type();
  int64_t perThread = kConsumerRows * blockN / kWarpgroup;
  SmallVector<Type> registers(perThread, f32);
  auto inner = LLVM::LLVMStructType::getLiteral(ctx, registers);
  auto outer = LLVM::LLVMStructType::getLiteral(ctx, {inner});
  Value fragments =
      UnrealizedConversionCastOp::create(b, loc, outer, acc).getResult(0);
  fragments = LLVM::ExtractValueOp::create(b, loc, fragments, 0);

  Value slabView = view({kConsumerRows, kSlabStride}, f32,
                    add(idx(stages * stageBytes), mul(consumer, idx(kSlabBytes))));
  // Only this warpgroup uses its slab: a named barrier per consumer
  // warpgroup (ids 2 and 3), 128 threads.
  auto syncWarpgroup = [&] {
    Value barrierId = arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                                 add(consumer, idx(2)));
    NVVM::BarrierOp::create(
        b, loc, Type(), barrierId,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), kWarpgroup),
        NVVM::BarrierReductionAttr(), Value());
  };
  Value lane = remu(tid, idx(32));
  Value inGroup = remu(tid, idx(kWarpgroup));
  Value fragmentRow =
      add(mul(divu(inGroup, idx(32)), idx(16)), divu(lane, idx(4)));
  Value fragmentCol = mul(remu(lane, idx(4)), idx(2));
  auto pairType = VectorType::get({2}, f32);
  Value readRow = divu(inGroup, idx(kThreadsPerSlabRow));
  Value readCol =
      mul(remu(inGroup, idx(kThreadsPerSlabRow)), idx(kEpilogueVector));

  for (int64_t slab = 0; slab < blockN / kSlabColumns; ++slab) {
    int64_t first = slab * kSlabColumns;
    // 2-D operands (a residual): this slab's loads go out before its
    // barriers, so their latency overlaps them.
    for (Operation *op : match.epilogue) {
      auto load = dyn_cast<LoadOp>(op);
      if (!load || load.getIndices().size() != 2)
        continue;
      for (int64_t step = 0; step < kStepsPerSlab; ++step) {
        auto [row, col] = epiloguePlace(consumer, m0, n0, slab, step);
        early[slab * kStepsPerSlab + step].map(
            load.getResult(),
            buildEpilogueLoad(b, loc, match, load, oldToNew, kEpilogueVector,
                              row, col, /*clamp=*/true));
      }
    }
    if (slab > 0)
      syncWarpgroup(); // everyone has read the previous slab
    for (int64_t j = first / 8; j < (first + kSlabColumns) / 8; ++j)
      for (int64_t half = 0; half < 2; ++half) {
        int64_t r = 4 * j + 2 * half;
        Value pair = vector::FromElementsOp::create(
            b, loc, pairType,
            ValueRange{LLVM::ExtractValueOp::create(b, loc, fragments, r),
                       LLVM::ExtractValueOp::create(b, loc, fragments, r + 1)});
        vector::StoreOp::create(
            b, loc, pair, slabView,
            ValueRange{add(fragmentRow, idx(8 * half)),
                       add(fragmentCol, idx(8 * j - first))},
            /*nontemporal=*/false, llvm::MaybeAlign(8));
      }
    syncWarpgroup(); // the slab is written
    for (int64_t step = 0; step < kStepsPerSlab; ++step) {
      auto [globalRow, globalCol] = epiloguePlace(consumer, m0, n0, slab, step);
      Value row = add(readRow, idx(step * kRowsPerStep));
      // The output's shape, not A's and B's: B may be padded wider.
      Value colOk =
          cmp(arith::CmpIPredicate::ult, globalCol, idx(match.outCols));
      Value inside = arith::AndIOp::create(
          b, loc, colOk,
          cmp(arith::CmpIPredicate::ult, globalRow, idx(match.outRows)));
      auto ifInside = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifInside.thenBlock()->getTerminator());
      // The output's rows are whole 16-byte runs (at least 4 elements), so
      // a 4-wide group that starts inside the row ends inside it.
      Value values = vector::LoadOp::create(
          b, loc, VectorType::get({kEpilogueVector}, f32), slabView,
          ValueRange{row, readCol}, /*nontemporal=*/false,
          llvm::MaybeAlign(16));
      buildMatmulEpilogue(b, loc, match, oldToNew, values, globalRow,
                          globalCol, &early[slab * kStepsPerSlab + step]);
    }
  }
  // The slab is free for the next tile's epilogue.
  syncWarpgroup();
}

namespace {
struct ConvertTileMatmulToWGMMAPass
    : public tile::impl::ConvertTileMatmulToWGMMAPassBase<
          ConvertTileMatmulToWGMMAPass> {
  using Base::Base;

  void runOnOperation() override {
    if (stages < 2 || stages > 8)
      return emitError(getOperation().getLoc())
                 << "stages must be in [2, 8] but is "
                 << static_cast<int64_t>(stages),
             signalPassFailure();
    if (groupRows < 1)
      return emitError(getOperation().getLoc())
                 << "group-rows must be at least 1 but is "
                 << static_cast<int64_t>(groupRows),
             signalPassFailure();
    if (persistentPrograms < 0)
      return emitError(getOperation().getLoc())
                 << "persistent-programs must be >= 0 but is "
                 << static_cast<int64_t>(persistentPrograms),
             signalPassFailure();
    if (blockN != 64 && blockN != 128 && blockN != 256)
      return emitError(getOperation().getLoc())
                 << "block-n must be 64, 128 or 256 but is "
                 << static_cast<int64_t>(blockN),
             signalPassFailure();
    for (MatmulKernel &match : findMatmulKernels(getOperation()))
      if (rowsAllowAsyncCopies(match, "TMA"))
        rewrite(match);
  }

  void rewrite(MatmulKernel &match) {
    KernelOp kernel = match.kernel;
    Value a = kernel.getArgs()[match.lhsArg];
    Value bMat = kernel.getArgs()[match.rhsArg];
    auto aType = cast<MemRefType>(a.getType());
    auto bType = cast<MemRefType>(bMat.getType());
    int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
            n = bType.getDimSize(1);
    Location loc = kernel.getLoc();
    OpBuilder host(kernel);
    auto ptr = LLVM::LLVMPointerType::get(host.getContext());
    Type element = aType.getElementType();
    int64_t boxCols = kSwizzleBytes / (element.getIntOrFloatBitWidth() / 8);
    Value descA = TmaDescriptorOp::create(
        host, loc, ptr, a, host.getDenseI64ArrayAttr({kBlockM, boxCols}),
        kSwizzleBytes);
    Value descB = TmaDescriptorOp::create(
        host, loc, ptr, bMat, host.getDenseI64ArrayAttr({kBlockK, boxCols}),
        kSwizzleBytes);
    int64_t tiles = llvm::divideCeil(m, kBlockM) * llvm::divideCeil(n, blockN);
    int64_t programs = persistentPrograms > 0
                           ? std::min<int64_t>(tiles, persistentPrograms)
                           : tiles;
    // The descriptors follow A, B and the output.
    IRMapping oldToNew;
    KernelOp replacement =
        createReplacementKernel(host, match, ValueRange{descA, descB},
                                programs, kThreads, oldToNew);
    Block &newBody = replacement.getBody().front();
    OpBuilder body = OpBuilder::atBlockTerminator(&newBody);
    WGMMAKernelBuilder builder(body, loc, stages, blockN, programs, groupRows,
                               element, m, n, k, match, oldToNew);
    if (builder.sharedBytes() > kMaxSharedBytes) {
      replacement.erase();
      kernel.emitError() << "stages=" << static_cast<int64_t>(stages)
                         << " needs " << builder.sharedBytes()
                         << " bytes of shared memory per block; sm_90 has "
                         << kMaxSharedBytes;
      return signalPassFailure();
    }
    builder.build(newBody.getArguments());
    replacement.setDynamicSharedMemoryAttr(
        host.getI64IntegerAttr(builder.sharedBytes()));
    kernel.erase();
  }
};
} // namespace
