//===- TileAttention.cpp - An attention group as one kernel -----*- C++ -*-===//
//
// tile-tile's kernel for a tile.fused op marked `tile.attention` (tile-fuse;
// AttentionPattern.h): FlashAttention's online softmax. Each program owns
// BM query rows and walks the keys BN at a time:
//
//   s   = Q_tile . transpose(K_tile)        (K read as stored: a K-major B)
//   x   = the group's score maps on s       (iotas: the tile's positions)
//         masked to -inf past the last key  (a ragged Sk)
//   m'  = max(m, rowmax(x));  p = exp(x - m');  a = exp(m - m')
//   l   = l a + rowsum(p);    o = o a + cast(p) . V_tile
//
// and stores o / l through the group's epilogue. The tile-level passes then
// put both dots on the tensor cores (wgmma with p in registers on sm_90a),
// pipeline the K and V loads, and lower the row statistics on the first
// dot's accumulator registers. The schedule (BM, BN, stages) is the fused
// op's #tile.config (tile-configure's), else 64 x 64 without a ring.
//
//===----------------------------------------------------------------------===//

#include "AttentionPattern.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::tiling;

namespace {

/// Whether a score map's result depends on its position operands (the
/// tile.iota inputs after the scores): a mask or bias by position, not a
/// map that takes them and leaves them unused.
bool yieldReadsPositions(MapOp map) {
  Block &body = map.getBody().front();
  SmallVector<Value> work = {body.getTerminator()->getOperand(0)};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!work.empty()) {
    Value value = work.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == &body && arg.getArgNumber() > 0)
        return true;
      continue;
    }
    if (Operation *def = value.getDefiningOp(); def && map->isAncestor(def))
      llvm::append_range(work, def->getOperands());
  }
  return false;
}

Value f32Constant(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

/// If `map`'s result is its first operand times a positive constant c
/// (then perhaps masked: select(cond, that, -inf)), with that operand used
/// nowhere else: drops the multiply (the map now yields the unscaled
/// score) and returns c.
std::optional<double> takeScale(MapOp map) {
  Block &body = map.getBody().front();
  Value yielded = cast<YieldOp>(body.getTerminator()).getValue();
  Value product = yielded;
  if (auto select = yielded.getDefiningOp<arith::SelectOp>()) {
    FloatAttr fill;
    if (!matchPattern(select.getFalseValue(), m_Constant(&fill)) ||
        !fill.getValue().isInfinity() || !fill.getValue().isNegative())
      return std::nullopt;
    product = select.getTrueValue();
  }
  auto mul = product.getDefiningOp<arith::MulFOp>();
  FloatAttr c;
  if (!mul || !mul->hasOneUse() || mul.getLhs() != body.getArgument(0) ||
      !body.getArgument(0).hasOneUse() ||
      !matchPattern(mul.getRhs(), m_Constant(&c)) ||
      !(c.getValueAsDouble() > 0))
    return std::nullopt;
  double scale = c.getValueAsDouble();
  mul.replaceAllUsesWith(mul.getLhs());
  mul.erase();
  return scale;
}

} // namespace

LogicalResult tiling::tileAttention(KernelBuilder &kb, FusedOp fused,
                                    ConfigAttr config) {
  Block &body = fused.getBody().front();
  MatmulOp output;
  for (auto matmul : body.getOps<MatmulOp>())
    output = matmul;
  std::string why = "it holds no tile.matmul";
  std::optional<AttentionPattern> pattern =
      output ? matchAttention(output, &why) : std::nullopt;
  if (!pattern)
    return fused.emitOpError() << "is marked tile.attention but is not an "
                                  "attention block: "
                               << why;
  auto bufferOf = [&](Value inside) -> Value {
    auto arg = dyn_cast<BlockArgument>(inside);
    if (!arg || arg.getOwner() != &body)
      return Value();
    return kb.bufs.operands[arg.getArgNumber()];
  };
  Value q = bufferOf(pattern->queries), k = bufferOf(pattern->keys),
        v = bufferOf(pattern->values);
  if (!q || !k || !v || !pattern->keysTransposed)
    return fused.emitOpError()
           << "expects Q, K and V from outside the group and the scores as "
              "Q times tile.transpose(K)";
  auto qType = cast<MemRefType>(q.getType());
  auto kType = cast<MemRefType>(k.getType());
  int64_t rank = qType.getRank();
  int64_t sq = qType.getDimSize(rank - 2), d = qType.getDimSize(rank - 1);
  // K and V have their own ranks: with one K/V head (grouped-query
  // attention), their head dimension is not there.
  int64_t sk = kType.getDimSize(kType.getRank() - 2);
  auto vType = cast<MemRefType>(v.getType());
  int64_t dv = vType.getDimSize(vType.getRank() - 1);
  int64_t batch = qType.getNumElements() / (sq * d);
  Type element = qType.getElementType();
  if (d % 16 != 0 || dv % 16 != 0 || !llvm::isPowerOf2_64(d) ||
      !llvm::isPowerOf2_64(dv))
    return fused.emitOpError() << "needs head dimensions that are powers of "
                                  "two and multiples of 16, got "
                               << d << " and " << dv;

  // The schedule: the config's block [BM, BN, D], else 64 x 64.
  int64_t bm = 64, bn = 64;
  if (config && config.getBlock().size() == 3) {
    bm = config.getBlock()[0];
    bn = config.getBlock()[1];
  }
  bm = tileSizeFor(sq, bm);
  bn = tileSizeFor(sk, bn);
  int64_t threads = config ? config.getThreads() : 128;
  kb.threads = threads;
  // Batch dimensions (heads) go to the grid's second dimension; the kernel
  // sees each tensor as rows [batch * S, D] (collapsed on the host, so that
  // K and V stay kernel arguments the TMA reads); with a ragged S, one
  // head's Q and output rows through a subview (the last query block must
  // not reach the next head's rows).
  SmallVector<int64_t> grid = {ceilDiv(sq, bm)};
  if (batch > 1)
    grid.push_back(batch);
  if (failed(checkGrid(fused, grid)))
    return failure();
  Location loc = kb.loc;
  auto rows = [&](Value buffer) -> Value {
    auto type = cast<MemRefType>(buffer.getType());
    if (type.getRank() == 2)
      return buffer;
    SmallVector<ReassociationIndices> groups(2);
    for (int64_t dim = 0; dim + 1 < type.getRank(); ++dim)
      groups[0].push_back(dim);
    groups[1].push_back(type.getRank() - 1);
    return memref::CollapseShapeOp::create(kb.host, loc, buffer, groups);
  };
  Value qRows = rows(q), kRows = rows(k), vRows = rows(v),
        oRows = rows(kb.bufs.result);
  OpBuilder b = kb.begin({qRows, kRows, vRows, oRows}, grid);
  MapBuilder mb{b, loc};
  Type f32 = b.getF32Type();
  auto tileOf = [&](ArrayRef<int64_t> shape, Type type) {
    return TileType::get(shape, type);
  };
  Value c0 = kb.index(b, 0);
  Value zero = f32Constant(b, loc, 0.0);
  Value ninf = f32Constant(b, loc, -std::numeric_limits<double>::infinity());
  // A causal mask: the keys up to this program's last query only.
  bool causal = llvm::any_of(pattern->scoreMaps, [&](MapOp map) {
    return isCausalMask(map, rank);
  });
  // Another map of the positions (a sliding window, a local mask) may hide
  // every key of a row's first blocks; a causal mask and the -inf past Sk
  // never do (key 0 is always there).
  bool otherPositions = llvm::any_of(pattern->scoreMaps, [&](MapOp map) {
    return !isCausalMask(map, rank) && yieldReadsPositions(map);
  });
  // Causal query blocks run in decreasing order (the last, with the most
  // keys, first): the hardware starts programs in increasing index order,
  // so the short ones fill the SMs at the end instead of a tail of long
  // ones (the longest-first order FlashAttention uses).
  Value m0;
  if (causal) {
    Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), 0);
    Value block = arith::SubIOp::create(b, loc, kb.index(b, grid[0] - 1), pid);
    m0 = arith::MulIOp::create(b, loc, block, kb.index(b, bm));
  } else {
    m0 = kb.tileOffset(b, 0, bm);
  }
  Value qHead = kb.arg(qRows), oHead = kb.arg(oRows), kStart = c0;
  Value qRow = m0; // Q and output row of this program in qHead / oHead
  // The K/V head of query head `head` (batch and heads flattened): with
  // grouped-query attention, `groups` consecutive query heads share one,
  // and (b * H + h) / groups = b * Hkv + h / groups.
  auto keyHeadOf = [&](Value head) -> Value {
    if (pattern->groups == 1)
      return head;
    Value groups = kb.index(b, pattern->groups);
    return arith::DivUIOp::create(b, loc, head, groups);
  };
  if (batch > 1 && sq % bm == 0) {
    // Whole query blocks: rows of the collapsed tensors (a view with a
    // dynamic offset would cost the 16-byte accesses: alignment unknown).
    Value head = ProgramIdOp::create(b, loc, b.getIndexType(), 1);
    qRow = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, head, kb.index(b, sq)), m0);
    Value keyHead = keyHeadOf(head);
    Value keyRows = kb.index(b, sk);
    kStart = arith::MulIOp::create(b, loc, keyHead, keyRows);
  } else if (batch > 1) {
    Value head = ProgramIdOp::create(b, loc, b.getIndexType(), 1);
    auto headRows = [&](Value all, int64_t s, int64_t cols) -> Value {
      Value first = arith::MulIOp::create(b, loc, head, kb.index(b, s));
      return memref::SubViewOp::create(
          b, loc, all, ArrayRef<OpFoldResult>{first, b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(s), b.getIndexAttr(cols)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    };
    qHead = headRows(qHead, sq, d);
    oHead = headRows(oHead, sq, dv);
    Value keyHead = keyHeadOf(head);
    Value keyRows = kb.index(b, sk);
    kStart = arith::MulIOp::create(b, loc, keyHead, keyRows);
  }
  Value qTile = LoadOp::create(b, loc, tileOf({bm, d}, element), qHead,
                               ValueRange{qRow, c0}, nullptr);
  auto scoreType = tileOf({bm, bn}, f32);
  auto accType = tileOf({bm, dv}, f32);
  auto rowType = tileOf({bm}, f32);
  Value zs = SplatOp::create(b, loc, scoreType, zero);
  Value acc0 = SplatOp::create(b, loc, accType, zero);
  Value m0Row = SplatOp::create(b, loc, rowType, ninf);
  Value l0Row = SplatOp::create(b, loc, rowType, zero);
  Value keyEnd = kb.index(b, sk);
  if (causal)
    keyEnd = arith::MinUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, m0, kb.index(b, bm)), keyEnd);
  auto loop = scf::ForOp::create(b, loc, c0, keyEnd, kb.index(b, bn),
                                 ValueRange{acc0, m0Row, l0Row});
  {
    OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
    MapBuilder lm{lb, loc};
    Value n = loop.getInductionVar();
    Value acc = loop.getRegionIterArgs()[0], m = loop.getRegionIterArgs()[1],
          l = loop.getRegionIterArgs()[2];
    // K and V rows of this head; keys past Sk (the next head's, or
    // zeros past the end) are masked below.
    Value keyRow = arith::AddIOp::create(lb, loc, kStart, n);
    Value kTile = LoadOp::create(lb, loc, tileOf({bn, d}, element),
                                 kb.arg(kRows), ValueRange{keyRow, c0},
                                 nullptr);
    Value kt = TransposeOp::create(lb, loc, tileOf({d, bn}, element), kTile);
    Value x = DotOp::create(lb, loc, scoreType, qTile, kt, zs);
    // The group's score maps, their tile.iota operands as this tile's
    // positions (rows from m0, keys from n). Without `masked`, a causal
    // mask map's select keeps its true value (every key of the block is
    // at or before every query of the program) and the map is dropped
    // where nothing else is left in it.
    std::optional<double> scale;
    auto scoreMaps = [&](OpBuilder &ib, bool masked) -> FailureOr<Value> {
      MapBuilder im{ib, loc};
      IRMapping values;
      values.map(pattern->scores.getResult(), x);
      for (MapOp map : pattern->scoreMaps) {
        bool causal = isCausalMask(map, rank);
        SmallVector<Value> inputs = {values.lookup(map.getInputs()[0])};
        for (Value input : map.getInputs().drop_front()) {
          auto iota = input.getDefiningOp<IotaOp>();
          Type intType = cast<ShapedType>(iota.getType()).getElementType();
          Value local = IotaOp::create(ib, loc, tileOf({bm, bn}, intType),
                                       iota.getDim() - (rank - 2));
          Value offset = arith::IndexCastOp::create(
              ib, loc, intType, static_cast<int64_t>(iota.getDim()) == rank - 2 ? m0 : n);
          inputs.push_back(im.map(tileOf({bm, bn}, intType), local,
                                  [&](OpBuilder &jb, ValueRange args) {
                                    return arith::AddIOp::create(
                                        jb, loc, args[0], offset);
                                  }));
        }
        auto tiled = MapOp::create(ib, loc, scoreType, inputs);
        if (failed(kb.cloneRegion(ib, map.getBody(), tiled.getBody())))
          return failure();
        // The last map's positive scale moves into the statistics (below).
        if (map == pattern->scoreMaps.back())
          scale = takeScale(tiled);
        Value result = tiled.getResult();
        if (causal && !masked) {
          Block &tiledBody = tiled.getBody().front();
          auto yield = cast<YieldOp>(tiledBody.getTerminator());
          auto select = cast<arith::SelectOp>(yield.getValue().getDefiningOp());
          Operation *cmp = select.getCondition().getDefiningOp();
          yield.getValueMutable().assign(select.getTrueValue());
          select.erase();
          if (cmp->use_empty())
            cmp->erase();
          if (yield.getValue() == tiledBody.getArgument(0)) {
            result = inputs.front();
            tiled.erase();
            // The positions (iota + offset) are read by nothing now.
            for (Value position : llvm::drop_begin(inputs)) {
              auto add = position.getDefiningOp<MapOp>();
              Operation *local = add.getInputs()[0].getDefiningOp();
              SmallVector<Operation *> captured;
              add.getBody().walk([&](Operation *inner) {
                for (Value operand : inner->getOperands())
                  if (Operation *def = operand.getDefiningOp();
                      def && !add->isAncestor(def))
                    captured.push_back(def);
              });
              add.erase();
              local->erase();
              for (Operation *def : captured)
                if (def->use_empty())
                  def->erase();
            }
          }
        }
        values.map(map.getResult(), result);
      }
      return values.lookup(pattern->x);
    };
    if (causal) {
      // Only the blocks that reach past the program's first query need
      // the mask: the one or two on the diagonal of each query block.
      Value lastKey = arith::AddIOp::create(lb, loc, n, kb.index(lb, bn - 1));
      Value onDiagonal = arith::CmpIOp::create(
          lb, loc, arith::CmpIPredicate::ugt, lastKey, m0);
      auto branch = scf::IfOp::create(lb, loc, TypeRange{scoreType},
                                      onDiagonal, /*withElse=*/true);
      for (bool masked : {true, false}) {
        Block *block = masked ? branch.thenBlock() : branch.elseBlock();
        OpBuilder ib = OpBuilder::atBlockBegin(block);
        FailureOr<Value> scores = scoreMaps(ib, masked);
        if (failed(scores))
          return failure();
        scf::YieldOp::create(ib, loc, *scores);
      }
      x = branch.getResult(0);
    } else {
      FailureOr<Value> scores = scoreMaps(lb, /*masked=*/true);
      if (failed(scores))
        return failure();
      x = *scores;
    }
    // Keys past Sk (zeros loaded) score -inf.
    if (sk % bn != 0)
      x = MaskOp::create(lb, loc, scoreType, x, ninf,
                         ValueRange{kb.index(lb, sq), kb.index(lb, sk)},
                         ValueRange{c0, n});
    // With the scale c taken out of the scores (x = s' c): max(x) =
    // c max(s') for c > 0, and exp(s' c - m) is one FFMA before ex2 with
    // fast math: one multiply per score less (bench/RESULTS.md, session 9).
    auto scaled = [&](OpBuilder &ib, Value v) -> Value {
      if (!scale)
        return v;
      Value c = arith::ConstantOp::create(ib, loc, ib.getF32FloatAttr(*scale));
      return arith::MulFOp::create(ib, loc, v, c);
    };
    Value blockMax = lm.reduce(rowType, x, ninf, /*isMax=*/true);
    Value mNew = lm.map(rowType, {m, blockMax},
                        [&](OpBuilder &ib, ValueRange a) {
                          return arith::MaximumFOp::create(ib, loc, a[0],
                                                           scaled(ib, a[1]));
                        });
    // The max the exponentials subtract: where a row has seen no key yet
    // (every one masked, mNew = -inf), 0, so that exp(-inf - 0) = 0 for
    // its scores and its rescaling instead of exp(-inf + inf) = NaN (as
    // FlashAttention-2 does).
    Value mExp = mNew;
    if (otherPositions)
      mExp = lm.map(rowType, {mNew}, [&](OpBuilder &ib, ValueRange a) -> Value {
        Value noKey = arith::CmpFOp::create(
            ib, loc, arith::CmpFPredicate::OEQ, a[0],
            f32Constant(ib, loc, -std::numeric_limits<double>::infinity()));
        return arith::SelectOp::create(ib, loc, noKey,
                                       f32Constant(ib, loc, 0.0), a[0]);
      });
    Value mWide = BroadcastOp::create(lb, loc, scoreType, mExp,
                                      lb.getDenseI64ArrayAttr({1}));
    auto expOf = [&](OpBuilder &ib, ValueRange a) -> Value {
      Value diff = arith::SubFOp::create(ib, loc, a[0], a[1]);
      return math::ExpOp::create(ib, loc, diff);
    };
    Value p = lm.map(scoreType, {x, mWide},
                     [&](OpBuilder &ib, ValueRange a) -> Value {
                       Value diff = arith::SubFOp::create(
                           ib, loc, scaled(ib, a[0]), a[1]);
                       auto exp = math::ExpOp::create(ib, loc, diff);
                       // The config's share of the exponentials for the
                       // FMA pipe, for tile-approximate-math.
                       if (config && config.getFmaExp2() > 0)
                         exp->setAttr(kFmaExp2AttrName,
                                      ib.getI64IntegerAttr(
                                          config.getFmaExp2()));
                       return exp;
                     });
    Value alpha = lm.map(rowType, {m, mExp}, expOf);
    Value blockSum = lm.reduce(rowType, p, zero, /*isMax=*/false);
    Value lNew = lm.map(rowType, {l, alpha, blockSum},
                        [&](OpBuilder &ib, ValueRange a) -> Value {
                          Value scaled = arith::MulFOp::create(ib, loc, a[0], a[1]);
                          return arith::AddFOp::create(ib, loc, scaled, a[2]);
                        });
    Value alphaWide = BroadcastOp::create(lb, loc, accType, alpha,
                                          lb.getDenseI64ArrayAttr({1}));
    Value rescaled = lm.map(accType, {acc, alphaWide},
                            [&](OpBuilder &ib, ValueRange a) {
                              return arith::MulFOp::create(ib, loc, a[0], a[1]);
                            });
    Value pCast = CastOp::create(lb, loc, tileOf({bm, bn}, element), p);
    Value vTile = LoadOp::create(lb, loc, tileOf({bn, dv}, element),
                                 kb.arg(vRows), ValueRange{keyRow, c0},
                                 nullptr);
    Value accNew = DotOp::create(lb, loc, accType, pCast, vTile, rescaled);
    scf::YieldOp::create(lb, loc, ValueRange{accNew, mNew, lNew});
  }
  Value lWide = BroadcastOp::create(b, loc, accType, loop.getResult(2),
                                    b.getDenseI64ArrayAttr({1}));
  Value out = mb.map(accType, {loop.getResult(0), lWide},
                     [&](OpBuilder &ib, ValueRange a) {
                       return arith::DivFOp::create(ib, loc, a[0], a[1]);
                     });
  // The epilogue after the output matmul (a cast to bf16), on the tile.
  for (Operation *op = pattern->output->getNextNode();
       op && !isa<YieldOp>(op); op = op->getNextNode()) {
    auto outType = cast<ShapedType>(op->getResult(0).getType());
    auto tileType = tileOf({bm, dv}, outType.getElementType());
    if (auto castOp = dyn_cast<CastOp>(op)) {
      out = CastOp::create(b, loc, tileType, out);
    } else if (auto map = dyn_cast<MapOp>(op)) {
      auto tiled = MapOp::create(b, loc, tileType, ValueRange{out});
      if (failed(kb.cloneRegion(b, map.getBody(), tiled.getBody())))
        return failure();
      out = tiled.getResult();
    } else {
      return op->emitOpError() << "cannot follow an attention block in its "
                                  "kernel";
    }
  }
  StoreOp::create(b, loc, out, oHead, ValueRange{qRow, c0});
  // A tensor-core schedule goes on the kernel for the tile-level passes.
  // Without a producer warpgroup, 128 query rows (two warpgroups) ask for
  // two programs per SM, whose register cap (128 a thread) keeps both
  // resident: measured on the H200 (bench/RESULTS.md, session 9), one
  // program per SM at 130 registers ran the causal kernel no faster than
  // the full one. With one, the program has the SM (tile-warp-specialize).
  if (config && config.getMma() != MmaKind::simt) {
    kb.kernel->setAttr(ConfigAttr::getAttrName(), config);
    if (bm >= 128 && !config.getWarpSpecialize())
      kb.kernel.setMinProgramsPerSm(2);
  }
  return success();
}
