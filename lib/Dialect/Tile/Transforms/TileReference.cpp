//===- TileReference.cpp - Naive reference kernels ---------------*- C++ -*-===//
//
// The tile-reference pass: the naive pipeline whose results the runner
// compares against. One thread per output element, scalar memref loads and
// loops, matmuls accumulated in f64. Its tiling and schedule share nothing
// with the main stage's, but some scalar semantics do share code, so a
// fault there shows on both sides and the check cannot see it (an audit's
// list, session 31): element casts (buildElementCast: fp8 rounding and
// saturation), the 4-bit unpacking orders (buildInterleavedNibble,
// buildKRunsColumn), map bodies (cloneScalarRegion), and the device
// pipeline's scalar rewrites that both stages go through
// (tile-packed-dequant, tile-small-int-to-float, tile-lower-fp8-casts;
// fast math and the logistic tanh are off for the reference). Tests of
// those need values fixed by hand or computed elsewhere (torch).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/KernelPerOp.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/TypeSwitch.h"

#define DEBUG_TYPE "tile-reference"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEREFERENCEPASS
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

static constexpr int64_t kThreads = 256;

static Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// Row-major multi-index of `linear` in `shape`.
static SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                                      ArrayRef<int64_t> shape) {
  SmallVector<Value> indices(shape.size());
  for (int64_t d = shape.size() - 1; d >= 0; --d) {
    Value extent = indexConstant(b, loc, shape[d]);
    indices[d] = arith::RemUIOp::create(b, loc, linear, extent);
    linear = arith::DivUIOp::create(b, loc, linear, extent);
  }
  return indices;
}

/// Computes the element of `op`'s result at `indices`, reading operands
/// through `buffers` (already mapped into the kernel).
static FailureOr<Value> computeElement(OpBuilder &b, Operation *op,
                                       ArrayRef<Value> buffers,
                                       ArrayRef<Value> indices,
                                       IRMapping &scalars) {
  Location loc = op->getLoc();
  auto load = [&](Value buffer, ValueRange at) -> Value {
    return memref::LoadOp::create(b, loc, buffer, at);
  };
  return TypeSwitch<Operation *, FailureOr<Value>>(op)
      .Case([&](MapOp map) -> FailureOr<Value> {
        SmallVector<Value> args;
        for (Value buffer : buffers)
          args.push_back(load(buffer, indices));
        if (failed(materializeCapturedScalars(b, map.getBody(), scalars, op)))
          return failure();
        return cloneScalarRegion(b, map.getBody(), args, scalars);
      })
      .Case([&](CastOp castOp) -> FailureOr<Value> {
        Type to = cast<ShapedType>(castOp.getType()).getElementType();
        return buildElementCast(b, loc, load(buffers[0], indices), to);
      })
      .Case([&](IotaOp iota) -> FailureOr<Value> {
        Type element = cast<ShapedType>(iota.getType()).getElementType();
        return arith::IndexCastOp::create(b, loc, element,
                                          indices[iota.getDim()])
            .getResult();
      })
      .Case([&](TransposeOp) -> FailureOr<Value> {
        SmallVector<Value> at(indices);
        std::swap(at[at.size() - 2], at[at.size() - 1]);
        return load(buffers[0], at);
      })
      .Case([&](RepeatOp repeat) -> FailureOr<Value> {
        SmallVector<Value> at(indices);
        at[repeat.getDim()] = arith::DivUIOp::create(
            b, loc, at[repeat.getDim()],
            indexConstant(b, loc, repeat.getTimes()));
        return load(buffers[0], at);
      })
      .Case([&](UnpackOp unpack) -> FailureOr<Value> {
        // Byte j / 2, shifted so that nibble j % 2 is on top, then shifted
        // back down (arithmetically for signed values).
        SmallVector<Value> at(indices);
        Value two = indexConstant(b, loc, 2);
        Value last = at.back();
        if (std::optional<ArrayRef<int64_t>> order = unpack.getBits()) {
          // Bit b of value v of word j / 8 (v = j % 8) is bit bits[4 v + b]
          // of the word: its byte, one bit at a time, then the 4-bit value
          // sign-extended as above.
          Type i8 = b.getI8Type();
          // One op a statement: the order of a call's arguments is the
          // host compiler's (scripts/compare-builds.sh).
          Value eight = indexConstant(b, loc, 8);
          Value word = arith::DivUIOp::create(b, loc, last, eight);
          Value v = arith::RemUIOp::create(b, loc, last, eight);
          Value wordBytes = indexConstant(b, loc, 4);
          Value wordStart = arith::MulIOp::create(b, loc, word, wordBytes);
          Value value = arith::ConstantIntOp::create(b, loc, i8, 0);
          for (int64_t bit = 0; bit < 4; ++bit) {
            // The word bit of value v's bit: a select over the 8 values.
            Value position = indexConstant(b, loc, (*order)[bit]);
            for (int64_t other = 1; other < 8; ++other) {
              Value which = indexConstant(b, loc, other);
              Value isOther = arith::CmpIOp::create(
                  b, loc, arith::CmpIPredicate::eq, v, which);
              Value there = indexConstant(b, loc, (*order)[4 * other + bit]);
              position =
                  arith::SelectOp::create(b, loc, isOther, there, position);
            }
            Value byteOffset = arith::DivUIOp::create(b, loc, position, eight);
            at.back() = arith::AddIOp::create(b, loc, wordStart, byteOffset);
            Value bitInByte = arith::RemUIOp::create(b, loc, position, eight);
            Value inByte = arith::IndexCastOp::create(b, loc, i8, bitInByte);
            Value byte = load(buffers[0], at);
            Value shifted = arith::ShRUIOp::create(b, loc, byte, inByte);
            Value one = arith::ConstantIntOp::create(b, loc, i8, 1);
            Value got = arith::AndIOp::create(b, loc, shifted, one);
            Value to = arith::ConstantIntOp::create(b, loc, i8, bit);
            Value moved = arith::ShLIOp::create(b, loc, got, to);
            value = arith::OrIOp::create(b, loc, value, moved);
          }
          if (!unpack.getSignExtend())
            return value;
          Value four = arith::ConstantIntOp::create(b, loc, i8, 4);
          Value top = arith::ShLIOp::create(b, loc, value, four);
          return arith::ShRSIOp::create(b, loc, top, four).getResult();
        }
        Value half;
        if (unpack.getInterleaved()) {
          std::tie(at.back(), half) = buildInterleavedNibble(b, loc, last);
        } else {
          at.back() = arith::DivUIOp::create(b, loc, last, two);
          half = arith::RemUIOp::create(b, loc, last, two);
        }
        Value byte = load(buffers[0], at);
        Value halfByte = arith::IndexCastOp::create(b, loc, b.getI8Type(), half);
        Value four = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 4);
        Value down = arith::MulIOp::create(b, loc, halfByte, four);
        Value up = arith::SubIOp::create(b, loc, four, down);
        Value top = arith::ShLIOp::create(b, loc, byte, up);
        if (unpack.getSignExtend())
          return arith::ShRSIOp::create(b, loc, top, four).getResult();
        return arith::ShRUIOp::create(b, loc, top, four).getResult();
      })
      .Case([&](BroadcastOp bcast) -> FailureOr<Value> {
        SmallVector<Value> at;
        for (auto [d, index] : llvm::enumerate(indices))
          if (!llvm::is_contained(bcast.getDims(), (int64_t)d))
            at.push_back(index);
        // A one-element tensor's splat: its element 0.
        auto inputRank = cast<MemRefType>(buffers[0].getType()).getRank();
        while ((int64_t)at.size() < inputRank)
          at.push_back(indexConstant(b, loc, 0));
        return load(buffers[0], at);
      })
      .Case([&](ReduceOp reduce) -> FailureOr<Value> {
        auto inputType = cast<ShapedType>(reduce.getInput().getType());
        int64_t dim = reduce.getDim();
        FailureOr<Value> init =
            materializeScalar(b, reduce.getInit(), scalars, op);
        if (failed(init) || failed(materializeCapturedScalars(
                                b, reduce.getCombiner(), scalars, op)))
          return failure();
        Value begin = indexConstant(b, loc, 0),
              end = indexConstant(b, loc, inputType.getDimSize(dim)),
              step = indexConstant(b, loc, 1);
        auto loop =
            scf::ForOp::create(b, loc, begin, end, step, ValueRange{*init});
        OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
        SmallVector<Value> at(indices);
        at.insert(at.begin() + dim, loop.getInductionVar());
        Value element = memref::LoadOp::create(lb, loc, buffers[0], at);
        IRMapping local = scalars;
        Value next = cloneScalarRegion(
            lb, reduce.getCombiner(),
            {loop.getRegionIterArgs()[0], element}, local);
        scf::YieldOp::create(lb, loc, next);
        return loop.getResult(0);
      })
      .Case([&](MatmulOp matmul) -> FailureOr<Value> {
        auto lhsType = cast<ShapedType>(matmul.getLhs().getType());
        int64_t rank = lhsType.getRank();
        int64_t k = lhsType.getDimSize(rank - 1);
        // Block scales as 2-D buffers (the frontend drops unit dimensions).
        Value lhsScales, rhsScales;
        if (matmul.isBlockScaled()) {
          auto [lhsShape, rhsShape] = matmul.getScaleShapes();
          lhsScales = expandUnitDims(b, loc, buffers[2], lhsShape);
          rhsScales = expandUnitDims(b, loc, buffers[3], rhsShape);
        }
        Value zero = arith::ConstantOp::create(b, loc, b.getF64FloatAttr(0.0));
        Value begin = indexConstant(b, loc, 0), end = indexConstant(b, loc, k),
              step = indexConstant(b, loc, 1);
        auto loop =
            scf::ForOp::create(b, loc, begin, end, step, ValueRange{zero});
        OpBuilder lb = OpBuilder::atBlockBegin(loop.getBody());
        Value kk = loop.getInductionVar();
        // [..., m, kk] and [..., kk, n]: the batch indices, then the row
        // or column.
        SmallVector<Value> at(indices.drop_back(2));
        SmallVector<Value> aAt(at), bAt(at);
        // Under k_runs, B's row kk meets A's column perm(kk).
        Value aColumn = kk;
        if (std::optional<int64_t> runs = matmul.getKRuns())
          aColumn = buildKRunsColumn(lb, loc, *runs, kk);
        aAt.append({indices[rank - 2], aColumn});
        bAt.append({kk, indices[rank - 1]});
        Value a = memref::LoadOp::create(lb, loc, buffers[0], aAt);
        Value bv = memref::LoadOp::create(lb, loc, buffers[1], bAt);
        a = buildElementCast(lb, loc, a, lb.getF64Type());
        bv = buildElementCast(lb, loc, bv, lb.getF64Type());
        Value product = arith::MulFOp::create(lb, loc, a, bv);
        if (matmul.isBlockScaled()) {
          // Each product times its blocks' scales: SA[i / gm, k / gk] and
          // SB[k / gk, j / gn].
          ArrayRef<int64_t> group = *matmul.getScaleBlock();
          auto div = [&](Value v, int64_t g) -> Value {
            return arith::DivUIOp::create(lb, loc, v,
                                          indexConstant(lb, loc, g));
          };
          Value kBlock = div(kk, group[1]);
          Value sa = memref::LoadOp::create(
              lb, loc, lhsScales,
              ValueRange{div(indices[0], group[0]), kBlock});
          Value sb = memref::LoadOp::create(
              lb, loc, rhsScales,
              ValueRange{kBlock, div(indices[1], group[2])});
          sa = buildElementCast(lb, loc, sa, lb.getF64Type());
          sb = buildElementCast(lb, loc, sb, lb.getF64Type());
          product = arith::MulFOp::create(
              lb, loc, product, arith::MulFOp::create(lb, loc, sa, sb));
        }
        Value sum = arith::AddFOp::create(lb, loc, loop.getRegionIterArgs()[0],
                                          product);
        scf::YieldOp::create(lb, loc, sum);
        return buildElementCast(b, loc, loop.getResult(0), b.getF32Type());
      })
      .Default([](Operation *op) -> FailureOr<Value> {
        return op->emitOpError() << "has no reference lowering";
      });
}

static LogicalResult emitReferenceKernel(OpBuilder &host, Operation *op,
                                         const OpBuffers &bufs) {
  Location loc = op->getLoc();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t numElements = resultType.getNumElements();
  SmallVector<Value> args;
  for (Value buffer : bufs.operands)
    if (buffer)
      args.push_back(buffer);
  args.push_back(bufs.result);
  int64_t grid = (numElements + kThreads - 1) / kThreads;
  auto kernel = KernelOp::create(host, loc, bufs.kernelName, args, {grid},
                                 kThreads);
  Block &body = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockTerminator(&body);
  Value pid = ProgramIdOp::create(b, loc, b.getIndexType(), 0);
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value linear = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, pid, indexConstant(b, loc, kThreads)),
      tid);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        linear,
                                        indexConstant(b, loc, numElements));
  auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
  OpBuilder ib = ifOp.getThenBodyBuilder();
  SmallVector<Value> indices = delinearize(ib, loc, linear, resultType.getShape());
  SmallVector<Value> inner(body.getArguments().begin(),
                           body.getArguments().end() - 1);
  IRMapping scalars;
  FailureOr<Value> value = computeElement(ib, op, inner, indices, scalars);
  if (failed(value))
    return failure();
  memref::StoreOp::create(ib, loc, *value, body.getArguments().back(),
                          indices);
  return success();
}

namespace {
struct TileReferencePass
    : public tile::impl::TileReferencePassBase<TileReferencePass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : llvm::make_early_inc_range(
             getOperation().getOps<func::FuncOp>())) {
      if (!isTensorLevelFunction(func))
        continue;
      if (!suffix.empty())
        func.setName((func.getName() + suffix).str());
      if (failed(convertToKernelPerOp(func, "", emitReferenceKernel)))
        return signalPassFailure();
    }
  }
};
} // namespace
