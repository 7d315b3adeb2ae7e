//===- Compare.cpp - Output-versus-reference comparison ---*- C++ -*-===//
//
// Walks the logical index space of a checked buffer once, reading each
// element of the output and the reference through its own strides.
//
//===----------------------------------------------------------------------===//

#include "Compare.h"

#include "HostData.h"

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
  r.pass = r.outNaN == 0 && r.refNaN == 0 && std::isfinite(r.relErr) &&
           r.relErr <= tolerance;
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
