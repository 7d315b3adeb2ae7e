//===- StreamK.cpp - tile-tile's stream-K matmul kernel ---------*- C++ -*-===//
//
// A persistent kernel of P programs (the target's SMs) over T output tiles
// of S K steps each, where T is not a multiple of P: whole tiles would leave
// the last round's SMs idle (at 8192^3 FP8, 2048 tiles of 128 x 256 are
// 15.52 rounds of 132: the kernel takes as long as 8448 x 8192 x 8192's 16
// whole rounds, bench/RESULTS.md session 45). CUTLASS's data-parallel +
// stream-K schedule instead:
// - R = T / P rounds of whole tiles: program p's j-th is tile p + j P of
//   the grouped order (TileOrder.h), as tile-persistent deals them;
// - the last T - R P tiles' W = (T - R P) S steps, in tile order, dealt as
//   contiguous ranges: program p takes steps [b(p), b(p + 1)) with b(p) =
//   floor(p W / P), cut at tile boundaries into parts (a part of tile t
//   runs the K loop over that tile's steps in the range).
// A part that is a whole tile runs the epilogue on its sum. Any other part
// stores its f32 partial in the workspace, at slot 2 p (the part that
// starts program p's range) or 2 p + 1 (the one that starts a tile inside
// it: a program's range has at most these two partial parts), and arrives
// on its tile's counter adding its steps (tile.last_arrival); the part
// whose arrival completes the tile's S steps adds the tile's partials in K
// order (the same sums whichever arrives last: no float atomics) and runs
// the epilogue. The parts of a tile are those of programs owner(first
// step) .. owner(last step), where owner(x) = ceil((x + 1) P / W) - 1 is
// the program whose range holds step x; every one but the first starts its
// program's range (slot 2 p). The sum reads a static number of parts (the
// most any tail tile has), the ones past the tile's last left out by a
// select.
// No program waits for another.
// With stream_k_part = Q steps (an overlapped K loop: tile-overlap takes
// a K loop of constant trips, or of a choice of two), the tail's steps go
// to the first W / Q programs, Q each: every part is Q steps of one tile
// at a K offset that is a multiple of Q, and the K loop runs S or Q steps.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"
#include "TileOrder.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::tiling;

namespace {

/// The schedule's numbers, all known when the kernel is built.
struct StreamKSchedule {
  int64_t tiles, steps, programs;
  int64_t rounds;       // of whole tiles, every program one a round
  int64_t tailTiles;    // after them
  int64_t tailSteps;    // W = tailTiles * steps
  int64_t tailPrograms; // the first ones, that take the tail's steps

  /// The program whose range holds tail step x.
  int64_t owner(int64_t x) const {
    return ((x + 1) * tailPrograms + tailSteps - 1) / tailSteps - 1;
  }
  /// The most parts of one tail tile.
  int64_t mostParts() const {
    int64_t most = 1;
    for (int64_t t = 0; t < tailTiles; ++t)
      most =
          std::max(most, owner(t * steps + steps - 1) - owner(t * steps) + 1);
    return most;
  }
};

/// Index arithmetic inside the kernel, one op per statement (the order of
/// a call's arguments is unspecified in C++, and the IR must not depend on
/// the host compiler).
struct Arith {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value min(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value max(Value x, Value y) { return arith::MaxUIOp::create(b, loc, x, y); }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value ule(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  /// b(p) = floor(p W / P) (P the tail's programs).
  Value rangeStart(const StreamKSchedule &s, Value p) {
    Value scaled = mul(p, c(s.tailSteps));
    return div(scaled, c(s.tailPrograms));
  }
  /// ceil((x + 1) P / W) - 1.
  Value owner(const StreamKSchedule &s, Value x) {
    Value next = add(x, c(1));
    Value scaled = mul(next, c(s.tailPrograms));
    Value rounded = add(scaled, c(s.tailSteps - 1));
    Value ceil = div(rounded, c(s.tailSteps));
    return sub(ceil, c(1));
  }
  /// Slot 2 p, or 2 p + 1 where the part does not start p's range.
  Value slot(Value p, Value startsRange) {
    Value twice = mul(p, c(2));
    Value second = add(twice, c(1));
    return select(startsRange, twice, second);
  }
};

} // namespace

LogicalResult tiling::buildStreamK(KernelBuilder &kb, const MatmulBuffers &bufs,
                                   const MatmulTiling &tiling, int64_t m,
                                   ValueRange args, ConfigAttr config,
                                   SplitKFinish finish) {
  Location loc = kb.loc;
  OpBuilder &host = kb.host;
  if (tiling.splits != 1)
    return kb.op->emitOpError()
           << "has a stream_k config with split_k = " << tiling.splits
           << " (stream-K cuts the tiles along K itself)";
  TargetAttr target = TargetAttr::lookup(kb.op);
  int64_t sms = target ? target.getSmCount() : 0;
  if (sms <= 0)
    return kb.op->emitOpError()
           << "has a stream_k config, which needs the target's SM count "
              "(tile.target with sms, or a chip in the table)";
  StreamKSchedule s;
  int64_t numM = tiling.grid[0], numN = tiling.grid[1];
  s.tiles = numM * numN;
  s.steps = ceilDiv(bufs.k, tiling.tk);
  s.programs = sms;
  s.rounds = s.tiles / s.programs;
  s.tailTiles = s.tiles - s.rounds * s.programs;
  s.tailSteps = s.tailTiles * s.steps;
  s.tailPrograms = s.programs;
  // Parts shorter than a tile, that divide it (a part of a whole tile
  // would give its loop a third trip count: that of the even deal).
  int64_t part = config.getStreamKPart();
  if (part > 0 && (part >= s.steps || s.steps % part != 0 ||
                   s.tailSteps / part > s.programs))
    return kb.op->emitOpError()
           << "has stream_k_part = " << part << ", which must be shorter "
           << "than a tile's " << s.steps << " K steps of " << tiling.tk
           << ", divide them and leave no more parts than the " << s.programs
           << " programs (the " << s.tailTiles
           << " tiles past the whole rounds have " << s.tailSteps << " steps)";
  if (part > 0)
    s.tailPrograms = s.tailSteps / part;
  // Every program's range must hold a step, or a tile's sum would read a
  // part no one wrote.
  if (s.tailTiles > 0 && s.tailSteps < s.tailPrograms)
    return kb.op->emitOpError()
           << "has a stream_k config, but the " << s.tailTiles
           << " tiles past the whole rounds have " << s.tailSteps
           << " K steps of " << tiling.tk << ", fewer than the "
           << s.tailPrograms << " programs";

  Value workspace, counters;
  SmallVector<Value> own;
  if (s.tailTiles > 0) {
    workspace = memref::AllocOp::create(
        host, loc,
        MemRefType::get({2 * s.programs * tiling.tm, tiling.tn},
                        host.getF32Type()));
    auto zeroed = memref::AllocOp::create(
        host, loc, MemRefType::get({s.tailTiles}, host.getI32Type()));
    zeroed->setAttr(kZeroedAttrName, host.getUnitAttr());
    counters = zeroed;
    own = {workspace, counters};
  }
  OpBuilder b = kb.begin(matmulKernelArgs(bufs, own, args), {s.programs});
  Arith a{b, loc};

  // The program's range of tail steps and its items: the whole rounds'
  // tiles, then one part per tail tile the range touches.
  Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), 0);
  Value items = a.c(s.rounds);
  // Parts of `part` steps (shorter than a tile): program p < W / part
  // takes part p mod (steps / part) of tail tile p / (steps / part), one
  // item after its rounds; every tail tile has steps / part parts. What
  // an item and the code after its K loop need is computed from the item
  // and the program alone (fewer values live across the K loop, which an
  // overlapped loop has no registers to spare for).
  bool parted = part > 0 && s.tailTiles > 0;
  int64_t partsPerTile = parted ? s.steps / part : 0;
  Value rangeBegin, rangeEnd, firstTail;
  if (parted) {
    Value takesTail = a.ult(pid, a.c(s.tailPrograms));
    items = a.select(takesTail, a.c(s.rounds + 1), items);
  } else if (s.tailTiles > 0) {
    rangeBegin = a.rangeStart(s, pid);
    Value nextPid = a.add(pid, a.c(1));
    rangeEnd = a.rangeStart(s, nextPid);
    firstTail = a.div(rangeBegin, a.c(s.steps));
    Value lastStep = a.sub(rangeEnd, a.c(1));
    Value lastTail = a.div(lastStep, a.c(s.steps));
    Value touched = a.sub(lastTail, firstTail);
    Value parts = a.add(touched, a.c(1));
    items = a.add(items, parts);
  }
  Value firstItem = a.c(0);
  Value oneItem = a.c(1);
  auto loop = scf::ForOp::create(b, loc, firstItem, items, oneItem);
  b.setInsertionPointToStart(loop.getBody());
  Value item = loop.getInductionVar();

  // Item `item`: a whole-round tile, or a part of tail tile `tail`.
  Value tile = a.add(pid, a.mul(item, a.c(s.programs)));
  Value kBegin, kEnd, tail, tailStart, partBegin, inRounds;
  if (s.tailTiles > 0)
    inRounds = a.ult(item, a.c(s.rounds));
  if (parted) {
    tail = a.div(pid, a.c(partsPerTile));
    Value tailTile = a.add(tail, a.c(s.rounds * s.programs));
    tile = a.select(inRounds, tile, tailTile);
    Value partIndex = arith::RemUIOp::create(b, loc, pid, a.c(partsPerTile));
    Value partFirst = a.mul(partIndex, a.c(part));
    kBegin = a.select(inRounds, a.c(0), partFirst);
  } else if (s.tailTiles > 0) {
    Value afterRounds = a.sub(item, a.c(s.rounds));
    Value partIndex = a.select(inRounds, a.c(0), afterRounds);
    tail = a.add(firstTail, partIndex);
    tailStart = a.mul(tail, a.c(s.steps));
    Value tailEnd = a.add(tailStart, a.c(s.steps));
    partBegin = a.max(rangeBegin, tailStart);
    Value partEnd = a.min(rangeEnd, tailEnd);
    Value tailTile = a.add(tail, a.c(s.rounds * s.programs));
    tile = a.select(inRounds, tile, tailTile);
    Value partFirst = a.sub(partBegin, tailStart);
    kBegin = a.select(inRounds, a.c(0), partFirst);
    Value partLast = a.sub(partEnd, tailStart);
    kEnd = a.select(inRounds, a.c(s.steps), partLast);
  }
  auto [blockRow, blockCol] = groupedTileOrder(
      b, loc, tile, numM, numN, std::max<int64_t>(1, config.getGroupRows()));
  Value m0 = a.mul(blockRow, a.c(tiling.tm));
  Value n0 = a.mul(blockCol, a.c(tiling.tn));
  if (s.tailTiles == 0) {
    // Whole rounds only (T a multiple of P): tile-persistent's loop.
    Value acc = buildMatmulLoop(kb, b, bufs, m0, n0, tiling.tm, tiling.tn,
                                tiling.tk, bufs.k);
    return finish(b, acc, {tiling.tm, tiling.tn}, m0, n0);
  }
  Value kOffset = a.mul(kBegin, a.c(tiling.tk));
  // A part's steps, and its extent: with parts of `part` steps a select of
  // two constants (a whole tile's or a part's), so that tile-overlap sees
  // the K loop's two trip counts.
  Value partSteps, kExtent;
  if (parted) {
    partSteps = a.c(part);
    kExtent =
        a.select(inRounds, a.c(s.steps * tiling.tk), a.c(part * tiling.tk));
  } else {
    partSteps = a.sub(kEnd, kBegin);
    kExtent = a.mul(partSteps, a.c(tiling.tk));
  }
  Value acc = buildMatmulLoop(kb, b, bufs, m0, n0, tiling.tm, tiling.tn,
                              tiling.tk, bufs.k, kOffset, kExtent,
                              /*withinSteps=*/true);

  Value whole = parted ? inRounds : a.eq(partSteps, a.c(s.steps));
  auto ifWhole = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
  OpBuilder wb = OpBuilder::atBlockTerminator(ifWhole.thenBlock());
  if (failed(finish(wb, acc, {tiling.tm, tiling.tn}, m0, n0)))
    return failure();

  // A part: its partial into its slot, then its arrival.
  OpBuilder pb = OpBuilder::atBlockTerminator(ifWhole.elseBlock());
  Arith pa{pb, loc};
  Value ws = kb.arg(workspace);
  Value slot = parted ? pa.mul(pid, pa.c(2))
                      : pa.slot(pid, pa.eq(partBegin, rangeBegin));
  Value slotRow = pa.mul(slot, pa.c(tiling.tm));
  StoreOp::create(pb, loc, acc, ws, ValueRange{slotRow, pa.c(0)});
  Value last =
      LastArrivalOp::create(pb, loc, pb.getI1Type(), kb.arg(counters), tail,
                            pb.getI64IntegerAttr(s.steps), partSteps);
  auto ifLast = scf::IfOp::create(pb, loc, last, /*withElseRegion=*/false);
  OpBuilder in = OpBuilder::atBlockTerminator(ifLast.thenBlock());
  Arith ia{in, loc};
  // The tile's parts: programs first .. lastOwner, the first one's slot
  // by whether the tile starts its range.
  Value firstOwner, lastOwner, firstSlot;
  if (parted) {
    // Programs pid - pid mod (steps / part) .. + steps / part - 1.
    Value rest = arith::RemUIOp::create(in, loc, pid, ia.c(partsPerTile));
    firstOwner = ia.sub(pid, rest);
    firstSlot = ia.mul(firstOwner, ia.c(2));
  } else {
    Value tailLastStep = ia.add(tailStart, ia.c(s.steps - 1));
    firstOwner = ia.owner(s, tailStart);
    lastOwner = ia.owner(s, tailLastStep);
    Value firstOwnerStart = ia.rangeStart(s, firstOwner);
    Value firstStartsRange = ia.eq(firstOwnerStart, tailStart);
    firstSlot = ia.slot(firstOwner, firstStartsRange);
  }
  // Chunks of rows keep the sum's registers few; with M under one tile's
  // rows only those that hold M are added.
  int64_t chunkRows = std::min(tiling.tm, tileSizeFor(m, 16));
  int64_t rows = std::min<int64_t>(tiling.tm, llvm::alignTo(m, chunkRows));
  Value r;
  if (rows > chunkRows) {
    Value first = ia.c(0);
    Value end = ia.c(rows);
    Value step = ia.c(chunkRows);
    auto chunks = scf::ForOp::create(in, loc, first, end, step);
    in.setInsertionPoint(chunks.getBody()->getTerminator());
    r = chunks.getInductionVar();
  } else {
    r = ia.c(0);
  }
  auto type = TileType::get({chunkRows, tiling.tn}, in.getF32Type());
  MapBuilder maps{in, loc};
  auto readSlot = [&](Value slotIndex) -> Value {
    Value base = ia.mul(slotIndex, ia.c(tiling.tm));
    Value row = ia.add(base, r);
    return LoadOp::create(in, loc, type, ws, ValueRange{row, ia.c(0)}, nullptr);
  };
  Value sum = readSlot(firstSlot);
  int64_t mostParts = s.mostParts();
  for (int64_t q = 1; q < mostParts; ++q) {
    // Part q of the tile, if it has one: program firstOwner + q's first
    // slot; past the last, the last part's slot again (written), left out
    // by a select (not times zero: an infinite partial would make NaN).
    Value owner = ia.add(firstOwner, ia.c(q));
    if (parted) { // every tail tile has mostParts parts
      Value partial = readSlot(ia.mul(owner, ia.c(2)));
      sum = maps.map(type, ValueRange{sum, partial},
                     [&](OpBuilder &mb, ValueRange x) -> Value {
                       return arith::AddFOp::create(mb, loc, x[0], x[1]);
                     });
      continue;
    }
    Value present = ia.ule(owner, lastOwner);
    Value clamped = ia.min(owner, lastOwner);
    Value twice = ia.mul(clamped, ia.c(2));
    Value partial = readSlot(twice);
    Value one = arith::ConstantOp::create(in, loc, in.getF32FloatAttr(1.0));
    Value zero = arith::ConstantOp::create(in, loc, in.getF32FloatAttr(0.0));
    Value flag = arith::SelectOp::create(in, loc, present, one, zero);
    Value flags = SplatOp::create(in, loc, type, flag);
    sum = maps.map(type, ValueRange{sum, partial, flags},
                   [&](OpBuilder &mb, ValueRange x) -> Value {
                     Value added = arith::AddFOp::create(mb, loc, x[0], x[1]);
                     Value off = arith::ConstantOp::create(
                         mb, loc, mb.getF32FloatAttr(0.0));
                     Value kept = arith::CmpFOp::create(
                         mb, loc, arith::CmpFPredicate::ONE, x[2], off);
                     return arith::SelectOp::create(mb, loc, kept, added, x[0]);
                   });
  }
  Value rowStart = ia.add(m0, r);
  if (failed(finish(in, sum, {chunkRows, tiling.tn}, rowStart, n0)))
    return failure();
  memref::DeallocOp::create(host, loc, workspace);
  memref::DeallocOp::create(host, loc, counters);
  return success();
}
