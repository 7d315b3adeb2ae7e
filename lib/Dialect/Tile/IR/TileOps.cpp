//===- TileOps.cpp - Tile dialect operations --------------------*- C++ -*-===//
//
// Verifiers, builders and folders of the tile dialect's operations. Every
// verifier error here has a case in test/Dialect/Tile/invalid*.mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileLayouts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::tile;

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Tiles are register values; ranked tensors are whole problems. An op of
/// both levels takes and returns values of one level only.
static bool isTileLevel(Type type) { return isa<TileType>(type); }

static StringRef levelName(Type type) {
  return isTileLevel(type) ? "tile" : "tensor";
}

static LogicalResult verifySameLevel(Operation *op, Type expected, Type actual,
                                     StringRef what) {
  if (isTileLevel(expected) != isTileLevel(actual))
    return op->emitOpError() << "expected " << what << " to be a "
                             << levelName(expected) << " like the result but got "
                             << actual;
  return success();
}

/// Shaped values the passes can tile: every dimension at least 1 (there is
/// no empty kernel yet; tile-tile would divide by the zero extent) and at
/// most 2^48 elements in all, so that no size or offset computation
/// overflows 64 bits.
static constexpr int64_t kMostElements = int64_t(1) << 48;
static LogicalResult verifySizes(Operation *op, Type type, StringRef what) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return success();
  int64_t count = 1;
  for (auto [dim, size] : llvm::enumerate(shaped.getShape())) {
    if (ShapedType::isDynamic(size))
      return success();
    if (size == 0)
      return op->emitOpError()
             << "has " << what << " " << type << " with a zero-size dimension ("
             << dim << "): empty tensors are not supported";
    if (llvm::MulOverflow(count, size, count) || count > kMostElements)
      return op->emitOpError() << "has " << what << " " << type
                               << " of more than 2^48 elements";
  }
  return success();
}
static LogicalResult verifyOperandAndResultSizes(Operation *op) {
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(verifySizes(op, type, "operand #" + std::to_string(index))))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(verifySizes(op, type, "a result")))
      return failure();
  return success();
}

/// Elementwise regions (map bodies, reduce combiners) take `numArgs` scalars
/// of `argType`s, hold only constants and elementwise ops, and yield one
/// scalar of `yieldType`. That is what lets any chain of them be vectorized
/// and fused without op-specific code.
static LogicalResult verifyScalarRegion(Operation *op, Region &region,
                                        TypeRange argTypes, Type yieldType,
                                        StringRef regionName) {
  Block &block = region.front();
  if (block.getNumArguments() != argTypes.size())
    return op->emitOpError() << "expected " << regionName << " to take "
                             << argTypes.size() << " arguments but it takes "
                             << block.getNumArguments();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(block.getArgumentTypes(), argTypes))) {
    auto [actual, expected] = pair;
    if (actual != expected)
      return op->emitOpError()
             << "expected " << regionName << " argument #" << index
             << " to be " << expected << " but got " << actual;
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << "expected " << regionName
                             << " to end with tile.yield";
  if (yield.getValue().getType() != yieldType)
    return op->emitOpError() << "expected " << regionName << " to yield "
                             << yieldType << " but it yields "
                             << yield.getValue().getType();
  for (Operation &inner : block.without_terminator()) {
    bool elementwise = inner.hasTrait<OpTrait::Elementwise>() ||
                       isa<arith::ConstantOp>(inner);
    if (!elementwise || inner.getNumRegions() != 0 ||
        !isMemoryEffectFree(&inner))
      return op->emitOpError()
             << regionName
             << " may hold only elementwise operations and constants but "
                "holds '"
             << inner.getName() << "'";
    // fp8 has no arithmetic of its own (PTX converts it, nothing more):
    // values are widened first and narrowed last.
    if (!isa<arith::ExtFOp, arith::TruncFOp>(inner))
      for (Type type : llvm::concat<const Type>(inner.getOperandTypes(),
                                                inner.getResultTypes()))
        if (isFloat8(type))
          return op->emitOpError()
                 << regionName << " computes on " << type << " in '"
                 << inner.getName()
                 << "'; fp8 values can only be widened (arith.extf) or "
                    "made by arith.truncf";
  }
  return success();
}

/// The element types tile.cast converts between (buildElementCast): the
/// signless integers and the floats the SIMT lowering handles, fp8 among
/// them (tile-lower-fp8-casts; sm_89 and later). (tf32 has no loads or
/// stores yet; f80 and f128 have no NVPTX lowering; signed and unsigned
/// integer types have no arith ops.)
static bool isScalarElementType(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.isSignless() &&
           llvm::is_contained({1u, 8u, 16u, 32u, 64u}, integer.getWidth());
  return type.isF16() || type.isBF16() || type.isF32() || type.isF64() ||
         isFloat8(type);
}

static Attribute layoutOf(Type type) {
  auto tile = dyn_cast<TileType>(type);
  return tile ? tile.getLayout() : Attribute();
}

/// Elementwise tile ops keep every element in its thread: their tile
/// operands and result share one layout, and none is in shared memory.
static LogicalResult verifySameLayout(Operation *op, ValueRange operands,
                                      Type result) {
  if (!isa<TileType>(result))
    return success();
  if (isSharedTile(result))
    return op->emitOpError() << "computes in registers, not on a tile in "
                                "shared memory";
  Attribute layout = layoutOf(result);
  for (auto [index, operand] : llvm::enumerate(operands)) {
    if (!isa<TileType>(operand.getType()))
      continue;
    if (layoutOf(operand.getType()) != layout)
      return op->emitOpError()
             << "expected operand #" << index << " in the result's layout "
             << layout << " but got " << operand.getType()
             << " (tile.convert_layout moves a tile between layouts)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

/// Index constant `v` of `like`'s type: a scalar, or a vector of it.
static Value indexLike(OpBuilder &b, Location loc, Value like, int64_t v) {
  Value scalar = arith::ConstantIndexOp::create(b, loc, v);
  if (auto vt = dyn_cast<VectorType>(like.getType()))
    return vector::BroadcastOp::create(b, loc, vt, scalar);
  return scalar;
}

std::pair<Value, Value> tile::buildInterleavedNibble(OpBuilder &b,
                                                     Location loc,
                                                     Value column) {
  // One op a statement: the order of the ops (and so the bundle) must not
  // depend on the host compiler's argument order.
  Value two = indexLike(b, loc, column, 2);
  Value four = indexLike(b, loc, column, 4);
  Value eight = indexLike(b, loc, column, 8);
  Value word = arith::DivUIOp::create(b, loc, column, eight);
  Value pair = arith::DivUIOp::create(b, loc, column, two);
  Value q = arith::RemUIOp::create(b, loc, pair, four);
  Value r = arith::RemUIOp::create(b, loc, column, two);
  Value wordStart = arith::MulIOp::create(b, loc, word, four);
  Value qByte = arith::DivUIOp::create(b, loc, q, two);
  Value rBytes = arith::MulIOp::create(b, loc, r, two);
  Value inWord = arith::AddIOp::create(b, loc, qByte, rBytes);
  Value byte = arith::AddIOp::create(b, loc, wordStart, inWord);
  return {byte, arith::RemUIOp::create(b, loc, q, two)};
}

Value tile::buildKRunsColumn(OpBuilder &b, Location loc, int64_t runs,
                             Value p) {
  auto constant = [&](int64_t v) { return indexLike(b, loc, p, v); };
  auto field = [&](int64_t divisor, int64_t extent) -> Value {
    Value q = arith::DivUIOp::create(b, loc, p, constant(divisor));
    return arith::RemUIOp::create(b, loc, q, constant(extent));
  };
  auto scaled = [&](Value v, int64_t factor) -> Value {
    return arith::MulIOp::create(b, loc, v, constant(factor));
  };
  // p = 4W block + W c + 4 t + 2 h + e  ->  4W block + 16 t + 8 h + 2 c + e.
  Value blockBase = scaled(arith::DivUIOp::create(b, loc, p, constant(4 * runs)),
                           4 * runs);
  Value c = field(runs, 4), t = field(4, runs / 4), h = field(2, 2),
        e = field(1, 2);
  Value sum = arith::AddIOp::create(b, loc, blockBase, scaled(t, 16));
  sum = arith::AddIOp::create(b, loc, sum, scaled(h, 8));
  sum = arith::AddIOp::create(b, loc, sum, scaled(c, 2));
  return arith::AddIOp::create(b, loc, sum, e);
}

/// The rules of `k_runs = W` (or tile.dot's `lhs_k_runs`, `name`) shared
/// by tile.matmul and tile.dot.
static LogicalResult verifyKRuns(Operation *op, std::optional<int64_t> runs,
                                 int64_t k, Type elementType,
                                 StringRef name = "k_runs") {
  if (!runs)
    return success();
  if (*runs != 8 && *runs != 16 && *runs != 32)
    return op->emitOpError() << "expected " << name
                             << " of 8, 16 or 32 but got " << *runs;
  if (!elementType.isBF16() && !elementType.isF16())
    return op->emitOpError() << "takes " << name
                             << " with bf16 or f16 operands (the tensor "
                                "cores' fragments) but got "
                             << elementType;
  if (ShapedType::isDynamic(k) || k % (4 * *runs) != 0)
    return op->emitOpError() << "expected K to be a multiple of " << 4 * *runs
                             << " (blocks of 4 " << name << ") but got K = "
                             << k;
  return success();
}

LogicalResult MatmulOp::verify() {
  if (failed(verifyOperandAndResultSizes(*this)))
    return failure();
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  auto rhsType = cast<RankedTensorType>(getRhs().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  // [..., M, K] x [..., K, N] -> [..., M, N]: leading batch dimensions,
  // the same in all three.
  int64_t rank = resultType.getRank();
  if (rank < 2 || lhsType.getRank() != rank || rhsType.getRank() != rank)
    return emitOpError() << "expected operands and result of one rank, at "
                            "least 2, but got ranks "
                         << lhsType.getRank() << ", " << rhsType.getRank()
                         << " -> " << resultType.getRank();
  if (lhsType.getShape().drop_back(2) != resultType.getShape().drop_back(2) ||
      rhsType.getShape().drop_back(2) != resultType.getShape().drop_back(2))
    return emitOpError() << "expected the same batch dimensions but got "
                         << lhsType << " x " << rhsType << " -> " << resultType;
  Type elementType = lhsType.getElementType();
  // fp8 operands may mix the two formats (e4m3 x e5m2), as wgmma's do.
  bool fp8 = isFloat8(elementType) && isFloat8(rhsType.getElementType());
  if (elementType != rhsType.getElementType() && !fp8)
    return emitOpError() << "expected operands of one element type but got "
                         << elementType << " and " << rhsType.getElementType();
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32() &&
      !fp8)
    return emitOpError() << "expected f8E4M3FN, f8E5M2, f16, bf16 or f32 "
                            "operands but got "
                         << elementType;
  if (!resultType.getElementType().isF32())
    return emitOpError() << "expected an f32 result (the accumulator) but got "
                         << resultType.getElementType();
  auto compatible = [](int64_t a, int64_t b) {
    return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
  };
  int64_t m = rank - 2, n = rank - 1;
  if (!compatible(lhsType.getDimSize(n), rhsType.getDimSize(m)))
    return emitOpError() << "expected the reduction dimensions to agree but "
                            "lhs has K = "
                         << lhsType.getDimSize(n) << " and rhs has K = "
                         << rhsType.getDimSize(m);
  if (!compatible(resultType.getDimSize(m), lhsType.getDimSize(m)) ||
      !compatible(resultType.getDimSize(n), rhsType.getDimSize(n)))
    return emitOpError() << "expected a " << lhsType.getDimSize(m) << "x"
                         << rhsType.getDimSize(n) << " result but got "
                         << resultType;
  if (failed(verifyKRuns(getOperation(), getKRuns(), lhsType.getDimSize(n),
                         elementType)))
    return failure();
  if (getKRuns() && (rank != 2 || isBlockScaled()))
    return emitOpError() << "takes k_runs with rank-2 operands without "
                            "block scales only";
  return verifyBlockScales();
}

std::array<SmallVector<int64_t, 2>, 2> MatmulOp::getScaleShapes() {
  auto lhsType = cast<ShapedType>(getLhs().getType());
  auto rhsType = cast<ShapedType>(getRhs().getType());
  ArrayRef<int64_t> group = *getScaleBlock();
  int64_t m = lhsType.getDimSize(0), k = lhsType.getDimSize(1),
          n = rhsType.getDimSize(1);
  auto blocks = [](int64_t extent, int64_t size) {
    return (extent + size - 1) / size;
  };
  return {SmallVector<int64_t, 2>{blocks(m, group[0]), blocks(k, group[1])},
          SmallVector<int64_t, 2>{blocks(k, group[1]), blocks(n, group[2])}};
}

LogicalResult MatmulOp::verifyBlockScales() {
  bool scaled = getScaleLhs() && getScaleRhs();
  if ((getScaleLhs() != nullptr) != (getScaleRhs() != nullptr) ||
      scaled != bool(getScaleBlockAttr()))
    return emitOpError() << "expected both scales and their block, or none";
  if (!scaled)
    return success();
  auto lhsType = cast<RankedTensorType>(getLhs().getType());
  auto rhsType = cast<RankedTensorType>(getRhs().getType());
  if (lhsType.getRank() != 2)
    return emitOpError() << "takes block scales on rank-2 operands only but "
                            "got rank "
                         << lhsType.getRank();
  ArrayRef<int64_t> block = *getScaleBlock();
  if (block.size() != 3 || llvm::any_of(block, [](int64_t g) { return g < 1; }))
    return emitOpError() << "expected a scale block of three positive sizes "
                            "[rows of A, K, columns of B] but got ["
                         << block << "]";
  if (!lhsType.hasStaticShape() || !rhsType.hasStaticShape())
    return emitOpError() << "takes block scales on static shapes only";
  std::array<SmallVector<int64_t, 2>, 2> expected = getScaleShapes();
  auto squeezed = [](ArrayRef<int64_t> shape) {
    SmallVector<int64_t, 2> kept;
    for (int64_t d : shape)
      if (d != 1)
        kept.push_back(d);
    return kept;
  };
  for (auto [index, scale] : llvm::enumerate(
           std::array<Value, 2>{getScaleLhs(), getScaleRhs()})) {
    auto type = cast<RankedTensorType>(scale.getType());
    if (!type.getElementType().isF32())
      return emitOpError() << "expected f32 scales but got "
                           << type.getElementType();
    // Unit dimensions may be dropped (the Python frontend drops them).
    ArrayRef<int64_t> want = expected[index];
    if (type.getShape() != want &&
        (type.getRank() >= 2 || squeezed(type.getShape()) != squeezed(want)))
      return emitOpError()
             << "expected the scales of " << (index == 0 ? "A" : "B")
             << " in blocks of "
             << (index == 0 ? block[0] : block[1]) << "x"
             << (index == 0 ? block[1] : block[2]) << " of shape ["
             << want[0] << ", " << want[1]
             << "] (or without its unit dimensions) but got " << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// MapOp
//===----------------------------------------------------------------------===//

LogicalResult MapOp::verify() {
  if (failed(verifyOperandAndResultSizes(*this)))
    return failure();
  auto resultType = cast<ShapedType>(getResult().getType());
  if (getInputs().empty())
    return emitOpError() << "expected at least one input";
  SmallVector<Type> elementTypes;
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    auto inputType = cast<ShapedType>(input.getType());
    if (failed(verifySameLevel(*this, resultType, inputType,
                               "input #" + std::to_string(index))))
      return failure();
    if (inputType.getShape() != resultType.getShape())
      return emitOpError() << "expected input #" << index
                           << " to have the result's shape but got "
                           << inputType;
    elementTypes.push_back(inputType.getElementType());
  }
  if (failed(verifySameLayout(*this, getInputs(), resultType)))
    return failure();
  return verifyScalarRegion(*this, getBody(), elementTypes,
                            resultType.getElementType(), "body");
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

LogicalResult ReduceOp::verify() {
  if (failed(verifyOperandAndResultSizes(*this)))
    return failure();
  auto inputType = cast<ShapedType>(getInput().getType());
  auto resultType = cast<ShapedType>(getResult().getType());
  if (failed(verifySameLevel(*this, resultType, inputType, "the input")))
    return failure();
  int64_t dim = getDim();
  if (dim < 0 || dim >= inputType.getRank())
    return emitOpError() << "expected dim in [0, " << inputType.getRank()
                         << ") but got " << dim;
  SmallVector<int64_t> expectedShape(inputType.getShape());
  expectedShape.erase(expectedShape.begin() + dim);
  if (resultType.getShape() != ArrayRef<int64_t>(expectedShape))
    return emitOpError() << "expected the result to drop dimension " << dim
                         << " of the input but got " << resultType;
  Type elementType = inputType.getElementType();
  if (resultType.getElementType() != elementType)
    return emitOpError() << "expected result element type " << elementType
                         << " but got " << resultType.getElementType();
  if (getInit().getType() != elementType)
    return emitOpError() << "expected init of type " << elementType
                         << " but got " << getInit().getType();
  if (auto inputTile = dyn_cast<TileType>(inputType)) {
    if (isSharedTile(inputTile))
      return emitOpError() << "reduces tiles in registers, not in shared "
                              "memory";
    Attribute expected = getReducedLayout(inputTile.getLayout(), dim);
    if (layoutOf(resultType) != expected)
      return emitOpError() << "expected the result in layout " << expected
                           << " (the input's, reduced along dimension "
                           << dim << ") but got " << resultType;
  }
  return verifyScalarRegion(*this, getCombiner(), {elementType, elementType},
                            elementType, "combiner");
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

bool tile::isTensorComputeOp(Operation *op) {
  return isa<MatmulOp, MapOp, ReduceOp, BroadcastOp, CastOp, TransposeOp,
             IotaOp, RepeatOp, UnpackOp>(op);
}

//===----------------------------------------------------------------------===//
// RepeatOp
//===----------------------------------------------------------------------===//

LogicalResult RepeatOp::verify() {
  if (failed(verifyOperandAndResultSizes(*this)))
    return failure();
  auto inputType = cast<RankedTensorType>(getInput().getType());
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (inputType.getElementType() != resultType.getElementType())
    return emitOpError() << "expected the input and result element types to "
                            "match but got "
                         << inputType.getElementType() << " and "
                         << resultType.getElementType();
  if (inputType.getRank() != resultType.getRank())
    return emitOpError() << "expected the input and result of one rank but "
                            "got "
                         << inputType.getRank() << " and "
                         << resultType.getRank();
  int64_t dim = getDim(), times = getTimes();
  if (dim < 0 || dim >= inputType.getRank())
    return emitOpError() << "expected dim in [0, " << inputType.getRank()
                         << ") but got " << dim;
  if (times < 1)
    return emitOpError() << "expected times to be at least 1 but got "
                         << times;
  for (int64_t d = 0; d < inputType.getRank(); ++d) {
    int64_t in = inputType.getDimSize(d), out = resultType.getDimSize(d);
    // Divided, not multiplied: times may be anything up to 2^63.
    if (d != dim && out != in)
      return emitOpError() << "expected result dimension " << d << " to be "
                           << in << " but got " << out;
    if (d == dim && (out % times != 0 || out / times != in))
      return emitOpError() << "expected result dimension " << d << " to be "
                           << in << " times " << times << " but got " << out;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// UnpackOp
//===----------------------------------------------------------------------===//

LogicalResult UnpackOp::verify() {
  if (failed(verifyOperandAndResultSizes(*this)))
    return failure();
  auto inputType = cast<ShapedType>(getInput().getType());
  auto resultType = cast<ShapedType>(getResult().getType());
  if (failed(verifySameLevel(*this, resultType, inputType, "the input")))
    return failure();
  if (!inputType.getElementType().isInteger(8) ||
      !resultType.getElementType().isInteger(8))
    return emitOpError() << "expected i8 input and result (two 4-bit values "
                            "per input byte) but got "
                         << inputType.getElementType() << " -> "
                         << resultType.getElementType();
  int64_t rank = inputType.getRank();
  if (rank < 1 || resultType.getRank() != rank ||
      inputType.getShape().drop_back() != resultType.getShape().drop_back() ||
      resultType.getShape().back() % 2 != 0 ||
      resultType.getShape().back() / 2 != inputType.getShape().back())
    return emitOpError() << "expected the result's last dimension to be twice "
                            "the input's and the others equal but got "
                         << inputType << " -> " << resultType;
  if (getInterleaved() && getBits())
    return emitOpError() << "expected one order of the values, interleaved "
                            "or bits, not both";
  if (std::optional<ArrayRef<int64_t>> order = getBits()) {
    SmallVector<bool> seen(32, false);
    bool permutation = order->size() == 32;
    for (int64_t bit : *order) {
      permutation = permutation && bit >= 0 && bit < 32 && !seen[bit];
      if (permutation)
        seen[bit] = true;
    }
    if (!permutation)
      return emitOpError() << "expected bits to be a permutation of the 32 "
                              "bits of a word (bit b of value v at entry "
                              "4 v + b) but got ["
                           << *order << "]";
  }
  if (byWords() && inputType.getShape().back() % 4 != 0)
    return emitOpError() << "expected whole 32-bit words (a last dimension "
                            "of a multiple of 4 bytes) when "
                         << (getBits() ? "in bits' order" : "interleaved")
                         << " but got " << inputType;
  return success();
}

LogicalResult BroadcastOp::verify() {
  if (failed(verifyOperandAndResultSizes(*this)))
    return failure();
  auto inputType = cast<ShapedType>(getInput().getType());
  auto resultType = cast<ShapedType>(getResult().getType());
  if (failed(verifySameLevel(*this, resultType, inputType, "the input")))
    return failure();
  if (inputType.getElementType() != resultType.getElementType())
    return emitOpError() << "expected the input and result element types to "
                            "match but got "
                         << inputType.getElementType() << " and "
                         << resultType.getElementType();
  ArrayRef<int64_t> dims = getDims();
  // A tensor of one element ([1]: a per-tensor scale as torch passes it)
  // splats when every result dimension is new.
  bool splat = !isa<TileType>(resultType) && inputType.getRank() == 1 &&
               inputType.getDimSize(0) == 1 &&
               (int64_t)dims.size() == resultType.getRank();
  if (!splat &&
      resultType.getRank() != inputType.getRank() + (int64_t)dims.size())
    return emitOpError() << "expected result rank " << inputType.getRank()
                         << " + " << dims.size() << " new dims but got "
                         << resultType.getRank();
  for (auto [index, dim] : llvm::enumerate(dims)) {
    if (dim < 0 || dim >= resultType.getRank())
      return emitOpError() << "expected broadcast dims in [0, "
                           << resultType.getRank() << ") but got " << dim;
    if (index > 0 && dims[index - 1] >= dim)
      return emitOpError() << "expected broadcast dims in increasing order";
  }
  int64_t inputDim = 0;
  for (int64_t dim = 0; dim < resultType.getRank(); ++dim) {
    if (llvm::is_contained(dims, dim))
      continue;
    if (resultType.getDimSize(dim) != inputType.getDimSize(inputDim))
      return emitOpError() << "expected result dimension " << dim << " to be "
                           << inputType.getDimSize(inputDim) << " but got "
                           << resultType.getDimSize(dim);
    ++inputDim;
  }
  if (auto resultTile = dyn_cast<TileType>(resultType)) {
    if (isSharedTile(resultTile) || isSharedTile(inputType))
      return emitOpError() << "broadcasts tiles in registers, not in shared "
                              "memory";
    Attribute layout = resultTile.getLayout();
    Attribute expected = layout;
    if (isLinearLayout(layout) && dims.size() == 1)
      expected = SliceLayoutAttr::get(getContext(), dims[0], layout);
    // Into a blocked tile of more elements the input goes through shared
    // memory: any blocked layout of the same threads will do (its own runs,
    // as tile-assign-layouts gives it). With as many elements (a unit
    // dimension added) the lowering keeps each element where it is, so the
    // layouts must be the same.
    auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(layout);
    auto inputBlocked =
        dyn_cast_or_null<BlockedLayoutAttr>(layoutOf(inputType));
    bool blockedMatch = blocked && inputBlocked &&
                        blocked.getThreads() == inputBlocked.getThreads() &&
                        resultTile.getNumElements() !=
                            cast<TileType>(inputType).getNumElements();
    // Or, into a blocked tile whose map is linear, the input as its slice
    // (each thread holds its runs' values: no exchange).
    if (blocked && dims.size() == 1)
      if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layoutOf(inputType)))
        blockedMatch |=
            slice.getDim() == dims[0] && slice.getParent() == layout &&
            slice.getExtent() == resultTile.getDimSize(dims[0]) &&
            succeeded(getLinearLayout(layout, resultTile.getShape()));
    if (!dims.empty() && !blockedMatch && layoutOf(inputType) != expected)
      return emitOpError() << "expected the input in layout " << expected
                           << " for a result in " << layout << " but got "
                           << inputType;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

LogicalResult CastOp::verify() {
  if (failed(verifyOperandAndResultSizes(*this)))
    return failure();
  auto inputType = cast<ShapedType>(getInput().getType());
  auto resultType = cast<ShapedType>(getResult().getType());
  if (failed(verifySameLevel(*this, resultType, inputType, "the input")))
    return failure();
  if (inputType.getShape() != resultType.getShape())
    return emitOpError() << "expected the input and result shapes to match "
                            "but got "
                         << inputType << " and " << resultType;
  if (!isScalarElementType(inputType.getElementType()) ||
      !isScalarElementType(resultType.getElementType()))
    return emitOpError() << "expected element types among i1, i8, i16, i32, "
                            "i64, f8E4M3FN, f8E5M2, f16, bf16, f32 and f64 "
                            "but got "
                         << inputType.getElementType() << " and "
                         << resultType.getElementType();
  return verifySameLayout(*this, getInput(), resultType);
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// FusedOp
//===----------------------------------------------------------------------===//

LogicalResult FusedOp::verify() {
  if (failed(verifyOperandAndResultSizes(*this)))
    return failure();
  Block &body = getBody().front();
  if (body.getArgumentTypes() != getInputs().getTypes())
    return emitOpError() << "expected the region to take one argument per "
                            "input, of the input's type";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValue().getType() != getResult().getType())
    return emitOpError() << "expected the region to yield "
                         << getResult().getType();
  for (Operation &op : body.without_terminator()) {
    if (!isTensorComputeOp(&op) && !isa<arith::ConstantOp>(op))
      return emitOpError() << "may hold only tensor-level tile ops and "
                              "constants but holds '"
                           << op.getName() << "'";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TmaDescriptorOp
//===----------------------------------------------------------------------===//

LogicalResult TmaDescriptorOp::verify() {
  if (!isa<LLVM::LLVMPointerType>(getResult().getType()))
    return emitOpError() << "expected an !llvm.ptr result but got "
                         << getResult().getType();
  MemRefType type = getSource().getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return emitOpError() << "expected a static, row-major memref but got "
                         << type;
  ArrayRef<int64_t> box = getBox();
  if (static_cast<int64_t>(box.size()) != type.getRank())
    return emitOpError() << "expected " << type.getRank()
                         << " box sizes but got " << box.size();
  for (int64_t size : box)
    if (size < 1 || size > 256)
      return emitOpError() << "expected box sizes in [1, 256] but got "
                           << size;
  int64_t swizzle = getSwizzle();
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitOpError() << "expected a swizzle of 0, 32, 64 or 128 bytes "
                            "but got "
                         << swizzle;
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  int64_t innerBytes = box.back() * elementBytes;
  if (innerBytes % 16 != 0)
    return emitOpError() << "expected the innermost box extent to be a "
                            "multiple of 16 bytes but it is "
                         << innerBytes;
  if (swizzle != 0 && innerBytes > swizzle)
    return emitOpError() << "expected the innermost box extent (" << innerBytes
                         << " bytes) to fit the " << swizzle
                         << "-byte swizzle";
  auto [strides, offset] = type.getStridesAndOffset();
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    if ((strides[d] * elementBytes) % 16 != 0)
      return emitOpError() << "TMA needs row strides that are multiples of "
                              "16 bytes, but dimension "
                           << d << " of " << type << " has a stride of "
                           << strides[d] * elementBytes << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

void KernelOp::build(OpBuilder &builder, OperationState &state,
                     StringRef name, ValueRange args, ArrayRef<int64_t> grid,
                     int64_t threads) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addOperands(args);
  state.addAttribute(getGridAttrName(state.name),
                     builder.getDenseI64ArrayAttr(grid));
  state.addAttribute(getThreadsAttrName(state.name),
                     builder.getI64IntegerAttr(threads));
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value arg : args)
    block->addArgument(arg.getType(), arg.getLoc());
  ensureTerminator(*body, builder, state.location);
}

LogicalResult KernelOp::verify() {
  ArrayRef<int64_t> grid = getGrid();
  if (grid.empty() || grid.size() > 3)
    return emitOpError() << "expected a grid of 1 to 3 dimensions but got "
                         << grid.size();
  // CUDA's limits on grid dimensions x, y and z: a larger grid would be
  // truncated at launch, a silently wrong kernel.
  constexpr int64_t kMostPrograms[3] = {2147483647, 65535, 65535};
  for (auto [dim, size] : llvm::enumerate(grid)) {
    if (size <= 0)
      return emitOpError() << "expected positive grid sizes but got " << size;
    if (size > kMostPrograms[dim])
      return emitOpError() << "has " << size
                           << " programs along grid dimension " << dim
                           << " but the GPU allows at most "
                           << kMostPrograms[dim];
  }
  for (auto [index, type] : llvm::enumerate(getArgs().getTypes()))
    if (failed(verifySizes(*this, type, "argument #" + std::to_string(index))))
      return failure();
  int64_t threads = getThreads();
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    return emitOpError() << "expected threads to be a multiple of 32 in "
                            "[32, 1024] but got "
                         << threads;
  // sm_80 and sm_90 hold at most 2048 threads and 32 blocks per SM
  // (sm_86 and sm_89 1536 and 16: there the backend ignores a larger ask).
  int64_t mostPrograms = std::min<int64_t>(32, 2048 / threads);
  if (std::optional<int64_t> programs = getMinProgramsPerSm();
      programs && (*programs < 1 || *programs > mostPrograms))
    return emitOpError() << "expected min_programs_per_sm in [1, "
                         << mostPrograms
                         << "] (at most 2048 threads and 32 programs per SM) "
                            "but got "
                         << *programs;
  Block &body = getBody().front();
  if (body.getNumArguments() != getArgs().size())
    return emitOpError() << "expected the body to take " << getArgs().size()
                         << " arguments (one per operand) but it takes "
                         << body.getNumArguments();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getArgs().getTypes(), body.getArgumentTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError() << "expected body argument #" << index
                           << " to have type " << std::get<0>(pair)
                           << " but got " << std::get<1>(pair);
  // A body works on tiles, buffers and scalars: a tensor-level op there
  // would reach passes that only take tiles (tile-tile makes kernels of
  // tensor-level functions; it is not run inside one).
  WalkResult tensors = getBody().walk([&](Operation *op) {
    auto isTensor = [](Type type) { return isa<TensorType>(type); };
    if (llvm::none_of(op->getOperandTypes(), isTensor) &&
        llvm::none_of(op->getResultTypes(), isTensor))
      return WalkResult::advance();
    op->emitOpError() << "works on tensors inside tile.kernel @"
                      << getSymName()
                      << ": a kernel's body takes tiles, buffers and scalars "
                         "(tensor-level ops belong in the function around "
                         "it)";
    return WalkResult::interrupt();
  });
  if (tensors.wasInterrupted())
    return failure();
  return verifyTileSizes(threads);
}

/// The tiles of a kernel within what its lowering handles (docs/layouts.md,
/// "Sizes"): a register tile at most kMostElementsPerThread elements per
/// thread (255 32-bit registers hold a quarter of that; the lowering
/// unrolls every element, so a larger tile only makes compile time and
/// memory grow), a tile in shared memory at most the largest shared memory
/// of a program (sm_90's 227 KB).
LogicalResult KernelOp::verifyTileSizes(int64_t threads) {
  constexpr uint64_t kMostElementsPerThread = 1024;
  constexpr uint64_t kMostSharedBytes = 232448;
  WalkResult walk = getBody().walk([&](Operation *op) {
    for (Value result : op->getResults()) {
      auto tile = dyn_cast<TileType>(result.getType());
      if (!tile)
        continue;
      uint64_t elements = 1;
      bool overflow = false;
      for (int64_t d : tile.getShape()) {
        bool over = false;
        elements = llvm::SaturatingMultiply(elements, static_cast<uint64_t>(d),
                                            &over);
        overflow |= over;
      }
      bool overBytes = false;
      uint64_t bytes = llvm::SaturatingMultiply(
          elements,
          std::max<uint64_t>(1, tile.getElementTypeBitWidth() / 8),
          &overBytes);
      overflow |= tile.getMemorySpace() && overBytes;
      if (tile.getMemorySpace()) {
        if (overflow || bytes > kMostSharedBytes) {
          op->emitOpError() << "makes a shared-memory tile of "
                            << (overflow ? std::string("more than 2^64")
                                         : std::to_string(bytes))
                            << " bytes (" << tile
                            << "); a program has at most " << kMostSharedBytes;
          return WalkResult::interrupt();
        }
      } else if (overflow ||
                 elements > kMostElementsPerThread * static_cast<uint64_t>(threads)) {
        op->emitOpError() << "makes a register tile of "
                          << (overflow ? std::string("more than 2^64")
                                       : std::to_string(elements))
                          << " elements (" << tile << ") over the kernel's "
                          << threads << " threads; at most "
                          << kMostElementsPerThread << " a thread";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// ProgramIdOp
//===----------------------------------------------------------------------===//

LogicalResult ProgramIdOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  if (!kernel)
    return emitOpError() << "expected to be inside a tile.kernel";
  int64_t rank = kernel.getGrid().size();
  int64_t dim = getDim();
  if (dim < 0 || dim >= rank)
    return emitOpError() << "expected dim in [0, " << rank
                         << ") for a grid of rank " << rank << " but got "
                         << getDim();
  return success();
}

//===----------------------------------------------------------------------===//
// LoadOp / StoreOp
//===----------------------------------------------------------------------===//

/// Loads and stores move a tile of the memref's rank and element type,
/// addressed by one index per memref dimension.
static LogicalResult verifyTileAccess(Operation *op, MemRefType memrefType,
                                      TileType tileType, size_t numIndices) {
  if ((int64_t)numIndices != memrefType.getRank())
    return op->emitOpError() << "expected " << memrefType.getRank()
                             << " indices for " << memrefType << " but got "
                             << numIndices;
  if (tileType.getRank() != memrefType.getRank())
    return op->emitOpError() << "expected a tile of rank "
                             << memrefType.getRank() << " but got "
                             << tileType;
  if (tileType.getElementType() != memrefType.getElementType())
    return op->emitOpError() << "expected tile element type "
                             << memrefType.getElementType() << " but got "
                             << tileType.getElementType();
  return success();
}

/// An `in_bounds` access whose indices are constants must lie inside the
/// memref (elsewhere the producer's word is taken).
static LogicalResult verifyInBounds(Operation *op, bool inBounds,
                                    Type memrefType, TileType tileType,
                                    ValueRange indices) {
  auto type = dyn_cast<MemRefType>(memrefType);
  if (!inBounds || !type)
    return success();
  for (auto [d, index] : llvm::enumerate(indices)) {
    std::optional<int64_t> at = getConstantIntValue(index);
    if (!at || type.isDynamicDim(d))
      continue;
    if (*at < 0 || *at + tileType.getDimSize(d) > type.getDimSize(d))
      return op->emitOpError()
             << "is in_bounds but its tile spans [" << *at << ", "
             << *at + tileType.getDimSize(d) << ") of dimension " << d
             << ", which has " << type.getDimSize(d) << " elements";
  }
  return success();
}

LogicalResult LoadOp::verify() {
  auto tileType = cast<TileType>(getResult().getType());
  if (failed(verifyTileAccess(*this, getSource().getType(), tileType,
                              getIndices().size())) ||
      failed(verifyInBounds(*this, getInBounds(), getSource().getType(),
                            tileType, getIndices())))
    return failure();
  if (auto padding = getPaddingAttr())
    if (padding.getType() != tileType.getElementType())
      return emitOpError() << "expected padding of type "
                           << tileType.getElementType() << " but got "
                           << padding.getType();
  auto isZero = [](Attribute padding) {
    if (auto f = dyn_cast<FloatAttr>(padding))
      return f.getValue().isZero();
    auto i = dyn_cast<IntegerAttr>(padding);
    return i && i.getValue().isZero();
  };
  if (isSharedTile(tileType) && getPaddingAttr() && !isZero(getPaddingAttr()))
    return emitOpError() << "loads into shared memory pad with zeros only";
  if (std::optional<int64_t> bytes = getL2Fetch()) {
    if (*bytes != 64 && *bytes != 128 && *bytes != 256)
      return emitOpError() << "l2_fetch is 64, 128 or 256 bytes (PTX's L2 "
                              "prefetch sizes) but got "
                           << *bytes;
    if (isSharedTile(tileType) || !isGlobalMemRef(getSource().getType()))
      return emitOpError() << "l2_fetch is for loads into registers from "
                              "global memory";
  }
  return success();
}

LogicalResult StoreOp::verify() {
  auto tileType = cast<TileType>(getValue().getType());
  if (failed(verifyTileAccess(*this, getDest().getType(), tileType,
                              getIndices().size())))
    return failure();
  if (isSharedTile(tileType))
    return emitOpError() << "stores a tile in registers, not in shared "
                            "memory";
  return verifyInBounds(*this, getInBounds(), getDest().getType(), tileType,
                        getIndices());
}

//===----------------------------------------------------------------------===//
// SharedOp, CopyAsyncOp
//===----------------------------------------------------------------------===//

static bool isWorkgroupMemory(MemRefType type) {
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

LogicalResult SharedOp::verify() {
  MemRefType type = getBuffer().getType();
  if (!isWorkgroupMemory(type))
    return emitOpError() << "expected a memref in #gpu.address_space<"
                            "workgroup> but got "
                         << type;
  if (!type.getLayout().isIdentity())
    return emitOpError() << "expected an identity layout but got " << type;
  if (!(*this)->getParentOfType<KernelOp>() &&
      !(*this)->getParentOfType<gpu::LaunchOp>())
    return emitOpError() << "expected to be inside a tile.kernel";
  return success();
}

LogicalResult CopyAsyncOp::verify() {
  MemRefType source = getSource().getType(), dest = getDest().getType();
  if (!isWorkgroupMemory(dest))
    return emitOpError() << "expected the destination in "
                            "#gpu.address_space<workgroup> but got "
                         << dest;
  if (isWorkgroupMemory(source))
    return emitOpError() << "expected a global-memory source but got "
                         << source;
  if (source.getElementType() != dest.getElementType())
    return emitOpError() << "expected one element type but got "
                         << source.getElementType() << " and "
                         << dest.getElementType();
  for (auto [memref, indices, what] :
       {std::tuple{source, getSourceIndices(), "source"},
        std::tuple{dest, getDestIndices(), "destination"}})
    if ((int64_t)indices.size() != memref.getRank() ||
        (int64_t)getShape().size() != memref.getRank())
      return emitOpError() << "expected " << memref.getRank()
                           << " indices and a rank-" << memref.getRank()
                           << " shape for the " << what << " " << memref;
  if (llvm::any_of(getShape(), [](int64_t d) { return d <= 0; }))
    return emitOpError() << "expected a positive shape";
  // A copy is a power-of-two tile that may reach past the edges of its
  // buffers (those elements are skipped), never past the shared
  // destination's extent rounded up to a power of two: that bounds the
  // copies the lowering unrolls by the size of shared memory.
  for (auto [d, size] : llvm::enumerate(getShape())) {
    if (dest.isDynamicDim(d))
      continue;
    uint64_t most = llvm::PowerOf2Ceil(dest.getDimSize(d));
    if (static_cast<uint64_t>(size) > most)
      return emitOpError() << "copies " << size << " elements along dim " << d
                           << ", more than the destination " << dest
                           << " holds (" << dest.getDimSize(d)
                           << ", a tile of at most " << most << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DotOp
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto lhsType = cast<TileType>(getLhs().getType());
  auto rhsType = cast<TileType>(getRhs().getType());
  auto accType = cast<TileType>(getAcc().getType());
  if (lhsType.getRank() != 2 || rhsType.getRank() != 2 ||
      accType.getRank() != 2)
    return emitOpError() << "expected rank-2 tiles";
  Type elementType = lhsType.getElementType();
  bool fp8 = isFloat8(elementType) && isFloat8(rhsType.getElementType());
  if (elementType != rhsType.getElementType() && !fp8)
    return emitOpError() << "expected operands of one element type but got "
                         << lhsType.getElementType() << " and "
                         << rhsType.getElementType();
  if (!elementType.isF16() && !elementType.isBF16() && !elementType.isF32() &&
      !fp8)
    return emitOpError() << "expected f8E4M3FN, f8E5M2, f16, bf16 or f32 "
                            "operands but got "
                         << elementType;
  if (!accType.getElementType().isF32())
    return emitOpError() << "expected an f32 accumulator but got "
                         << accType.getElementType();
  if (lhsType.getDimSize(1) != rhsType.getDimSize(0))
    return emitOpError() << "expected the reduction dimensions to agree but "
                            "lhs has K = "
                         << lhsType.getDimSize(1) << " and rhs has K = "
                         << rhsType.getDimSize(0);
  if (accType.getDimSize(0) != lhsType.getDimSize(0) ||
      accType.getDimSize(1) != rhsType.getDimSize(1))
    return emitOpError() << "expected a " << lhsType.getDimSize(0) << "x"
                         << rhsType.getDimSize(1) << " accumulator but got "
                         << accType;
  if (isSharedTile(accType))
    return emitOpError() << "accumulates in registers, not in shared memory";
  // Register operands of an mma.sync accumulator are its dot operands.
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(accType.getLayout());
  if (mma && mma.getKind() == MmaKind::mma_sync && !elementType.isBF16() &&
      !elementType.isF16())
    return emitOpError() << "expected bf16 or f16 operands for an mma.sync "
                            "accumulator but got "
                         << elementType;
  std::array<TileType, 2> operandTypes = {lhsType, rhsType};
  for (auto [index, type] : llvm::enumerate(operandTypes)) {
    auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(type.getLayout());
    if (!operand)
      continue;
    if (!mma || operand.getParent() != mma || operand.getIndex() != index)
      return emitOpError() << "expected operand #" << index
                           << " in #tile.dot_operand<" << index
                           << ", the accumulator's layout> but got " << type;
  }
  auto lhsOperand = dyn_cast_or_null<DotOperandLayoutAttr>(lhsType.getLayout());
  auto rhsOperand = dyn_cast_or_null<DotOperandLayoutAttr>(rhsType.getLayout());
  if (failed(verifyKRuns(getOperation(), getKRuns(), lhsType.getDimSize(1),
                         elementType)) ||
      failed(verifyKRuns(getOperation(), getLhsKRuns(), lhsType.getDimSize(1),
                         elementType, "lhs_k_runs")))
    return failure();
  if (getKRuns() && getLhsKRuns())
    return emitOpError() << "takes k_runs (B's rows) or lhs_k_runs (A's "
                            "columns) in fragment-run order, not both";
  // Under lhs_k_runs = W, A in registers holds its stored runs of W; a
  // wgmma's register A holds runs only under it.
  if (lhsOperand &&
      (getLhsKRuns() ||
       lhsOperand.getParent().getKind() == MmaKind::wgmma) &&
      lhsOperand.getKWidth() != getLhsKRuns().value_or(2))
    return emitOpError() << "expected k_width " << getLhsKRuns().value_or(2)
                         << " for A under lhs_k_runs = "
                         << getLhsKRuns().value_or(0) << " but got "
                         << lhsOperand.getKWidth();
  if (getLhsKRuns() && rhsOperand)
    return emitOpError() << "takes lhs_k_runs with B in shared memory "
                            "(wgmma) only, but got "
                         << rhsType;
  // Under k_runs = W, B's stored order is the fragments' runs of W and A
  // keeps its own; else both take one K order.
  if (getKRuns() && lhsOperand && rhsOperand &&
      (lhsOperand.getKWidth() != 2 || rhsOperand.getKWidth() != *getKRuns()))
    return emitOpError() << "expected k_width 2 for A and " << *getKRuns()
                         << " for B under k_runs = " << *getKRuns()
                         << " but got " << lhsOperand.getKWidth() << " and "
                         << rhsOperand.getKWidth();
  if (!getKRuns() && !getLhsKRuns() && lhsOperand && rhsOperand &&
      lhsOperand.getKWidth() != rhsOperand.getKWidth())
    return emitOpError() << "expected operands of one k_width (their K "
                            "order) but got "
                         << lhsOperand.getKWidth() << " and "
                         << rhsOperand.getKWidth();
  return success();
}

void DotOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A dot of tiles in shared memory reads that memory.
  for (OpOperand &operand : getOperation()->getOpOperands())
    if (isSharedTile(operand.get().getType()))
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
}

//===----------------------------------------------------------------------===//
// SplatOp / MaskOp
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  Type elementType = cast<TileType>(getResult().getType()).getElementType();
  if (getValue().getType() != elementType)
    return emitOpError() << "expected a value of type " << elementType
                         << " but got " << getValue().getType();
  return success();
}

LogicalResult IotaOp::verify() {
  auto type = cast<ShapedType>(getResult().getType());
  // The attribute is an i64 (getDim() reads it unsigned): -1 must fail too.
  int64_t dim = getDimAttr().getInt();
  if (dim < 0 || dim >= type.getRank())
    return emitOpError() << "expected a dimension of the rank-"
                         << type.getRank() << " result but got " << dim;
  auto element = dyn_cast<IntegerType>(type.getElementType());
  if (!element || !element.isSignless() ||
      (element.getWidth() != 32 && element.getWidth() != 64))
    return emitOpError() << "expected i32 or i64 elements but got "
                         << type.getElementType();
  return success();
}

LogicalResult MaskOp::verify() {
  auto tileType = cast<TileType>(getInput().getType());
  if (getFill().getType() != tileType.getElementType())
    return emitOpError() << "expected fill of type "
                         << tileType.getElementType() << " but got "
                         << getFill().getType();
  if (static_cast<int64_t>(getBounds().size()) != tileType.getRank())
    return emitOpError() << "expected " << tileType.getRank()
                         << " bounds but got " << getBounds().size();
  if (!getOffsets().empty() &&
      static_cast<int64_t>(getOffsets().size()) != tileType.getRank())
    return emitOpError() << "expected " << tileType.getRank()
                         << " offsets or none but got " << getOffsets().size();
  return success();
}

//===----------------------------------------------------------------------===//
// Element casts
//===----------------------------------------------------------------------===//

Value tile::buildElementCast(OpBuilder &builder, Location loc, Value value,
                             Type elementType) {
  Type fromType = getElementTypeOrSelf(value.getType());
  if (fromType == elementType)
    return value;
  Type toType = elementType;
  if (auto vectorType = dyn_cast<VectorType>(value.getType()))
    toType = vectorType.clone(elementType);
  auto fromFloat = dyn_cast<FloatType>(fromType);
  auto toFloat = dyn_cast<FloatType>(elementType);
  auto like = [&](Type element) -> Type {
    if (auto vectorType = dyn_cast<VectorType>(value.getType()))
      return vectorType.clone(element);
    return element;
  };
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() == toFloat.getWidth()) {
      // f16 <-> bf16: through f32, exactly (the widening is exact, so the
      // one rounding is the direct cast's).
      Value wide =
          arith::ExtFOp::create(builder, loc, like(builder.getF32Type()), value);
      return arith::TruncFOp::create(builder, loc, toType, wide);
    }
    if (fromFloat.getWidth() < toFloat.getWidth())
      return arith::ExtFOp::create(builder, loc, toType, value);
    return arith::TruncFOp::create(builder, loc, toType, value);
  }
  // Booleans as torch has them: true is 1 (not the signed i1's -1), and a
  // value becomes true when it is not zero.
  bool fromBool = fromType.isInteger(1), toBool = elementType.isInteger(1);
  if (toBool) {
    Value zero = arith::ConstantOp::create(
        builder, loc, cast<TypedAttr>(builder.getZeroAttr(like(fromType))));
    if (fromFloat)
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE,
                                   value, zero);
    return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne, value,
                                 zero);
  }
  if (!fromFloat && toFloat)
    return fromBool ? Value(arith::UIToFPOp::create(builder, loc, toType, value))
                    : Value(arith::SIToFPOp::create(builder, loc, toType, value));
  if (fromFloat && !toFloat)
    return arith::FPToSIOp::create(builder, loc, toType, value);
  if (fromType.getIntOrFloatBitWidth() < elementType.getIntOrFloatBitWidth())
    return fromBool ? Value(arith::ExtUIOp::create(builder, loc, toType, value))
                    : Value(arith::ExtSIOp::create(builder, loc, toType, value));
  return arith::TruncIOp::create(builder, loc, toType, value);
}

Value tile::vectorizeScalarRegion(OpBuilder &b, Region &region,
                                  ValueRange args, int64_t width,
                                  const IRMapping *captured) {
  Block &block = region.front();
  IRMapping mapping = captured ? *captured : IRMapping();
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    mapping.map(arg, value);
  auto toVector = [&](Value v, Location loc) -> Value {
    if (isa<VectorType>(v.getType()))
      return v;
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({width}, v.getType()), v);
  };
  for (Operation &op : block.without_terminator()) {
    if (isa<arith::ConstantOp>(op)) {
      b.clone(op, mapping);
      continue;
    }
    OperationState state(op.getLoc(), op.getName());
    for (Value operand : op.getOperands())
      state.addOperands(toVector(mapping.lookupOrDefault(operand), op.getLoc()));
    for (Type type : op.getResultTypes())
      state.addTypes(VectorType::get({width}, type));
    state.addAttributes(op.getAttrs());
    Operation *vectorized = b.create(state);
    mapping.map(op.getResults(), vectorized->getResults());
  }
  auto yield = cast<YieldOp>(block.getTerminator());
  return toVector(mapping.lookupOrDefault(yield.getValue()), yield.getLoc());
}

//===----------------------------------------------------------------------===//
// ConvertLayoutOp
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  auto from = cast<TileType>(getInput().getType());
  auto to = cast<TileType>(getResult().getType());
  if (from.getShape() != to.getShape() ||
      from.getElementType() != to.getElementType())
    return emitOpError() << "expected the same shape and element type but got "
                         << from << " and " << to;
  if (isSharedTile(from) && isSharedTile(to))
    return emitOpError() << "cannot move a tile from shared memory to shared "
                            "memory";
  if (isSharedTile(from) &&
      !isa<DotOperandLayoutAttr, BlockedLayoutAttr>(to.getLayout()))
    return emitOpError() << "reads a tile in shared memory into mma.sync "
                            "operands (#tile.dot_operand) or #tile.blocked "
                            "registers only, not "
                         << to.getLayout();
  // Runs along K are read from rows (the lowering's 16-byte loads): of
  // A's tile (padded or swizzled), or of the [N, K] tile whose transposed
  // view is B.
  if (auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(to.getLayout()))
    if (auto shared = dyn_cast_or_null<SharedLayoutAttr>(from.getLayout()))
      if (operand.getKWidth() != 2 &&
          ((shared.getSwizzle() != 0 && operand.getIndex() != 0) ||
           shared.getTransposed() != (operand.getIndex() == 1)))
        return emitOpError() << "reads a dot operand of k_width > 2 from a "
                                "padded row-major or (A) swizzled tile in "
                                "shared memory (B: its transposed view) "
                                "only, not "
                             << shared;
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  return {};
}

void ConvertLayoutOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (isSharedTile(getInput().getType()))
    effects.emplace_back(MemoryEffects::Read::get(), &getInputMutable(),
                         SideEffects::DefaultResource::get());
  if (isSharedTile(getResult().getType())) {
    effects.emplace_back(MemoryEffects::Allocate::get(),
                         getOperation()->getOpResult(0),
                         SideEffects::DefaultResource::get());
    effects.emplace_back(MemoryEffects::Write::get(),
                         getOperation()->getOpResult(0),
                         SideEffects::DefaultResource::get());
  }
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  auto fromTensor = dyn_cast<RankedTensorType>(getInput().getType());
  auto toTensor = dyn_cast<RankedTensorType>(getResult().getType());
  if (fromTensor || toTensor) {
    // The last two dimensions swap; leading (batch) ones stay.
    int64_t rank = fromTensor ? fromTensor.getRank() : 0;
    if (!fromTensor || !toTensor || rank < 2 || toTensor.getRank() != rank ||
        fromTensor.getShape().drop_back(2) != toTensor.getShape().drop_back(2) ||
        fromTensor.getDimSize(rank - 2) != toTensor.getDimSize(rank - 1) ||
        fromTensor.getDimSize(rank - 1) != toTensor.getDimSize(rank - 2) ||
        fromTensor.getElementType() != toTensor.getElementType())
      return emitOpError() << "expected a tensor of rank 2 or more and its "
                              "transpose in the last two dimensions (the same "
                              "element type) but got "
                           << getInput().getType() << " -> "
                           << getResult().getType();
    return success();
  }
  auto from = cast<TileType>(getInput().getType());
  auto to = cast<TileType>(getResult().getType());
  if (from.getRank() != 2 || to.getRank() != 2 ||
      from.getDimSize(0) != to.getDimSize(1) ||
      from.getDimSize(1) != to.getDimSize(0) ||
      from.getElementType() != to.getElementType())
    return emitOpError() << "expected a rank-2 tile and its transpose (the "
                            "same element type) but got "
                         << from << " -> " << to;
  if (isSharedTile(from) != isSharedTile(to))
    return emitOpError() << "expected both tiles in shared memory or both in "
                            "registers but got "
                         << from << " -> " << to;
  if (isSharedTile(from)) {
    auto in = dyn_cast_or_null<SharedLayoutAttr>(from.getLayout());
    auto out = dyn_cast_or_null<SharedLayoutAttr>(to.getLayout());
    if (!in || !out || in.getSwizzle() != out.getSwizzle() ||
        in.getPadding() != out.getPadding() ||
        in.getTransposed() == out.getTransposed())
      return emitOpError() << "expected the input's #tile.shared layout with "
                              "'transposed' flipped but got "
                           << from << " -> " << to;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp, AsyncLoadOp, TmaLoadOp, barriers
//===----------------------------------------------------------------------===//

bool tile::readOnlyAsKMajorWgmmaOperand(Value tile, bool orA) {
  return llvm::all_of(tile.getUsers(), [&](Operation *user) {
    if (auto wgmma = dyn_cast<WgmmaOp>(user))
      return orA && wgmma.getLhs() == tile && wgmma.getRhs() != tile &&
             wgmma.getAcc() != tile;
    auto transpose = dyn_cast<TransposeOp>(user);
    return transpose &&
           llvm::all_of(transpose->getUsers(), [&](Operation *reader) {
             auto wgmma = dyn_cast<WgmmaOp>(reader);
             Value read = transpose.getResult();
             return wgmma && wgmma.getRhs() == read &&
                    wgmma.getLhs() != read && wgmma.getAcc() != read;
           });
  });
}

LogicalResult ViewOp::verify() {
  MemRefType buffer = getBuffer().getType();
  auto tile = cast<TileType>(getResult().getType());
  if (!isWorkgroupMemory(buffer))
    return emitOpError() << "expected a buffer in #gpu.address_space<"
                            "workgroup> but got "
                         << buffer;
  if (!isSharedTile(tile))
    return emitOpError() << "expected a tile in shared memory but got "
                         << tile;
  int64_t leading = buffer.getRank() - tile.getRank();
  if (leading < 0 || (int64_t)getIndices().size() != leading ||
      buffer.getElementType() != tile.getElementType())
    return emitOpError() << "expected " << buffer
                         << " to be slots (one index each) of " << tile;
  ArrayRef<int64_t> slot = buffer.getShape().drop_front(leading);
  if (getRow()) {
    // Rows [r, r + R) of [P, C] slots: the slot's bytes from its row r on,
    // in the slot's layout (tile.tma_load's multicast part of a slot).
    auto layout = dyn_cast_or_null<SharedLayoutAttr>(tile.getLayout());
    if (getColumn() || tile.getRank() != 2 || slot[1] != tile.getDimSize(1) ||
        slot[0] % tile.getDimSize(0) != 0)
      return emitOpError() << "expected " << tile
                           << " to be a part of whole rows of the slots of "
                           << buffer << " (as many rows as divide theirs)";
    if (!layout || layout.getPadding() || layout.getRowXor() ||
        layout.getTransposed())
      return emitOpError() << "expected a part of a slot's rows in an "
                              "unpadded #tile.shared layout but got "
                           << tile;
    if (int64_t swizzle = layout.getSwizzle()) {
      int64_t rowBytes = tile.getDimSize(1) * tile.getElementTypeBitWidth() / 8;
      if (rowBytes != swizzle || tile.getDimSize(0) % 8 != 0)
        return emitOpError()
               << "expected a part of a swizzled slot's rows to be whole "
                  "8-row atoms of one column block (rows of "
               << swizzle << " bytes) but got " << tile;
    }
  } else if (std::optional<int64_t> column = getColumn()) {
    // Columns [c, c + C) of [R, W] slots, with the slots' row pitch.
    auto layout = dyn_cast_or_null<SharedLayoutAttr>(tile.getLayout());
    if (tile.getRank() != 2 || slot[0] != tile.getDimSize(0) ||
        *column < 0 || *column + tile.getDimSize(1) > slot[1])
      return emitOpError() << "expected " << tile << " to be columns ["
                           << *column << ", " << *column + tile.getDimSize(1)
                           << ") of the slots of " << buffer;
    // Readers take 16-byte runs of the slot's rows.
    if ((*column * tile.getElementTypeBitWidth() / 8) % 16 != 0)
      return emitOpError() << "expected columns that start on a 16-byte "
                              "boundary of the slot's rows but got column "
                           << *column;
    if (layout && layout.getSwizzle() && !layout.getRowXor() &&
        !layout.getTransposed()) {
      // A swizzled slot's rows lie in column blocks of the swizzle's
      // bytes: the tile within one of them, padded to its width (the
      // type's verifier), and read only by wgmma's descriptors, which
      // swizzle the address they are given, or by a tile.convert_layout
      // into runs of an A operand, whose lowering takes the view's column
      // (other tile-level accesses count from a tile's first byte as if a
      // block began there). Elements of whole bytes (the view's offset
      // counts them).
      if (tile.getElementTypeBitWidth() % 8 != 0)
        return emitOpError() << "expected a part of a swizzled slot's "
                                "columns of whole-byte elements but got "
                             << tile;
      int64_t eb = tile.getElementTypeBitWidth() / 8;
      int64_t blockCols = layout.getSwizzle() / eb;
      if (slot[1] % blockCols != 0 ||
          *column % blockCols + tile.getDimSize(1) > blockCols)
        return emitOpError()
               << "expected a part of a swizzled slot's columns within one "
                  "of its column blocks of "
               << blockCols << " but got columns [" << *column << ", "
               << *column + tile.getDimSize(1) << ") of slots of width "
               << slot[1];
      // K-major: wgmma's A as it is, or its B transposed (a K offset
      // inside a block is what those descriptors' addresses take); or
      // read into registers as runs of an A operand.
      auto readAsRuns = [](Operation *user) {
        auto convert = dyn_cast<ConvertLayoutOp>(user);
        auto operand = convert
                           ? dyn_cast_or_null<DotOperandLayoutAttr>(
                                 cast<TileType>(convert.getType()).getLayout())
                           : DotOperandLayoutAttr();
        return operand && operand.getIndex() == 0 && operand.getKWidth() > 2;
      };
      if (*column % blockCols != 0 &&
          !readOnlyAsKMajorWgmmaOperand(getResult(), /*orA=*/true) &&
          !llvm::all_of(getResult().getUsers(), readAsRuns))
        return emitOpError() << "expected a part inside a swizzled column "
                                "block (column "
                             << *column
                             << ") to be read only by tile.wgmma, K-major (its "
                                "A, or its B transposed), or into registers "
                                "as runs of an A operand";
    } else if (!layout || layout.getSwizzle() || layout.getRowXor() ||
               layout.getTransposed() ||
               layout.getPadding() != slot[1] - tile.getDimSize(1)) {
      return emitOpError() << "expected a part of a slot's columns laid out "
                              "unswizzled with the slot's row pitch "
                              "(#tile.shared<padding = "
                           << slot[1] - tile.getDimSize(1)
                           << ">), or swizzled within one column block, but "
                              "got "
                           << tile;
    }
  } else if (slot != tile.getShape()) {
    return emitOpError() << "expected " << buffer
                         << " to be slots (one index each) of " << tile;
  }
  if (!getBuffer().getDefiningOp<SharedOp>())
    return emitOpError() << "expected the buffer of a tile.shared";
  return success();
}

LogicalResult AsyncLoadOp::verify() {
  MemRefType source = getSource().getType();
  auto dest = cast<TileType>(getDest().getType());
  if (isWorkgroupMemory(source))
    return emitOpError() << "expected a global-memory source but got "
                         << source;
  if (!isSharedTile(dest))
    return emitOpError() << "expected a destination tile in shared memory but "
                            "got "
                         << dest;
  return verifyTileAccess(*this, source, dest, getIndices().size());
}

/// A mask of ranks of a thread-block cluster (at most 16 programs, the
/// largest cluster sm_90 launches with the non-portable size).
static bool isClusterMask(uint64_t mask) {
  return mask >= 1 && mask <= 0xffff;
}

LogicalResult TmaLoadOp::verify() {
  auto dest = cast<TileType>(getDest().getType());
  if (!isa<LLVM::LLVMPointerType>(getDescriptor().getType()))
    return emitOpError() << "expected the descriptor as an !llvm.ptr (to its "
                            "128 bytes) but got "
                         << getDescriptor().getType();
  auto layout = dyn_cast_or_null<SharedLayoutAttr>(dest.getLayout());
  if (!isSharedTile(dest) || !layout || dest.getRank() != 2 ||
      (layout.getSwizzle() == 0 && !isWholeBoxTmaTile(dest)) ||
      (layout.getSwizzle() != 0 && layout.getPadding() != 0))
    return emitOpError() << "expected a rank-2 destination in shared memory "
                            "with an unpadded #tile.shared<swizzle = ...> "
                            "layout, or an unpadded one of 16-byte rows and "
                            "at most 256 x 256 (one box), but got "
                         << dest;
  if (!isTmaAlignedSlot(dest))
    return emitOpError() << "expected a destination of a multiple of 128 "
                            "bytes (the alignment TMA writes at) but got "
                         << dest;
  if (getIndices().size() != 2)
    return emitOpError() << "expected 2 indices (row, column) but got "
                         << getIndices().size();
  if (!isa<nvgpu::MBarrierGroupType>(getBarriers().getType()))
    return emitOpError() << "expected an !nvgpu.mbarrier.group but got "
                         << getBarriers().getType();
  if (std::optional<uint64_t> mask = getMulticast();
      mask && !isClusterMask(*mask))
    return emitOpError() << "expected a multicast mask of cluster ranks (1 "
                            "to 0xffff) but got "
                         << static_cast<int64_t>(*mask);
  return success();
}

LogicalResult TmaStoreOp::verify() {
  auto type = cast<TileType>(getValue().getType());
  if (!isa<LLVM::LLVMPointerType>(getDescriptor().getType()))
    return emitOpError() << "expected the descriptor as an !llvm.ptr (to its "
                            "128 bytes) but got "
                         << getDescriptor().getType();
  if (isSharedTile(type) || type.getRank() != 2 ||
      !isa_and_nonnull<MmaLayoutAttr>(type.getLayout()))
    return emitOpError() << "expected a rank-2 register tile in a #tile.mma "
                            "layout but got "
                         << type;
  if (getIndices().size() != 2)
    return emitOpError() << "expected 2 indices (row, column) but got "
                         << getIndices().size();
  MemRefType dest = getDest().getType();
  if (dest.getRank() != 2 || dest.getElementType() != type.getElementType())
    return emitOpError() << "expected a rank-2 destination of "
                         << type.getElementType() << " but got " << dest;
  MemRefType staging = getStaging().getType();
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(staging.getMemorySpace());
  int64_t bits = type.getElementTypeBitWidth();
  if (bits % 8 != 0 || 128 % (bits / 8) != 0)
    return emitOpError() << "expected elements of 1, 2, 4, 8 or 16 bytes "
                            "but got "
                         << type.getElementType();
  int64_t blockCols = 128 / (bits / 8);
  if (!space || space.getValue() != gpu::AddressSpace::Workgroup ||
      staging.getRank() != 3 ||
      staging.getElementType() != type.getElementType() ||
      staging.getDimSize(1) != type.getDimSize(0) ||
      staging.getDimSize(2) != blockCols || staging.getDimSize(0) < 1 ||
      staging.getDimSize(0) > 2)
    return emitOpError() << "expected a staging buffer in shared memory of "
                            "1 or 2 slots of "
                         << type.getDimSize(0) << " x " << blockCols
                         << " (128 bytes a row) " << type.getElementType()
                         << " but got " << staging;
  if (type.getDimSize(1) % blockCols != 0 || type.getDimSize(0) > 256)
    return emitOpError() << "expected a tile of whole 128-byte column blocks "
                            "and at most 256 rows (a TMA box) but got "
                         << type;
  if (!getStaging().getDefiningOp<SharedOp>())
    return emitOpError() << "expected the staging buffer from tile.shared";
  return success();
}

LogicalResult ArriveOp::verify() {
  std::optional<uint64_t> mask = getRanks();
  if (!mask)
    return success();
  if (!isClusterMask(*mask))
    return emitOpError() << "expected a mask of cluster ranks (1 to 0xffff) "
                            "but got "
                         << static_cast<int64_t>(*mask);
  if (getEveryThread())
    return emitOpError() << "arrives per warp on the ranks' barriers: "
                            "every_thread is not taken with ranks";
  return success();
}

LogicalResult BarrierGroupOp::verify() {
  auto group = dyn_cast<nvgpu::MBarrierGroupType>(getBarriers().getType());
  if (!group)
    return emitOpError() << "expected an !nvgpu.mbarrier.group but got "
                         << getBarriers().getType();
  if (getArrivals() < 1)
    return emitOpError() << "expected at least one arrival but got "
                         << getArrivals();
  if (!isa_and_nonnull<KernelOp, gpu::LaunchOp>((*this)->getParentOp()))
    return emitOpError() << "expected at the top of a kernel body, before any "
                            "partition or loop";
  // Its count is of warps or of threads: tile.arrive's two forms on one
  // group would complete a phase early or never.
  ArriveOp first;
  for (Operation *user : getBarriers().getUsers()) {
    auto arrive = dyn_cast<ArriveOp>(user);
    if (!arrive)
      continue;
    if (!first) {
      first = arrive;
    } else if (arrive.getEveryThread() != first.getEveryThread()) {
      InFlightDiagnostic error =
          emitOpError() << "expected its tile.arrive ops to arrive all once "
                           "a warp or all once a thread (every_thread), not "
                           "both";
      ArriveOp byThread = arrive.getEveryThread() ? arrive : first;
      ArriveOp byWarp = arrive.getEveryThread() ? first : arrive;
      error.attachNote(byWarp.getLoc()) << "once a warp here";
      error.attachNote(byThread.getLoc()) << "once a thread here";
      return error;
    }
  }
  return success();
}

LogicalResult LastArrivalOp::verify() {
  if (getCount() < 1)
    return emitOpError() << "expected a count of at least one program but got "
                         << getCount();
  return success();
}

//===----------------------------------------------------------------------===//
// ClusterSumOp
//===----------------------------------------------------------------------===//

LogicalResult ClusterSumOp::verify() {
  if (getSize() < 2 || getSize() > 8)
    return emitOpError() << "expected a cluster of 2 to 8 programs but got "
                         << getSize();
  auto type = cast<TileType>(getInput().getType());
  if (isSharedTile(type) || !type.getElementType().isF32())
    return emitOpError() << "expected a register tile of f32 but got "
                         << type;
  return success();
}

//===----------------------------------------------------------------------===//
// RegisterFenceOp
//===----------------------------------------------------------------------===//

bool RegisterFenceOp::fences(Type type) {
  auto tile = dyn_cast<TileType>(type);
  return tile && !isSharedTile(tile) && tile.getLayout() &&
         (tile.getElementTypeBitWidth() == 32 ||
          (tile.getElementTypeBitWidth() == 16 &&
           isa<DotOperandLayoutAttr>(tile.getLayout())));
}

LogicalResult RegisterFenceOp::verify() {
  if (!fences(getInput().getType()))
    return emitOpError() << "expected a register tile of 32-bit elements "
                            "with a layout (or 16-bit ones of a dot "
                            "operand) but got "
                         << getInput().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// WgmmaOp
//===----------------------------------------------------------------------===//

LogicalResult WgmmaOp::verify() {
  auto lhs = cast<TileType>(getLhs().getType());
  auto rhs = cast<TileType>(getRhs().getType());
  auto acc = cast<TileType>(getAcc().getType());
  auto mma = dyn_cast_or_null<MmaLayoutAttr>(acc.getLayout());
  if (!mma || mma.getKind() != MmaKind::wgmma)
    return emitOpError() << "expected an accumulator with a #tile.mma<wgmma> "
                            "layout but got "
                         << acc;
  auto registerLhs = dyn_cast_or_null<DotOperandLayoutAttr>(lhs.getLayout());
  if (registerLhs && (registerLhs.getIndex() != 0 ||
                      registerLhs.getParent() != mma))
    return emitOpError() << "expected lhs in registers in "
                            "#tile.dot_operand<0, the accumulator's layout> "
                            "but got "
                         << lhs;
  // A's columns in fragment-run order: its registers hold the runs.
  int64_t lhsWidth = getLhsKRuns().value_or(2);
  if (getLhsKRuns() &&
      (!registerLhs || (*getLhsKRuns() != 8 && *getLhsKRuns() != 16 &&
                        *getLhsKRuns() != 32)))
    return emitOpError() << "expected lhs in registers under lhs_k_runs of "
                            "8, 16 or 32 but got "
                         << lhs;
  if (registerLhs && registerLhs.getKWidth() != lhsWidth)
    return emitOpError() << "expected lhs in registers of k_width "
                         << lhsWidth << " but got " << lhs;
  for (auto [what, type] : {std::pair{"lhs", lhs}, std::pair{"rhs", rhs}}) {
    if (registerLhs && type == lhs)
      continue;
    auto layout = dyn_cast_or_null<SharedLayoutAttr>(type.getLayout());
    if (!isSharedTile(type) || !layout || layout.getSwizzle() == 0)
      return emitOpError() << "expected " << what
                           << " in shared memory with a #tile.shared<swizzle "
                              "= ...> layout but got "
                           << type;
  }
  Type element = lhs.getElementType();
  bool fp8 = isFloat8(element) && isFloat8(rhs.getElementType());
  if (!fp8 && (element != rhs.getElementType() ||
               !(element.isBF16() || element.isF16())))
    return emitOpError() << "expected bf16 or f16 operands of one type, or "
                            "fp8 ones, but got "
                         << lhs.getElementType() << " and "
                         << rhs.getElementType();
  // wgmma reads fp8 operands K-major only: A as stored, B transposed.
  if (fp8 && (registerLhs ||
              !cast<SharedLayoutAttr>(rhs.getLayout()).getTransposed()))
    return emitOpError() << "expected fp8 operands in shared memory, B "
                            "K-major (a transposed view), but got "
                         << lhs << " x " << rhs;
  if (!acc.getElementType().isF32())
    return emitOpError() << "expected an f32 accumulator but got "
                         << acc.getElementType();
  // One instruction takes 32 bytes of K; a run order's whole blocks.
  int64_t kStep = 256 / lhs.getElementTypeBitWidth();
  if (getLhsKRuns())
    kStep = 4 * *getLhsKRuns();
  if (lhs.getDimSize(1) != rhs.getDimSize(0) ||
      acc.getDimSize(0) != lhs.getDimSize(0) ||
      acc.getDimSize(1) != rhs.getDimSize(1) ||
      lhs.getDimSize(1) % kStep != 0)
    return emitOpError() << "expected [M, K] x [K, N] -> [M, N] with K a "
                            "multiple of "
                         << kStep << " but got " << lhs << " x " << rhs
                         << " -> " << acc;
  return success();
}

//===----------------------------------------------------------------------===//
// WarpSpecializeOp
//===----------------------------------------------------------------------===//

LogicalResult WarpSpecializeOp::verify() {
  ArrayRef<int64_t> threads = getThreads(), registers = getRegisters();
  if (threads.empty() || threads.size() != getPartitions().size() ||
      registers.size() != threads.size())
    return emitOpError() << "expected one thread count and one register count "
                            "per partition but got "
                         << threads.size() << " and " << registers.size()
                         << " for " << getPartitions().size()
                         << " partitions";
  if (std::optional<ArrayRef<int64_t>> replicas = getReplicas()) {
    if (replicas->size() != threads.size())
      return emitOpError() << "expected one replica count per partition but "
                              "got "
                           << replicas->size() << " for " << threads.size()
                           << " partitions";
    for (int64_t count : *replicas)
      if (count < 1)
        return emitOpError() << "expected replica counts of at least 1 but "
                                "got "
                             << count;
  }
  int64_t total = 0;
  for (auto [i, count, regs] : llvm::enumerate(threads, registers)) {
    if (count < 128 || count % 128 != 0)
      return emitOpError() << "expected partitions of whole warpgroups (a "
                              "multiple of 128 threads) but got "
                           << count;
    if (regs != 0 && (regs < 24 || regs > 256 || regs % 8 != 0))
      return emitOpError() << "expected registers of 0 (unchanged) or a "
                              "multiple of 8 in [24, 256] but got "
                           << regs;
    total += count * getReplicaCount(i);
  }
  // setmaxnreg.inc waits until the registers it asks for are free: more
  // than the launch holds never are (the program hangs).
  int64_t perThread = launchRegistersPerThread(total), asked = 0;
  for (auto [i, count, regs] : llvm::enumerate(threads, registers))
    asked += count * getReplicaCount(i) * (regs != 0 ? regs : perThread);
  if (asked > perThread * total)
    return emitOpError() << "partitions ask for " << asked
                         << " registers but a launch of " << total
                         << " threads holds " << perThread * total << " ("
                         << perThread << " a thread)";
  if (auto kernel = dyn_cast<KernelOp>((*this)->getParentOp()))
    if (total != static_cast<int64_t>(kernel.getThreads()))
      return emitOpError() << "partitions hold " << total
                           << " threads but the kernel has "
                           << kernel.getThreads();
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError() << "cannot be nested in another partition";
  return success();
}

LogicalResult ReplicaOp::verify() {
  if (!(*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError() << "expected to be inside a tile.warp_specialize "
                            "partition";
  return success();
}

//===----------------------------------------------------------------------===//
// Index facts
//===----------------------------------------------------------------------===//

/// Whether `value` is provably a multiple of `n`: constants, and sums,
/// differences, products, selects and minima/maxima of such, and loop
/// induction variables whose lower bound and step are.
bool tile::isProvablyMultipleOf(Value value, int64_t n, int depth) {
  if (n == 1)
    return true;
  if (depth > 8)
    return false;
  if (std::optional<int64_t> c = getConstantIntValue(value))
    return *c % n == 0;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    auto loop = dyn_cast_or_null<scf::ForOp>(parent);
    return loop && arg == loop.getInductionVar() &&
           isProvablyMultipleOf(loop.getLowerBound(), n, depth + 1) &&
           isProvablyMultipleOf(loop.getStep(), n, depth + 1);
  }
  Operation *op = value.getDefiningOp();
  if (!op)
    return false;
  auto both = [&](Value x, Value y) {
    return isProvablyMultipleOf(x, n, depth + 1) && isProvablyMultipleOf(y, n, depth + 1);
  };
  if (isa<arith::AddIOp, arith::SubIOp, arith::MinUIOp, arith::MaxUIOp,
          arith::MinSIOp, arith::MaxSIOp>(op))
    return both(op->getOperand(0), op->getOperand(1));
  if (isa<arith::MulIOp>(op))
    return isProvablyMultipleOf(op->getOperand(0), n, depth + 1) ||
           isProvablyMultipleOf(op->getOperand(1), n, depth + 1);
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return both(select.getTrueValue(), select.getFalseValue());
  // x / c is a multiple of n where x is one of n * c (a packed operand's
  // column: half the K offset).
  if (auto div = dyn_cast<arith::DivUIOp>(op)) {
    std::optional<int64_t> c = getConstantIntValue(div.getRhs());
    int64_t product;
    return c && *c > 0 && !llvm::MulOverflow(n, *c, product) &&
           isProvablyMultipleOf(div.getLhs(), product, depth + 1);
  }
  return false;
}

