//===- MatmulToMMASync.cpp - Ampere matmul kernels -------------*- C++ -*-===//
//
// Rewrites tile-level matmul kernels into the sm_80 tensor-core structure:
// a ring of shared-memory stages filled with 16-byte cp.async (zero-filled
// past the edges), ldmatrix fragments, m16n8k16 mma.sync with f32
// accumulators in registers, and the fused epilogue evaluated straight on
// the accumulator fragments. Every chip from sm_80 on runs it (the H200
// too, where it is the path for targets without the `a` features). The pass
// description in Passes.td gives the structure; the comments below say why
// each piece is the way it is.
//
// Fragment layouts (PTX ISA, "Matrix Fragments for mma.m16n8k16" and
// "ldmatrix"), with g = lane / 4 and t = lane % 4; each register holds 2
// elements, the lower column (or k) in the low half:
//   A (16 x 16, M x K):  a0 = (g, 2t..)     a1 = (g + 8, 2t..)
//                        a2 = (g, 2t + 8..) a3 = (g + 8, 2t + 8..)
//   B (16 x 8, K x N):   b0 = (k 2t.., n g) b1 = (k 2t + 8.., n g)
//   C (16 x 8, f32):     c0, c1 = (g, 2t..) c2, c3 = (g + 8, 2t..)
//   ldmatrix.x4: lane l gives the address of row l % 8 of matrix l / 8 and
//   receives, in register j, row l / 4, columns 2 (l % 4).. of matrix j
//   (with .trans, of the transposed matrix: stored rows 2 (l % 4).. of
//   column l / 4).
// So with lane l pointing at (row l % 16, column 8 (l / 16)) of a 16 x 16
// block, ldmatrix.x4 returns exactly A's a0..a3; and ldmatrix.x4.trans on a
// 16 (k) x 16 (n) block of B returns b0, b1 of the left n8 tile in
// registers 0, 1 and of the right one in registers 2, 3.
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

#define DEBUG_TYPE "convert-tile-matmul-to-mma-sync"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_CONVERTTILEMATMULTOMMASYNCPASS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Shape of the Ampere path: CUTLASS's block tiles of 128 x `blockN` x 32
/// with warps of 64 x 64, 2 along M and blockN / 64 along N (4 warps for
/// 128, 8 for 256). A warp's 64 x 64 f32 accumulators are 128 registers per
/// thread; one K step of 32 is 2 x 4 x 8 = 64 mma.sync per warp for 8
/// ldmatrix.x4 of A and 8 of B. At 128 x 128 a stage is 18.5 KB and two
/// blocks share an SM (215 registers a thread); 128 x 256 reads 25% fewer
/// bytes per flop from L2 but makes half as many programs, one per SM.
constexpr int64_t kBlockM = 128;
constexpr int64_t kBlockK = 32;
constexpr int64_t kWarpSize = 32;
constexpr int64_t kWarpsM = 2;
constexpr int64_t kWarpM = 64;
constexpr int64_t kWarpN = 64;
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;
constexpr int64_t kTilesM = kWarpM / kMmaM; // 4 m16 tiles per warp
constexpr int64_t kTilesN = kWarpN / kMmaN; // 8 n8 tiles per warp
/// Elements per 16-byte cp.async, and the padding added to every shared
/// row: 16 bytes, so that the 8 rows one ldmatrix matrix reads (or the rows
/// a warp's copies write) start in 8 different groups of 4 banks.
constexpr int64_t kChunk = 8;
constexpr int64_t kPad = 8;
/// A's shared rows are 40 elements (80 bytes), B's blockN + 8 (272 or 528
/// bytes): both an odd number of 16-byte units.
constexpr int64_t kARowElements = kBlockK + kPad;
constexpr int64_t kGroupRows = 8; // block-rows per L2 group

/// Threads of a program: 32 per warp of 64 x 64.
constexpr int64_t threadsFor(int64_t blockN) {
  return kWarpsM * (blockN / kWarpN) * kWarpSize;
}

} // namespace

namespace {
/// Builds the new kernel body; one instance per kernel.
class MMASyncKernelBuilder {
public:
  MMASyncKernelBuilder(OpBuilder &b, Location loc, int64_t stages,
                       int64_t blockN, Type element, int64_t m, int64_t n,
                       int64_t k, const MatmulKernel &match,
                       const IRMapping &oldToNew)
      : b(b), loc(loc), stages(stages), blockN(blockN), element(element), m(m),
        n(n), k(k), ctx(b.getContext()), match(match), oldToNew(oldToNew) {
    smem = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
    int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
    aStageBytes = kBlockM * kARowElements * elementBytes;
    warpsN = blockN / kWarpN;
    bRowElements = blockN + kPad;
    bStageBytes = kBlockK * bRowElements * elementBytes;
  }

  /// Shared memory the kernel asks for: the A stages, then the B stages.
  /// Every row starts 16-byte aligned, as cp.async and ldmatrix need, and
  /// so does the dynamic base.
  int64_t sharedBytes() const { return stages * (aStageBytes + bStageBytes); }

  int64_t threads() const { return threadsFor(blockN); }

  void build(Value a, Value bMat);

private:
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value divu(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value remu(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value minu(Value x, int64_t y) {
    return arith::MinUIOp::create(b, loc, x, idx(y));
  }
  Value lessThan(Value x, int64_t y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, idx(y));
  }
  Value both(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }

  Value issueCopies(Value a, Value bMat, Value stage, Value k0);
  Value copyChunk(Value src, Value row, Value col, int64_t rows, int64_t cols,
                  Value valid, Value dst, Value stage, Value dstRow,
                  Value dstCol);
  Value mmaSync(Value aFragment, Value bFragments, int64_t half, Value acc);
  void buildEpilogue(ValueRange acc);

  OpBuilder &b;
  Location loc;
  int64_t stages, blockN;
  Type element;
  int64_t m, n, k;
  MLIRContext *ctx;
  const MatmulKernel &match;
  const IRMapping &oldToNew; // old kernel's body arguments -> new kernel's
  gpu::AddressSpaceAttr smem;
  int64_t warpsN, bRowElements, aStageBytes, bStageBytes;

  Value tid, lane, warpRow, warpCol, m0, n0, aRing, bRing;
};
} // namespace

void MMASyncKernelBuilder::build(Value a, Value bMat) {
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  lane = remu(tid, idx(kWarpSize));
  Value warp = divu(tid, idx(kWarpSize));
  warpRow = divu(warp, idx(warpsN));
  warpCol = remu(warp, idx(warpsN));

  // Program -> (block-row, block-column), in groups of kGroupRows
  // block-rows so that programs running together share B tiles in L2.
  int64_t numM = llvm::divideCeil(m, kBlockM);
  int64_t numN = llvm::divideCeil(n, blockN);
  int64_t kTiles = llvm::divideCeil(k, kBlockK);
  Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), 0);
  auto [blockRow, blockCol] =
      groupedTileOrder(b, loc, pid, numM, numN, kGroupRows);
  m0 = mul(blockRow, idx(kBlockM));
  n0 = mul(blockCol, idx(blockN));

  // The ring: all A stages, then all B stages, carved out of the dynamic
  // shared memory with memref.view (DESIGN.md, pitfall 2).
  auto baseType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                  MemRefLayoutAttrInterface(), smem);
  Value dynamicShared = gpu::DynamicSharedMemoryOp::create(b, loc, baseType);
  auto aRingType = MemRefType::get({stages, kBlockM, kARowElements}, element,
                                   MemRefLayoutAttrInterface(), smem);
  auto bRingType = MemRefType::get({stages, kBlockK, bRowElements}, element,
                                   MemRefLayoutAttrInterface(), smem);
  aRing = memref::ViewOp::create(b, loc, aRingType, dynamicShared, idx(0),
                                 ValueRange{});
  bRing = memref::ViewOp::create(b, loc, bRingType, dynamicShared,
                                 idx(stages * aStageBytes), ValueRange{});

  // Prologue: the first stages - 1 K tiles, one async group each. Tiles
  // past K are copied as zeros (their source size is 0): every step then
  // commits one group, and the wait count below stays exact.
  Value token;
  for (int64_t s = 0; s < stages - 1; ++s)
    token = issueCopies(a, bMat, idx(s), idx(s * kBlockK));

  // The K loop. Step i waits for its tile (at most stages - 2 younger
  // groups may still fly), then a barrier makes every thread's copies
  // visible and tells that every warp is done with step i - 1's stage, which
  // the copies of tile i + stages - 1 refill now, while step i multiplies.
  auto accType = VectorType::get({2, 2}, b.getF32Type());
  Value zero = arith::ConstantOp::create(
      b, loc, accType, DenseElementsAttr::get(accType, b.getF32FloatAttr(0)));
  SmallVector<Value> inits(kTilesM * kTilesN, zero);
  inits.push_back(token);
  auto loop = scf::ForOp::create(b, loc, idx(0), idx(kTiles), idx(1), inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    ValueRange carried = loop.getRegionIterArgs();
    nvgpu::DeviceAsyncWaitOp::create(b, loc, carried.back(),
                                     b.getI32IntegerAttr(stages - 2));
    gpu::BarrierOp::create(b, loc);
    Value next = add(i, idx(stages - 1));
    Value nextToken =
        issueCopies(a, bMat, remu(next, idx(stages)), mul(next, idx(kBlockK)));

    Value stage = remu(i, idx(stages));
    Value laneRow = remu(lane, idx(16));
    Value laneCol = mul(divu(lane, idx(16)), idx(8));
    Value aRow = add(mul(warpRow, idx(kWarpM)), laneRow);
    Value bCol = add(mul(warpCol, idx(kWarpN)), laneCol);
    auto fragmentType = VectorType::get({4, 2}, element);
    SmallVector<Value> acc(carried.drop_back());
    for (int64_t kk = 0; kk < kBlockK / kMmaK; ++kk) {
      SmallVector<Value> aFragments, bFragments;
      Value aCol = add(laneCol, idx(kk * kMmaK));
      for (int64_t mi = 0; mi < kTilesM; ++mi)
        aFragments.push_back(nvgpu::LdMatrixOp::create(
            b, loc, fragmentType, aRing,
            ValueRange{stage, add(aRow, idx(mi * kMmaM)), aCol},
            /*transpose=*/false, /*numTiles=*/4));
      Value bRow = add(laneRow, idx(kk * kMmaK));
      for (int64_t nj = 0; nj < kTilesN / 2; ++nj)
        bFragments.push_back(nvgpu::LdMatrixOp::create(
            b, loc, fragmentType, bRing,
            ValueRange{stage, bRow, add(bCol, idx(nj * 2 * kMmaN))},
            /*transpose=*/true, /*numTiles=*/4));
      for (int64_t mi = 0; mi < kTilesM; ++mi)
        for (int64_t ni = 0; ni < kTilesN; ++ni) {
          Value &c = acc[mi * kTilesN + ni];
          c = mmaSync(aFragments[mi], bFragments[ni / 2], ni % 2, c);
        }
    }
    SmallVector<Value> yielded(acc);
    yielded.push_back(nextToken);
    scf::YieldOp::create(b, loc, yielded);
  }
  // The copies issued past the last tile (zeros) must land before the
  // program ends: its shared memory goes to the next program.
  nvgpu::DeviceAsyncWaitOp::create(b, loc, loop.getResults().back(),
                                   b.getI32IntegerAttr(0));
  buildEpilogue(loop.getResults().drop_back());
}

/// Issues this thread's 16-byte copies of K tile [k0, k0 + 32) of A (rows
/// m0..) and B (columns n0..) into ring stage `stage` and commits them as
/// one group. Per stage, A is 128 rows of 4 chunks and B 32 rows of
/// blockN / 8 chunks (4 of B per thread, 4 or 2 of A), consecutive threads
/// on consecutive chunks of a row so that a warp reads whole rows.
Value MMASyncKernelBuilder::issueCopies(Value a, Value bMat, Value stage,
                                        Value k0) {
  SmallVector<Value> tokens;
  // A `tileRows` x `tileCols` tile of `src` (a `rows` x `cols` matrix) at
  // (rowOrigin, colOrigin) into `ring`, in passes of whole rows.
  auto copyTile = [&](Value src, Value ring, int64_t tileRows,
                      int64_t tileCols, Value rowOrigin, Value colOrigin,
                      int64_t rows, int64_t cols) {
    int64_t chunksPerRow = tileCols / kChunk;
    int64_t rowsPerPass = threads() / chunksPerRow;
    Value tileRow = divu(tid, idx(chunksPerRow));
    Value tileCol = mul(remu(tid, idx(chunksPerRow)), idx(kChunk));
    Value globalCol = add(colOrigin, tileCol);
    Value colOk = lessThan(globalCol, cols);
    for (int64_t pass = 0; pass < tileRows / rowsPerPass; ++pass) {
      Value row = add(tileRow, idx(pass * rowsPerPass));
      Value globalRow = add(rowOrigin, row);
      tokens.push_back(copyChunk(src, globalRow, globalCol, rows, cols,
                                 both(lessThan(globalRow, rows), colOk), ring,
                                 stage, row, tileCol));
    }
  };
  copyTile(a, aRing, kBlockM, kBlockK, m0, k0, m, k);
  copyTile(bMat, bRing, kBlockK, blockN, k0, n0, k, n);
  return nvgpu::DeviceAsyncCreateGroupOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), tokens);
}

/// One 16-byte cp.async from `src`[row, col] (a `rows` x `cols` matrix) to
/// `dst`[stage, dstRow, dstCol]. Row lengths are multiples of 8 elements
/// (checked before), so a chunk is wholly inside or wholly outside: outside,
/// it reads nothing and writes zeros, from an address clamped into the
/// matrix so that it stays valid.
Value MMASyncKernelBuilder::copyChunk(Value src, Value row, Value col,
                                      int64_t rows, int64_t cols, Value valid,
                                      Value dst, Value stage, Value dstRow,
                                      Value dstCol) {
  Value srcElements =
      arith::SelectOp::create(b, loc, valid, idx(kChunk), idx(0));
  return nvgpu::DeviceAsyncCopyOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(ctx), dst,
      ValueRange{stage, dstRow, dstCol}, src,
      ValueRange{minu(row, rows - 1), minu(col, cols - kChunk)},
      b.getIndexAttr(kChunk), srcElements, /*bypassL1=*/b.getUnitAttr());
}

/// acc + A x B for one m16n8k16 tile: `aFragment` is an ldmatrix.x4 of A,
/// `bFragments` an ldmatrix.x4.trans of two n8 tiles of B, of which `half`
/// picks one (registers 2 half and 2 half + 1).
Value MMASyncKernelBuilder::mmaSync(Value aFragment, Value bFragments,
                                    int64_t half, Value acc) {
  if (element.isF16()) {
    // Rows 2 half and 2 half + 1 (a shuffle of the leading dimension, which
    // lowers to LLVM directly; a strided slice would not).
    Value bFragment =
        vector::ShuffleOp::create(b, loc, bFragments, bFragments,
                                  ArrayRef<int64_t>{2 * half, 2 * half + 1});
    return nvgpu::MmaSyncOp::create(b, loc, aFragment, bFragment, acc,
                                    ArrayRef<int64_t>{kMmaM, kMmaN, kMmaK});
  }
  // bf16: MLIR 22's nvgpu-to-nvvm cannot type a bf16 nvgpu.mma.sync
  // ("failed to deduce operand PTX types"), so this one is NVVM's op, whose
  // bf16 operands are the fragments' 32-bit registers.
  Type i32 = b.getI32Type();
  auto asI32 = [&](Value fragments, int64_t r) -> Value {
    Value pair =
        vector::ExtractOp::create(b, loc, fragments, ArrayRef<int64_t>{r});
    Value word =
        vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), pair);
    return vector::ExtractOp::create(b, loc, word, ArrayRef<int64_t>{0});
  };
  SmallVector<Value> aRegs, bRegs, cValues;
  for (int64_t r = 0; r < 4; ++r)
    aRegs.push_back(asI32(aFragment, r));
  bRegs.push_back(asI32(bFragments, 2 * half));
  bRegs.push_back(asI32(bFragments, 2 * half + 1));
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 2; ++c)
      cValues.push_back(
          vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{r, c}));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, f32));
  Value d = NVVM::MmaOp::create(
      b, loc, resultType, aRegs, bRegs, cValues,
      ArrayRef<int64_t>{kMmaM, kMmaN, kMmaK}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  Value result = arith::ConstantOp::create(
      b, loc, acc.getType(),
      DenseElementsAttr::get(cast<ShapedType>(acc.getType()),
                             b.getF32FloatAttr(0)));
  for (int64_t r = 0; r < 2; ++r) {
    Value row = vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, f32),
        ValueRange{LLVM::ExtractValueOp::create(b, loc, d, 2 * r),
                   LLVM::ExtractValueOp::create(b, loc, d, 2 * r + 1)});
    result =
        vector::InsertOp::create(b, loc, row, result, ArrayRef<int64_t>{r});
  }
  return result;
}

/// The epilogue, straight from the fragments: row r of accumulator tile
/// (mi, ni) holds this thread's 2 values of output row
/// m0 + warp row + 16 mi + g + 8 r, columns n0 + warp column + 8 ni + 2t and
/// the next. The output's rows are whole 16-byte runs, so a pair that
/// starts inside a row ends inside it. Masked against the output's shape,
/// not B's, which may be padded wider.
void MMASyncKernelBuilder::buildEpilogue(ValueRange acc) {
  Value g = divu(lane, idx(4));
  Value t = remu(lane, idx(4));
  Value rowBase = add(add(m0, mul(warpRow, idx(kWarpM))), g);
  Value colBase = add(add(n0, mul(warpCol, idx(kWarpN))), mul(t, idx(2)));
  for (int64_t mi = 0; mi < kTilesM; ++mi)
    for (int64_t r = 0; r < 2; ++r) {
      Value row = add(rowBase, idx(mi * kMmaM + 8 * r));
      Value rowOk = lessThan(row, match.outRows);
      for (int64_t ni = 0; ni < kTilesN; ++ni) {
        Value col = add(colBase, idx(ni * kMmaN));
        auto inside = scf::IfOp::create(
            b, loc, both(rowOk, lessThan(col, match.outCols)),
            /*withElse=*/false);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(inside.thenBlock()->getTerminator());
        Value values = vector::ExtractOp::create(b, loc, acc[mi * kTilesN + ni],
                                                 ArrayRef<int64_t>{r});
        buildMatmulEpilogue(b, loc, match, oldToNew, values, row, col);
      }
    }
}

namespace {
struct ConvertTileMatmulToMMASyncPass
    : public tile::impl::ConvertTileMatmulToMMASyncPassBase<
          ConvertTileMatmulToMMASyncPass> {
  using Base::Base;

  void runOnOperation() override {
    if (stages < 2 || stages > 8)
      return emitError(getOperation().getLoc())
                 << "stages must be in [2, 8] but is "
                 << static_cast<int64_t>(stages),
             signalPassFailure();
    if (blockN != 0 && blockN != 128 && blockN != 256)
      return emitError(getOperation().getLoc())
                 << "block-n must be 0 (auto), 128 or 256 but is "
                 << static_cast<int64_t>(blockN),
             signalPassFailure();
    for (MatmulKernel &match : findMatmulKernels(getOperation()))
      if (rowsAllowAsyncCopies(match, "16-byte cp.async"))
        rewrite(match);
  }

  void rewrite(MatmulKernel &match) {
    KernelOp kernel = match.kernel;
    Value a = kernel.getArgs()[match.lhsArg];
    Value bMat = kernel.getArgs()[match.rhsArg];
    auto aType = cast<MemRefType>(a.getType());
    auto bType = cast<MemRefType>(bMat.getType());
    if (aType.getElementType() != bType.getElementType()) {
      emitRemark(kernel.getLoc())
          << "matmul stays on the SIMT path: A and B have "
             "different element types";
      return;
    }
    int64_t m = aType.getDimSize(0), k = aType.getDimSize(1),
            n = bType.getDimSize(1);
    // Auto: the wide tile where it still makes 256 programs or more. On the
    // H200 (132 SMs) it gained 2% at 4096^3 (512 programs) and lost 3% at
    // 2048^3 (128 programs, one block per SM), against 128 x 128.
    int64_t blockN = this->blockN;
    if (blockN == 0)
      blockN = llvm::divideCeil(m, kBlockM) * llvm::divideCeil(n, 256) >= 256
                   ? 256
                   : 128;
    Location loc = kernel.getLoc();
    OpBuilder host(kernel);
    int64_t programs =
        llvm::divideCeil(m, kBlockM) * llvm::divideCeil(n, blockN);
    IRMapping oldToNew;
    KernelOp replacement = createReplacementKernel(
        host, match, /*extra=*/{}, programs, threadsFor(blockN), oldToNew);
    Block &newBody = replacement.getBody().front();
    OpBuilder body = OpBuilder::atBlockTerminator(&newBody);
    MMASyncKernelBuilder builder(body, loc, stages, blockN,
                                 aType.getElementType(), m, n, k, match,
                                 oldToNew);
    builder.build(newBody.getArgument(0), newBody.getArgument(1));
    replacement.setDynamicSharedMemoryAttr(
        host.getI64IntegerAttr(builder.sharedBytes()));
    kernel.erase();
  }
};
} // namespace
