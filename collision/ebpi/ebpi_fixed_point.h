// Method `ebpi` (paper 5, Sec. 4.2): the EBPI in 64-bit fixed point, as the GPU accumulates it
// (shaders_glsl/ebpi_term_raster.glsl) with integer atomics, so that the image does not depend on
// the order of the additions and is bit-identical between runs and to this CPU build.
//
// Each contribution (an edge's coefficient, or that times its clipped extent l_x or l_y) is
// multiplied by its channel's scale, a power of two (exact), and rounded UP to an integer count of
// quanta: the fixed-point image is >= the real sum. The scales make one quantum of every channel
// worth at most 2^-32 of a pixel's cube at the pixel's size, so the rounding adds at most that per
// edge and pixel, and a channel overflows only past 2^31 pixel cubes, a bound no tolerance can use.
// Overflow is detected, never wrapped silently: a contribution of 2^62 quanta or more (or not a
// number) is dropped and a running sum reaching 2^63 is kept, and either raises the image's
// overflow flag; an image with the flag set must not be used (the method reports `truncated`).
#pragma once

#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_image.h"
#include "collision/ebpi/ebpi_window.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace vkc {

// Channels in the order touching (w2h, wh2, h3, w3, wh), then alongX, then alongY.
inline constexpr uint32_t kEbpiChannels = 15;
inline constexpr double kEbpiContributionLimit = 0x1p62;  // quanta; at or above: overflow
inline constexpr uint64_t kEbpiSumLimit = uint64_t(1) << 63;

// Quanta per unit of each channel's coefficient, powers of two, for pixels of `window`.
std::array<double, kEbpiChannels> ebpiFixedPointScales(const EbpiWindow& window);

// One pixel, with the GPU's layout (EbpiPixelGpu, 128 bytes, little-endian words).
struct EbpiFixedPixel {
    uint64_t channels[kEbpiChannels] = {};
    uint32_t edges = 0;  // edges touching the pixel
    uint32_t unused = 0;
};
static_assert(sizeof(EbpiFixedPixel) == 128);

struct EbpiFixedImage {
    EbpiWindow window;
    std::array<double, kEbpiChannels> scales{};
    std::vector<EbpiFixedPixel> pixels;  // row-major
    bool overflow = false;
    // The rays' depth span (EbpiRayViewGpu's zMax - zMin): every tile's bound is capped at its area
    // times it (ebpiTileCap). Infinite: no cap.
    double depth = INFINITY;
};

// `value` x `scale` rounded up to whole quanta; kEbpiContributionLimit or more, or NaN: overflow.
// The rule the GPU repeats; returns 0 (and sets `overflow`) when the contribution is dropped.
uint64_t ebpiQuanta(double value, double scale, bool& overflow);

// The same pixels and contributions as buildEbpiImage, accumulated in fixed point.
EbpiFixedImage buildEbpiFixedImage(const std::vector<EbpiEdgeTerm>& terms, const EbpiWindow& window);

// A fixed-point pixel back in double, rounded up where the conversion is inexact (still >= the
// real sum).
EbpiPixel ebpiFromFixed(const EbpiFixedPixel& pixel, const std::array<double, kEbpiChannels>& scales);

}  // namespace vkc
