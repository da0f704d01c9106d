// Method `ebpi` (paper 5, Sec. 4.2): the pixels an edge is accumulated into. Every pixel that the
// closed projected segment touches, a corner included: the conservative rasterization the bound
// needs (a GPU line rasterizer's diamond rule misses pixels the edge only clips).
#pragma once

#include "collision/ebpi/ebpi_window.h"

#include <glm/vec2.hpp>

#include <vector>

namespace vkc {

// Whether the closed segment [a, b] meets the closed rectangle `rect`, widened by a relative
// 1e-9 of its size so that rounding never drops a touch.
bool ebpiSegmentTouchesRect(const glm::dvec2& a, const glm::dvec2& b, const EbpiRect& rect);

// Extents |dx|, |dy| of the part of [a, b] inside the closed `rect` (0, 0 when it misses): the
// l_x, l_y of Eq. 8.
glm::dvec2 ebpiClippedExtent(const glm::dvec2& a, const glm::dvec2& b, const EbpiRect& rect);

// Pixels (column, row) of `window` that the closed segment [a, b] touches, row by row.
std::vector<glm::uvec2> ebpiPixelsTouched(const glm::dvec2& a, const glm::dvec2& b, const EbpiWindow& window);

}  // namespace vkc
