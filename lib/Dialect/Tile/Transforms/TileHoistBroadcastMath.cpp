//===- TileHoistBroadcastMath.cpp - Math on a broadcast, before it -*- C++ -*-===//
//
// tile-hoist-broadcast-math: in a tile.map one of whose inputs is a
// tile.broadcast, the ops of the body that depend on that input alone
// (and constants) compute the same value for every copy the broadcast
// makes. Where they are two or more (a lone conversion is left where it
// is) and end in one value, they move into a tile.map over the broadcast's
// input, whose result is broadcast instead: a dequantized weight's e8m0
// scale decoded once a scale, not once a weight value (MXFP4 in runs of 8
// on the transposed product: about 150 of its K loop's 897 SASS
// instructions a step decode the scales per value; bench/RESULTS.md,
// session 34). An f32 value that is exactly a bf16 (a bf16 widened, or
// bits whose low half is zero, as an e8m0 scale's are: BF16Bits.h)
// travels as bf16 and is widened where it is used, so that
// tile-packed-dequant still finds a bf16 factor there. Tiles without
// layouts (before tile-assign-layouts). On the H200 the MXFP4 16x8192x8192
// mma.sync kernel went from 41.7 to 38.6 us with it (bench/RESULTS.md,
// session 36).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/BF16Bits.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SetVector.h"

#define DEBUG_TYPE "tile-hoist-broadcast-math"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEHOISTBROADCASTMATHPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Moves the ops of `map`'s body that depend on input `index` (a
/// tile.broadcast) alone into a map over the broadcast's input. Returns
/// whether it did.
bool hoist(MapOp map, unsigned index) {
  auto broadcast = map.getInputs()[index].getDefiningOp<BroadcastOp>();
  if (!broadcast)
    return false;
  Block &body = map.getBody().front();
  BlockArgument arg = body.getArgument(index);
  // The ops that depend on `arg` alone, in the body's order.
  llvm::SetVector<Operation *> alone;
  for (Operation &op : body.without_terminator()) {
    if (op.getNumRegions() != 0 || op.getNumResults() != 1)
      continue;
    bool dependsOnArg = false, onlyArg = true;
    for (Value operand : op.getOperands()) {
      if (operand == arg) {
        dependsOnArg = true;
      } else if (Operation *def = operand.getDefiningOp();
                 def && alone.contains(def)) {
        dependsOnArg = true;
      } else if (!operand.getDefiningOp<arith::ConstantOp>()) {
        onlyArg = false; // (constants of arith only: the map body's kind)
      }
    }
    if (dependsOnArg && onlyArg)
      alone.insert(&op);
  }
  // The values the rest of the body reads: exactly one, computed by two
  // or more ops.
  SmallVector<Value> roots;
  for (Operation *op : alone)
    for (OpOperand &use : op->getResult(0).getUses())
      if (!alone.contains(use.getOwner())) {
        roots.push_back(op->getResult(0));
        break;
      }
  bool argElsewhere = llvm::any_of(arg.getUsers(), [&](Operation *user) {
    return !alone.contains(user);
  });
  if (roots.size() != 1 || alone.size() < 2 || argElsewhere)
    return false;
  Value root = roots.front();
  // A tile holds integers or floats (not index).
  if (!root.getType().isIntOrFloat())
    return false;
  // Exactly a bf16 (BF16Bits.h): travels as one; a widened bf16 as the
  // bf16 itself.
  bool narrow = isExactBF16(root);
  auto widened = narrow ? root.getDefiningOp<arith::ExtFOp>() : nullptr;

  // The map over the broadcast's input, where the broadcast is (not into
  // a loop the map may be in).
  OpBuilder b(broadcast->getContext());
  b.setInsertionPointAfter(broadcast);
  Location loc = map.getLoc();
  auto inputType = cast<TileType>(broadcast.getInput().getType());
  Type element = narrow ? b.getBF16Type() : root.getType();
  auto hoistedType = TileType::get(inputType.getShape(), element);
  auto hoisted =
      MapOp::create(b, loc, hoistedType, ValueRange{broadcast.getInput()});
  {
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(&hoisted.getBody(), {},
                                 {inputType.getElementType()}, {loc});
    IRMapping mapping;
    mapping.map(arg, block->getArgument(0));
    for (Operation *op : alone) {
      // The constants it reads, cloned into the new body first.
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp();
            def && !alone.contains(def) && !mapping.contains(operand))
          b.clone(*def, mapping);
      b.clone(*op, mapping);
    }
    Value result = mapping.lookup(root);
    // The f32 root's clone is not yielded then: erased below.
    Operation *unusedRoot = narrow ? result.getDefiningOp() : nullptr;
    if (widened) {
      result = mapping.lookup(widened.getIn());
    } else if (narrow) {
      // The bits' high half, taken as integers: what a truncf would give
      // (the low half is zero), NaN payloads too, and LLVM can narrow the
      // selects and shifts that chose the bits to 16 bits.
      Value bits =
          mapping.lookup(root.getDefiningOp<arith::BitcastOp>().getIn());
      Value high = arith::ShRUIOp::create(
          b, loc, bits, arith::ConstantIntOp::create(b, loc, 16, 32));
      Value half = arith::TruncIOp::create(b, loc, b.getI16Type(), high);
      result = arith::BitcastOp::create(b, loc, element, half);
    }
    YieldOp::create(b, loc, result);
    if (unusedRoot && unusedRoot->use_empty())
      unusedRoot->erase();
  }
  auto broadcastType = cast<TileType>(broadcast.getType());
  auto spreadType = TileType::get(broadcastType.getShape(), element);
  Value spread = BroadcastOp::create(b, loc, spreadType, hoisted.getResult(),
                                     broadcast.getDims());
  map->setOperand(index, spread);
  arg.setType(element);
  OpBuilder in = OpBuilder::atBlockBegin(&body);
  Value replacement = arg;
  if (narrow)
    replacement = arith::ExtFOp::create(in, loc, root.getType(), arg);
  root.replaceAllUsesWith(replacement);
  for (Operation *op : llvm::reverse(alone))
    op->erase();
  if (broadcast->use_empty())
    broadcast->erase();
  return true;
}

struct TileHoistBroadcastMathPass
    : public tile::impl::TileHoistBroadcastMathPassBase<
          TileHoistBroadcastMathPass> {
  void runOnOperation() override {
    SmallVector<MapOp> maps;
    getOperation().walk([&](MapOp map) {
      if (isa<TileType>(map.getType()))
        maps.push_back(map);
    });
    for (MapOp map : maps) {
      if (cast<TileType>(map.getType()).getLayout())
        continue;
      for (unsigned i = 0; i < map.getInputs().size(); ++i)
        hoist(map, i);
    }
  }
};

} // namespace
