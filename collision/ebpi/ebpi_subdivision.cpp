#include "collision/ebpi/ebpi_subdivision.h"

namespace vkc {

double ebpiSubdividedPixelBound(const EbpiImage& image, uint32_t x, uint32_t y, uint32_t nx, uint32_t ny) {
    const EbpiPixel& pixel = image.at(x, y);
    const double w = image.window.pixelSize.x / nx;
    const double h = image.window.pixelSize.y / ny;
    // Sum over edges of bound(w, h) x (l_x / w + l_y / h + 4).
    return 4 * pixel.touching.evaluate(w, h) + (pixel.alongX.evaluate(w, h) / w + pixel.alongY.evaluate(w, h) / h);
}

}  // namespace vkc
