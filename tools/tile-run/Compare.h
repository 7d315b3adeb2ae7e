//===- Compare.h - Output-versus-reference comparison ---*- C++ -*-===//
//
// The correctness half of tile-run: compares a main-stage output with its
// reference, element by logical index (the two may have different dtypes and
// strides), and finds the element that differs most so a failure can be
// traced to a tile.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_RUN_COMPARE_H
#define TILE_TOOLS_TILE_RUN_COMPARE_H

#include "tile/Runtime/Bundle.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tile {
namespace run {

struct CheckResult {
  // ||out - ref|| / ||ref||, or ||out - ref|| when ||ref|| is 0; NaN when
  // either side holds a NaN.
  double relErr = 0;
  bool absolute = false; // ||ref|| was 0, so relErr is the absolute norm
  double diffNorm = 0, refNorm = 0;
  int64_t elements = 0;
  int64_t outNaN = 0, outInf = 0, refNaN = 0, refInf = 0;
  // The worst element: the first NaN of the output if there is one, else
  // the largest |out - ref|.
  std::vector<int64_t> worstIndex;
  double worstOut = 0, worstRef = 0;
  bool pass = false;
};

/// Compares `out` with `ref` (host copies of their whole spans). NaNs are
/// counted, and any NaN fails the check; the worst element is then the first
/// NaN, which locates the tile nobody wrote. Equal infinities match exactly
/// and are left out of both norms; any other infinity fails.
CheckResult compareBuffers(const bundle::Buffer &out,
                           const std::vector<unsigned char> &outBytes,
                           const bundle::Buffer &ref,
                           const std::vector<unsigned char> &refBytes,
                           double tolerance);

/// "[3, 17]".
std::string formatIndex(const std::vector<int64_t> &index);

} // namespace run
} // namespace tile

#endif // TILE_TOOLS_TILE_RUN_COMPARE_H
