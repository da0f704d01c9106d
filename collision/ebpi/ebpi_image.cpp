#include "collision/ebpi/ebpi_image.h"

#include "collision/ebpi/ebpi_segment_pixels.h"

namespace vkc {

EbpiImage buildEbpiImage(const std::vector<EbpiEdgeTerm>& terms, const EbpiWindow& window) {
    EbpiImage image{window, std::vector<EbpiPixel>(size_t(window.width) * window.height)};
    for (const EbpiEdgeTerm& term : terms)
        for (const glm::uvec2& pixel : ebpiPixelsTouched(term.a, term.b, window)) {
            EbpiPixel& out = image.pixels[size_t(pixel.y) * window.width + pixel.x];
            const glm::dvec2 extent = ebpiClippedExtent(term.a, term.b, ebpiTileRect(window, {pixel.x, pixel.y, 1, 1}));
            out.touching += term.bound;
            out.alongX += term.bound * extent.x;
            out.alongY += term.bound * extent.y;
        }
    return image;
}

double ebpiTileBound(const EbpiImage& image, const EbpiTile& tile) {
    EbpiBoundPolynomial sum;
    for (uint32_t y = tile.y; y < tile.y + tile.height; ++y)
        for (uint32_t x = tile.x; x < tile.x + tile.width; ++x) sum += image.at(x, y).touching;
    const glm::dvec2 size = ebpiTileRect(image.window, tile).size();
    return sum.evaluate(size.x, size.y);
}

}  // namespace vkc
