// Method `ebpi` (paper 5, Sec. 4.2-4.3): the Error Bound Polynomial Image and the bound of a tile.
// Each pixel holds the sum of the bound polynomials of the edges that touch it; a tile (a block
// of pixels, the paper's coarsened pyramid level) sums its pixels, so every edge that touches the
// tile is counted at least once, and evaluates the sum at the tile's size (Eq. 9 in conservative
// form; see ebpi_bound_polynomial.h for why the paper's fractional count l_x/w + l_y/h is not).
// Each pixel also keeps the sums weighted by the edges' extents inside it, for the bound of the
// pixel split into sub-tiles (ebpi_subdivision.h).
#pragma once

#include "collision/ebpi/ebpi_bound_polynomial.h"
#include "collision/ebpi/ebpi_edge_terms.h"
#include "collision/ebpi/ebpi_window.h"

#include <vector>

namespace vkc {

struct EbpiPixel {
    EbpiBoundPolynomial touching;  // sum over the edges touching the pixel
    EbpiBoundPolynomial alongX;    // the same, each times its x extent l_x inside the pixel
    EbpiBoundPolynomial alongY;    // and times its y extent l_y
};

struct EbpiImage {
    EbpiWindow window;
    std::vector<EbpiPixel> pixels;  // row-major, window.width x window.height

    const EbpiPixel& at(uint32_t x, uint32_t y) const { return pixels[size_t(y) * window.width + x]; }
};

// Accumulates every term into every pixel of `window` its closed segment touches; parts of a
// segment outside the window are dropped, so the window should cover the mesh's projection.
EbpiImage buildEbpiImage(const std::vector<EbpiEdgeTerm>& terms, const EbpiWindow& window);

// Upper bound of |exact volume - midpoint estimate| of the mesh over `tile` (inside the window),
// sampled by one ray at its centre: the tile's summed polynomial at the tile's size.
double ebpiTileBound(const EbpiImage& image, const EbpiTile& tile);

}  // namespace vkc
