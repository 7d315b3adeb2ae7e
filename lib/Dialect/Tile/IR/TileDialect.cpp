//===- TileDialect.cpp - Tile dialect, types and attributes ---*- C++ -*-===//
//
// Registers the tile dialect and implements its type and attribute hooks:
// the `!tile.tile<AxBxT[, layout][, memory_space]>` syntax and verifiers.
// Their errors have cases in test/Dialect/Tile/invalid-attributes.mlir and
// invalid-layouts.mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileLayouts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileOpsDialect.cpp.inc"

#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileOpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileOpsTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tile/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// TileType
//===----------------------------------------------------------------------===//

/// `!tile.tile<128x64xbf16>`, optionally followed by `, layout = #attr` and
/// `, memory_space = #attr`.
Type TileType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute layout, memorySpace;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType))
    return {};
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    if (key == "layout") {
      if (parser.parseAttribute(layout))
        return {};
    } else if (key == "memory_space") {
      if (parser.parseAttribute(memorySpace))
        return {};
    } else {
      parser.emitError(parser.getCurrentLocation())
          << "expected 'layout' or 'memory_space' but got '" << key << "'";
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<TileType>(parser.getContext(), shape, elementType,
                                     layout, memorySpace);
}

void TileType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType();
  if (getLayout())
    printer << ", layout = " << getLayout();
  if (getMemorySpace())
    printer << ", memory_space = " << getMemorySpace();
  printer << ">";
}

LogicalResult TileType::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> shape, Type elementType,
                               Attribute layout, Attribute memorySpace) {
  if (shape.empty() || shape.size() > 2)
    return emitError() << "tile must have rank 1 or 2 but got rank "
                       << shape.size();
  for (int64_t dim : shape)
    if (dim <= 0)
      return emitError() << "tile dimensions must be positive but got " << dim;
  if (!isa<FloatType, IntegerType>(elementType))
    return emitError() << "tile element type must be an integer or float "
                          "type but got "
                       << elementType;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(memorySpace);
  bool shared = space && space.getValue() == gpu::AddressSpace::Workgroup;
  if (memorySpace && !shared)
    return emitError() << "a tile's memory space is #gpu.address_space<"
                          "workgroup> or none (registers) but got "
                       << memorySpace;
  if (!layout) {
    if (shared)
      return emitError() << "a tile in shared memory needs a #tile.shared "
                            "layout";
    return success();
  }
  if (auto sharedLayout = dyn_cast<SharedLayoutAttr>(layout)) {
    if (!shared)
      return emitError() << "a #tile.shared layout needs memory_space = "
                            "#gpu.address_space<workgroup>";
    int64_t swizzle = sharedLayout.getSwizzle();
    int64_t rowBytes =
        shape.back() * llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
    // A transposed view's stored rows are its columns.
    if (sharedLayout.getTransposed() && shape.size() == 2)
      rowBytes = shape[0] *
                 llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
    if (int64_t rowXor = sharedLayout.getRowXor())
      if (rowBytes % (2 * rowXor) != 0)
        return emitError() << "a tile in #tile.shared<row_xor = " << rowXor
                           << "> needs rows of a multiple of " << 2 * rowXor
                           << " bytes but has rows of " << rowBytes
                           << " bytes";
    if (swizzle == 0)
      return success();
    // (Stored rows: a transposed view's columns.)
    int64_t rows = shape.size() == 2
                       ? shape[sharedLayout.getTransposed() ? 1 : 0]
                       : 1;
    // Padded: a part of a column block, its rows and padding the block's.
    if (int64_t padding = sharedLayout.getPadding()) {
      int64_t paddingBytes =
          padding * llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8);
      if (rowBytes + paddingBytes != swizzle || rows % 8 != 0)
        return emitError() << "a tile in #tile.shared<swizzle = " << swizzle
                           << ", padding = " << padding
                           << "> needs rows and padding of " << swizzle
                           << " bytes together and a multiple of 8 rows but "
                              "has "
                           << rows << " rows of " << rowBytes
                           << " bytes and " << paddingBytes
                           << " bytes of padding";
      return success();
    }
    if (rowBytes % swizzle != 0 || rows % 8 != 0)
      return emitError() << "a tile in #tile.shared<swizzle = " << swizzle
                         << "> needs rows of a multiple of " << swizzle
                         << " bytes and a multiple of 8 rows but has "
                         << rows << " rows of " << rowBytes << " bytes";
    return success();
  }
  if (shared)
    return emitError() << "a tile in shared memory needs a #tile.shared "
                          "layout but got "
                       << layout;
  if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout)) {
    // Dimensions and runs are any positive int64 (a run any power of two):
    // products are checked, not wrapped (a wrapped threads * run of 0 was
    // a division by zero).
    int64_t elements = 1;
    for (int64_t dim : shape)
      if (llvm::MulOverflow(elements, dim, elements))
        return emitError() << "a #tile.blocked tile of more than 2^63 "
                              "elements cannot be spread over threads";
    int64_t threads = blocked.getThreads();
    if (elements % threads != 0 && threads % elements != 0)
      return emitError() << "cannot spread a tile of " << elements
                         << " elements over " << threads
                         << " threads (one must divide the other)";
    int64_t run = blocked.getRun(), multiple = 0;
    bool pastRange = llvm::MulOverflow(threads, run, multiple);
    if (run > 1 && (pastRange || elements % multiple != 0)) {
      InFlightDiagnostic diag = emitError()
                                << "a #tile.blocked run of " << run
                                << " needs a multiple of ";
      if (pastRange)
        diag << threads << " x " << run;
      else
        diag << multiple;
      return diag << " elements but the tile has " << elements;
    }
    return success();
  }
  if (isLinearLayout(layout)) {
    std::string why;
    if (failed(getLinearLayout(layout, shape, &why)))
      return emitError() << why;
    return success();
  }
  return emitError() << "expected a tile layout (#tile.blocked, #tile.mma, "
                        "#tile.dot_operand, #tile.slice, #tile.shared) but "
                        "got "
                     << layout;
}

//===----------------------------------------------------------------------===//
// ConfigAttr
//===----------------------------------------------------------------------===//

/// `#tile.config<block = [..], threads = N[, key = value]...>`.
Attribute ConfigAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> block, instr, warps, cluster;
  int64_t threads = 0, stages = 1, groupRows = 1, splitK = 1, fmaExp2 = 0,
          kWarpgroups = 1, streamKPart = 0, l2Fetch = 0;
  bool persistent = false, warpSpecialize = false, overlap = false,
       splitKInKernel = false, prefetch = false, pingpong = false,
       mirrorRows = false, transposed = false, streamK = false, everySm = false,
       uniformWarp = false, tmaStore = false;
  MmaKind mma = MmaKind::simt;
  auto parseList = [&](SmallVector<int64_t> &list) -> ParseResult {
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          int64_t value;
          if (parser.parseInteger(value))
            return failure();
          list.push_back(value);
          return success();
        });
  };
  auto parseBool = [&](bool &value) -> ParseResult {
    StringRef word;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&word))
      return failure();
    if (word != "true" && word != "false")
      return parser.emitError(at) << "expected true or false";
    value = word == "true";
    return success();
  };
  bool sawBlock = false, sawThreads = false;
  if (parser.parseLess())
    return {};
  do {
    StringRef key;
    SMLoc at = parser.getCurrentLocation();
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return {};
    ParseResult result = success();
    if (key == "block") {
      result = parseList(block);
      sawBlock = true;
    } else if (key == "threads") {
      result = parser.parseInteger(threads);
      sawThreads = true;
    } else if (key == "mma") {
      StringRef word;
      SMLoc wordAt = parser.getCurrentLocation();
      result = parser.parseKeyword(&word);
      if (succeeded(result)) {
        std::optional<MmaKind> kind = symbolizeMmaKind(word);
        if (!kind) {
          parser.emitError(wordAt)
              << "expected simt, mma_sync or wgmma but got '" << word << "'";
          return {};
        }
        mma = *kind;
      }
    } else if (key == "instr") {
      result = parseList(instr);
    } else if (key == "warps") {
      result = parseList(warps);
    } else if (key == "stages") {
      result = parser.parseInteger(stages);
    } else if (key == "persistent") {
      result = parseBool(persistent);
    } else if (key == "group_rows") {
      result = parser.parseInteger(groupRows);
    } else if (key == "warp_specialize") {
      result = parseBool(warpSpecialize);
    } else if (key == "split_k") {
      result = parser.parseInteger(splitK);
    } else if (key == "cluster") {
      result = parseList(cluster);
    } else if (key == "overlap") {
      result = parseBool(overlap);
    } else if (key == "split_k_in_kernel") {
      result = parseBool(splitKInKernel);
    } else if (key == "prefetch") {
      result = parseBool(prefetch);
    } else if (key == "pingpong") {
      result = parseBool(pingpong);
    } else if (key == "mirror_rows") {
      result = parseBool(mirrorRows);
    } else if (key == "fma_exp2") {
      result = parser.parseInteger(fmaExp2);
    } else if (key == "transposed") {
      result = parseBool(transposed);
    } else if (key == "k_warpgroups") {
      result = parser.parseInteger(kWarpgroups);
    } else if (key == "stream_k") {
      result = parseBool(streamK);
    } else if (key == "every_sm") {
      result = parseBool(everySm);
    } else if (key == "stream_k_part") {
      result = parser.parseInteger(streamKPart);
    } else if (key == "uniform_warp") {
      result = parseBool(uniformWarp);
    } else if (key == "tma_store") {
      result = parseBool(tmaStore);
    } else if (key == "l2_fetch") {
      result = parser.parseInteger(l2Fetch);
    } else {
      parser.emitError(at) << "unknown #tile.config key '" << key << "'";
      return {};
    }
    if (failed(result))
      return {};
  } while (succeeded(parser.parseOptionalComma()));
  if (parser.parseGreater())
    return {};
  if (!sawBlock || !sawThreads) {
    parser.emitError(parser.getCurrentLocation())
        << "#tile.config needs block and threads";
    return {};
  }
  return parser.getChecked<ConfigAttr>(
      parser.getContext(), block, threads, mma, instr, warps, stages,
      persistent, groupRows, warpSpecialize, splitK, cluster, overlap,
      splitKInKernel, prefetch, pingpong, mirrorRows, fmaExp2, transposed,
      kWarpgroups, streamK, everySm, streamKPart, uniformWarp, tmaStore,
      l2Fetch);
}

void ConfigAttr::print(AsmPrinter &printer) const {
  auto list = [&](ArrayRef<int64_t> values) {
    printer << "[";
    llvm::interleaveComma(values, printer);
    printer << "]";
  };
  printer << "<block = ";
  list(getBlock());
  printer << ", threads = " << getThreads();
  if (getMma() != MmaKind::simt)
    printer << ", mma = " << stringifyMmaKind(getMma());
  if (!getInstr().empty()) {
    printer << ", instr = ";
    list(getInstr());
  }
  if (!getWarps().empty()) {
    printer << ", warps = ";
    list(getWarps());
  }
  if (getStages() != 1)
    printer << ", stages = " << getStages();
  if (getPersistent())
    printer << ", persistent = true";
  if (getGroupRows() != 1)
    printer << ", group_rows = " << getGroupRows();
  if (getWarpSpecialize())
    printer << ", warp_specialize = true";
  if (getSplitK() != 1)
    printer << ", split_k = " << getSplitK();
  if (!getCluster().empty()) {
    printer << ", cluster = ";
    list(getCluster());
  }
  if (getOverlap())
    printer << ", overlap = true";
  if (getSplitKInKernel())
    printer << ", split_k_in_kernel = true";
  if (getPrefetch())
    printer << ", prefetch = true";
  if (getPingpong())
    printer << ", pingpong = true";
  if (getMirrorRows())
    printer << ", mirror_rows = true";
  if (getFmaExp2() != 0)
    printer << ", fma_exp2 = " << getFmaExp2();
  if (getTransposed())
    printer << ", transposed = true";
  if (getKWarpgroups() != 1)
    printer << ", k_warpgroups = " << getKWarpgroups();
  if (getStreamK())
    printer << ", stream_k = true";
  if (getEverySm())
    printer << ", every_sm = true";
  if (getStreamKPart() != 0)
    printer << ", stream_k_part = " << getStreamKPart();
  if (getUniformWarp())
    printer << ", uniform_warp = true";
  if (getTmaStore())
    printer << ", tma_store = true";
  if (getL2Fetch() != 0)
    printer << ", l2_fetch = " << getL2Fetch();
  printer << ">";
}

LogicalResult ConfigAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> block,
    int64_t threads, MmaKind mma, ArrayRef<int64_t> instr,
    ArrayRef<int64_t> warps, int64_t stages, bool persistent, int64_t groupRows,
    bool warpSpecialize, int64_t splitK, ArrayRef<int64_t> cluster,
    bool overlap, bool splitKInKernel, bool prefetch, bool pingpong,
    bool mirrorRows, int64_t fmaExp2, bool transposed, int64_t kWarpgroups,
    bool streamK, bool everySm, int64_t streamKPart, bool uniformWarp,
    bool tmaStore, int64_t l2Fetch) {
  if (block.empty() || block.size() > 3)
    return emitError() << "block must have 1 to 3 sizes but got "
                       << block.size();
  for (int64_t size : block)
    if (size <= 0)
      return emitError() << "block sizes must be positive but got " << size;
  if (threads <= 0 || threads > 1024 || threads % 32 != 0)
    return emitError() << "threads must be a multiple of 32 in [32, 1024] "
                          "but got "
                       << threads;
  if (!instr.empty() && instr.size() != 3)
    return emitError() << "instr is [M, N, K] but has " << instr.size()
                       << " sizes";
  if (!warps.empty() && warps.size() != 2)
    return emitError() << "warps is [along M, along N] but has "
                       << warps.size() << " sizes";
  if (!warps.empty() && warps[0] * warps[1] * 32 != threads)
    return emitError() << "warps [" << warps[0] << ", " << warps[1]
                       << "] are " << warps[0] * warps[1] * 32
                       << " threads but threads = " << threads;
  if (mma != MmaKind::simt && (instr.empty() || warps.empty()))
    return emitError() << "mma = " << stringifyMmaKind(mma)
                       << " needs instr and warps";
  // Up to 16, for configs written or tuned by hand: a small-M decode
  // kernel's ring of 12 or 16 stages fits its shared memory
  // (tile-configure itself gives at most 8).
  if (stages < 1 || stages > 16)
    return emitError() << "stages must be in [1, 16] but is " << stages;
  if (groupRows < 1)
    return emitError() << "group_rows must be at least 1 but is "
                       << groupRows;
  if (splitK < 1)
    return emitError() << "split_k must be at least 1 but is " << splitK;
  if (transposed && (mma != MmaKind::wgmma || splitK != 1))
    return emitError() << "transposed (the weight as wgmma's register A) "
                          "needs mma = wgmma and split_k = 1";
  if (prefetch && stages < 2)
    return emitError() << "prefetch needs stages >= 2 (a ring) but stages = "
                       << stages;
  if (splitKInKernel && splitK < 2)
    return emitError() << "split_k_in_kernel needs split_k >= 2 but split_k = "
                       << splitK;
  if (!cluster.empty() && cluster.size() != 2 && cluster.size() != 3)
    return emitError() << "cluster is [along M, along N] or [along M, along "
                          "N, along the K ranges] but has "
                       << cluster.size() << " sizes";
  for (int64_t size : cluster)
    if (size < 1)
      return emitError() << "cluster sizes must be positive but got " << size;
  // A cluster along the K ranges adds a tile's partials in distributed
  // shared memory (wgmma kernels): all of them, so it is the split, on the
  // grid as tile-tile builds it.
  if (cluster.size() == 3 && cluster[2] != 1) {
    if (cluster[2] != splitK || cluster[2] > 8)
      return emitError() << "a cluster along the K ranges (cluster[2] = "
                         << cluster[2]
                         << ") must hold all of them (split_k = " << splitK
                         << "), at most 8";
    if (splitKInKernel || persistent || groupRows != 1)
      return emitError() << "a cluster along the K ranges runs on the grid "
                            "as it is: no split_k_in_kernel, persistent or "
                            "group_rows";
    if (mma != MmaKind::wgmma)
      return emitError() << "a cluster along the K ranges needs mma = wgmma "
                            "but mma = "
                         << stringifyMmaKind(mma);
  }
  // A cluster along M: its programs hold tiles of one block-column and
  // copy their B tiles together (TMA multicast, tile-pipeline's ring).
  if (cluster.size() >= 2 && (cluster[0] != 1 || cluster[1] != 1)) {
    if (cluster[1] != 1 || (cluster.size() == 3 && cluster[2] != 1))
      return emitError() << "a cluster along N, or along M and another "
                            "dimension, is not built (only [C, 1])";
    if (!llvm::isPowerOf2_64(cluster[0]) || cluster[0] > 8)
      return emitError() << "a cluster along M holds 2, 4 or 8 programs but "
                            "cluster[0] = "
                         << cluster[0];
    if (mma != MmaKind::wgmma || stages < 2 || splitK != 1 || transposed ||
        mirrorRows)
      return emitError() << "a cluster along M shares wgmma's B tiles "
                            "through a TMA ring: it needs mma = wgmma, "
                            "stages >= 2, split_k = 1, and no transposed or "
                            "mirror_rows";
  }
  if (overlap && stages < 2)
    return emitError() << "overlap needs a ring (stages >= 2) but stages = "
                       << stages;
  // Overlapped, a slot of the ring is given back only after the next
  // step's product has been issued: loads issued by the consumers
  // themselves would wait on it first (the kernel deadlocked on the H200,
  // bench/RESULTS.md session 12), so the loads need their own warpgroup.
  if (overlap && !warpSpecialize)
    return emitError() << "overlap needs warp_specialize = true (a producer "
                          "warpgroup issues the ring's loads)";
  // Warpgroups take turns: wgmma's, two or more of them.
  if (pingpong && (mma != MmaKind::wgmma || threads < 256 || threads % 128))
    return emitError() << "pingpong needs mma = wgmma on two or more whole "
                          "warpgroups but threads = "
                       << threads << " with mma = " << stringifyMmaKind(mma);
  // The pairs are an order of a persistent program's tiles.
  if (mirrorRows && !persistent)
    return emitError() << "mirror_rows needs persistent = true";
  if (mirrorRows && groupRows != 1)
    return emitError() << "mirror_rows orders the tiles itself, so "
                          "group_rows must be 1 but is "
                       << groupRows;
  if (fmaExp2 < 0)
    return emitError() << "fma_exp2 must be 0 (none) or positive but got "
                       << fmaExp2;
  if (kWarpgroups < 1)
    return emitError() << "k_warpgroups must be at least 1 but is "
                       << kWarpgroups;
  if (kWarpgroups > 1) {
    // The warpgroups share one producer's ring, each waiting on its own
    // steps' slots: a slot is computed from the step (a remainder by the
    // stages, not carried by the loop), and given back when its step is
    // done (no wgmma group in flight across steps, no per-load barriers).
    // One output tile per program: the partials' hand-off is used once.
    if (mma != MmaKind::wgmma || !warpSpecialize || threads % 128)
      return emitError() << "k_warpgroups needs mma = wgmma, "
                            "warp_specialize = true and threads a multiple "
                            "of 128";
    if (stages < 2)
      return emitError() << "k_warpgroups needs a ring (stages >= 2) but "
                            "stages = "
                         << stages;
    // A ring wait's parity tells only this round from the last: the
    // warpgroup waiting on a slot for step i must be the one that used it
    // for step i - stages, so k_warpgroups divides stages.
    if (stages % kWarpgroups != 0)
      return emitError() << "k_warpgroups (" << kWarpgroups
                         << ") must divide stages (" << stages
                         << "): each warpgroup waits on the slots of its "
                            "own steps";
    if (persistent || overlap || pingpong ||
        (cluster.size() == 3 && cluster[2] != 1))
      return emitError() << "k_warpgroups takes no persistent, overlap, "
                            "pingpong or cluster along K";
  }
  // Stream-K is a persistent schedule of one K loop per output tile (or
  // a part of one), built by tile-tile with its own partial sums; a
  // part's trip count changes from one item to the next, which
  // tile-overlap (constant trip counts, or a choice of two) does not take
  // unless every part has the same steps (stream_k_part).
  if (streamK &&
      (!persistent || mma != MmaKind::wgmma || splitK != 1 || mirrorRows ||
       transposed || kWarpgroups != 1 || (overlap && streamKPart == 0) ||
       llvm::any_of(cluster, [](int64_t size) { return size != 1; })))
    return emitError() << "stream_k needs persistent = true and mma = "
                          "wgmma, with no split_k, cluster, mirror_rows, "
                          "transposed, k_warpgroups, or overlap without "
                          "stream_k_part";
  if (streamKPart < 0 || (streamKPart > 0 && !streamK))
    return emitError() << "stream_k_part (" << streamKPart
                       << ") is a positive count of K steps, with stream_k";
  // Mirrored pairs and stream-K deal their work over every SM their own
  // way.
  if (everySm && (!persistent || mirrorRows || streamK))
    return emitError() << "every_sm needs persistent = true, without "
                          "mirror_rows or stream_k";
  // A block N that is not a power of two is one wgmma instruction per warp
  // (128 x 192); the 16-row chunks of the in-kernel split-K and stream-K
  // fix-ups are not built for it.
  if (block.size() == 3 && !llvm::isPowerOf2_64(block[1]) &&
      (mma != MmaKind::wgmma || splitKInKernel || streamK))
    return emitError() << "a block N that is not a power of two (" << block[1]
                       << ") is for wgmma, without split_k_in_kernel or "
                          "stream_k";
  if (uniformWarp && mma != MmaKind::wgmma)
    return emitError() << "uniform_warp is a wgmma kernel's (mma = wgmma)";
  if (tmaStore && (mma != MmaKind::wgmma || !warpSpecialize))
    return emitError() << "tma_store is a warp-specialized wgmma kernel's "
                          "(mma = wgmma, warp_specialize = true)";
  if (tmaStore && (splitK != 1 || streamK || kWarpgroups != 1))
    return emitError() << "tma_store stores whole output tiles: not with "
                          "split_k, stream_k or k_warpgroups";
  if (l2Fetch != 0 && l2Fetch != 64 && l2Fetch != 128 && l2Fetch != 256)
    return emitError() << "l2_fetch is 64, 128 or 256 bytes (PTX's L2 "
                          "prefetch sizes) but got "
                       << l2Fetch;
  if (l2Fetch != 0 && !prefetch)
    return emitError() << "l2_fetch hints the loads that prefetch moves "
                          "ahead: it needs prefetch = true";
  return success();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

/// The digits after "sm_" (0 when there are none).
static int64_t smOf(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return 0;
  int64_t sm = 0;
  chip.take_while(llvm::isDigit).getAsInteger(10, sm);
  return sm;
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip, int64_t sms) {
  StringRef rest = chip;
  if (!rest.consume_front("sm_") || rest.empty() ||
      !llvm::isDigit(rest.front()))
    return emitError() << "expected a chip like sm_80 or sm_90a but got '"
                       << chip << "'";
  StringRef suffix = rest.drop_while(llvm::isDigit);
  if (!suffix.empty() && suffix != "a" && suffix != "f")
    return emitError() << "expected a chip like sm_80 or sm_90a but got '"
                       << chip << "'";
  if (sms < 0)
    return emitError() << "sms must be positive (or absent) but is " << sms;
  return success();
}

int64_t TargetAttr::getSm() const { return smOf(getChip()); }

int64_t TargetAttr::getSmCount() const {
  if (getSms() > 0)
    return getSms();
  switch (getSm()) {
  case 80:
    return 108; // A100
  case 86:
    return 84; // A40
  case 89:
    return 142; // L40S
  case 90:
    return 132; // H100 SXM, H200
  case 100:
    return 148; // B200
  default:
    return 0;
  }
}

int64_t TargetAttr::getSharedMemoryPerSm() const {
  switch (getSm()) {
  case 80:
  case 87:
    return 164 * 1024;
  case 86:
  case 89:
  case 120:
    return 100 * 1024;
  case 90:
  case 100:
  case 103:
    return 228 * 1024;
  default:
    return 0;
  }
}

int64_t TargetAttr::getMaxSharedMemoryPerProgram() const {
  // The SM's shared memory less the 1 KB the hardware keeps per program.
  int64_t perSm = getSharedMemoryPerSm();
  return perSm > 0 ? perSm - 1024 : 0;
}

TargetAttr TargetAttr::lookup(Operation *op) {
  for (Operation *at = op; at; at = at->getParentOp())
    if (auto module = dyn_cast<ModuleOp>(at))
      if (auto target = module->getAttrOfType<TargetAttr>(getAttrName()))
        return target;
  return {};
}

//===----------------------------------------------------------------------===//
// Layout attributes
//===----------------------------------------------------------------------===//

LogicalResult
BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          int64_t threads, int64_t run) {
  if (threads < 32 || threads > 1024 || threads % 32 != 0)
    return emitError() << "threads must be a multiple of 32 in [32, 1024] "
                          "but got "
                       << threads;
  if (run < 1 || !llvm::isPowerOf2_64(run))
    return emitError() << "run must be a power of two but is " << run;
  return success();
}

LogicalResult MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    MmaKind kind, ArrayRef<int64_t> warps,
                                    ArrayRef<int64_t> instr) {
  if (kind == MmaKind::simt)
    return emitError() << "an mma layout is mma_sync's or wgmma's";
  if (warps.size() != 2 || instr.size() != 3)
    return emitError() << "expected warps = [M, N] and instr = [M, N, K]";
  for (int64_t w : warps)
    if (w < 1 || !llvm::isPowerOf2_64(w))
      return emitError() << "warps must be powers of two but got " << w;
  // A program has at most 1024 threads (the layouts' 16 rows a warp would
  // wrap around past that).
  if (warps[0] > 32 || warps[1] > 32 || warps[0] * warps[1] > 32)
    return emitError() << "warps [" << warps[0] << ", " << warps[1]
                       << "] are more than a program's 32";
  if (kind == MmaKind::mma_sync) {
    if (instr[0] != 16 || instr[1] != 8 || (instr[2] != 16 && instr[2] != 8))
      return emitError() << "mma_sync instructions are 16x8x16 (or 16x8x8) "
                            "but got "
                         << instr[0] << "x" << instr[1] << "x" << instr[2];
    return success();
  }
  if (warps[0] % 4 != 0)
    return emitError() << "wgmma accumulators need whole warpgroups (4 warps) "
                          "along M but got "
                       << warps[0];
  if (instr[0] != 64 || instr[1] < 8 || instr[1] > 256 || instr[1] % 8 != 0)
    return emitError() << "wgmma instructions are m64nNk16 with N a multiple "
                          "of 8 in [8, 256] but got "
                       << instr[0] << "x" << instr[1] << "x" << instr[2];
  return success();
}

LogicalResult
DotOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                             unsigned index, MmaLayoutAttr parent,
                             unsigned kWidth) {
  if (index > 1)
    return emitError() << "a dot operand is 0 (A) or 1 (B) but got " << index;
  if (!parent)
    return emitError() << "a dot operand layout needs an mma parent";
  if (kWidth < 2 || kWidth > 64 || !llvm::isPowerOf2_32(kWidth))
    return emitError() << "k_width is a power of two in [2, 64] but got "
                       << kWidth;
  // wgmma's A in registers under lhs_k_runs holds its runs (the
  // fragments of m64nNk16 per warp are mma.sync's A).
  if (kWidth != 2 && parent.getKind() != MmaKind::mma_sync &&
      !(parent.getKind() == MmaKind::wgmma && index == 0))
    return emitError() << "k_width other than 2 is for mma.sync operands "
                          "and wgmma's A only, not "
                       << parent;
  return success();
}

LogicalResult
SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned dim, Attribute parent, int64_t extent) {
  if (dim > 1)
    return emitError() << "a slice removes dimension 0 or 1 but got " << dim;
  if (isa_and_nonnull<BlockedLayoutAttr>(parent)) {
    if (extent <= 0 || !llvm::isPowerOf2_64(extent))
      return emitError() << "a slice of a blocked layout needs the parent's "
                            "extent along the removed dimension (a power of "
                            "two) but got "
                         << extent;
    return success();
  }
  if (!isa_and_nonnull<MmaLayoutAttr, DotOperandLayoutAttr>(parent))
    return emitError() << "a slice's parent is an mma, dot operand or "
                          "blocked layout but got "
                       << parent;
  if (extent != 0)
    return emitError() << "a slice of an mma or dot operand layout takes no "
                          "extent";
  return success();
}

LogicalResult
SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         int64_t swizzle, int64_t padding, bool transposed,
                         int64_t rowXor) {
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    return emitError() << "swizzle is 0, 32, 64 or 128 bytes but got "
                       << swizzle;
  if (padding < 0)
    return emitError() << "padding must not be negative but is " << padding;
  if (rowXor != 0 && (rowXor < 64 || !llvm::isPowerOf2_64(rowXor)))
    return emitError() << "row_xor is 0 or a power of two of 64 bytes or "
                          "more but got "
                       << rowXor;
  if (rowXor != 0 && swizzle != 0)
    return emitError() << "row_xor is for row-major layouts (or their "
                          "transposed views) without swizzle";
  return success();
}
