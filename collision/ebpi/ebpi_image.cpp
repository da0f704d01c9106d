#include "collision/ebpi/ebpi_image.h"

#include "collision/ebpi/ebpi_segment_pixels.h"

namespace vkc {

EbpiImage buildEbpiImage(const std::vector<EbpiEdgeTerm>& terms, const EbpiWindow& window) {
    EbpiImage image{window, std::vector<EbpiBoundPolynomial>(size_t(window.width) * window.height)};
    for (const EbpiEdgeTerm& term : terms)
        for (const glm::uvec2& pixel : ebpiPixelsTouched(term.a, term.b, window))
            image.pixels[size_t(pixel.y) * window.width + pixel.x] += term.bound;
    return image;
}

double ebpiTileBound(const EbpiImage& image, const EbpiTile& tile) {
    EbpiBoundPolynomial sum;
    for (uint32_t y = tile.y; y < tile.y + tile.height; ++y)
        for (uint32_t x = tile.x; x < tile.x + tile.width; ++x) sum += image.at(x, y);
    const glm::dvec2 size = ebpiTileRect(image.window, tile).size();
    return sum.evaluate(size.x, size.y);
}

}  // namespace vkc
