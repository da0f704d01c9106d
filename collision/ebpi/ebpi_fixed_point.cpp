#include "collision/ebpi/ebpi_fixed_point.h"

#include "collision/ebpi/ebpi_segment_pixels.h"
#include "shaders_glsl/shared/ebpi_view_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vkc {
namespace {

// The five coefficients of a polynomial, in channel order.
std::array<double, 5> coefficients(const EbpiBoundPolynomial& p) { return {p.w2h, p.wh2, p.h3, p.w3, p.wh}; }

EbpiBoundPolynomial polynomial(const double* c) { return {c[0], c[1], c[2], c[3], c[4]}; }

// A quantum-count to double, rounded up.
double upward(uint64_t quanta) {
    const double d = double(quanta);
    return d < 0x1p64 && uint64_t(d) < quanta ? std::nextafter(d, std::numeric_limits<double>::infinity()) : d;
}

}  // namespace

std::array<double, kEbpiChannels> ebpiFixedPointScales(const EbpiWindow& window) {
    std::array<double, kEbpiChannels> scales{};
    for (uint32_t c = 0; c < kEbpiChannels; ++c)
        scales[c] = gpu::ebpiChannelScale(window.pixelSize.x, window.pixelSize.y, c);
    return scales;
}

uint64_t ebpiQuanta(double value, double scale, bool& overflow) {
    const double quanta = std::ceil(value * scale);
    if (!(quanta < kEbpiContributionLimit)) {
        overflow = true;
        return 0;
    }
    return uint64_t(quanta);
}

EbpiFixedImage buildEbpiFixedImage(const std::vector<EbpiEdgeTerm>& terms, const EbpiWindow& window) {
    EbpiFixedImage image{window, ebpiFixedPointScales(window),
                         std::vector<EbpiFixedPixel>(size_t(window.width) * window.height)};
    for (const EbpiEdgeTerm& term : terms) {
        const std::array<double, 5> c = coefficients(term.bound);
        for (const glm::uvec2& pixel : ebpiPixelsTouched(term.a, term.b, window)) {
            EbpiFixedPixel& out = image.pixels[size_t(pixel.y) * window.width + pixel.x];
            const glm::dvec2 extent = ebpiClippedExtent(term.a, term.b, ebpiTileRect(window, {pixel.x, pixel.y, 1, 1}));
            ++out.edges;
            for (uint32_t k = 0; k < kEbpiChannels; ++k) {
                const double value = k < 5 ? c[k] : c[k % 5] * (k < 10 ? extent.x : extent.y);
                out.channels[k] += ebpiQuanta(value, image.scales[k], image.overflow);
                if (out.channels[k] >= kEbpiSumLimit) image.overflow = true;
            }
        }
    }
    return image;
}

EbpiPixel ebpiFromFixed(const EbpiFixedPixel& pixel, const std::array<double, kEbpiChannels>& scales) {
    double c[kEbpiChannels];
    // Dividing by a power of two is exact (no underflow at these scales); the count's conversion is not.
    for (uint32_t k = 0; k < kEbpiChannels; ++k) c[k] = upward(pixel.channels[k]) / scales[k];
    return {polynomial(c), polynomial(c + 5), polynomial(c + 10)};
}

}  // namespace vkc
