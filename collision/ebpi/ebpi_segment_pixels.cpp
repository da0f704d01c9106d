#include "collision/ebpi/ebpi_segment_pixels.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace vkc {

namespace {

// Liang-Barsky: [t0, t1], the parameters of [a, b] inside the closed rectangle [lo, hi] (each
// slab's interval, intersected); false as soon as the segment misses it.
bool clipSegment(const glm::dvec2& a, const glm::dvec2& b, const glm::dvec2& lo, const glm::dvec2& hi, double& t0,
                 double& t1) {
    t0 = 0, t1 = 1;
    const glm::dvec2 d = b - a;
    for (int axis = 0; axis < 2; ++axis) {
        if (d[axis] == 0) {
            if (a[axis] < lo[axis] || a[axis] > hi[axis]) return false;
            continue;
        }
        double enter = (lo[axis] - a[axis]) / d[axis];
        double leave = (hi[axis] - a[axis]) / d[axis];
        if (enter > leave) std::swap(enter, leave);
        t0 = std::max(t0, enter);
        t1 = std::min(t1, leave);
        if (t0 > t1) return false;
    }
    return true;
}

// Column range [first, last] of `window` covering world x in [lo, hi], one pixel wider each side
// for rounding; clamped in double first, so that far-away segments cannot overflow the casts.
std::pair<int64_t, int64_t> columnsCovering(double lo, double hi, const EbpiWindow& window) {
    const double first = std::floor((lo - window.origin.x) / window.pixelSize.x) - 1.0;
    const double last = std::floor((hi - window.origin.x) / window.pixelSize.x) + 1.0;
    return {int64_t(std::clamp(first, 0.0, double(window.width))),
            int64_t(std::clamp(last, -1.0, double(window.width) - 1))};
}

}  // namespace

bool ebpiSegmentTouchesRect(const glm::dvec2& a, const glm::dvec2& b, const EbpiRect& rect) {
    const glm::dvec2 slack = rect.size() * 1e-9;
    double t0, t1;
    return clipSegment(a, b, rect.min - slack, rect.max + slack, t0, t1);
}

glm::dvec2 ebpiClippedExtent(const glm::dvec2& a, const glm::dvec2& b, const EbpiRect& rect) {
    double t0, t1;
    if (!clipSegment(a, b, rect.min, rect.max, t0, t1)) return glm::dvec2(0);
    return t0 < t1 ? glm::abs(b - a) * (t1 - t0) : glm::dvec2(0);
}

std::vector<glm::uvec2> ebpiPixelsTouched(const glm::dvec2& a, const glm::dvec2& b, const EbpiWindow& window) {
    std::vector<glm::uvec2> pixels;
    // Rows of the segment's bounding box, one wider for rounding.
    const double rowLo = std::floor((std::min(a.y, b.y) - window.origin.y) / window.pixelSize.y) - 1.0;
    const double rowHi = std::floor((std::max(a.y, b.y) - window.origin.y) / window.pixelSize.y) + 1.0;
    const int64_t y0 = int64_t(std::clamp(rowLo, 0.0, double(window.height)));
    const int64_t y1 = int64_t(std::clamp(rowHi, -1.0, double(window.height) - 1));
    // In each row, only the columns the segment crosses while within a pixel of that row are
    // candidates (a few, where the bounding box has as many as the segment is long): any pixel the
    // segment touches is among them, so the exact test below decides the same pixels.
    const glm::dvec2 d = b - a;
    for (int64_t y = y0; y <= y1; ++y) {
        const double bandLo = window.origin.y + double(y - 1) * window.pixelSize.y;
        const double bandHi = window.origin.y + double(y + 2) * window.pixelSize.y;
        constexpr double kInf = std::numeric_limits<double>::infinity();
        double t0, t1;
        if (!clipSegment(a, b, {-kInf, bandLo}, {kInf, bandHi}, t0, t1)) continue;
        const double xa = a.x + d.x * t0, xb = a.x + d.x * t1;
        const auto [x0, x1] = columnsCovering(std::min(xa, xb), std::max(xa, xb), window);
        for (int64_t x = x0; x <= x1; ++x)
            if (ebpiSegmentTouchesRect(a, b, ebpiTileRect(window, {uint32_t(x), uint32_t(y), 1, 1})))
                pixels.emplace_back(uint32_t(x), uint32_t(y));
    }
    return pixels;
}

}  // namespace vkc
