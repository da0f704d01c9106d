// Method `ebpi` (paper 5, Sec. 4.2-4.3, Eq. 8): one EBPI pixel sampled by nx x ny rays, one at the
// centre of each sub-tile of size w = pixel width / nx, h = pixel height / ny. The GPU and the ray
// plan evaluate the same bound in shaders_glsl/shared/ebpi_rays.h (ebpiSplitBound).
//
// Eq. 8 counts l_x / w + l_y / h sub-tiles per edge, which is not conservative (see README). A
// closed segment with extents l_x, l_y inside the pixel meets at most l_x / w + 2 columns; in each
// it touches at most (its y extent there) / h + 2 rows, and those extents add up to l_y unless the
// segment lies on a column line (l_x = 0, two columns of l_y each). So it touches at most
// 2 l_x / w + l_y / h + 4 sub-tiles, or 2 l_y / h + 4 when l_x = 0, and symmetrically: always at
// most 2 (l_x / w + l_y / h) + 4, the count used here.
#pragma once

#include "collision/ebpi/ebpi_image.h"

#include <cstdint>

namespace vkc {

// Upper bound of the sum, over the nx x ny sub-tiles of pixel (x, y), of |exact volume - midpoint
// estimate| (nx, ny >= 1).
double ebpiSubdividedPixelBound(const EbpiImage& image, uint32_t x, uint32_t y, uint32_t nx, uint32_t ny);

}  // namespace vkc
