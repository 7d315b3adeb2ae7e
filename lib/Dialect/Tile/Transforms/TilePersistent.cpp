//===- TilePersistent.cpp - Programs to output tiles ------------*- C++ -*-===//
//
// tile-persistent: for a kernel over a 2-D grid of output tiles (or 3-D:
// split-K's K ranges, outermost) whose config asks for it, replaces the
// program ids by tile coordinates taken in a better order, over a 1-D
// grid:
// - `group_rows` = G > 1: tiles in groups of G block-rows, column by column
//   inside a group, so that the tiles in flight together share B tiles in
//   L2 (measured on the H200, bench/RESULTS.md "tile order"; TileOrder.h);
// - `persistent`: P programs, each looping over tiles p, p + P, ...: the
//   prologue and epilogue of one tile overlap the next tile's copies once
//   the loop is pipelined and warp specialized. P is the fewest programs
//   (whole clusters of the config's cluster along M) that take the tiles
//   in as many rounds as min(tiles, SMs) programs would (the target's SM
//   count), or that many with `every_sm` or `mirror_rows`;
// - `mirror_rows` (persistent): pairs u of block-rows i and M - 1 - i of
//   one column, column by column, program p taking pairs p, p + P, ...
//   and the two tiles of each one after the other: where a tile's work
//   grows with its block-row (causal attention), each pair is the same
//   work, so static shares stay even, and the columns in flight together
//   are few (their K and V stay in L2). Pairs fill whole rounds of P only
//   up to a column boundary; the last columns' tiles are dealt one by one,
//   block-row 0 first, in a snake over the programs (0 .. P - 1, then
//   P - 1 .. 0). Where block-row 0 is the most work (tile-tile's causal
//   attention numbers its query blocks longest first), that evens out what
//   a last, partial round of pairs would leave to a few programs.
// A stream_k config's kernel is persistent as tile-tile builds it (a 1-D
// grid: left as it is).
//
//===----------------------------------------------------------------------===//

#include "TileOrder.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#define DEBUG_TYPE "tile-persistent"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPERSISTENTPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Moves every op after `loop` in its block, but the terminator, into the
/// loop's body; returns the body.
Block *wrapRest(scf::ForOp loop) {
  Block *outer = loop->getBlock();
  Block *inner = loop.getBody();
  inner->getOperations().splice(Block::iterator(inner->getTerminator()),
                                outer->getOperations(),
                                std::next(Block::iterator(loop)),
                                Block::iterator(outer->getTerminator()));
  return inner;
}

struct TilePersistentPass
    : public tile::impl::TilePersistentPassBase<TilePersistentPass> {
  void runOnOperation() override {
    WalkResult walk = getOperation().walk([&](KernelOp kernel) {
      auto config = kernel->getAttrOfType<ConfigAttr>(ConfigAttr::getAttrName());
      size_t rank = kernel.getGrid().size();
      if (config && config.getMirrorRows() && rank != 2) {
        kernel.emitError() << "mirror_rows needs a 2-D grid with an even "
                              "number of block-rows, got "
                           << rank << " grid dimensions";
        return WalkResult::interrupt();
      }
      if (!config || rank < 2 || rank > 3 ||
          (!config.getPersistent() && config.getGroupRows() <= 1))
        return WalkResult::advance();
      if (failed(rewrite(kernel, config)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult rewrite(KernelOp kernel, ConfigAttr config) {
    int64_t numM = kernel.getGrid()[0], numN = kernel.getGrid()[1];
    int64_t numSplits = kernel.getGrid().size() == 3 ? kernel.getGrid()[2] : 1;
    int64_t tiles = numM * numN * numSplits;
    int64_t programs = tiles;
    if (config.getMirrorRows() && (numSplits != 1 || numM % 2 != 0))
      return kernel.emitError()
             << "mirror_rows needs a 2-D grid with an even number of "
                "block-rows, got grid ["
             << numM << ", " << numN
             << (numSplits != 1 ? ", " + std::to_string(numSplits) : "")
             << "]";
    // A 1-D grid of every tile must stay under CUDA's limit along x;
    // beyond it the grid keeps its dimensions (and its row-major order).
    if (!config.getPersistent() && tiles > 2147483647)
      return success();
    if (config.getPersistent()) {
      TargetAttr target = TargetAttr::lookup(kernel);
      int64_t sms = target ? target.getSmCount() : 0;
      if (sms <= 0)
        return kernel.emitError() << "a persistent kernel needs the target's "
                                     "SM count (tile.target with sms, or a "
                                     "chip in the table)";
      int64_t slots = config.getMirrorRows() ? tiles / 2 : tiles;
      programs = std::min(slots, sms);
      // A cluster of C programs along M: whole clusters, so that programs
      // C c .. C c + C - 1 hold tiles of C block-rows of one block-column in
      // every round (with group_rows and the block-rows multiples of C, as
      // tile-configure checks, C consecutive tiles are such).
      ArrayRef<int64_t> cluster = config.getCluster();
      int64_t clusterSize = cluster.empty() ? 1 : cluster[0];
      if (clusterSize > 1) {
        if (programs < clusterSize)
          return kernel.emitError()
                 << "a persistent kernel in clusters of " << clusterSize
                 << " programs needs at least as many SMs, got " << sms;
        programs -= programs % clusterSize;
      }
      // Without every_sm, the fewest programs that take the tiles in as
      // many rounds (whole clusters): the same makespan, the tiles dealt
      // evenly, and the SMs left over idle, which under the power cap
      // leaves the rest their clocks (8192^3 FP8: 2048 tiles in 16 rounds
      // of 128, not 15.5 of 132; bench/RESULTS.md session 46). Mirrored
      // pairs keep their deal (its last columns' snake counts on every
      // SM).
      if (!config.getMirrorRows() && !config.getEverySm()) {
        int64_t rounds = llvm::divideCeil(slots, programs);
        programs =
            llvm::divideCeil(llvm::divideCeil(slots, rounds), clusterSize) *
            clusterSize;
      }
    }
    Block &body = kernel.getBody().front();
    Location loc = kernel.getLoc();
    OpBuilder b = OpBuilder::atBlockBegin(&body);
    Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), 0);
    Value tile = pid;
    Block *inner = &body;
    if (config.getMirrorRows())
      return mirrored(kernel, b, pid, numM, numN, programs);
    if (config.getPersistent()) {
      // for tile = pid; tile < tiles; tile += programs { old body }
      Value end = arith::ConstantIndexOp::create(b, loc, tiles);
      Value step = arith::ConstantIndexOp::create(b, loc, programs);
      auto loop = scf::ForOp::create(b, loc, pid, end, step);
      inner = wrapRest(loop);
      tile = loop.getInductionVar();
      b.setInsertionPointToStart(inner);
    }
    // The K range outermost: the programs in flight together work on one
    // range of K for many output tiles.
    Value split = arith::ConstantIndexOp::create(b, loc, 0);
    if (numSplits > 1) {
      Value perSplit = arith::ConstantIndexOp::create(b, loc, numM * numN);
      split = arith::DivUIOp::create(b, loc, tile, perSplit);
      tile = arith::RemUIOp::create(b, loc, tile, perSplit);
    }
    auto [blockRow, blockCol] = groupedTileOrder(
        b, loc, tile, numM, numN, std::max<int64_t>(1, config.getGroupRows()));
    Value coordinate[3] = {blockRow, blockCol, split};
    replaceProgramIds(kernel, pid, coordinate);
    kernel.setGridAttr(b.getDenseI64ArrayAttr({programs}));
    return success();
  }

  /// The kernel's program ids but `pid` (the new one) replaced by the
  /// tile's coordinates.
  static void replaceProgramIds(KernelOp kernel, Value pid,
                                ArrayRef<Value> coordinate) {
    SmallVector<ProgramIdOp> ids;
    kernel.walk([&](ProgramIdOp id) {
      if (id.getResult() != pid)
        ids.push_back(id);
    });
    for (ProgramIdOp id : ids) {
      id.replaceAllUsesWith(coordinate[id.getDim()]);
      id.erase();
    }
  }

  /// mirror_rows: F rounds of pairs, then the rest tile by tile.
  ///
  /// Pairs: program p runs steps j < 2F; step j is pair u = p + (j / 2) P,
  /// of column u / (M / 2), and of its two block-rows i = u % (M / 2) (even
  /// j) or M - 1 - i (odd j). F is the most rounds of P pairs that end on
  /// a column boundary (F P a multiple of M / 2).
  ///
  /// The rest: the T = C M tiles of the last C columns, block-row by
  /// block-row: tile t is block-row t / C of column (N - C) + t % C; round
  /// r of them deals tiles r P .. r P + P - 1 to programs 0 .. P - 1 (even
  /// r) or P - 1 .. 0 (odd r). Where a tile's work falls with its
  /// block-row (causal attention's query blocks, which tile-tile numbers
  /// longest first), that is largest first, and the programs' shares
  /// differ by about one small tile, where a last partial round of pairs
  /// leaves a whole pair's work to some programs and none to the others
  /// (bench/RESULTS.md, session 25). One loop, with unit steps, so that
  /// tile-pipeline rings it as any other.
  static LogicalResult mirrored(KernelOp kernel, OpBuilder &b, Value pid,
                                int64_t numM, int64_t numN,
                                int64_t programs) {
    Location loc = kernel.getLoc();
    auto idx = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    int64_t half = numM / 2, pairs = half * numN;
    int64_t rounds = pairs / programs;
    while (rounds > 0 && rounds * programs % half != 0)
      --rounds;
    int64_t columnsLeft = numN - rounds * programs / half;
    int64_t tilesLeft = columnsLeft * numM;
    int64_t dealRounds = tilesLeft / programs,
            dealtLast = tilesLeft % programs;
    // Steps: 2F, plus the program's share of the rest: one per whole round
    // of it, and one of the last round's, which goes to the first programs
    // (an even round) or to the last ones (an odd round).
    Value steps = idx(2 * rounds + dealRounds);
    if (dealtLast > 0) {
      Value inLast =
          dealRounds % 2 == 0
              ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pid,
                                      idx(dealtLast))
              : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, pid,
                                      idx(programs - dealtLast));
      Value extra =
          arith::IndexCastUIOp::create(b, loc, b.getIndexType(), inLast);
      steps = arith::AddIOp::create(b, loc, steps, extra);
    }
    auto loop = scf::ForOp::create(b, loc, idx(0), steps, idx(1));
    b.setInsertionPointToStart(wrapRest(loop));
    Value j = loop.getInductionVar();
    Value row, column;
    if (rounds > 0) {
      Value turn = arith::DivUIOp::create(b, loc, j, idx(2));
      Value offset = arith::MulIOp::create(b, loc, turn, idx(programs));
      Value pair = arith::AddIOp::create(b, loc, pid, offset);
      column = arith::DivUIOp::create(b, loc, pair, idx(half));
      Value lower = arith::RemUIOp::create(b, loc, pair, idx(half));
      Value upper = arith::SubIOp::create(b, loc, idx(numM - 1), lower);
      Value parity = arith::RemUIOp::create(b, loc, j, idx(2));
      Value odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                        parity, idx(0));
      row = arith::SelectOp::create(b, loc, odd, upper, lower);
    }
    if (columnsLeft > 0) {
      // Round r of the rest, and the program's place in its snake order.
      Value r = arith::SubIOp::create(b, loc, j, idx(2 * rounds));
      Value back = arith::SubIOp::create(b, loc, idx(programs - 1), pid);
      Value rParity = arith::RemUIOp::create(b, loc, r, idx(2));
      Value reversed = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, rParity, idx(0));
      Value place = arith::SelectOp::create(b, loc, reversed, back, pid);
      Value first = arith::MulIOp::create(b, loc, r, idx(programs));
      Value t = arith::AddIOp::create(b, loc, first, place);
      Value restRow = arith::DivUIOp::create(b, loc, t, idx(columnsLeft));
      Value within = arith::RemUIOp::create(b, loc, t, idx(columnsLeft));
      Value restColumn =
          arith::AddIOp::create(b, loc, idx(numN - columnsLeft), within);
      if (rounds > 0) {
        Value inRest = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::uge, j, idx(2 * rounds));
        row = arith::SelectOp::create(b, loc, inRest, restRow, row);
        column = arith::SelectOp::create(b, loc, inRest, restColumn, column);
      } else {
        row = restRow;
        column = restColumn;
      }
    }
    replaceProgramIds(kernel, pid, {row, column});
    kernel.setGridAttr(b.getDenseI64ArrayAttr({programs}));
    return success();
  }
};

} // namespace
