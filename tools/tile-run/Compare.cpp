//===- Compare.cpp - Output-versus-reference comparison ---*- C++ -*-===//
//
// Walks the logical index space of a checked buffer once, reading each
// element of the output and the reference through its own strides.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include "HostData.h"

#include <algorithm>
#include <cmath>

namespace tile {
namespace run {

CheckResult compareBuffers(const bundle::Buffer &out,
                           const std::vector<unsigned char> &outBytes,
                           const bundle::Buffer &ref,
                           const std::vector<unsigned char> &refBytes,
                           double tolerance) {
  CheckResult r;
  const size_t rank = out.shape.size();
  const int64_t outElem = bundle::dtypeSize(out.dtype);
  const int64_t refElem = bundle::dtypeSize(ref.dtype);
  r.elements = out.numElements();

  std::vector<int64_t> index(rank, 0);
  int64_t outOff = 0, refOff = 0; // in elements
  double diffSq = 0, refSq = 0, worstDiff = -1;
  // Per dimension: the sums over the elements at its last index.
  std::vector<double> edgeDiffSq(rank, 0), edgeRefSq(rank, 0);
  bool worstIsNaN = false;
  for (int64_t n = 0; n < r.elements; ++n) {
    double o = loadAsDouble(out.dtype, outBytes.data() + outOff * outElem);
    double e = loadAsDouble(ref.dtype, refBytes.data() + refOff * refElem);
    bool nan = std::isnan(o) || std::isnan(e);
    r.outNaN += std::isnan(o);
    r.refNaN += std::isnan(e);
    r.outInf += std::isinf(o);
    r.refInf += std::isinf(e);
    if (nan) {
      if (!worstIsNaN) {
        worstIsNaN = true;
        r.worstIndex = index;
        r.worstOut = o;
        r.worstRef = e;
      }
    } else if (std::isinf(e) && o == e) {
      // Equal infinities agree exactly, and stay out of both norms: an
      // infinite ||ref|| would make any error elsewhere relatively 0. (An
      // infinity on one side only, or of the other sign, makes the norm of
      // the difference infinite: a failure.)
    } else {
      double diff = std::fabs(o - e);
      diffSq += diff * diff;
      refSq += e * e;
      for (size_t d = 0; d < rank; ++d)
        if (index[d] == out.shape[d] - 1) {
          edgeDiffSq[d] += diff * diff;
          edgeRefSq[d] += e * e;
        }
      if (!worstIsNaN && diff > worstDiff) {
        worstDiff = diff;
        r.worstIndex = index;
        r.worstOut = o;
        r.worstRef = e;
      }
    }
    // Next logical index, row-major, carrying into outer dimensions.
    for (size_t d = rank; d-- > 0;) {
      outOff += out.strides[d];
      refOff += ref.strides[d];
      if (++index[d] < out.shape[d])
        break;
      outOff -= out.strides[d] * out.shape[d];
      refOff -= ref.strides[d] * ref.shape[d];
      index[d] = 0;
    }
  }

  r.diffNorm = std::sqrt(diffSq);
  r.refNorm = std::sqrt(refSq);
  r.absolute = r.refNorm == 0;
  r.relErr = r.absolute ? r.diffNorm : r.diffNorm / r.refNorm;
  if (r.outNaN || r.refNaN)
    r.relErr = NAN; // a NaN anywhere is no agreement at all
  // Each dimension's last index (of dimensions longer than one), against
  // the larger of its own ||ref|| and its elements' share of the whole.
  for (size_t d = 0; d < rank; ++d) {
    if (out.shape[d] < 2)
      continue;
    double share = std::sqrt(double(r.elements / out.shape[d]) /
                             double(r.elements));
    double scale = std::max(std::sqrt(edgeRefSq[d]), r.refNorm * share);
    double err = std::sqrt(edgeDiffSq[d]);
    if (scale > 0)
      err /= scale;
    if (!(err <= r.edgeRelErr)) {
      r.edgeRelErr = err;
      r.edgeDim = int(d);
    }
  }
  r.pass = r.outNaN == 0 && r.refNaN == 0 && std::isfinite(r.relErr) &&
           r.relErr <= tolerance && r.edgeRelErr <= kEdgeTolerance * tolerance;
  return r;
}

std::string formatIndex(const std::vector<int64_t> &index) {
  std::string s = "[";
  for (size_t i = 0; i < index.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(index[i]);
  }
  return s + "]";
}

} // namespace run
} // namespace tile
