//===- HostData.h - Element conversion and random data -----*- C++ -*-===//
//
// The runner fills input buffers on the host and reads outputs back, so it
// converts between doubles and every bundle dtype itself. The narrow float
// conversions are written out (round to nearest, ties to even) rather than
// taken from a CUDA header, which keeps tile-run free of the runtime API;
// the f8 ones are in Float8.h.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_TOOLS_TILE_RUN_HOSTDATA_H
#define TILE_TOOLS_TILE_RUN_HOSTDATA_H

#include "Float8.h"

#include "tile/Runtime/Bundle.h"

#include <cstdint>
#include <random>
#include <vector>

namespace tile {
namespace run {

uint16_t floatToBF16(float f);
float bf16ToFloat(uint16_t h);
uint16_t floatToHalf(float f);
float halfToFloat(uint16_t h);

/// Fills `bytes` (resized to the buffer's span) with fresh random elements:
/// floats uniform in [-1, 1) (f8 ones rounded from the same values, so
/// small magnitudes flush to zero), integers uniform in [-8, 8]. Every
/// element slot of the span is filled, padding included.
void fillRandom(const bundle::Buffer &buf, std::mt19937_64 &rng,
                std::vector<unsigned char> &bytes);

/// One element of type `t` at `p`, widened to double.
double loadAsDouble(bundle::DType t, const unsigned char *p);

} // namespace run
} // namespace tile

#endif // TILE_TOOLS_TILE_RUN_HOSTDATA_H
