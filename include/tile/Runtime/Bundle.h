//===- Bundle.h - Kernel bundle: the compiler's output, the runner's input -===//
//
// A kernel bundle is everything needed to launch and check a compiled tile
// program with nothing but the CUDA driver: the PTX and cubin of each GPU
// module, the launches in order, the buffers they take, and which outputs are
// compared against which reference outputs, and the TMA descriptors (tensor
// maps) the runner encodes over buffers. docs/bundle-format.md specifies
// the file format. This library is plain C++17 (no LLVM, no CUDA) so that the
// compiler writes bundles and the runner reads them through the same code.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_RUNTIME_BUNDLE_H
#define TILE_RUNTIME_BUNDLE_H

#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace bundle {

/// Element types a buffer may hold. F8E4M3FN and F8E5M2 are the OCP FP8
/// formats (torch.float8_e4m3fn, torch.float8_e5m2; MLIR f8E4M3FN, f8E5M2).
enum class DType { F32, F16, BF16, F64, I32, I64, I8, F8E4M3FN, F8E5M2 };

/// Size in bytes of one element; spelling as written in the file ("bf16").
unsigned dtypeSize(DType t);
const char *dtypeName(DType t);
bool parseDType(const std::string &s, DType &out);

/// What the runner does with a buffer before launching.
///  In: filled with fresh random data. Out: poisoned, written by the main
///  launches, checked. Ref: poisoned, written by reference launches.
///  Scratch: poisoned, an intermediate of either stage. Zeroed: scratch
///  that starts as zeros (filled once, where it is allocated) and that every
///  launch leaves zero again: split-K's arrival counters.
enum class Role { In, Out, Ref, Scratch, Zeroed };
const char *roleName(Role r);

struct Buffer {
  std::string name;
  Role role = Role::In;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;   // elements per dimension, row-major
  std::vector<int64_t> strides; // in elements
  int64_t numElements() const;  // product of shape
  int64_t sizeInBytes() const;  // span covered by shape/strides, in bytes
};

/// The most bytes a buffer may span (1 PB), so that sizes stay well inside
/// int64 arithmetic.
constexpr double kMostBufferBytes = 1e15;

/// A TMA descriptor (CUtensorMap) over a buffer, which gives its dtype,
/// shape and strides. The runner encodes it with cuTensorMapEncodeTiled and
/// passes a launch that names it the device pointer to the 128-byte encoded
/// descriptor. Out-of-bounds elements read as zero.
struct TensorMap {
  std::string name, buffer;
  std::vector<int64_t> box; // elements per dimension, the buffer's order
  unsigned swizzle = 0;     // bytes: 0 (none), 32, 64, 128
};

/// The buffer as a tensor map of `rank` dimensions sees it: itself, or with
/// its leading dimensions merged into the first (a contiguous [B, H, S, D]
/// seen as rows [B * H * S, D]). False where those dimensions are not
/// contiguous, or `rank` is 0 or more than the buffer's.
bool tensorMapView(const Buffer &buffer, size_t rank, Buffer &view);

/// TMA limits: at most 5 dimensions, box sizes in [1, 256], the innermost
/// box extent a multiple of 16 bytes, strides other than the innermost
/// multiples of 16 bytes.
constexpr unsigned kTensorMapMaxRank = 5;
constexpr int64_t kTensorMapMaxBox = 256;
constexpr unsigned kTensorMapAlignment = 16;

/// Whether TMA can move elements of type `t` (all of ours: i8 and the f8
/// types as UINT8).
bool tensorMapSupports(DType t);

/// One GPU module: PTX text and cubin bytes, from the same compilation.
struct Module {
  std::string name;
  std::string ptx;
  std::string cubin;
};

/// Main launches compute the program; reference launches compute the same
/// function through the naive pipeline, into the Ref buffers.
enum class Stage { Main, Reference };

struct Launch {
  Stage stage = Stage::Main;
  std::string module; // a Module's name
  std::string entry;  // kernel symbol in that module's cubin
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  /// Thread-block cluster, in blocks per dimension; each divides the grid's.
  /// 1 1 1 is a plain launch (and is not written to the file).
  unsigned cluster[3] = {1, 1, 1};
  /// A programmatic dependent launch (`dependent` in the file): launched
  /// with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, so that it
  /// may start while the main launch before it finishes; its kernel waits
  /// (griddepcontrol.wait) for that launch's completion before it touches
  /// memory. Only a main launch after the first main launch.
  bool dependent = false;
  unsigned dynamicSharedBytes = 0;
  /// Buffer or tensormap names. A buffer is passed as its device pointer, a
  /// tensormap as the device pointer to its encoded CUtensorMap.
  std::vector<std::string> args;

  /// Whether the launch runs in clusters of more than one block.
  bool hasCluster() const {
    return cluster[0] != 1 || cluster[1] != 1 || cluster[2] != 1;
  }
};

/// The most blocks a cluster may hold: the portable cluster size, which
/// every GPU with clusters (compute capability 9.0 on) launches without the
/// kernel opting in to a larger, non-portable size.
constexpr unsigned kMostClusterBlocks = 8;

/// Compare buffer `output` with buffer `reference`: pass when
/// ||out - ref||_2 / ||ref||_2 <= tolerance and no element is NaN.
struct Check {
  std::string output;
  std::string reference;
  double tolerance = 1e-5;
};

/// The format version this library reads and writes (docs/bundle-format.md).
/// 2: FNV-1a of every section and of the header.
constexpr int kBundleVersion = 2;

struct Bundle {
  int version = kBundleVersion;
  std::string target;     // "sm_90a", "sm_80"
  std::string function;   // source function name
  std::string sourceHash; // hex SHA-256 of the source IR and the options
  std::string options;    // the compile options, one line
  // simt-f32 | tc-bf16 | tc-f16 | tc-tf32 | tc-fp8
  std::string computeClass = "simt-f32";
  double flops = 0;       // useful floating-point operations of the main stage
  std::vector<Buffer> buffers;
  std::vector<TensorMap> tensorMaps;
  std::vector<Module> modules;
  std::vector<Launch> launches;
  std::vector<Check> checks;

  const Buffer *findBuffer(const std::string &name) const;
  const TensorMap *findTensorMap(const std::string &name) const;
  const Module *findModule(const std::string &name) const;
  /// Bytes the main stage must move at least: each In buffer read once and
  /// each Out buffer written once.
  double minimumBytes() const;
};

/// 64-bit FNV-1a of `data`, as 16 lower-case hex digits. The file stores it
/// for every PTX and cubin section and for the header, so that corruption
/// is caught before the driver (or the launcher) sees it.
std::string fnv1a64Hex(const std::string &data);

/// Serialize to the on-disk format. Never fails for a valid bundle.
std::string serialize(const Bundle &b);

/// Parse and validate. On failure returns false and sets `error` to a
/// message naming the line (or section) at fault.
bool parse(const std::string &bytes, Bundle &out, std::string &error);

/// Structural checks shared by the writer and the reader: names resolve,
/// shapes are positive, launches have at least one thread, clusters tile
/// the grid, tensor maps meet the TMA limits, and so on.
bool validate(const Bundle &b, std::string &error);

/// File helpers. readFile/writeFile return false and set `error` on failure.
bool readFile(const std::string &path, std::string &bytes, std::string &error);
bool writeFile(const std::string &path, const std::string &bytes,
               std::string &error);

} // namespace bundle
} // namespace tile

#endif // TILE_RUNTIME_BUNDLE_H
