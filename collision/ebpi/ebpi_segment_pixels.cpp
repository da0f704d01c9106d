#include "collision/ebpi/ebpi_segment_pixels.h"

#include <glm/common.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

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
    // Candidates: the pixels of the segment's bounding box, one wider for rounding.
    const glm::dvec2 lo = glm::floor((glm::min(a, b) - window.origin) / window.pixelSize) - 1.0;
    const glm::dvec2 hi = glm::floor((glm::max(a, b) - window.origin) / window.pixelSize) + 1.0;
    // Clamped in double first, so that far-away segments cannot overflow the integer casts.
    const int64_t x0 = int64_t(std::clamp(lo.x, 0.0, double(window.width)));
    const int64_t y0 = int64_t(std::clamp(lo.y, 0.0, double(window.height)));
    const int64_t x1 = int64_t(std::clamp(hi.x, -1.0, double(window.width) - 1));
    const int64_t y1 = int64_t(std::clamp(hi.y, -1.0, double(window.height) - 1));
    for (int64_t y = y0; y <= y1; ++y)
        for (int64_t x = x0; x <= x1; ++x)
            if (ebpiSegmentTouchesRect(a, b, ebpiTileRect(window, {uint32_t(x), uint32_t(y), 1, 1})))
                pixels.emplace_back(uint32_t(x), uint32_t(y));
    return pixels;
}

}  // namespace vkc
