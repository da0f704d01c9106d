// One ebpi view as pictures; see ebpi_view_images.h.
#include "collision/ebpi/ebpi_view_images.h"

#include "collision/ebpi/ebpi_fixed_point.h"
#include "collision/ebpi/ebpi_ray_plan.h"

#include <algorithm>

namespace vkc {

EbpiViewImage ebpiViewImage(const EbpiWindow& window, std::span<const gpu::EbpiPixelGpu> pixels,
                            std::span<const gpu::EbpiRayTileGpu> tiles) {
    EbpiViewImage image;
    image.width = window.width;
    image.height = window.height;
    const size_t count = size_t(window.width) * window.height;
    image.bound.resize(count);
    image.rays.assign(count, 0.0f);
    const auto scales = ebpiFixedPointScales(window);
    const double w = window.pixelSize.x, h = window.pixelSize.y;
    const double monomials[5] = {w * w * h, w * h * h, h * h * h, w * w * w, w * h};  // the channels' order
    for (size_t p = 0; p < count && p < pixels.size(); ++p) {
        double bound = 0.0;
        for (uint32_t c = 0; c < 5; ++c)
            bound += gpu::ebpiCountToDouble(pixels[p].words[2 * c], pixels[p].words[2 * c + 1]) / scales[c] * monomials[c];
        image.bound[p] = float(bound);
    }
    // Tiles level by level from the pixels up, row-major in each level (shaders_glsl/shared/ebpi_rays.h).
    uint32_t tile = 0;
    for (uint32_t level = 0; level < ebpiPyramidLevels(window.width, window.height); ++level) {
        const uint32_t columns = gpu::ebpiLevelSize(window.width, level), rows = gpu::ebpiLevelSize(window.height, level);
        for (uint32_t ty = 0; ty < rows; ++ty)
            for (uint32_t tx = 0; tx < columns; ++tx, ++tile) {
                if (tile >= tiles.size() || tiles[tile].rays == 0) continue;
                const uint32_t x0 = tx << level, y0 = ty << level;
                const uint32_t x1 = std::min(window.width, (tx + 1) << level);
                const uint32_t y1 = std::min(window.height, (ty + 1) << level);
                const float perPixel = float(double(tiles[tile].rays) / (double(x1 - x0) * (y1 - y0)));
                for (uint32_t y = y0; y < y1; ++y)
                    for (uint32_t x = x0; x < x1; ++x) image.rays[size_t(y) * window.width + x] += perPixel;
            }
    }
    return image;
}

}  // namespace vkc
