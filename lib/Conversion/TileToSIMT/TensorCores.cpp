//===- TensorCores.cpp - wgmma, mma.sync and ldmatrix -----------*- C++ -*-===//
//
// The tensor-core instructions, from the layouts that say which thread
// holds which element (TileLayouts.h):
// - tile.wgmma: each warpgroup of the #tile.mma<wgmma> accumulator issues,
//   for each of its instructions (64 rows by instr N columns), K / 16
//   wgmma.mma_async on matrix descriptors of the operands in shared memory
//   (A also from registers, #tile.dot_operand: inline PTX), then one commit; tile.wgmma_wait is wgmma.wait_group. A warpgroup's
//   instruction holds n / 2 f32 per thread, in the order of the layout's
//   slots, which is the order of wgmma's D fragment registers.
// - tile.convert_layout from shared memory to a #tile.dot_operand:
//   ldmatrix.x4 (B: .trans, two n8 blocks at once).
// - tile.dot on #tile.dot_operand operands: m16n8k16 mma.sync per block.
//
// Descriptors (PTX ISA, "Matrix Descriptor Format"): start address,
// leading-dimension byte offset and stride-dimension byte offset, each
// >> 4, and the swizzle mode (1: 128 bytes, 2: 64, 3: 32). With a swizzle
// of S bytes both operands have 8-row groups 8 * S bytes apart (SBO); A is
// K-major (a K step of 16 moves the start 32 bytes inside a row), B is
// N-major ("transposed", its S-byte column blocks rows * S bytes apart:
// LBO; a K step moves 16 rows).
//
//===----------------------------------------------------------------------===//

#include "SIMTLowering.h"

#include "tile/Conversion/InlinePTX.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::simt;

namespace {

/// The shared-window address of a tile in shared memory (its flat view).
Value addressOf(OpBuilder &b, Location loc, Value flat) {
  return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, flat);
}

/// `value` as a sum of a part that varies and a constant: the constant
/// addends of its tree of index adds (their sum, where it is a multiple of
/// 16) are peeled off, the other addends added up again in their order,
/// so that values that differ in their constants only share the rest (one
/// op for CSE). Indices here are byte offsets, never negative, so the rest
/// is a non-negative multiple of 16 wherever `value` is one.
std::pair<Value, int64_t> peelConstant(OpBuilder &b, Location loc,
                                       Value value) {
  SmallVector<Value> addends;
  int64_t constant = 0;
  std::function<void(Value)> walk = [&](Value v) {
    APInt bits;
    if (matchPattern(v, m_ConstantInt(&bits))) {
      constant += bits.getSExtValue();
      return;
    }
    if (auto add = v.getDefiningOp<arith::AddIOp>();
        add && add.getType().isIndex()) {
      walk(add.getLhs());
      walk(add.getRhs());
      return;
    }
    addends.push_back(v);
  };
  walk(value);
  if (constant % 16 != 0 || constant < 0)
    return {value, 0};
  Value rest = addends.empty() ? idx(b, loc, 0) : addends.front();
  for (Value addend : ArrayRef(addends).drop_front())
    rest = arith::AddIOp::create(b, loc, rest, addend);
  return {rest, constant};
}

/// The shared-window address of the flat view `flat` as a part that varies
/// and a constant: a memref.view's address is its source's plus its byte
/// shift, whose constant addends are peeled (peelConstant). The operand
/// views of one stage's products differ only in such constants (a column
/// block, a K step), so their descriptors share one shift and differ by an
/// add (see descriptor).
std::pair<Value, int64_t> addressParts(OpBuilder &b, Location loc, Value flat) {
  auto view = flat.getDefiningOp<memref::ViewOp>();
  if (!view)
    return {addressOf(b, loc, flat), 0};
  auto [shift, constant] = peelConstant(b, loc, view.getByteShift());
  auto [source, sourceConstant] = addressParts(b, loc, view.getSource());
  return {arith::AddIOp::create(b, loc, source, shift),
          constant + sourceConstant};
}

/// A wgmma matrix descriptor for an operand swizzled by `swizzle` bytes
/// whose first byte (before swizzling) is `offset` bytes past `base` (both
/// indices; shared-window addresses, under 2^18, and 16-byte multiples),
/// where the base was `baseConstant` bytes further (addressParts).
/// Bits [0, 14) hold the address >> 4, which for such an address needs no
/// mask, so the low word is base / 16 + offset / 16 + the leading byte
/// offset's field: base / 16 is common to every descriptor of a tile.
/// (Built as a 64-bit add, shift, mask and or per descriptor, the chain
/// cost each wgmma of the D = 64 attention kernel five dependent uniform
/// instructions on the H200: bench/RESULTS.md, session 20.)
///
/// With `constantsLast` the constants of base and offset are added to the
/// 64-bit descriptor at the end, so that the products of one stage share
/// everything else and ptxas adds each one's constant in a uniform
/// register (UIADD3.64): the MXFP4 kernel's K step 533 -> 503 SASS
/// instructions, 0.984 of its time (session 52). Only for wgmma with A in
/// registers (one descriptor): on products with both operands in shared
/// memory ptxas moved such descriptors through regular registers and
/// spilled (FP8 block scales 8192^3 +9.5%, session 52), so those keep the
/// constants inside the low word's adds.
Value descriptor(OpBuilder &b, Location loc, Value base, int64_t baseConstant,
                 Value offset, int64_t leadingBytes, int64_t strideBytes,
                 int64_t swizzle, bool constantsLast) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto c32 = [&](int64_t v) -> Value {
    return arith::ConstantIntOp::create(b, loc, i32, v);
  };
  // One op a statement: the order of a call's arguments is the host
  // compiler's (scripts/compare-builds.sh).
  int64_t offsetConstant = 0;
  if (constantsLast)
    std::tie(offset, offsetConstant) = peelConstant(b, loc, offset);
  Value unitShift = c32(4);
  Value baseWord = arith::IndexCastUIOp::create(b, loc, i32, base);
  Value baseUnits = arith::ShRUIOp::create(b, loc, baseWord, unitShift);
  Value offsetWord = arith::IndexCastUIOp::create(b, loc, i32, offset);
  Value offsetUnits = arith::ShRUIOp::create(b, loc, offsetWord, unitShift);
  Value leading = c32(((leadingBytes >> 4) & 0x3fff) << 16);
  // Without constantsLast, the adds in the order of before session 52:
  // its PTX, and so its measured times, stay the same.
  Value low;
  if (constantsLast) {
    Value units = arith::AddIOp::create(b, loc, baseUnits, offsetUnits);
    low = arith::AddIOp::create(b, loc, units, leading);
  } else {
    Value offsetField = arith::AddIOp::create(b, loc, offsetUnits, leading);
    low = arith::AddIOp::create(b, loc, baseUnits, offsetField);
  }
  int64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  int64_t high = ((strideBytes >> 4) & 0x3fff) | mode << 30;
  Value wide = arith::ExtUIOp::create(b, loc, i64, low);
  Value highWord = arith::ConstantIntOp::create(b, loc, i64, high << 32);
  Value desc = arith::OrIOp::create(b, loc, wide, highWord);
  int64_t constantUnits = (baseConstant + offsetConstant) >> 4;
  if (constantUnits == 0)
    return desc;
  Value constant = arith::ConstantIntOp::create(b, loc, i64, constantUnits);
  return arith::AddIOp::create(b, loc, desc, constant);
}

/// The matrix descriptor of wgmma's B [k, cols] for the k16 step at row
/// `kElem` and the instruction's first column `col` (`instrCols` wide),
/// swizzled by `swizzle` bytes (`blockCols` elements). N-major (row-major
/// B): a column block holds `swizzle` bytes of a row, the blocks k *
/// swizzle bytes apart (LBO), a K step of 16 rows moves 16 * swizzle
/// bytes, an instruction narrower than a block starts its columns' bytes
/// into the block's rows. K-major (a
/// `transposed` tile: stored as [cols, k], like A): row `col` of the
/// stored tile starts col * swizzle bytes into its column block, the
/// blocks cols * swizzle bytes apart, a K step moves 32 bytes in a row.
Value bDescriptor(OpBuilder &b, Location loc, Value base, int64_t baseConstant,
                  Value col, int64_t instrCols, int64_t blockCols, int64_t k,
                  int64_t cols, int64_t swizzle, int64_t elementBytes,
                  int64_t kElem, bool kMajor, bool constantsLast) {
  if (kMajor) {
    Value rowStart =
        arith::MulIOp::create(b, loc, col, idx(b, loc, swizzle));
    Value kStart = idx(b, loc, (kElem / blockCols) * cols * swizzle +
                                   (kElem % blockCols) * elementBytes);
    Value offset = arith::AddIOp::create(b, loc, rowStart, kStart);
    return descriptor(b, loc, base, baseConstant, offset, 16, 8 * swizzle,
                      swizzle, constantsLast);
  }
  Value columnBlock =
      arith::DivUIOp::create(b, loc, col, idx(b, loc, blockCols));
  Value blockStart =
      arith::MulIOp::create(b, loc, columnBlock, idx(b, loc, k * swizzle));
  // An instruction narrower than a block may start inside it: its first
  // column's bytes into the block's rows. (Its columns were dropped here
  // until session 41: an instr N of 32 under a block of 64 read the
  // block's first 32 columns twice.)
  if (instrCols < blockCols)
    blockStart = arith::AddIOp::create(
        b, loc, blockStart,
        arith::MulIOp::create(
            b, loc,
            arith::RemUIOp::create(b, loc, col, idx(b, loc, blockCols)),
            idx(b, loc, elementBytes)));
  Value offset = arith::AddIOp::create(b, loc, blockStart,
                                       idx(b, loc, kElem * swizzle));
  return descriptor(b, loc, base, baseConstant, offset, k * swizzle,
                    8 * swizzle, swizzle, constantsLast);
}

/// wgmma.mma_async with A in registers (four b32 of 16-bit pairs) and B
/// on a descriptor (N-major: imm-trans-b 1), accumulating into `frags`
/// (or, without `accumulate`, writing the product over them: scale-d 0).
/// Inline PTX: the NVVM dialect's wgmma.mma_async takes descriptors only.
Value registerAWgmma(OpBuilder &b, Location loc, Type structType,
                     Value frags, ArrayRef<Value> aRegs, Value descB,
                     int64_t n, Type element, bool kMajorB, bool accumulate) {
  int64_t count = n / 2;
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" +
                     std::to_string(2 * count + 5) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                     std::to_string(n) + "k16.f32." +
                     (element.isBF16() ? "bf16.bf16" : "f16.f16") + " {";
  std::string constraints;
  SmallVector<Value> operands;
  for (int64_t r = 0; r < count; ++r) {
    text += (r ? ", $" : "$") + std::to_string(r);
    constraints += "=f,";
  }
  for (int64_t r = 0; r < count; ++r) {
    constraints += std::to_string(r) + ",";
    operands.push_back(LLVM::ExtractValueOp::create(b, loc, frags, r));
  }
  text += "}, {";
  for (int64_t r = 0; r < 4; ++r) {
    text += (r ? ", $" : "$") + std::to_string(2 * count + r);
    constraints += "r,";
    operands.push_back(aRegs[r]);
  }
  text += "}, $" + std::to_string(2 * count + 4) + ", p, 1, 1, " +
          (kMajorB ? "0" : "1") + ";\n}";
  constraints += "l,r";
  operands.push_back(descB);
  operands.push_back(
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), accumulate));
  return inlinePtx(b, loc, structType, operands, text, constraints,
                   /*sideEffects=*/true);
}

struct WgmmaLowering : SIMTPattern<WgmmaOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(WgmmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    layout.enter(op);
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto lhs = cast<TileType>(op.getLhs().getType());
    auto acc = cast<TileType>(op.getAcc().getType());
    auto mma = cast<MmaLayoutAttr>(acc.getLayout());
    int64_t wm = mma.getWarps()[0], wn = mma.getWarps()[1];
    int64_t n = mma.getFragmentColumns();
    int64_t m = acc.getDimSize(0), cols = acc.getDimSize(1);
    int64_t k = lhs.getDimSize(1);
    int64_t eb = storageBytes(lhs.getElementType());
    int64_t repsM = m / (16 * wm), repsN = cols / (n * wn);
    int64_t perInstr = n / 2;
    // This warp's place: M index (4 per warpgroup) and N index. Under
    // uniform_warp from the scope's warp index broadcast at its start:
    // ptxas then keeps the descriptors computed from it (A's rows of this
    // warpgroup) in uniform registers, where from threadId / 32, which it
    // cannot prove the same in every lane, it hoists them into vector
    // registers and copies them back (R2UR) for every wgmma (block-scaled
    // FP8 8192^3: 511 -> 461 SASS for four steps, 1.5% faster on an H100).
    Value warp = op.getUniformWarp() && layout.warpId
                     ? layout.warpId
                     : arith::DivUIOp::create(rewriter, loc, layout.threadId,
                                              idx(rewriter, loc, 32))
                           .getResult();
    Value warpM = arith::RemUIOp::create(rewriter, loc, warp,
                                         idx(rewriter, loc, wm));
    Value warpN = arith::DivUIOp::create(rewriter, loc, warp,
                                         idx(rewriter, loc, wm));
    Value warpsPerGroup = idx(rewriter, loc, 4);
    Value warpGroup =
        arith::DivUIOp::create(rewriter, loc, warpM, warpsPerGroup);
    Value groupRows = idx(rewriter, loc, 64);
    Value groupRow =
        arith::MulIOp::create(rewriter, loc, warpGroup, groupRows);
    // A in registers (#tile.dot_operand) or in shared memory.
    bool registerA = !isSharedTile(lhs);
    // With A in registers, B's address as a part that varies and a
    // constant added last (addressParts, descriptor's constantsLast); with
    // both in shared memory, whole addresses.
    Value aBase;
    if (!registerA)
      aBase = addressOf(rewriter, loc, adaptor.getLhs());
    Value bBase;
    int64_t bConstant = 0;
    if (registerA)
      std::tie(bBase, bConstant) =
          addressParts(rewriter, loc, adaptor.getRhs());
    else
      bBase = addressOf(rewriter, loc, adaptor.getRhs());
    // In a clustered launch a shared-window address carries the program's
    // rank from bit 24 (SASS: SR_CgaCtaId), which the one-add descriptor
    // would carry into its leading byte offset: keep the 18-bit window.
    if (auto launch = op->getParentOfType<gpu::LaunchOp>();
        launch && launch.hasClusterSize()) {
      Value window = idx(rewriter, loc, (1 << 18) - 1);
      if (aBase)
        aBase = arith::AndIOp::create(rewriter, loc, aBase, window);
      bBase = arith::AndIOp::create(rewriter, loc, bBase, window);
    }
    int64_t swizzleA =
        registerA ? 0 : cast<SharedLayoutAttr>(lhs.getLayout()).getSwizzle();
    int64_t swizzleB =
        cast<SharedLayoutAttr>(op.getRhs().getType().getLayout()).getSwizzle();
    int64_t blockColsA = registerA ? 1 : swizzleA / eb;
    int64_t blockColsB = swizzleB / eb;
    bool kMajorB =
        cast<SharedLayoutAttr>(op.getRhs().getType().getLayout())
            .getTransposed();
    // Register A: the slot holding each element offset of this thread's
    // fragments (TileLayouts.h).
    std::map<Offset, int64_t> slotAt;
    if (registerA) {
      FailureOr<LinearLayout> map =
          getLinearLayout(lhs.getLayout(), lhs.getShape());
      if (failed(map))
        return op.emitOpError() << "cannot lay out its register A operand";
      for (int64_t slot = 0; slot < map->getNumSlots(); ++slot)
        slotAt.try_emplace(map->slotOffset(slot), slot);
    }
    if (!kMajorB && n % blockColsB != 0 && blockColsB % n != 0)
      return op.emitOpError() << "needs instr N to be whole swizzle blocks of B";
    // One instruction takes 32 bytes of K: 16 bf16/f16, 32 fp8.
    int64_t kStep = 32 / eb;
    auto shape = NVVM::MMAShapeAttr::get(ctx, 64, n, kStep);
    auto wgmmaType = [&](Type element) -> NVVM::WGMMATypesAttr {
      NVVM::WGMMATypes type =
          element.isBF16()                 ? NVVM::WGMMATypes::bf16
          : element.isF16()                ? NVVM::WGMMATypes::f16
          : isa<Float8E4M3FNType>(element) ? NVVM::WGMMATypes::e4m3
                                           : NVVM::WGMMATypes::e5m2;
      return NVVM::WGMMATypesAttr::get(ctx, type);
    };
    auto typeA = wgmmaType(lhs.getElementType());
    auto typeB = wgmmaType(op.getRhs().getType().getElementType());
    auto f32Attr = NVVM::WGMMATypesAttr::get(ctx, NVVM::WGMMATypes::f32);
    Type f32 = rewriter.getF32Type();
    auto structType = LLVM::LLVMStructType::getLiteral(
        ctx, SmallVector<Type>(perInstr, f32));
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    Value result = adaptor.getAcc();
    // A product from zero (each K step's of block scales) takes scale-d 0
    // on its first instruction: no accumulator registers to clear.
    bool fromZero = false;
    if (auto splat = op.getAcc().getDefiningOp<SplatOp>())
      fromZero = matchPattern(splat.getValue(), m_AnyZeroFloat());
    for (int64_t rm = 0; rm < repsM; ++rm)
      for (int64_t rn = 0; rn < repsN; ++rn) {
        int64_t first = (rm * repsN + rn) * perInstr;
        Value frags = LLVM::UndefOp::create(rewriter, loc, structType);
        for (int64_t r = 0; r < perInstr && !fromZero; ++r)
          frags = LLVM::InsertValueOp::create(
              rewriter, loc, frags,
              vector::ExtractOp::create(rewriter, loc, result, first + r), r);
        // Rows of this warpgroup's instruction, columns of this warp's.
        Value row = arith::AddIOp::create(rewriter, loc, groupRow,
                                          idx(rewriter, loc, rm * 16 * wm));
        Value warpCols = idx(rewriter, loc, n);
        Value warpCol = arith::MulIOp::create(rewriter, loc, warpN, warpCols);
        Value repCol = idx(rewriter, loc, rn * n * wn);
        Value col = arith::AddIOp::create(rewriter, loc, warpCol, repCol);
        for (int64_t kk = 0; kk < k / kStep; ++kk) {
          int64_t kElem = kk * kStep;
          if (registerA) {
            // B [k, cols] as below, A from the four 32-bit registers of
            // this k16 step: rows g and g + 8, columns 2t and 2t + 8 (two
            // elements each), in a0 .. a3 order; under lhs_k_runs, the
            // stored columns that hold those K indices (a pair stays
            // adjacent).
            Value descB =
                bDescriptor(rewriter, loc, bBase, bConstant, col, n, blockColsB,
                            k, cols, swizzleB, eb, kElem, kMajorB,
                            /*constantsLast=*/true);
            int64_t runs = op.getLhsKRuns().value_or(0);
            SmallVector<Value> aRegs;
            for (auto [dr, dc] : {std::pair{0, 0}, std::pair{8, 0},
                                  std::pair{0, 8}, std::pair{8, 8}}) {
              Offset at = {rm * 16 * wm + dr,
                           DotOp::kRunsStored(runs, kElem + dc)};
              Offset next = {at[0], DotOp::kRunsStored(runs, kElem + dc + 1)};
              if (!slotAt.count(at) || !slotAt.count(next))
                return op.emitOpError()
                       << "has a register A operand without wgmma's fragments";
              Value pair = vector::ShuffleOp::create(
                  rewriter, loc, adaptor.getLhs(), adaptor.getLhs(),
                  ArrayRef<int64_t>{slotAt[at], slotAt[next]});
              aRegs.push_back(LLVM::BitcastOp::create(
                  rewriter, loc, rewriter.getI32Type(), pair));
            }
            frags = registerAWgmma(rewriter, loc, structType, frags, aRegs,
                                   descB, n, lhs.getElementType(), kMajorB,
                                   /*accumulate=*/!fromZero || kk > 0);
            continue;
          }
          // A [m, k]: a row is swizzleA bytes of its column block; a K step
          // of 16 moves 32 bytes, a block of K m * swizzleA bytes.
          Value rowBytesA = idx(rewriter, loc, swizzleA);
          Value rowStartA =
              arith::MulIOp::create(rewriter, loc, row, rowBytesA);
          Value kStartA = idx(rewriter, loc,
                              (kElem / blockColsA) * m * swizzleA +
                                  (kElem % blockColsA) * eb);
          Value aOffset =
              arith::AddIOp::create(rewriter, loc, rowStartA, kStartA);
          // 8-row groups are 8 rows of the block apart (SBO).
          Value descA = descriptor(rewriter, loc, aBase, 0, aOffset, 16,
                                   8 * swizzleA, swizzleA,
                                   /*constantsLast=*/false);
          Value descB = bDescriptor(rewriter, loc, bBase, 0, col, n, blockColsB,
                                    k, cols, swizzleB, eb, kElem, kMajorB,
                                    /*constantsLast=*/false);
          frags = NVVM::WgmmaMmaAsyncOp::create(
              rewriter, loc, structType, frags, descA, descB, shape, typeA,
              typeB, f32Attr,
              NVVM::WGMMAScaleOutAttr::get(ctx, !fromZero || kk > 0
                                                    ? NVVM::WGMMAScaleOut::one
                                                    : NVVM::WGMMAScaleOut::zero),
              NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
              NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one),
              // wgmma reads B as K x N column-major (K-major: layout col)
              // unless it is transposed: row-major (N-major) B is row.
              NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row),
              NVVM::MMALayoutAttr::get(ctx, kMajorB ? NVVM::MMALayout::col
                                                    : NVVM::MMALayout::row),
              NVVM::MMAIntOverflowAttr());
        }
        for (int64_t r = 0; r < perInstr; ++r)
          result = vector::InsertOp::create(
              rewriter, loc,
              LLVM::ExtractValueOp::create(rewriter, loc, frags, r), result,
              first + r);
      }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct WgmmaWaitLowering : SIMTPattern<WgmmaWaitOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(WgmmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, op.getLoc(),
                                       rewriter.getI64IntegerAttr(op.getPending()));
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

/// tile.register_fence: one empty volatile inline asm that takes each
/// register of the thread's part of the tile as a tied operand ("+f" /
/// "+r"), so LLVM keeps what computes them before it and what reads them
/// after (it stays in order with the other side-effecting ops: the wgmma
/// waits).
struct RegisterFenceLowering : SIMTPattern<RegisterFenceOp> {
  using SIMTPattern::SIMTPattern;
  LogicalResult
  matchAndRewrite(RegisterFenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto vectorType = dyn_cast<VectorType>(input.getType());
    // 16-bit elements in pairs (a bf16 wgmma operand): fenced as the
    // 32-bit registers that hold them.
    Type packedType;
    if (vectorType && vectorType.getRank() == 1 &&
        vectorType.getElementTypeBitWidth() == 16 &&
        vectorType.getNumElements() % 2 == 0) {
      packedType = vectorType;
      vectorType = VectorType::get({vectorType.getNumElements() / 2},
                                   rewriter.getI32Type());
      input = vector::BitCastOp::create(rewriter, loc, vectorType, input);
    }
    Type element =
        vectorType ? vectorType.getElementType() : input.getType();
    if (!(element.isF32() || element.isInteger(32)) ||
        (vectorType && vectorType.getRank() != 1))
      return rewriter.notifyMatchFailure(op, "not 32-bit registers");
    int64_t count = vectorType ? vectorType.getNumElements() : 1;
    SmallVector<Value> lanes;
    for (int64_t i = 0; i < count; ++i)
      lanes.push_back(vectorType
                          ? vector::ExtractOp::create(rewriter, loc, input, i)
                                .getResult()
                          : input);
    std::string constraints;
    StringRef letter = element.isF32() ? "=f" : "=r";
    for (int64_t i = 0; i < count; ++i)
      constraints += (i ? "," : "") + letter.str();
    for (int64_t i = 0; i < count; ++i)
      constraints += "," + std::to_string(i);
    // One output is the asm's value itself; more are a struct.
    Type resultType = count == 1 ? element
                                 : LLVM::LLVMStructType::getLiteral(
                                       rewriter.getContext(),
                                       SmallVector<Type>(count, element));
    Value fenced = inlinePtx(rewriter, loc, resultType, lanes, "",
                             constraints, /*sideEffects=*/true);
    Value result = input;
    for (int64_t i = 0; i < count; ++i) {
      Value lane =
          count == 1
              ? fenced
              : LLVM::ExtractValueOp::create(rewriter, loc, fenced, i)
                    .getResult();
      result = vectorType ? vector::InsertOp::create(rewriter, loc, lane,
                                                     result, i)
                                .getResult()
                          : lane;
    }
    if (packedType)
      result = vector::BitCastOp::create(rewriter, loc, packedType, result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Shared memory to mma.sync operands: ldmatrix.x4 per 16x16 block of A,
/// ldmatrix.x4.trans per two 16x8 blocks of B (x2 for a single one;
/// without .trans for a B stored K-major, a transposed view).
struct LdMatrixLowering : SIMTPattern<ConvertLayoutOp> {
  LdMatrixLowering(const TypeConverter &converter, MLIRContext *ctx,
                   SIMTLayout &layout)
      : SIMTPattern(converter, ctx, layout, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto from = cast<TileType>(op.getInput().getType());
    auto to = cast<TileType>(op.getType());
    auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(to.getLayout());
    if (!isSharedTile(from) || !operand)
      return rewriter.notifyMatchFailure(op, "not shared to dot operand");
    layout.enter(op);
    Location loc = op.getLoc();
    Type element = from.getElementType();
    // Runs (k_width > 2) are read with plain loads of any element size (a
    // weight's packed bytes for wgmma's register A).
    if (operand.getKWidth() != 2)
      return readRuns(op, from, to, adaptor.getInput(), rewriter);
    if (storageBytes(element) != 2)
      return op.emitOpError() << "ldmatrix moves 16-bit elements only";
    MmaLayoutAttr mma = operand.getParent();
    int64_t wm = mma.getWarps()[0], wn = mma.getWarps()[1];
    Value lane = arith::RemUIOp::create(rewriter, loc, layout.threadId,
                                        idx(rewriter, loc, 32));
    Value warp = arith::DivUIOp::create(rewriter, loc, layout.threadId,
                                        idx(rewriter, loc, 32));
    Value warpM = arith::RemUIOp::create(rewriter, loc, warp,
                                         idx(rewriter, loc, wm));
    Value warpN = arith::DivUIOp::create(rewriter, loc, warp,
                                         idx(rewriter, loc, wm));
    Value laneRow = arith::RemUIOp::create(rewriter, loc, lane,
                                           idx(rewriter, loc, 16));
    Value laneHalf = arith::DivUIOp::create(rewriter, loc, lane,
                                            idx(rewriter, loc, 16));
    VectorType vt = layout.vectorType(to);
    Value result = arith::ConstantOp::create(
        rewriter, loc, vt, DenseElementsAttr::get(vt, rewriter.getZeroAttr(element)));
    // ldmatrix of `tiles` 8x8 matrices at element `offset` of the tile, its
    // registers [firstReg, firstReg + numRegs) into consecutive slots from
    // firstSlot, two elements each. (NVVM's op on a pointer: nvgpu's
    // 2-D vector result folded into a shape_cast that nothing lowers.)
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(
        rewriter, loc, adaptor.getInput());
    auto ldmatrix = [&](Value offset, int64_t tiles, bool transpose) {
      Value address = arith::AddIOp::create(
          rewriter, loc, base,
          arith::MulIOp::create(rewriter, loc, offset, idx(rewriter, loc, 2)));
      Value wide = arith::IndexCastUIOp::create(rewriter, loc,
                                                rewriter.getI64Type(), address);
      Value pointer = LLVM::IntToPtrOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(rewriter.getContext(), 3),
          wide, LLVM::DereferenceableAttr());
      Type i32 = rewriter.getI32Type();
      Type type = tiles == 1 ? i32
                             : LLVM::LLVMStructType::getLiteral(
                                   rewriter.getContext(),
                                   SmallVector<Type>(tiles, i32));
      return NVVM::LdMatrixOp::create(
          rewriter, loc, type, pointer, tiles,
          transpose ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          NVVM::LdStMatrixShapeAttr::get(rewriter.getContext(), 8, 8),
          NVVM::LdStMatrixEltType::B16);
    };
    auto pairType = VectorType::get({2}, element);
    auto put = [&](Value fragments, int64_t tiles, int64_t firstReg,
                   int64_t numRegs, int64_t firstSlot) {
      for (int64_t r = 0; r < numRegs; ++r) {
        Value word = tiles == 1 ? fragments
                                : LLVM::ExtractValueOp::create(
                                      rewriter, loc, fragments, firstReg + r)
                                      .getResult();
        Value pair = LLVM::BitcastOp::create(rewriter, loc, pairType, word);
        for (int64_t h = 0; h < 2; ++h)
          result = vector::InsertOp::create(
              rewriter, loc,
              vector::ExtractOp::create(rewriter, loc, pair, h), result,
              firstSlot + 2 * r + h);
      }
    };
    auto elementAt = [&](Value row, Value col) -> Value {
      Value byteOffset = sharedByteOffsetValue(rewriter, loc, from, row, col);
      Value elementBytes = idx(rewriter, loc, 2);
      return arith::DivUIOp::create(rewriter, loc, byteOffset, elementBytes);
    };
    if (operand.getIndex() == 0) {
      int64_t rows = from.getDimSize(0), depth = from.getDimSize(1);
      int64_t reps = rows / (16 * wm), kBlocks = depth / 16;
      for (int64_t rm = 0; rm < reps; ++rm)
        for (int64_t kb = 0; kb < kBlocks; ++kb) {
          // Lane l gives row l % 16 and column 8 (l / 16) of the block.
          Value warpRows = idx(rewriter, loc, 16);
          Value warpRow = arith::MulIOp::create(rewriter, loc, warpM, warpRows);
          Value laneInWarp = arith::AddIOp::create(rewriter, loc, warpRow, laneRow);
          Value repRow = idx(rewriter, loc, rm * 16 * wm);
          Value row = arith::AddIOp::create(rewriter, loc, laneInWarp, repRow);
          Value halfCols = idx(rewriter, loc, 8);
          Value halfCol =
              arith::MulIOp::create(rewriter, loc, laneHalf, halfCols);
          Value kCol = idx(rewriter, loc, kb * 16);
          Value col = arith::AddIOp::create(rewriter, loc, halfCol, kCol);
          Value frag = ldmatrix(elementAt(row, col), 4, /*transpose=*/false);
          put(frag, 4, 0, 4, (rm * kBlocks + kb) * 8);
        }
      rewriter.replaceOp(op, result);
      return success();
    }
    int64_t depth = from.getDimSize(0), cols = from.getDimSize(1);
    int64_t reps = cols / (8 * wn), kBlocks = depth / 16;
    for (int64_t kb = 0; kb < kBlocks; ++kb)
      for (int64_t rn = 0; rn < reps; rn += 2) {
        int64_t tiles = rn + 1 < reps ? 2 : 1;
        // Lane l gives row l % 16 of block rn + l / 16.
        Value laneBlock = tiles == 2 ? laneHalf : idx(rewriter, loc, 0);
        Value firstBlock = idx(rewriter, loc, rn);
        Value block =
            arith::AddIOp::create(rewriter, loc, laneBlock, firstBlock);
        Value blockCols = idx(rewriter, loc, 8 * wn);
        Value blockCol = arith::MulIOp::create(rewriter, loc, block, blockCols);
        Value warpCols = idx(rewriter, loc, 8);
        Value warpCol = arith::MulIOp::create(rewriter, loc, warpN, warpCols);
        Value col = arith::AddIOp::create(rewriter, loc, blockCol, warpCol);
        Value row = arith::AddIOp::create(rewriter, loc, laneRow,
                                          idx(rewriter, loc, kb * 16));
        bool kMajor = cast<SharedLayoutAttr>(from.getLayout()).getTransposed();
        if (kMajor) {
          // B stored [cols, k] (a transposed view): lane l gives column
          // (l % 8) of its block and the K half (l / 8) % 2; ldmatrix
          // without .trans then returns B's fragments.
          Value laneCol = arith::RemUIOp::create(rewriter, loc, lane,
                                                 idx(rewriter, loc, 8));
          col = arith::AddIOp::create(rewriter, loc, col, laneCol);
          Value half = arith::RemUIOp::create(
              rewriter, loc,
              arith::DivUIOp::create(rewriter, loc, lane, idx(rewriter, loc, 8)),
              idx(rewriter, loc, 2));
          row = arith::AddIOp::create(
              rewriter, loc,
              arith::MulIOp::create(rewriter, loc, half, idx(rewriter, loc, 8)),
              idx(rewriter, loc, kb * 16));
        }
        Value frag = ldmatrix(elementAt(row, col), 2 * tiles,
                              /*transpose=*/!kMajor);
        for (int64_t t = 0; t < tiles; ++t)
          put(frag, 2 * tiles, 2 * t, 2, ((rn + t) * kBlocks + kb) * 4);
      }
    rewriter.replaceOp(op, result);
    return success();
  }

  LogicalResult readRuns(ConvertLayoutOp op, TileType from, TileType to,
                         Value flat, ConversionPatternRewriter &rewriter) const;
};

/// An operand of k_width > 2 (each thread's share of a row or column one
/// run along K, which ldmatrix does not return): the run's consecutive
/// elements read with loads of up to 16 bytes from the padded row-major
/// tile (an A beside a weight computed in registers, docs/layouts.md), or
/// for A from a swizzled one (a packed weight's TMA box; a tile.view
/// `column` inside a column block counts the swizzle from its column), or
/// for B from the transposed view of an [N, K] tile (a dequantized weight
/// stored for the warps that share it, under k_runs).
LogicalResult LdMatrixLowering::readRuns(ConvertLayoutOp op, TileType from,
                                         TileType to, Value flat,
                                         ConversionPatternRewriter &rewriter) const {
  // The verifier allows padded row-major tiles (B: transposed views of
  // them) and, for A, swizzled ones. Runs go along the stored rows:
  // `along` of the operand.
  auto shared = cast<SharedLayoutAttr>(from.getLayout());
  unsigned along = shared.getTransposed() ? 0 : 1;
  Location loc = op.getLoc();
  Type element = from.getElementType();
  int64_t eb = storageBytes(element);
  // A swizzled part of a column block (tile.view `column`, whose verifier
  // lets only wgmma and this read it) starts that far into its rows.
  int64_t startByte = 0;
  if (int64_t swizzle = shared.getSwizzle())
    if (auto view = op.getInput().getDefiningOp<ViewOp>();
        view && view.getColumn())
      startByte = (*view.getColumn() * eb) % swizzle;
  LinearLayout linear = *getLinearLayout(to.getLayout(), to.getShape());
  // The longest power-of-two chunk that every thread's runs start at: the
  // threads' bases along the stored rows and the row pitch multiples of it.
  int64_t cols = from.getDimSize(along);
  int64_t pitchBytes = (cols + shared.getPadding()) * eb;
  int64_t chunk = 16 / eb;
  auto aligned = [&](int64_t n) {
    if (cols % n != 0 || pitchBytes % (n * eb) != 0)
      return false;
    for (ArrayRef<Offset> bases : {ArrayRef<Offset>(linear.lane),
                                   ArrayRef<Offset>(linear.warp)})
      for (const Offset &basis : bases)
        if (basis[along] % n != 0)
          return false;
    return true;
  };
  while (chunk > 1 && !aligned(chunk))
    chunk /= 2;
  std::map<Offset, int64_t> slotAt;
  for (int64_t s = 0; s < linear.getNumSlots(); ++s)
    slotAt.try_emplace(linear.slotOffset(s), s);
  SmallVector<Value> thread = layout.threadCoordinates(rewriter, loc, to);
  VectorType vt = layout.vectorType(to);
  Value result = arith::ConstantOp::create(
      rewriter, loc, vt, DenseElementsAttr::get(vt, rewriter.getZeroAttr(element)));
  SmallVector<bool> done(linear.getNumSlots(), false);
  for (int64_t s = 0; s < linear.getNumSlots(); ++s) {
    if (done[s])
      continue;
    Offset at = linear.slotOffset(s);
    // The slots of this chunk, where every one of them is there.
    SmallVector<int64_t> slots;
    int64_t n = at[along] % chunk == 0 ? chunk : 1;
    for (int64_t i = 0; i < n; ++i) {
      Offset next = at;
      next[along] += i;
      auto it = slotAt.find(next);
      if (it == slotAt.end() || done[it->second]) {
        slots.clear();
        break;
      }
      slots.push_back(it->second);
    }
    if (slots.empty())
      slots = {s};
    Value row = arith::AddIOp::create(rewriter, loc, thread[0],
                                      idx(rewriter, loc, at[0]));
    Value col = arith::AddIOp::create(rewriter, loc, thread[1],
                                      idx(rewriter, loc, at[1]));
    Value byteOffset =
        sharedByteOffsetValue(rewriter, loc, from, row, col, startByte);
    Value start = arith::DivUIOp::create(rewriter, loc, byteOffset,
                                         idx(rewriter, loc, eb));
    auto runType = VectorType::get({int64_t(slots.size())}, element);
    Value values = vector::LoadOp::create(
        rewriter, loc, runType, flat, ValueRange{start},
        /*nontemporal=*/false, llvm::MaybeAlign(slots.size() * eb));
    for (auto [i, slot] : llvm::enumerate(slots)) {
      result = vector::InsertOp::create(
          rewriter, loc,
          vector::ExtractOp::create(rewriter, loc, values, int64_t(i)), result,
          slot);
      done[slot] = true;
    }
  }
  rewriter.replaceOp(op, result);
  return success();
}

/// tile.dot on mma.sync operands: per (rm, rn, kb) one m16n8k16.
struct MmaSyncDotLowering : SIMTPattern<DotOp> {
  MmaSyncDotLowering(const TypeConverter &converter, MLIRContext *ctx,
                     SIMTLayout &layout)
      : SIMTPattern(converter, ctx, layout, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto lhs = cast<TileType>(op.getLhs().getType());
    auto rhs = cast<TileType>(op.getRhs().getType());
    auto acc = cast<TileType>(op.getAcc().getType());
    auto mma = dyn_cast_or_null<MmaLayoutAttr>(acc.getLayout());
    if (!mma || mma.getKind() != MmaKind::mma_sync ||
        !isa_and_nonnull<DotOperandLayoutAttr>(lhs.getLayout()) ||
        !isa_and_nonnull<DotOperandLayoutAttr>(rhs.getLayout()))
      return rewriter.notifyMatchFailure(op, "not an mma.sync dot");
    layout.enter(op);
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type element = lhs.getElementType();
    if (!element.isBF16() && !element.isF16())
      return op.emitOpError() << "mma.sync takes bf16 or f16 operands here";
    int64_t wm = mma.getWarps()[0], wn = mma.getWarps()[1];
    int64_t repsM = acc.getDimSize(0) / (16 * wm);
    int64_t repsN = acc.getDimSize(1) / (8 * wn);
    int64_t kBlocks = lhs.getDimSize(1) / 16;
    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
    auto pair = VectorType::get({2}, element);
    // Register r of a fragment: its two elements, as mma.sync takes them
    // (bf16: a 32-bit register; f16: a vector of two).
    auto reg = [&](Value slots, int64_t first) -> Value {
      Value two = vector::ShuffleOp::create(rewriter, loc, slots, slots,
                                            ArrayRef<int64_t>{first, first + 1});
      if (element.isF16())
        return two;
      Value word = vector::BitCastOp::create(rewriter, loc,
                                             VectorType::get({1}, i32), two);
      return vector::ExtractOp::create(rewriter, loc, word, 0);
    };
    (void)pair;
    auto resultType =
        LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, f32));
    auto ptx = element.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    Value result = adaptor.getAcc();
    for (int64_t rm = 0; rm < repsM; ++rm)
      for (int64_t rn = 0; rn < repsN; ++rn) {
        int64_t c0 = (rm * repsN + rn) * 4;
        SmallVector<Value> cValues;
        for (int64_t r = 0; r < 4; ++r)
          cValues.push_back(
              vector::ExtractOp::create(rewriter, loc, result, c0 + r));
        for (int64_t kb = 0; kb < kBlocks; ++kb) {
          int64_t a0 = (rm * kBlocks + kb) * 8, b0 = (rn * kBlocks + kb) * 4;
          SmallVector<Value> aRegs, bRegs;
          for (int64_t r = 0; r < 4; ++r)
            aRegs.push_back(reg(adaptor.getLhs(), a0 + 2 * r));
          for (int64_t r = 0; r < 2; ++r)
            bRegs.push_back(reg(adaptor.getRhs(), b0 + 2 * r));
          Value d = NVVM::MmaOp::create(
              rewriter, loc, resultType, aRegs, bRegs, cValues,
              ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
              std::array<NVVM::MMATypes, 2>{ptx, ptx},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                             NVVM::MMALayout::col});
          for (int64_t r = 0; r < 4; ++r)
            cValues[r] = LLVM::ExtractValueOp::create(rewriter, loc, d, r);
        }
        for (int64_t r = 0; r < 4; ++r)
          result = vector::InsertOp::create(rewriter, loc, cValues[r], result,
                                            c0 + r);
      }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void simt::populateTensorCorePatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      SIMTLayout &layout) {
  patterns.add<WgmmaLowering, WgmmaWaitLowering, RegisterFenceLowering,
               MmaSyncDotLowering, LdMatrixLowering>(
      converter, patterns.getContext(), layout);
}
