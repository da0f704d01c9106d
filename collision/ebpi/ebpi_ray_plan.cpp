#include "collision/ebpi/ebpi_ray_plan.h"

#include "shaders_glsl/shared/ebpi_rays.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vkc {
namespace {

using Channels = std::array<uint64_t, 5>;

// Saturating: a sum past 2^64 stays all ones (still an upper bound), as ebpi_pyramid.comp does.
uint64_t addSaturating(uint64_t a, uint64_t b) { return a + b < a ? ~uint64_t(0) : a + b; }

gpu::EbpiRayPolynomial decode(const uint64_t* channels, const double* scales) {
    double c[5];
    for (int k = 0; k < 5; ++k)
        c[k] = gpu::ebpiCountToDouble(uint32_t(channels[k]), uint32_t(channels[k] >> 32)) / scales[k];
    return {c[0], c[1], c[2], c[3], c[4]};
}

struct Level {
    uint32_t width, height, first;  // texels, first tile index
};

}  // namespace

uint32_t ebpiPyramidLevels(uint32_t width, uint32_t height) {
    uint32_t levels = 1;
    while (gpu::ebpiLevelSize(std::max(width, height), levels - 1) > 1) ++levels;
    return levels;
}

uint32_t ebpiPyramidTiles(uint32_t width, uint32_t height) {
    uint32_t tiles = 0;
    for (uint32_t k = 0; k < ebpiPyramidLevels(width, height); ++k)
        tiles += gpu::ebpiLevelSize(width, k) * gpu::ebpiLevelSize(height, k);
    return tiles;
}

double ebpiAchievedBound(double quanta, double tolerance) {
    if (!(quanta < gpu::kEbpiRayQuantaSaturated)) return std::numeric_limits<double>::infinity();
    return std::nextafter(quanta * (tolerance * gpu::kEbpiRayQuantumFraction), std::numeric_limits<double>::infinity());
}

EbpiRayPlan planEbpiRays(const EbpiFixedImage& image, double tolerance, uint32_t maxSplit, bool coarsen) {
    const EbpiWindow& window = image.window;
    const uint32_t W = window.width, H = window.height;
    const uint32_t levelCount = coarsen ? ebpiPyramidLevels(W, H) : 1;
    std::vector<Level> levels;
    uint32_t tiles = 0;
    for (uint32_t k = 0; k < ebpiPyramidLevels(W, H); ++k) {
        levels.push_back({gpu::ebpiLevelSize(W, k), gpu::ebpiLevelSize(H, k), tiles});
        tiles += levels.back().width * levels.back().height;
    }

    // The pyramid: level 0 the pixels' touching channels, then sums of 2 x 2.
    std::vector<Channels> pyramid(tiles);
    for (uint32_t p = 0; p < W * H; ++p)
        std::copy(image.pixels[p].channels, image.pixels[p].channels + 5, pyramid[p].begin());
    for (uint32_t k = 1; k < levels.size(); ++k)
        for (uint32_t y = 0; y < levels[k].height; ++y)
            for (uint32_t x = 0; x < levels[k].width; ++x) {
                Channels& sum = pyramid[levels[k].first + y * levels[k].width + x];
                for (uint32_t cy = 2 * y; cy < std::min(2 * y + 2, levels[k - 1].height); ++cy)
                    for (uint32_t cx = 2 * x; cx < std::min(2 * x + 2, levels[k - 1].width); ++cx) {
                        const Channels& child = pyramid[levels[k - 1].first + cy * levels[k - 1].width + cx];
                        for (int c = 0; c < 5; ++c) sum[c] = addSaturating(sum[c], child[c]);
                    }
            }

    // One ray's bound of every tile, and whether it fits its share.
    std::vector<double> bound(tiles);
    std::vector<bool> fits(tiles);
    for (uint32_t k = 0; k < levelCount; ++k)
        for (uint32_t y = 0; y < levels[k].height; ++y)
            for (uint32_t x = 0; x < levels[k].width; ++x) {
                const uint32_t t = levels[k].first + y * levels[k].width + x;
                const uint32_t cols = std::min(1u << k, W - (x << k)), rows = std::min(1u << k, H - (y << k));
                bound[t] = gpu::ebpiOneRayBound(decode(pyramid[t].data(), image.scales.data()),
                                                double(cols) * window.pixelSize.x, double(rows) * window.pixelSize.y);
                fits[t] = bound[t] <= gpu::ebpiTileShare(tolerance, cols, rows, W, H);
            }

    EbpiRayPlan plan;
    plan.imageOverflow = image.overflow;
    for (uint32_t k = 0; k < levelCount; ++k)
        for (uint32_t y = 0; y < levels[k].height; ++y)
            for (uint32_t x = 0; x < levels[k].width; ++x) {
                const uint32_t t = levels[k].first + y * levels[k].width + x;
                bool covered = false;  // by a coarser tile that fits
                for (uint32_t j = k + 1; j < levelCount && !covered; ++j)
                    covered = fits[levels[j].first + (y >> (j - k)) * levels[j].width + (x >> (j - k))];
                if (covered || (!fits[t] && k > 0)) continue;
                const uint32_t cols = std::min(1u << k, W - (x << k)), rows = std::min(1u << k, H - (y << k));
                uint32_t nx = 1, ny = 1;
                double tileBound = bound[t];
                if (!fits[t]) {
                    const EbpiFixedPixel& pixel = image.pixels[y * W + x];
                    const double* scales = image.scales.data();
                    const gpu::EbpiRaySplit split = gpu::ebpiFewestRays(
                        decode(pixel.channels, scales), decode(pixel.channels + 5, scales + 5),
                        decode(pixel.channels + 10, scales + 10), window.pixelSize.x, window.pixelSize.y,
                        gpu::ebpiTileShare(tolerance, 1, 1, W, H), maxSplit);
                    nx = split.nx;
                    ny = split.ny;
                    tileBound = split.bound;
                    plan.boundNotMet |= !split.within;
                }
                plan.boundQuanta += gpu::ebpiBoundQuanta(tileBound, tolerance);
                plan.boundQuanta = std::min(plan.boundQuanta, gpu::kEbpiRayQuantaSaturated);
                const glm::dvec2 lo = window.origin + glm::dvec2(x << k, y << k) * window.pixelSize;
                const glm::dvec2 size = glm::dvec2(cols, rows) * window.pixelSize / glm::dvec2(nx, ny);
                for (uint32_t j = 0; j < ny; ++j)
                    for (uint32_t i = 0; i < nx; ++i) {
                        EbpiPlannedRay ray;
                        ray.rect.min = lo + glm::dvec2(i, j) * size;
                        ray.rect.max = ray.rect.min + size;
                        ray.centre = {
                            gpu::ebpiSubTileCentre(window.origin.x, window.pixelSize.x, x << k, cols, i, nx),
                            gpu::ebpiSubTileCentre(window.origin.y, window.pixelSize.y, y << k, rows, j, ny)};
                        ray.area = gpu::ebpiSubTileArea(window.pixelSize.x, window.pixelSize.y, cols, rows, nx, ny);
                        ray.tile = t;
                        plan.rays.push_back(ray);
                    }
            }
    plan.achievedBound = ebpiAchievedBound(plan.boundQuanta, tolerance);
    return plan;
}

}  // namespace vkc
