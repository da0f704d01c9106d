// Method `ebpi` (paper 5, Sec. 4.2-4.3, Eq. 8): one EBPI pixel sampled by nx x ny rays, one at the
// centre of each sub-tile of size w = pixel width / nx, h = pixel height / ny. The GPU and the ray
// plan evaluate the same bound in shaders_glsl/shared/ebpi_rays.h (ebpiSplitBound).
//
// Eq. 8 counts l_x / w + l_y / h sub-tiles per edge, which is not conservative (see README). An
// edge adds error only to the sub-tiles whose interior it meets: in a tile whose interior it
// misses, the walk from the centre to any interior point never crosses it (ebpi_edge_terms.h).
// Moving along the segment (extents l_x, l_y inside the pixel) it enters a new sub-tile only where
// it crosses a grid line, and it crosses at most ceil(l_x / w) column lines and ceil(l_y / h) row
// lines (a segment on a grid line meets no interior at all), so it meets the interior of at most
// 1 + ceil(l_x / w) + ceil(l_y / h) <= l_x / w + l_y / h + 3 sub-tiles; the count used here is
// l_x / w + l_y / h + 4, one to spare for the rounding of the clipped extents.
#pragma once

#include "collision/ebpi/ebpi_image.h"

#include <cstdint>

namespace vkc {

// Upper bound of the sum, over the nx x ny sub-tiles of pixel (x, y), of |exact volume - midpoint
// estimate| (nx, ny >= 1).
double ebpiSubdividedPixelBound(const EbpiImage& image, uint32_t x, uint32_t y, uint32_t nx, uint32_t ny);

}  // namespace vkc
