#include "collision/ebpi/ebpi_subdivision.h"

namespace vkc {

double ebpiSubdividedPixelBound(const EbpiImage& image, uint32_t x, uint32_t y, uint32_t nx, uint32_t ny) {
    const EbpiPixel& pixel = image.at(x, y);
    const double w = image.window.pixelSize.x / nx;
    const double h = image.window.pixelSize.y / ny;
    // Sum over edges of bound(w, h) x (2 (l_x / w + l_y / h) + 4).
    return 4 * pixel.touching.evaluate(w, h) + 2 * (pixel.alongX.evaluate(w, h) / w + pixel.alongY.evaluate(w, h) / h);
}

EbpiSubdivision ebpiChooseSubdivision(const EbpiImage& image, uint32_t x, uint32_t y, double tolerance,
                                      uint32_t maxSplit) {
    EbpiSubdivision best{maxSplit, maxSplit, ebpiSubdividedPixelBound(image, x, y, maxSplit, maxSplit), false};
    for (uint32_t nx = 1; nx <= maxSplit; ++nx)
        for (uint32_t ny = 1; ny <= maxSplit; ++ny) {
            const double bound = ebpiSubdividedPixelBound(image, x, y, nx, ny);
            if (bound > tolerance) continue;
            const uint64_t rays = uint64_t(nx) * ny, bestRays = uint64_t(best.nx) * best.ny;
            if (!best.within || rays < bestRays || (rays == bestRays && bound < best.bound))
                best = {nx, ny, bound, true};
        }
    return best;
}

}  // namespace vkc
