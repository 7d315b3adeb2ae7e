//===- CompilerAPI.h - The compiler behind plain C++ types ------*- C++ -*-===//
//
// compileFunction (Compiler.h) for callers that must not see MLIR or LLVM
// headers: the Python extension is built with RTTI and exceptions against
// an LLVM built without them, so it talks to the compiler through this
// header alone (std::string in, std::string out, diagnostics as data).
// The implementation owns the MLIRContext: one per call, sharing one thread
// pool, so calls from several threads are independent.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_COMPILER_COMPILERAPI_H
#define TILE_COMPILER_COMPILERAPI_H

#include <map>
#include <string>
#include <vector>

namespace tile {
namespace compiler {

struct Options {
  std::string chip = "sm_90a";
  std::string features = "+ptx80";
  std::string cudaPath;    // empty: $CUDA_HOME, else /usr/local/cuda
  std::string tileOptions; // tile-tile options ("matmul-block=64,64,16")
  /// More tile-to-nvvm options for the kernels ("sms=114", "mma=simt").
  std::string pipelineOptions;
  /// More options of the tensor-level tile-configure ("tuning-db=FILE",
  /// "candidate=3").
  std::string configureOptions;
  bool fuse = true;
  /// Hardware approximations for f32 tanh, exp and division (the
  /// reference stays exact).
  bool fastMath = false;
  /// "bundle" (default), "ptx", "nvvm" or "tile": the last stage to run.
  std::string stopAfter = "bundle";
  /// "tensor" (default): a tensor-level function; "tile": a host function
  /// of tile.kernel ops, lowered as it is (see mlir::tile::InputLevel).
  std::string level = "tensor";
  /// "auto" (default) or "simt": the matmul strategy (CompileOptions::mma).
  std::string mma = "auto";
  /// Where a failing pipeline leaves its reproducer (CompileOptions).
  std::string reproducer;
  /// Line tables in the PTX and cubin (CompileOptions::lineInfo).
  bool lineInfo = false;
};

/// One diagnostic, with the first file:line:col its location holds (file
/// empty and line 0 when it has none). Notes that only dump the IR ("see
/// current operation") are dropped; others are kept in `notes`.
struct Diagnostic {
  std::string severity; // "error", "warning", "note", "remark"
  std::string message;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::vector<Diagnostic> notes;
  /// "file:line:col: error: message", or "error: message" unlocated.
  std::string format() const;
};

struct Result {
  bool ok = false;
  std::string bundle;                        // empty unless stopAfter=bundle
  std::map<std::string, std::string> stages; // see CompileResult::stages
  std::vector<Diagnostic> diagnostics;       // errors, warnings, remarks
};

/// Compiles `function` (empty: the only tensor-level one, or at the tile
/// level the only one holding tile.kernel ops) of the MLIR
/// module in `source`, named `sourceName` in diagnostics. Never aborts on
/// bad input: failures come back as ok=false with the diagnostics.
Result compile(const std::string &source, const std::string &sourceName,
               const std::string &function, const Options &options);

/// A string naming this build of the compiler (version, LLVM version).
std::string version();

} // namespace compiler
} // namespace tile

#endif // TILE_COMPILER_COMPILERAPI_H
