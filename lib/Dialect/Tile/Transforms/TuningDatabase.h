//===- TuningDatabase.h - Configs a tuner measured --------------*- C++ -*-===//
//
// Private to lib/Dialect/Tile/Transforms: the tuning database that
// tile-configure reads (docs/tuning.md). One JSON object per line; each
// names an op by what its schedule depends on (op name, shapes, element
// types, chip, SM count) and gives the config a tuner measured fastest.
// Written by python/tools/tile_tune.py.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_DIALECT_TILE_TRANSFORMS_TUNINGDATABASE_H
#define TILE_LIB_DIALECT_TILE_TRANSFORMS_TUNINGDATABASE_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir {
namespace tile {

/// The format's version ("tile_tuning") and the schedules' ("schedule"):
/// the second changes when a config written by this compiler would mean
/// another kernel (an entry of another schedule version is skipped with a
/// warning: tune again).
inline constexpr int64_t kTuningFormatVersion = 1;
inline constexpr int64_t kScheduleVersion = 1;

struct TuningEntry {
  std::string config; // the #tile.config text
  int64_t line = 0;
  int64_t schedule = 0;
};

struct TuningDatabase {
  std::string path;
  /// By key (tuningKey), the last entry of the file for that key.
  llvm::StringMap<TuningEntry> entries;

  bool empty() const { return path.empty(); }
};

/// The key of a matmul of M x N x K with the given element types on `chip`
/// with `sms` SMs.
std::string tuningKey(StringRef op, StringRef chip, int64_t sms, int64_t m,
                      int64_t n, int64_t k, StringRef lhs, StringRef rhs,
                      StringRef result);

/// Reads `path`; a line that is not an entry is an error at `loc` naming
/// the file and line.
LogicalResult loadTuningDatabase(StringRef path, Location loc,
                                 TuningDatabase &db);

} // namespace tile
} // namespace mlir

#endif // TILE_LIB_DIALECT_TILE_TRANSFORMS_TUNINGDATABASE_H
