//===- TileLayouts.cpp - Which thread holds which element -------*- C++ -*-===//
//
// The linear maps of the MMA-family layouts (see TileLayouts.h and the
// attribute descriptions in TileAttrs.td) and the shared-memory offsets.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileLayouts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::tile;

Offset LinearLayout::slotOffset(int64_t s) const {
  Offset at = {0, 0};
  for (auto [bit, basis] : llvm::enumerate(slot))
    if (s & (int64_t(1) << bit)) {
      at[0] ^= basis[0];
      at[1] ^= basis[1];
    }
  int64_t outer = s >> slot.size();
  at[0] += outer * outerStride[0];
  at[1] += outer * outerStride[1];
  return at;
}

Offset LinearLayout::apply(int64_t s, int64_t l, int64_t w) const {
  Offset at = slotOffset(s);
  auto add = [&](ArrayRef<Offset> bases, int64_t value) {
    for (auto [bit, basis] : llvm::enumerate(bases))
      if (value & (int64_t(1) << bit)) {
        at[0] ^= basis[0];
        at[1] ^= basis[1];
      }
  };
  add(lane, l);
  add(warp, w);
  return at;
}

bool LinearLayout::isCopySlot(int64_t s) const {
  for (auto [bit, basis] : llvm::enumerate(slot))
    if ((s & (int64_t(1) << bit)) && basis == Offset{0, 0})
      return true;
  return (s >> slot.size()) != 0 && outerStride == Offset{0, 0};
}

bool tile::isLinearLayout(Attribute layout) {
  if (auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout))
    return isLinearLayout(slice.getParent()) ||
           (isa<BlockedLayoutAttr>(slice.getParent()) && slice.getExtent() > 0);
  return isa_and_nonnull<MmaLayoutAttr, DotOperandLayoutAttr>(layout);
}

/// Appends the bases of `count` = 2^k repetitions spaced `step` apart
/// along dimension `dim`.
static void appendPowers(SmallVector<Offset> &bases, int64_t count,
                         int64_t step, int dim) {
  for (int64_t v = 1; v < count; v *= 2) {
    Offset basis = {0, 0};
    basis[dim] = v * step;
    bases.push_back(basis);
  }
}

static Offset along(int dim, int64_t value) {
  Offset basis = {0, 0};
  basis[dim] = value;
  return basis;
}

static FailureOr<LinearLayout> fail(std::string *why, const Twine &message) {
  if (why)
    *why = message.str();
  return failure();
}

static bool isPow2(int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); }

static FailureOr<LinearLayout> mmaLayout(MmaLayoutAttr mma,
                                         ArrayRef<int64_t> shape,
                                         std::string *why) {
  if (shape.size() != 2)
    return fail(why, "an mma layout needs a rank-2 tile");
  int64_t wm = mma.getWarps()[0], wn = mma.getWarps()[1];
  int64_t n = mma.getFragmentColumns();
  int64_t rows = shape[0], cols = shape[1];
  // instr N = n2 * odd (n2 a power of two): wgmma's fragment of an odd
  // factor > 1 (m64n192: 24 blocks of 8 columns) is the n2-wide fragment's
  // map repeated odd times n2 columns apart, the slot's highest digit (the
  // layout's outer repetition). The tile is then one instruction per warp:
  // repetitions along M or N would sit above it, where wgmma's lowering
  // does not look for them.
  int64_t n2 = n & -n, odd = n / n2;
  if (odd > 1 && (wn != 1 || cols != n || rows != 16 * wm))
    return fail(why, "a tile of " + Twine(rows) + "x" + Twine(cols) +
                         " is not one instruction of N = " + Twine(n) +
                         " (not a power of two) per warp: " + Twine(16 * wm) +
                         "x" + Twine(n) + " with warps [" + Twine(wm) + ", 1]");
  if (!isPow2(rows) || (odd == 1 && !isPow2(cols)) || rows % (16 * wm) != 0 ||
      cols % (n * wn) != 0)
    return fail(why, "a tile of " + Twine(rows) + "x" + Twine(cols) +
                         " does not split into the mma layout's " +
                         Twine(16 * wm) + "x" + Twine(n * wn) +
                         " (16 rows x instr N per warp, warps [" + Twine(wm) +
                         ", " + Twine(wn) + "]) in powers of two");
  LinearLayout layout;
  layout.shape = {rows, cols};
  layout.slot.push_back(along(1, 1));
  layout.slot.push_back(along(0, 8));
  appendPowers(layout.slot, n2 / 8, 8, 1);
  if (odd > 1) {
    layout.outerCount = odd;
    layout.outerStride = along(1, n2);
  } else {
    appendPowers(layout.slot, cols / (n * wn), n * wn, 1);
    appendPowers(layout.slot, rows / (16 * wm), 16 * wm, 0);
  }
  layout.lane = {along(1, 2), along(1, 4), along(0, 1), along(0, 2),
                 along(0, 4)};
  appendPowers(layout.warp, wm, 16, 0);
  appendPowers(layout.warp, wn, n, 1);
  return layout;
}

static FailureOr<LinearLayout> dotOperandLayout(DotOperandLayoutAttr operand,
                                                ArrayRef<int64_t> shape,
                                                std::string *why) {
  MmaLayoutAttr parent = operand.getParent();
  // wgmma reads A (not B) from registers too: per warp, the fragment of
  // mma.sync's m16n8k16 A, four warps of 16 rows each per warpgroup.
  if (parent.getKind() == MmaKind::wgmma && operand.getIndex() != 0)
    return fail(why, "wgmma reads only its A operand from registers");
  if (parent.getKind() == MmaKind::simt)
    return fail(why, "a SIMT dot has no register operand layout");
  if (shape.size() != 2)
    return fail(why, "a dot operand layout needs a rank-2 tile");
  int64_t wm = parent.getWarps()[0], wn = parent.getWarps()[1];
  // K in blocks of 4 W (W = k_width): lane l % 4 holds W consecutive
  // values of each (16 for W = 2, whose pairs 8 apart are one mma's).
  int64_t width = operand.getKWidth();
  int64_t kBlock = std::max<int64_t>(16, 4 * width);
  LinearLayout layout;
  layout.shape = {shape[0], shape[1]};
  if (operand.getIndex() == 0) {
    int64_t rows = shape[0], depth = shape[1];
    if (!isPow2(rows) || !isPow2(depth) || rows % (16 * wm) != 0 ||
        depth % kBlock != 0)
      return fail(why, "an A operand of " + Twine(rows) + "x" + Twine(depth) +
                           " does not split into " + Twine(16 * wm) + "x" +
                           Twine(kBlock) + " blocks in powers of two");
    if (width == 2) {
      layout.slot = {along(1, 1), along(0, 8), along(1, 8)};
      appendPowers(layout.slot, depth / 16, 16, 1);
      layout.lane = {along(1, 2), along(1, 4)};
    } else if (parent.getKind() == MmaKind::wgmma) {
      // wgmma's register A in runs (lhs_k_runs): a thread's W stored
      // columns of row g, then of row g + 8, then the blocks; its lowering
      // finds each fragment by coordinate, and in this order the half as
      // wide layout of the bytes a run is unpacked from is slot for slot
      // the run's (tile.unpack's fast path).
      appendPowers(layout.slot, width, 1, 1);
      layout.slot.push_back(along(0, 8));
      appendPowers(layout.slot, depth / kBlock, kBlock, 1);
      layout.lane = {along(1, width), along(1, 2 * width)};
    } else {
      // Slots per mma: a0 (k 4t, 4t + 1), a1 (row + 8), a2 / a3 (k + 2);
      // then the block's W / 4 mmas, then the blocks.
      layout.slot = {along(1, 1), along(0, 8), along(1, 2)};
      appendPowers(layout.slot, width / 4, 4, 1);
      appendPowers(layout.slot, depth / kBlock, kBlock, 1);
      layout.lane = {along(1, width), along(1, 2 * width)};
    }
    appendPowers(layout.slot, rows / (16 * wm), 16 * wm, 0);
    layout.lane.append({along(0, 1), along(0, 2), along(0, 4)});
    appendPowers(layout.warp, wm, 16, 0);
    for (int64_t v = 1; v < wn; v *= 2)
      layout.warp.push_back({0, 0});
    return layout;
  }
  int64_t depth = shape[0], cols = shape[1];
  if (!isPow2(depth) || !isPow2(cols) || depth % kBlock != 0 ||
      cols % (8 * wn) != 0)
    return fail(why, "a B operand of " + Twine(depth) + "x" + Twine(cols) +
                         " does not split into " + Twine(kBlock) + "x" +
                         Twine(8 * wn) + " blocks in powers of two");
  if (width == 2) {
    layout.slot = {along(0, 1), along(0, 8)};
    appendPowers(layout.slot, depth / 16, 16, 0);
  } else {
    // A thread's W values of the block, then the blocks.
    appendPowers(layout.slot, width, 1, 0);
    appendPowers(layout.slot, depth / kBlock, kBlock, 0);
  }
  appendPowers(layout.slot, cols / (8 * wn), 8 * wn, 1);
  layout.lane = {along(0, width), along(0, 2 * width), along(1, 1),
                 along(1, 2), along(1, 4)};
  for (int64_t v = 1; v < wm; v *= 2)
    layout.warp.push_back({0, 0});
  appendPowers(layout.warp, wn, 8, 1);
  return layout;
}

/// A #tile.blocked layout as a linear map where the tile's extents, the
/// threads and the run are powers of two and every thread holds whole runs:
/// slot k of thread t holds flat element ((k / V) P + t) V + k % V, so the
/// low bits of the flat index come from the slot, then the thread's, then
/// the slot's again; flat bits below log2(C) are columns, the rest rows.
static FailureOr<LinearLayout> blockedLayout(BlockedLayoutAttr blocked,
                                             ArrayRef<int64_t> shape,
                                             std::string *why) {
  int64_t threads = blocked.getThreads(), run = blocked.getRun();
  // Checked products (a wrapped threads * run of 0 would divide by zero).
  int64_t elements = 1, perRun = 0;
  bool pastRange = llvm::MulOverflow(threads, run, perRun);
  for (int64_t extent : shape)
    pastRange |= llvm::MulOverflow(elements, extent, elements);
  if (shape.empty() || shape.size() > 2 || pastRange ||
      !llvm::all_of(shape, isPow2) || !isPow2(threads) || threads < 32 ||
      elements % perRun != 0)
    return fail(why, "a blocked layout is a linear map only for rank 1 or 2 "
                     "tiles of powers of two whose threads hold whole runs");
  int64_t cols = shape.back();
  auto flatBit = [&](int64_t bit) {
    int64_t flat = int64_t(1) << bit;
    if (shape.size() == 1)
      return along(0, flat);
    return flat < cols ? along(1, flat) : along(0, flat / cols);
  };
  LinearLayout layout;
  layout.shape = SmallVector<int64_t, 2>(shape);
  int64_t runBits = llvm::Log2_64(run), threadBits = llvm::Log2_64(threads);
  int64_t slotBits = llvm::Log2_64(elements / threads);
  for (int64_t bit = 0; bit < slotBits; ++bit)
    layout.slot.push_back(flatBit(bit < runBits ? bit : bit + threadBits));
  for (int64_t bit = 0; bit < threadBits; ++bit)
    (bit < 5 ? layout.lane : layout.warp).push_back(flatBit(runBits + bit));
  return layout;
}

/// Keeps the coordinate of `basis` that is not `dim`, as a rank-1 offset.
static Offset project(Offset basis, unsigned dim) {
  return {basis[1 - dim], 0};
}

FailureOr<LinearLayout> tile::getLinearLayout(Attribute layout,
                                              ArrayRef<int64_t> shape,
                                              std::string *why) {
  if (auto mma = dyn_cast_or_null<MmaLayoutAttr>(layout))
    return mmaLayout(mma, shape, why);
  if (auto operand = dyn_cast_or_null<DotOperandLayoutAttr>(layout))
    return dotOperandLayout(operand, shape, why);
  if (auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(layout))
    return blockedLayout(blocked, shape, why);
  auto slice = dyn_cast_or_null<SliceLayoutAttr>(layout);
  if (!slice || !isLinearLayout(slice))
    return fail(why, "not a linear layout");
  if (shape.size() != 1)
    return fail(why, "a slice layout needs a rank-1 tile");
  unsigned dim = slice.getDim();
  // The parent's tile: the slice's extent along the kept dimension, and
  // along the removed one the least the parent needs (its layout repeats
  // there, and repetitions only add copies).
  SmallVector<int64_t, 2> parentShape(2, 1);
  parentShape[1 - dim] = shape[0];
  int64_t least = 1;
  if (auto mma = dyn_cast<MmaLayoutAttr>(slice.getParent()))
    least = dim == 0 ? 16 * mma.getWarps()[0]
                     : mma.getFragmentColumns() * mma.getWarps()[1];
  else if (isa<BlockedLayoutAttr>(slice.getParent()))
    least = slice.getExtent(); // a blocked map depends on the whole shape
  else if (auto operand = dyn_cast<DotOperandLayoutAttr>(slice.getParent())) {
    // One block of the operand along the removed dimension (a per-row
    // scale of a weight computed as wgmma's A: its K removed).
    MmaLayoutAttr mma = operand.getParent();
    int64_t kBlock = std::max<int64_t>(16, 4 * operand.getKWidth());
    least = operand.getIndex() == 0
                ? (dim == 1 ? kBlock : 16 * mma.getWarps()[0])
                : (dim == 0 ? kBlock : 8 * mma.getWarps()[1]);
  } else {
    return fail(why, "not a slice of a linear layout");
  }
  parentShape[dim] = least;
  std::string parentWhy;
  FailureOr<LinearLayout> parent =
      getLinearLayout(slice.getParent(), parentShape, &parentWhy);
  if (failed(parent))
    return fail(why, "the slice's parent: " + parentWhy);
  LinearLayout result;
  result.shape = {shape[0]};
  for (const Offset &basis : parent->slot)
    if (basis[1 - dim] != 0)
      result.slot.push_back(project(basis, dim));
  if (parent->outerCount > 1 && parent->outerStride[1 - dim] != 0) {
    result.outerCount = parent->outerCount;
    result.outerStride = project(parent->outerStride, dim);
  }
  for (const Offset &basis : parent->lane)
    result.lane.push_back(project(basis, dim));
  for (const Offset &basis : parent->warp)
    result.warp.push_back(project(basis, dim));
  return result;
}

/// For each slot of `b`, the slot of `a` that holds its element, where
/// both maps put every element in the same lane and warp; `a`'s offsets
/// read with their coordinates swapped where `transposed` (b is the map of
/// a's transpose).
static std::optional<SmallVector<int64_t>>
slotPermutation(const LinearLayout &a, const LinearLayout &b,
                bool transposed) {
  auto seen = [&](Offset at) -> Offset {
    return transposed ? Offset{at[1], at[0]} : at;
  };
  auto same = [&](ArrayRef<Offset> x, ArrayRef<Offset> y) {
    return x.size() == y.size() &&
           llvm::all_of(llvm::zip(x, y), [&](auto pair) {
             return seen(std::get<0>(pair)) == std::get<1>(pair);
           });
  };
  if (!same(a.lane, b.lane) || !same(a.warp, b.warp) ||
      a.getNumSlots() != b.getNumSlots())
    return std::nullopt;
  std::map<Offset, int64_t> slotAt;
  for (int64_t s = 0; s < a.getNumSlots(); ++s)
    slotAt.try_emplace(seen(a.slotOffset(s)), s);
  SmallVector<int64_t> permutation;
  for (int64_t s = 0; s < b.getNumSlots(); ++s) {
    auto it = slotAt.find(b.slotOffset(s));
    if (it == slotAt.end())
      return std::nullopt;
    permutation.push_back(it->second);
  }
  return permutation;
}

std::optional<SmallVector<int64_t>>
tile::getSlotPermutation(Attribute from, Attribute to,
                         ArrayRef<int64_t> shape) {
  if (!isLinearLayout(from) || !isLinearLayout(to))
    return std::nullopt;
  FailureOr<LinearLayout> a = getLinearLayout(from, shape);
  FailureOr<LinearLayout> b = getLinearLayout(to, shape);
  if (failed(a) || failed(b))
    return std::nullopt;
  return slotPermutation(*a, *b, /*transposed=*/false);
}

std::optional<SmallVector<int64_t>>
tile::getTransposeSlotPermutation(Attribute from, Attribute to,
                                  ArrayRef<int64_t> fromShape) {
  if (fromShape.size() != 2)
    return std::nullopt;
  SmallVector<int64_t, 2> toShape = {fromShape[1], fromShape[0]};
  FailureOr<LinearLayout> a = getLinearLayout(from, fromShape);
  FailureOr<LinearLayout> b = getLinearLayout(to, toShape);
  if (failed(a) || failed(b))
    return std::nullopt;
  return slotPermutation(*a, *b, /*transposed=*/true);
}

int64_t tile::sliceSlotOf(const LinearLayout &parent, unsigned dim,
                          int64_t s) {
  int64_t result = 0, bit = 0;
  for (auto [i, basis] : llvm::enumerate(parent.slot)) {
    if (basis[1 - dim] == 0)
      continue;
    if (s & (int64_t(1) << i))
      result |= int64_t(1) << bit;
    ++bit;
  }
  if (parent.outerCount > 1 && parent.outerStride[1 - dim] != 0)
    result += (s >> parent.slot.size()) << bit;
  return result;
}

int64_t tile::getSlotsPerThread(TileType type, int64_t threads) {
  if (auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(type.getLayout()))
    threads = blocked.getThreads();
  if (isLinearLayout(type.getLayout())) {
    FailureOr<LinearLayout> layout =
        getLinearLayout(type.getLayout(), type.getShape());
    if (succeeded(layout))
      return layout->getNumSlots();
  }
  return std::max<int64_t>(1, type.getNumElements() / threads);
}

Attribute tile::getReducedLayout(Attribute layout, int64_t dim) {
  if (!layout)
    return {};
  if (isLinearLayout(layout))
    return SliceLayoutAttr::get(layout.getContext(), dim, layout);
  return layout;
}

bool tile::isWholeBoxTmaTile(TileType type) {
  auto layout = dyn_cast_or_null<SharedLayoutAttr>(type.getLayout());
  return layout && isSharedTile(type) && type.getRank() == 2 &&
         layout.getSwizzle() == 0 && layout.getPadding() == 0 &&
         layout.getRowXor() == 0 && !layout.getTransposed() &&
         type.getDimSize(0) <= 256 && type.getDimSize(1) <= 256 &&
         (type.getDimSize(1) * type.getElementTypeBitWidth() / 8) % 16 == 0;
}

bool tile::isTmaAlignedSlot(TileType type) {
  return (type.getNumElements() * type.getElementTypeBitWidth() / 8) % 128 ==
         0;
}

int64_t tile::tmaBoxCols(TileType type) {
  auto layout = cast<SharedLayoutAttr>(type.getLayout());
  if (layout.getSwizzle() == 0)
    return type.getDimSize(1);
  return layout.getSwizzle() * 8 / type.getElementTypeBitWidth();
}

bool tile::isGlobalMemRef(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return false;
  auto space =
      dyn_cast_or_null<gpu::AddressSpaceAttr>(memref.getMemorySpace());
  return !memref.getMemorySpace() ||
         (space && space.getValue() == gpu::AddressSpace::Global);
}

bool tile::isSharedTile(Type type) {
  auto tile = dyn_cast<TileType>(type);
  if (!tile)
    return false;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(tile.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

int64_t tile::sharedByteOffset(SharedLayoutAttr layout, ArrayRef<int64_t> shape,
                               int64_t elementBytes, int64_t row, int64_t col,
                               int64_t startByte) {
  int64_t cols = shape.back();
  int64_t rows = shape.size() == 2 ? shape[0] : 1;
  if (layout && layout.getTransposed()) {
    std::swap(rows, cols);
    std::swap(row, col);
  }
  int64_t swizzle = layout ? layout.getSwizzle() : 0;
  if (swizzle == 0) {
    int64_t padding = layout ? layout.getPadding() : 0;
    int64_t inRow = col * elementBytes;
    if (int64_t rowXor = layout ? layout.getRowXor() : 0)
      inRow ^= ((inRow / rowXor) % 2) * (rowXor / 4);
    return row * (cols + padding) * elementBytes + inRow;
  }
  int64_t blockCols = swizzle / elementBytes;
  int64_t offset = (col / blockCols) * rows * swizzle + row * swizzle +
                   (col % blockCols) * elementBytes + startByte;
  // 16-byte unit bits [4, 4 + log2(swizzle / 16)) xor bits [7, ...).
  int64_t mask = swizzle / 16 - 1;
  return (offset ^ (((offset >> 7) & mask) << 4)) - startByte;
}

int64_t tile::sharedReadWavefronts(SharedLayoutAttr layout,
                                   ArrayRef<int64_t> shape,
                                   int64_t elementBytes,
                                   const LinearLayout &linear, int64_t runBytes,
                                   int64_t startByte) {
  int64_t run = std::max<int64_t>(1, runBytes / elementBytes);
  int64_t lanesAtOnce = 128 / runBytes, total = 0;
  for (int64_t s = 0; s < linear.getNumSlots(); ++s) {
    if (linear.slotOffset(s)[1] % run != 0 || linear.isCopySlot(s))
      continue;
    for (int64_t first = 0; first < 32; first += lanesAtOnce) {
      std::map<int64_t, std::set<int64_t>> wordsOfBank;
      for (int64_t l = first; l < first + lanesAtOnce; ++l) {
        Offset at = linear.apply(s, l, 0);
        int64_t byte = sharedByteOffset(layout, shape, elementBytes, at[0],
                                        at[1], startByte);
        for (int64_t word = byte / 4; word < (byte + runBytes + 3) / 4; ++word)
          wordsOfBank[word % 32].insert(word);
      }
      int64_t busiest = 0;
      for (auto &[bank, words] : wordsOfBank)
        busiest = std::max<int64_t>(busiest, words.size());
      total += busiest;
    }
  }
  return total;
}

int64_t tile::sharedTileBytes(SharedLayoutAttr layout,
                              ArrayRef<int64_t> shape, int64_t elementBytes) {
  int64_t cols = shape.back();
  int64_t rows = shape.size() == 2 ? shape[0] : 1;
  if (layout && layout.getTransposed())
    std::swap(rows, cols);
  // (A swizzled tile's padding makes its rows a column block's.)
  int64_t padding = layout ? layout.getPadding() : 0;
  return rows * (cols + padding) * elementBytes;
}
