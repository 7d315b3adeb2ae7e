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
  // The same error over the last index of each dimension (a ragged edge:
  // the last row, the last column), the largest of them and its
  // dimension (-1: none). Normalized by the edge's own ||ref|| or, where
  // that is smaller, by the share of the whole ||ref|| its elements would
  // hold, so that an edge of small values is not held to their size.
  double edgeRelErr = 0;
  int edgeDim = -1;
  bool pass = false;
};

/// Compares `out` with `ref` (host copies of their whole spans). NaNs are
/// counted, and any NaN fails the check; the worst element is then the first
/// NaN, which locates the tile nobody wrote. Equal infinities match exactly
/// and are left out of both norms; any other infinity fails. The error over
/// each dimension's last index must be within kEdgeTolerance times
/// `tolerance`: a wide output's last column alone moves the whole norm too
/// little to fail it. (Four times: one row or column, down to one element
/// of a vector, is a small sample of the rounding; a wrong edge is off by
/// its own size.)
constexpr double kEdgeTolerance = 4;
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
