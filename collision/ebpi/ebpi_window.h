// Method `ebpi` (paper 5): the image-plane window of an EBPI, W x H pixels of one size, and the
// rectangles of its pixels and tiles (blocks of pixels, each sampled by one ray at its centre).
#pragma once

#include <glm/vec2.hpp>

#include <cstdint>

namespace vkc {

struct EbpiWindow {
    glm::dvec2 origin{0};     // ray-frame x, y of pixel (0, 0)'s lower corner
    glm::dvec2 pixelSize{1};  // > 0
    uint32_t width = 0, height = 0;
};

// Closed axis-aligned rectangle of the image plane.
struct EbpiRect {
    glm::dvec2 min, max;

    glm::dvec2 centre() const { return (min + max) * 0.5; }
    glm::dvec2 size() const { return max - min; }
};

// A block of pixels: columns [x, x + width), rows [y, y + height).
struct EbpiTile {
    uint32_t x = 0, y = 0, width = 1, height = 1;
};

inline EbpiRect ebpiTileRect(const EbpiWindow& window, const EbpiTile& tile) {
    const glm::dvec2 lo = window.origin + glm::dvec2(tile.x, tile.y) * window.pixelSize;
    return {lo, lo + glm::dvec2(tile.width, tile.height) * window.pixelSize};
}

}  // namespace vkc
